import { createServer as createHttpServer, type Server } from 'node:http';
import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import Provider from 'oidc-provider';
import { TOTP } from 'otpauth';
import { describeEachDb, type TestApp } from '../../helpers/app';
import { createAccount } from '../../helpers/auth';
import { freePort } from '../../helpers/http';
import { seedServiceApp } from '../../helpers/service-app';
import { createTotpSecret, enableTotp } from '../../../server/services/two-factor';
import { setSmsSender } from '../../../server/services/sms';

/**
 * Issue 28, finding 1: a sign-in step is tied to the browser that started the authorization. Written as the attacker
 * works, against the listening server over HTTP, with two cookie jars: the attacker's browser A starts an
 * authorization and keeps its cookies; the victim's browser V gets the genuine link (`/login?interaction=<uid>`) and
 * signs in there. Every step V sends for A's interaction must be refused with 403 `interaction_foreign_browser`
 * (localized), change nothing (no lockout counter, no code sent or consumed, no pending state, no session, no token),
 * and A's resume of `/oidc/auth/<uid>` must get no authorization code. The same steps from the browser that started
 * the authorization still sign in.
 */
const PW = 'Correct-Horse1!x';
const port = await freePort();
const upstreamPort = await freePort();
const appUrl = `http://127.0.0.1:${port}`;
const upstreamIssuer = `http://127.0.0.1:${upstreamPort}`;
const SSO_EMAIL = 'sso.victim@corp.example';

/** A browser: fetch with its own cookie jar (per host, like the real one for these paths) and manual redirects. */
class Jar {
  readonly cookies = new Map<string, string>();
  constructor(readonly name: string) {}
  header(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }
  async go(url: string, init: { method?: string; body?: unknown; lang?: string } = {}): Promise<Response> {
    const u = new URL(url, appUrl);
    const headers: Record<string, string> = { 'accept-language': init.lang ?? 'en' };
    if (u.origin === appUrl && this.cookies.size) headers.cookie = this.header();
    if (init.body !== undefined) {
      headers['content-type'] = 'application/json';
      headers.origin = appUrl;
    }
    const res = await fetch(u, { method: init.method ?? (init.body !== undefined ? 'POST' : 'GET'), headers, redirect: 'manual', ...(init.body !== undefined ? { body: JSON.stringify(init.body) } : {}) });
    if (u.origin === appUrl) {
      for (const c of res.headers.getSetCookie()) {
        const [pair] = c.split(';');
        const i = (pair ?? '').indexOf('=');
        const name = (pair ?? '').slice(0, i).trim();
        const value = (pair ?? '').slice(i + 1).trim();
        if (!value || /max-age=0|expires=Thu, 01 Jan 1970/i.test(c)) this.cookies.delete(name);
        else this.cookies.set(name, value);
      }
    }
    return res;
  }
  post(path: string, body: unknown, lang?: string): Promise<Response> {
    return this.go(`${appUrl}${path}`, { body, ...(lang ? { lang } : {}) });
  }
}

interface Started {
  uid: string;
  redirectUri: string;
  state: string;
  verifier: string;
  client: string;
  location: URL;
}

/** The authorization request (PKCE S256) browser `jar` sends; the provider hands it to the login page. */
async function authorize(jar: Jar, client: string, redirectUri: string): Promise<Started> {
  const verifier = randomBytes(48).toString('base64url');
  const state = randomBytes(30).toString('base64url');
  const q = new URLSearchParams({
    client_id: client, redirect_uri: redirectUri, response_type: 'code', scope: 'openid profile email', state,
    code_challenge: createHash('sha256').update(verifier).digest('base64url'), code_challenge_method: 'S256',
  });
  const res = await jar.go(`${appUrl}/oidc/auth?${q.toString()}`);
  expect(res.status).toBe(303);
  const location = new URL(String(res.headers.get('location')), appUrl);
  const uid = location.searchParams.get('interaction');
  if (!uid) throw new Error(`no interaction: ${location.href}`);
  return { uid, redirectUri, state, verifier, client, location };
}

const portal = (jar: Jar) => authorize(jar, 'portal', `${appUrl}/login`);
const adminConsole = (jar: Jar) => authorize(jar, 'admin-console', `${appUrl}/admin/login`);

/** Follows the provider's redirects from `url` in `jar` until it leaves the provider; the client's callback, if reached. */
async function follow(jar: Jar, started: Started, url: string): Promise<{ code: string | null; error: string | null; end: string }> {
  let current = new URL(url, appUrl).href;
  for (let i = 0; i < 8; i++) {
    if (current.startsWith(`${started.redirectUri}?`)) {
      const u = new URL(current);
      return { code: u.searchParams.get('code'), error: u.searchParams.get('error'), end: current };
    }
    if (!new URL(current).pathname.startsWith('/oidc/')) return { code: null, error: null, end: current };
    const res = await jar.go(current);
    const next = res.headers.get('location');
    if (!next) return { code: null, error: null, end: `${current} → ${res.status}` };
    current = new URL(next, appUrl).href;
  }
  throw new Error('too many redirects');
}

/** The attacker resumes the authorization with its own cookies: it must get no authorization code. */
async function expectNoCodeOnResume(t: TestApp, attacker: Jar, started: Started): Promise<void> {
  const codesBefore = await count(t, 'AuthorizationCode');
  const resumed = await follow(attacker, started, `${appUrl}/oidc/auth/${started.uid}`);
  expect(resumed.code, `the attacker's resume ended at ${resumed.end}`).toBeNull();
  expect(await count(t, 'AuthorizationCode')).toBe(codesBefore);
}

const count = async (t: TestApp, model: string) => (await t.db.kysely.selectFrom('oidc_models').select('id').where('model', '=', model).execute()).length;

/** Everything a sign-in step could write: counters, interactions (pending state), sessions, codes, tokens, recovery codes, SMS challenges, activities. */
async function snapshot(t: TestApp): Promise<string> {
  const db = t.db.kysely;
  return JSON.stringify({
    counters: await db.selectFrom('rate_counters').selectAll().orderBy('key').execute(),
    oidc: await db.selectFrom('oidc_models').select(['model', 'id', 'payload']).orderBy('model').orderBy('id').execute(),
    tokens: await db.selectFrom('one_time_tokens').selectAll().orderBy('id').execute(),
    recovery: await db.selectFrom('recovery_codes').selectAll().orderBy('id').execute(),
    challenges: await db.selectFrom('otp_challenges').selectAll().orderBy('id').execute(),
    activities: await db.selectFrom('auth_activities').selectAll().orderBy('id').execute(),
    accounts: await db.selectFrom('accounts').selectAll().orderBy('id').execute(),
  });
}

/** The foreign browser's answer: 403 interaction_foreign_browser, in the language it asked for. */
async function expectForeign(res: Response, lang: 'en' | 'de' = 'en'): Promise<void> {
  expect(res.status).toBe(403);
  const body = (await res.json()) as { error: { code: string; message: string } };
  expect(body.error.code).toBe('interaction_foreign_browser');
  expect(body.error.message).toBe(lang === 'de' ? 'Diese Anmeldung wurde in einem anderen Browser begonnen. Beginnen Sie die Anmeldung in diesem Browser neu' : 'This sign-in was started in another browser. Start the sign-in again in this browser');
}

let seq = 0;
const email = (tag: string) => `binding-${tag}-${++seq}-${randomBytes(3).toString('hex')}@example.com`;

async function withTotp(t: TestApp, type: 'user' | 'admin') {
  const acc = await createAccount(t, { type, email: email(`totp-${type}`), password: PW });
  const { secret } = await createTotpSecret(t.app, acc);
  const totp = new TOTP({ secret, digits: 6, period: 30 });
  const recovery = (await enableTotp(t.app, acc, totp.generate())) ?? [];
  // the enrollment code's step is spent: the next step's code is valid (±1) and not a replay
  return { acc, next: () => totp.generate({ timestamp: Date.now() + 30_000 }), recovery };
}

/** A tiny upstream identity provider (automatic sign-in) for the SSO cases. */
async function startUpstream(): Promise<Server> {
  const provider = new Provider(upstreamIssuer, {
    clients: [{ client_id: 'iam', client_secret: 'upstream-secret', redirect_uris: [`${appUrl}/api/sso/corp/callback`], token_endpoint_auth_method: 'client_secret_post' }],
    features: { devInteractions: { enabled: false } },
    claims: { openid: ['sub'], email: ['email', 'email_verified'] },
    scopes: ['openid', 'email', 'profile'],
    cookies: { keys: ['upstream-binding-key'] },
    findAccount: async (_ctx, sub) => ({ accountId: sub, claims: async () => ({ sub, email: SSO_EMAIL, email_verified: true }) }),
    loadExistingGrant: async (ctx) => {
      const accountId = ctx.oidc.session?.accountId;
      if (!accountId || !ctx.oidc.client) return undefined;
      const grant = new ctx.oidc.provider.Grant({ accountId, clientId: ctx.oidc.client.clientId });
      grant.addOIDCScope('openid email profile');
      await grant.save();
      return grant;
    },
    interactions: { url: async (_ctx, interaction) => `/interaction/${interaction.uid}` },
  });
  const callback = provider.callback();
  const server = createHttpServer((req, res) => {
    if (req.url?.startsWith('/interaction/')) {
      provider.interactionFinished(req, res, { login: { accountId: 'upstream-victim' } }).catch((err: unknown) => res.writeHead(500).end(String(err)));
      return;
    }
    callback(req, res);
  });
  await new Promise<void>((resolve) => server.listen(upstreamPort, '127.0.0.1', resolve));
  return server;
}

/** The upstream round trip in a browser of the upstream site (its own cookies): ends at our callback URL. */
async function upstreamRoundTrip(upstreamAuthUrl: string): Promise<string> {
  let url = upstreamAuthUrl;
  const cookies = new Map<string, string>();
  for (let i = 0; i < 8 && url.startsWith(upstreamIssuer); i++) {
    const res = await fetch(url, { redirect: 'manual', headers: cookies.size ? { cookie: [...cookies].map(([k, v]) => `${k}=${v}`).join('; ') } : {} });
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(';');
      const j = (pair ?? '').indexOf('=');
      cookies.set((pair ?? '').slice(0, j), (pair ?? '').slice(j + 1));
    }
    url = new URL(String(res.headers.get('location')), upstreamIssuer).href;
  }
  expect(url.startsWith(`${appUrl}/api/sso/corp/callback?`)).toBe(true);
  return url;
}

let upstream: Server | undefined;
beforeAll(async () => {
  upstream = await startUpstream();
});
afterAll(async () => {
  await new Promise((r) => upstream?.close(r));
});

describeEachDb(
  'interaction binding: a sign-in step acts only for the browser that started the authorization',
  (get) => {
    beforeAll(async () => {
      await get().app.listen({ port, host: '127.0.0.1' });
    });

    it('happy path in one browser: portal password and admin password + TOTP get their code', async () => {
      const t = get();
      const user = await createAccount(t, { type: 'user', email: email('happy'), password: PW });
      const a = new Jar('A');
      const s = await portal(a);
      expect((await a.go(`${appUrl}/api/interactions/${s.uid}`)).status).toBe(200);
      const login = await a.post('/api/login', { email: user.email, password: PW, interaction: s.uid });
      expect(login.status).toBe(200);
      const done = (await login.json()) as { data: { status: string; redirect_to: string } };
      expect(done.data.status).toBe('complete');
      expect((await follow(a, s, done.data.redirect_to)).code).toBeTruthy();

      const admin = await withTotp(t, 'admin');
      const b = new Jar('B');
      const sa = await adminConsole(b);
      const pw = await b.post('/api/admin/login', { email: admin.acc.email, password: PW, interaction: sa.uid });
      expect(((await pw.json()) as { data: { status: string } }).data.status).toBe('two_factor_required');
      const otp = await b.post('/api/admin/2fa/validate-otp', { one_time_password: admin.next(), interaction: sa.uid });
      expect(otp.status).toBe(200);
      expect((await follow(b, sa, ((await otp.json()) as { data: { redirect_to: string } }).data.redirect_to)).code).toBeTruthy();
    });

    for (const [label, start, path, type] of [
      ['user portal', portal, '/api/login', 'user'],
      ['admin console', adminConsole, '/api/admin/login', 'admin'],
    ] as const) {
      it(`${label}, password only: the victim's password in another browser is refused, nothing spent; the attacker's resume gets no code`, async () => {
        const t = get();
        const victim = await createAccount(t, { type, email: email(`pw-${type}`), password: PW });
        const attacker = new Jar('attacker');
        const started = await start(attacker);
        // the genuine link opened in the victim's browser: the page's check says it is not this browser's sign-in
        const victimBrowser = new Jar('victim');
        await expectForeign(await victimBrowser.go(`${appUrl}/api/interactions/${started.uid}`));
        const before = await snapshot(t);
        await expectForeign(await victimBrowser.post(path, { email: victim.email, password: PW, interaction: started.uid }, 'de'), 'de');
        // the wrong password too: no lockout slot of the victim's e-mail, account or address is spent
        await expectForeign(await victimBrowser.post(path, { email: victim.email, password: 'Wrong-Horse-1!', interaction: started.uid }));
        expect(await snapshot(t)).toBe(before);
        await expectNoCodeOnResume(t, attacker, started);
      });
    }

    for (const [label, start, otpPath, type] of [
      ['user portal', portal, '/api/2fa/google/validate-otp', 'user'],
      ['admin console', adminConsole, '/api/admin/2fa/validate-otp', 'admin'],
    ] as const) {
      it(`${label}, TOTP: the attacker passed the password; the victim's code in another browser is refused and spends nothing`, async () => {
        const t = get();
        const victim = await withTotp(t, type);
        const attacker = new Jar('attacker');
        const started = await start(attacker);
        const pw = await attacker.post(type === 'admin' ? '/api/admin/login' : '/api/login', { email: victim.acc.email, password: PW, interaction: started.uid });
        expect(((await pw.json()) as { data: { status: string } }).data).toEqual({ status: 'two_factor_required', method: 'GOOGLE' });
        const victimBrowser = new Jar('victim');
        const before = await snapshot(t);
        await expectForeign(await victimBrowser.post(otpPath, { one_time_password: victim.next(), interaction: started.uid }));
        await expectForeign(await victimBrowser.post(otpPath, { one_time_password: '000000', interaction: started.uid }));
        // an empty code too: the browser is checked before anything else
        await expectForeign(await victimBrowser.post(otpPath, { one_time_password: '', interaction: started.uid }));
        expect(await snapshot(t)).toBe(before);
        await expectNoCodeOnResume(t, attacker, started);
      });
    }

    it('SMS: the code and a resend from another browser are refused; no SMS is sent, nothing spent, no code for the attacker', async () => {
      const t = get();
      const sent: string[] = [];
      setSmsSender(t.app, { send: async (_to, body) => void sent.push(body) });
      const victim = await createAccount(t, { type: 'user', email: email('sms'), password: PW, phone: '+41791234567' });
      await t.db.kysely.updateTable('accounts').set({ two_factor_method: 'SMS', two_factor_confirmed_at: new Date().toISOString() }).where('id', '=', victim.id).execute();
      const attacker = new Jar('attacker');
      const started = await portal(attacker);
      const pw = await attacker.post('/api/login', { email: victim.email, password: PW, interaction: started.uid });
      expect(((await pw.json()) as { data: { method: string } }).data.method).toBe('SMS');
      const code = /\b(\d{6})\b/.exec(sent.at(-1) ?? '')?.[1] ?? '';
      expect(code).toMatch(/^\d{6}$/);
      const victimBrowser = new Jar('victim');
      const before = await snapshot(t);
      const sentBefore = sent.length;
      await expectForeign(await victimBrowser.post('/api/2fa/sms/verify', { one_time_password: code, interaction: started.uid }));
      await expectForeign(await victimBrowser.post('/api/2fa/sms/resend', { interaction: started.uid }));
      expect(sent.length).toBe(sentBefore);
      expect(await snapshot(t)).toBe(before);
      await expectNoCodeOnResume(t, attacker, started);
    });

    it('recovery code: a valid recovery code from another browser is refused and stays unused', async () => {
      const t = get();
      const victim = await withTotp(t, 'user');
      const attacker = new Jar('attacker');
      const started = await portal(attacker);
      await attacker.post('/api/login', { email: victim.acc.email, password: PW, interaction: started.uid });
      const victimBrowser = new Jar('victim');
      const before = await snapshot(t);
      await expectForeign(await victimBrowser.post('/api/2fa/validate-recovery-code', { recovery_code: victim.recovery[0], interaction: started.uid }));
      expect(await snapshot(t)).toBe(before);
      await expectNoCodeOnResume(t, attacker, started);
    });

    it('password expired: the victim\'s password in another browser is refused before a reset token is issued', async () => {
      const t = get();
      const victim = await createAccount(t, { type: 'user', email: email('expired'), password: PW });
      await t.db.kysely.updateTable('accounts').set({ password_changed_at: null }).where('id', '=', victim.id).execute();
      const attacker = new Jar('attacker');
      const started = await portal(attacker);
      const victimBrowser = new Jar('victim');
      const before = await snapshot(t);
      await expectForeign(await victimBrowser.post('/api/login', { email: victim.email, password: PW, interaction: started.uid }));
      expect(await snapshot(t)).toBe(before);
      // the browser that started it gets the expired-password step (the binding is not what refused the victim above)
      const own = await attacker.post('/api/login', { email: victim.email, password: PW, interaction: started.uid });
      expect(((await own.json()) as { data: { status: string } }).data.status).toBe('password_expired');
    });

    it("a service app's authorization: the victim's password in another browser is refused; no code for the attacker", async () => {
      const t = get();
      const victim = await createAccount(t, { type: 'user', email: email('svc'), password: PW });
      const app = await seedServiceApp(t, { members: [victim.id] });
      const attacker = new Jar('attacker');
      const started = await authorize(attacker, app.name, app.redirectUri);
      expect(started.location.searchParams.get('type')).toBe('sso');
      const victimBrowser = new Jar('victim');
      const before = await snapshot(t);
      await expectForeign(await victimBrowser.post('/api/login', { email: victim.email, password: PW, interaction: started.uid }));
      expect(await snapshot(t)).toBe(before);
      await expectNoCodeOnResume(t, attacker, started);
    });

    it('SSO start from another browser is refused: no upstream state, no redirect upstream', async () => {
      const t = get();
      const attacker = new Jar('attacker');
      const started = await portal(attacker);
      const victimBrowser = new Jar('victim');
      const before = await snapshot(t);
      const res = await victimBrowser.go(`${appUrl}/api/sso/corp/start?interaction=${started.uid}`);
      await expectForeign(res);
      expect(res.headers.get('location')).toBeNull();
      expect(await snapshot(t)).toBe(before);
      await expectNoCodeOnResume(t, attacker, started);
    });

    it('SSO callback without the interaction binding (even with the upstream state cookie) is refused; the state stays usable for the right browser', async () => {
      const t = get();
      const victim = await createAccount(t, { type: 'user', email: SSO_EMAIL, password: null, auth_type: 'SSO', provider: 'corp' });
      const a = new Jar('A');
      const started = await portal(a);
      const go = await a.go(`${appUrl}/api/sso/corp/start?interaction=${started.uid}`);
      expect(go.status).toBe(302);
      const callbackUrl = await upstreamRoundTrip(String(go.headers.get('location')));
      // a browser that has the upstream sign-in's `iam_sso` cookie but not the interaction's binding
      const other = new Jar('other');
      other.cookies.set('iam_sso', a.cookies.get('iam_sso') ?? '');
      const before = await snapshot(t);
      const refused = await other.go(callbackUrl);
      expect(refused.status).toBe(302);
      const to = new URL(String(refused.headers.get('location')));
      expect(`${to.pathname}?error=${to.searchParams.get('error')}`).toBe('/login?error=interaction_foreign_browser');
      expect(await snapshot(t)).toBe(before);
      // the browser that started it finishes the same sign-in
      const own = await a.go(callbackUrl);
      const done = await follow(a, started, String(own.headers.get('location')));
      expect(done.code).toBeTruthy();
      const activities = await t.db.kysely.selectFrom('auth_activities').select('id').where('account_id', '=', victim.id).execute();
      expect(activities).toHaveLength(1);
    });
  },
  { APP_URL: appUrl, SSO_PROVIDERS: JSON.stringify([{ id: 'corp', name: 'Corp IdP', issuer: upstreamIssuer, client_id: 'iam', client_secret: 'upstream-secret' }]) },
);
