import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, signIn, startAuthorize, type Tokens } from '../../helpers/auth';
import { startCluster, type Cluster } from '../../helpers/cluster';
import { createRedisServer, type OwnRedis } from '../../helpers/faults';
import { registry } from '../../../server/lib/metrics';

/**
 * Issue 30.1: a Redis outage must not empty the load balancer's pool. Three real instances (listening on loopback,
 * one SQLite file) share a redis-server of the test's own, which is restarted and then stopped for a while: every
 * instance stays ready (200, `status: degraded`, `redis: unavailable`), reads and refreshes keep answering 200, only
 * the routes that need Redis (sign-in) answer 503; `iam_redis_connected` shows the outage; all recovers by itself.
 */
const PW = 'Correct-Horse1!x';

describe('Redis outage under three instances: readiness keeps serving', () => {
  let redis: OwnRedis;
  let cluster: Cluster;
  let email: string;
  let tokens: Tokens;
  const figures: Record<string, number | string> = {};

  beforeAll(async () => {
    redis = await createRedisServer();
    await redis.start();
    cluster = await startCluster({ kind: 'sqlite', redis: false, env: { REDIS_URL: redis.url, IAM_REDIS_TIMEOUT_MS: '300', IAM_HEALTH_TIMEOUT_MS: '500' } });
    email = `rr-${randomUUID().slice(0, 8)}@example.com`;
    await createAccount(cluster.spread, { type: 'user', email, password: PW });
    tokens = await signIn(cluster.spread, { email, password: PW });
  }, 60_000);
  afterAll(async () => {
    await cluster?.close();
    await redis?.stop();
    console.info('redis readiness figures:', JSON.stringify(figures));
  });

  const readyAll = () => Promise.all(cluster.nodes.map(async (n) => {
    const res = await fetch(`${n.url}/api/health/ready`);
    return { status: res.status, body: (await res.json()) as { data?: { status: string; redis: string } } };
  }));
  const read = (i: number) => fetch(`${cluster.nodes[i % 3]?.url}/api/user`, { headers: { authorization: tokens.authorization } });
  const refreshAt = async (i: number) => {
    const res = await fetch(`${cluster.nodes[i % 3]?.url}/oidc/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: tokens.refreshToken, client_id: 'portal' }).toString(),
    });
    if (res.status === 200) {
      const body = (await res.json()) as { access_token: string; refresh_token: string };
      tokens = { ...tokens, accessToken: body.access_token, refreshToken: body.refresh_token, authorization: `Bearer ${body.access_token}` };
    }
    return res.status;
  };
  const connected = async (client: string) => {
    const m = new RegExp(`iam_redis_connected\\{client="${client}"\\} (\\d)`).exec(await registry.metrics());
    return m ? Number(m[1]) : undefined;
  };

  /** Drives readiness, reads, refreshes and a sign-in attempt while `outage` runs; returns the answers seen. */
  async function underOutage(outage: () => Promise<void>) {
    const seen = { ready200: 0, readyOther: 0, degraded: 0, reads200: 0, readsOther: 0, refresh200: 0, refreshOther: 0 };
    let done = false;
    const load = (async () => {
      for (let i = 0; !done; i++) {
        for (const r of await readyAll()) {
          if (r.status === 200) seen.ready200++;
          else seen.readyOther++;
          if (r.body.data?.status === 'degraded') seen.degraded++;
        }
        if ((await read(i)).status === 200) seen.reads200++;
        else seen.readsOther++;
        if (i % 5 === 0) {
          if ((await refreshAt(i)) === 200) seen.refresh200++;
          else seen.refreshOther++;
        }
        await sleep(20);
      }
    })();
    await outage();
    done = true;
    await load;
    return seen;
  }

  it('Redis restart and a stop: every instance stays ready (degraded), reads and refreshes 200, sign-in 503, then back', async () => {
    for (const r of await readyAll()) expect(r).toMatchObject({ status: 200, body: { data: { status: 'ok', redis: 'ok' } } });

    // 1. a restart (stop, start again at once)
    const restart = await underOutage(async () => {
      await redis.stop();
      await sleep(300);
      await redis.start();
      await sleep(300);
    });
    // 2. a stop of a few seconds, during which a sign-in needs Redis
    const stopped = await underOutage(async () => {
      await redis.stop();
      for (let i = 0; i < 3; i++) {
        await sleep(400);
        const ready = await readyAll();
        for (const r of ready) expect(r).toMatchObject({ status: 200, body: { data: { status: 'degraded', redis: 'unavailable' } } });
      }
      const start = await startAuthorize(cluster.spread);
      const login = await cluster.spread.app.inject({ method: 'POST', url: '/api/login', headers: { cookie: start.jar.header() }, payload: { email, password: PW, interaction: start.interaction } });
      expect(login.statusCode).toBe(503);
      expect(login.json().error.code).toBe('service_unavailable');
      expect(await connected('health')).toBe(0);
      expect(await connected('throttle')).toBe(0);
      const health = await fetch(`${cluster.nodes[0]?.url}/api/health`);
      expect(health.status).toBe(200);
      expect(await health.json()).toEqual({ data: { status: 'degraded', database: 'sqlite', redis: 'unavailable', encryption_key: 'ok' } });
      await redis.start();
    });

    for (const seen of [restart, stopped]) {
      expect(seen.readyOther).toBe(0);
      expect(seen.readsOther).toBe(0);
      expect(seen.refreshOther).toBe(0);
    }
    expect(stopped.degraded).toBeGreaterThan(0);
    figures.restart = JSON.stringify(restart);
    figures.stopped = JSON.stringify(stopped);

    // recovers by itself: ready `ok`, sign-in works again, the gauge is back at 1
    const t0 = performance.now();
    for (;;) {
      const all = await readyAll();
      if (all.every((r) => r.body.data?.status === 'ok')) {
        try {
          await signIn(cluster.spread, { email, password: PW });
          break;
        } catch {
          // Redis reconnecting: try again
        }
      }
      if (performance.now() - t0 > 20_000) throw new Error('no recovery within 20 s');
      await sleep(50);
    }
    figures.recovery_ms = Math.round(performance.now() - t0);
    expect(await connected('throttle')).toBe(1);
    expect(await connected('health')).toBe(1);
  }, 90_000);
});
