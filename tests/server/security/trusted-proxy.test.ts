import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../helpers/app';
import { createAccount } from '../../helpers/auth';

/**
 * Issue 28 finding 2: behind a load balancer that APPENDS the address it sees to X-Forwarded-For, a client writing
 * its own left-most entry must not pick its address. A real proxy (an HTTP server forwarding every request to the
 * app, which listens on a real port, and appending the client's socket address) stands between the test's clients
 * and the app; each client connects from its own loopback address (127.0.0.x), so the proxy sees, and appends, a
 * different real address per client. Run with both forms of TRUST_PROXY: a hop count and the proxy's address.
 */

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** The load balancer: forwards method, path, headers and body; appends the peer's address to X-Forwarded-For. */
function startAppendingProxy(target: { port: number }): Promise<http.Server> {
  const proxy = http.createServer((req, res) => {
    const prior = req.headers['x-forwarded-for'];
    const xff = [prior, req.socket.remoteAddress].filter(Boolean).join(', ');
    const upstream = http.request(
      { host: '127.0.0.1', port: target.port, method: req.method, path: req.url, headers: { ...req.headers, 'x-forwarded-for': xff } },
      (up) => {
        res.writeHead(up.statusCode ?? 502, up.headers);
        up.pipe(res);
      },
    );
    upstream.on('error', () => {
      res.writeHead(502);
      res.end();
    });
    req.pipe(upstream);
  });
  return new Promise((resolve) => proxy.listen(0, '127.0.0.1', () => resolve(proxy)));
}

/** A client connecting from `from` (a loopback address) through the proxy, with its own cookies. */
class Client {
  private cookies = new Map<string, string>();
  constructor(
    private readonly proxyPort: number,
    private readonly from: string,
    private readonly host: string,
  ) {}

  request(method: string, path: string, opts: { spoof?: string; json?: unknown } = {}): Promise<Answer> {
    const body = opts.json === undefined ? undefined : JSON.stringify(opts.json);
    const headers: Record<string, string> = { host: this.host };
    if (this.cookies.size) headers.cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    if (opts.spoof) headers['x-forwarded-for'] = opts.spoof;
    if (body !== undefined) headers['content-type'] = 'application/json';
    return new Promise((resolve, reject) => {
      const req = http.request({ host: '127.0.0.1', port: this.proxyPort, localAddress: this.from, method, path, headers, agent: false }, (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (text += c));
        res.on('end', () => {
          for (const c of res.headers['set-cookie'] ?? []) {
            const pair = c.split(';')[0] ?? '';
            const i = pair.indexOf('=');
            const value = pair.slice(i + 1);
            if (!value || /expires=Thu, 01 Jan 1970/i.test(c)) this.cookies.delete(pair.slice(0, i));
            else this.cookies.set(pair.slice(0, i), value);
          }
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text });
        });
      });
      req.on('error', reject);
      req.end(body);
    });
  }

  /** GET /oidc/auth for the portal (PKCE S256): the interaction uid and what finishing needs. */
  async authorize(appUrl: string, spoof?: string): Promise<{ interaction: string; redirectUri: string; state: string }> {
    const verifier = randomBytes(48).toString('base64url');
    const state = randomBytes(16).toString('base64url');
    const redirectUri = `${appUrl}/login`;
    const q = new URLSearchParams({
      client_id: 'portal',
      redirect_uri: redirectUri,
      response_type: 'code',
      scope: 'openid profile email',
      state,
      code_challenge: createHash('sha256').update(verifier).digest('base64url'),
      code_challenge_method: 'S256',
    });
    const res = await this.request('GET', `/oidc/auth?${q.toString()}`, spoof ? { spoof } : {});
    const interaction = new URL(String(res.headers.location ?? ''), appUrl).searchParams.get('interaction');
    if (!interaction) throw new Error(`no interaction: ${res.status} ${String(res.headers.location)}`);
    return { interaction, redirectUri, state };
  }
}

const spoofed = (i: number) => `203.0.113.${i + 1}`;
const codeOf = (a: Answer): string | undefined => (JSON.parse(a.body) as { error?: { code?: string } }).error?.code;

for (const trustProxy of ['1', '127.0.0.1']) {
  describe(`TRUST_PROXY=${trustProxy} behind a proxy that appends X-Forwarded-For`, () => {
    let t: TestApp;
    let limited: TestApp;
    const proxies: http.Server[] = [];
    let proxyPort: number;
    let limitedProxyPort: number;
    const client = (from: string, port = proxyPort) => new Client(port, from, new URL(t.config.appUrl).host);

    beforeAll(async () => {
      // the per-IP lockout after 3 failures (the account and e-mail limits stay 5); the global limit out of the way
      t = await createTestApp('sqlite', { TRUST_PROXY: trustProxy, IAM_IP_MAX_FAILURES: '3', IAM_RATE_LIMIT_PER_MINUTE: '1000' });
      // the global per-IP rate limit at 15 requests a minute
      limited = await createTestApp('sqlite', { TRUST_PROXY: trustProxy, IAM_RATE_LIMIT_PER_MINUTE: '15' });
      for (const app of [t, limited]) {
        await app.app.listen({ port: 0, host: '127.0.0.1' });
        proxies.push(await startAppendingProxy({ port: (app.app.server.address() as AddressInfo).port }));
      }
      proxyPort = (proxies[0]!.address() as AddressInfo).port;
      limitedProxyPort = (proxies[1]!.address() as AddressInfo).port;
    }, 60_000);
    afterAll(async () => {
      for (const p of proxies) await new Promise((r) => p.close(r));
      await t?.close();
      await limited?.close();
    });

    it('a new left-most X-Forwarded-For entry on every guess does not get round the per-IP lockout (limit 3)', async () => {
      const attacker = client('127.0.0.21');
      const statuses: (number | string | undefined)[] = [];
      for (let i = 0; i < 6; i++) {
        const { interaction } = await attacker.authorize(t.config.appUrl, spoofed(i));
        // a different unknown e-mail on every guess: only the ip key can stop it (account and e-mail keys see one each)
        const res = await attacker.request('POST', '/api/login', { spoof: spoofed(i), json: { email: `guess${i}@example.com`, password: 'Wrong-Passw0rd!', interaction } });
        statuses.push(res.status === 429 ? codeOf(res) : res.status);
      }
      expect(statuses).toEqual([401, 401, 401, 'too_many_requests', 'too_many_requests', 'too_many_requests']);
      // the lock is on the real address the proxy appended, not on any address the client wrote
      const locks = await t.db.kysely.selectFrom('rate_counters').select('key').where('key', 'like', 'ip:%').where('locked_until', '>', Date.now()).execute();
      expect(locks.map((l) => l.key)).toEqual(['ip:127.0.0.21']);
    });

    it('a new left-most entry on every request does not get round the global per-IP rate limit (15 a minute)', async () => {
      const attacker = client('127.0.0.22', limitedProxyPort);
      const statuses: number[] = [];
      for (let i = 0; i < 20; i++) statuses.push((await attacker.request('GET', '/oidc/.well-known/openid-configuration', { spoof: spoofed(i) })).status);
      expect(statuses.slice(0, 15).every((s) => s === 200)).toBe(true);
      expect(statuses.slice(15)).toEqual([429, 429, 429, 429, 429]);
      // another real client behind the same proxy keeps its own allowance
      expect((await client('127.0.0.23', limitedProxyPort).request('GET', '/oidc/.well-known/openid-configuration')).status).toBe(200);
    });

    it('a new left-most entry on every request does not get round the forgot-password IP limit (20 an hour)', async () => {
      const attacker = client('127.0.0.24');
      const statuses: (number | string | undefined)[] = [];
      for (let i = 0; i < 22; i++) {
        const res = await attacker.request('POST', '/api/forgot-password', { spoof: spoofed(i), json: { email: `nobody${i}@example.com` } });
        statuses.push(res.status === 429 ? codeOf(res) : res.status);
      }
      expect(statuses.slice(0, 20).every((s) => s === 200)).toBe(true);
      expect(statuses.slice(20)).toEqual(['too_many_requests', 'too_many_requests']);
    });

    it('the activity log records the address the proxy appended, not the one the client wrote', async () => {
      const email = `proxied.${randomBytes(3).toString('hex')}@example.com`;
      const password = 'Proxied-Passw0rd!x';
      const account = await createAccount(t, { type: 'user', email, password });
      const person = client('127.0.0.25');
      const spoof = '198.51.100.7';
      const { interaction, redirectUri } = await person.authorize(t.config.appUrl, spoof);
      const login = await person.request('POST', '/api/login', { spoof, json: { email, password, interaction } });
      expect(login.status, login.body).toBe(200);
      let next = (JSON.parse(login.body) as { data: { redirect_to: string } }).data.redirect_to;
      for (let i = 0; i < 5 && !next.startsWith(redirectUri); i++) {
        const u = new URL(next, t.config.appUrl);
        const res = await person.request('GET', `${u.pathname}${u.search}`, { spoof });
        next = new URL(String(res.headers.location), t.config.appUrl).href;
      }
      expect(new URL(next).searchParams.get('code')).toBeTruthy();
      const rows = await t.db.kysely.selectFrom('auth_activities').select('ip_address').where('account_id', '=', account.id).execute();
      expect(rows.map((r) => r.ip_address)).toEqual(['127.0.0.25']);
    });
  });
}
