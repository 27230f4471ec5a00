import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setTimeout as sleep } from 'node:timers/promises';
import { oidcEndpointOf } from '../../../server/lib/metrics';
import { createPgCluster, freePort, startServerProcess, timedFetch, type PgCluster, type ServerProcess } from '../../helpers/faults';

/**
 * Issue 30.7, with the real server as a process on a PostgreSQL cluster of the test's own: metrics tell the OIDC
 * endpoints apart; during a database outage a 503 of /oidc is logged with its request id, and N failed requests of a
 * window give one line at the first and one line with the count, not N lines (IAM_OUTAGE_LOG_SECONDS=4 here).
 */
const WINDOW_S = 4;
const BOGUS_KEY = `iam_deadbeef_${'A'.repeat(43)}`;
const form = { 'content-type': 'application/x-www-form-urlencoded' };

interface LogLine {
  msg?: string;
  reqId?: string;
  reqIds?: string[];
  dependency?: string;
  count?: number;
  route?: string;
  source?: string;
}
const linesOf = (out: string): LogLine[] =>
  out
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as LogLine);

describe('OIDC endpoint labels', () => {
  it('maps every /oidc path to a bounded endpoint label', () => {
    expect(oidcEndpointOf('/oidc/auth?client_id=portal')).toBe('/oidc/auth');
    expect(oidcEndpointOf('/oidc/auth/Xy12abc')).toBe('/oidc/auth/:uid');
    expect(oidcEndpointOf('/oidc/token/')).toBe('/oidc/token');
    expect(oidcEndpointOf('/oidc/jwks')).toBe('/oidc/jwks');
    expect(oidcEndpointOf('/oidc/.well-known/openid-configuration')).toBe('/oidc/.well-known/openid-configuration');
    expect(oidcEndpointOf('/oidc/some/unknown/path/123')).toBe('/oidc/*');
  });
});

describe('observability of OIDC and outages (own PostgreSQL, server as a child process)', () => {
  let cluster: PgCluster;
  let server: ServerProcess;
  let metricsPort: number;

  beforeAll(async () => {
    cluster = await createPgCluster();
    await cluster.start();
    metricsPort = await freePort();
    server = await startServerProcess({
      DATABASE_URL: cluster.url,
      IAM_DB_CONNECT_TIMEOUT_MS: '1000',
      IAM_DB_QUERY_TIMEOUT_MS: '2000',
      METRICS_PORT: String(metricsPort),
      IAM_RATE_LIMIT_PER_MINUTE: '100000',
      IAM_OUTAGE_LOG_SECONDS: String(WINDOW_S),
    });
    await server.waitForOutput(/IAM is at /, 90_000);
  }, 120_000);

  afterAll(async () => {
    await server?.stop('SIGKILL');
    await cluster?.stop();
  }, 30_000);

  it('metrics label /oidc/auth, /oidc/token, /oidc/me and /oidc/jwks apart', async () => {
    await timedFetch(`${server.base}/oidc/auth?client_id=portal&response_type=code&scope=openid&redirect_uri=${encodeURIComponent(`${server.base}/callback`)}`, { redirect: 'manual' });
    await timedFetch(`${server.base}/oidc/auth/not-an-interaction`, { redirect: 'manual' });
    await timedFetch(`${server.base}/oidc/token`, { method: 'POST', headers: form, body: 'grant_type=refresh_token&refresh_token=abc&client_id=portal' });
    await timedFetch(`${server.base}/oidc/me`);
    expect((await timedFetch(`${server.base}/oidc/jwks`)).status).toBe(200);
    expect((await timedFetch(`${server.base}/oidc/.well-known/openid-configuration`)).status).toBe(200);
    const m = (await timedFetch(`http://127.0.0.1:${metricsPort}/metrics`)).body;
    const routes = new Set([...m.matchAll(/iam_http_requests_total\{method="[A-Z]+",route="([^"]+)"/g)].map((x) => x[1]));
    for (const r of ['/oidc/auth', '/oidc/auth/:uid', '/oidc/token', '/oidc/me', '/oidc/jwks', '/oidc/.well-known/openid-configuration']) expect(routes).toContain(r);
    expect(routes).not.toContain('/oidc/*');
  }, 60_000);

  it('during a database outage: the /oidc 503 is logged with its request id; N failures give one counted line per window', async () => {
    const before = server.output().length;
    await cluster.stop();
    const first = await timedFetch(`${server.base}/oidc/token`, { method: 'POST', headers: { ...form, 'x-request-id': 'ops-oidc-503' }, body: 'grant_type=refresh_token&refresh_token=abc&client_id=portal' });
    expect(first.status).toBe(503);
    expect(JSON.parse(first.body).error).toBe('temporarily_unavailable');
    const t0 = Date.now();
    // 24 more within the window: OIDC and API requests that need the database
    const rest = await Promise.all(
      Array.from({ length: 24 }, (_, i) =>
        i % 2
          ? timedFetch(`${server.base}/oidc/token`, { method: 'POST', headers: form, body: 'grant_type=refresh_token&refresh_token=abc&client_id=portal' })
          : timedFetch(`${server.base}/api/user`, { headers: { authorization: `Bearer ${BOGUS_KEY}` } }),
      ),
    );
    expect(rest.map((r) => r.status)).toEqual(Array(24).fill(503));
    expect(Date.now() - t0).toBeLessThan(WINDOW_S * 1000 - 500);
    // the window closes: one line with the count
    await server.waitFor('the aggregated line', () => server.output().slice(before).includes('requests answered 503 in the last'), (WINDOW_S + 10) * 1000);
    await sleep(300);
    const lines = linesOf(server.output().slice(before)).filter((l) => l.dependency === 'database' && (l.msg ?? '').match(/dependency unavailable|database unavailable/));
    const firsts = lines.filter((l) => l.msg?.startsWith('dependency unavailable ('));
    const counted = lines.filter((l) => l.msg?.includes('requests answered 503 in the last'));
    expect(firsts).toHaveLength(1);
    expect(firsts[0]).toMatchObject({ reqId: 'ops-oidc-503', source: 'oidc', route: '/oidc/token' });
    expect(counted).toHaveLength(1);
    expect(counted[0]?.count).toBe(25);
    expect(counted[0]?.reqIds?.[0]).toBe('ops-oidc-503');
    expect(counted[0]?.msg).toBe(`database unavailable: 25 requests answered 503 in the last ${WINDOW_S} s`);
    expect(lines).toHaveLength(2);
    console.info(`outage log: 25 failed requests -> ${lines.length} lines`);
  }, 60_000);
});
