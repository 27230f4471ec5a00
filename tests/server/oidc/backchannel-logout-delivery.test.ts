/**
 * Back-channel logout (issue 31.1), the queue and the sender (server/oidc/backchannel-logout.ts) on real HTTP
 * receivers on loopback: the token an app receives (checked as a relying party must, against the JWKS), retries with
 * backoff for an app that answers 500, refuses the connection, does not answer in time or redirects (never followed),
 * giving up after the last try, the admin's view of the app, a delivery that outlives its instance, and two instances
 * on one database that never send a row twice. The sign-out paths that queue tokens: backchannel-logout.test.ts.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { decodeJwt } from 'jose';
import { DB_KINDS, describeEachDb, type DbKind, type TestApp } from '../../helpers/app';
import { createAccount } from '../../helpers/auth';
import { seedServiceApp } from '../../helpers/service-app';
import { deadUri, headerOf, startLogoutReceiver, verifyLogoutToken, type LogoutReceiver } from '../../helpers/logout-receiver';
import { actor, type Actor } from '../admin/fixtures';
import { enqueueLogouts, MAX_ATTEMPTS, RETRY_DELAYS_MS } from '../../../server/oidc/backchannel-logout';
import { keyRing, getProvider } from '../../../server/oidc/index';
import { registry } from '../../../server/lib/metrics';
import { loadConfig } from '../../../server/config';
import { buildApp } from '../../../server/app';
import { createDb, migrateToLatest, type Db } from '../../../server/db/index';

/** The apps here answer on loopback at once (5 s, the default, covers a busy machine); the hanging app: 300 ms. */
const ENV = { IAM_BACKCHANNEL_LOGOUT_TIMEOUT_MS: '5000' };

const attempts = async (result: string): Promise<number> =>
  (await registry.getSingleMetric('iam_backchannel_logout_attempts_total')?.get())?.values.find((v) => v.labels.result === result)?.value ?? 0;

const rowsOf = (t: TestApp, appId: string) => t.db.kysely.selectFrom('logout_deliveries').selectAll().where('service_app_id', '=', appId).execute();


type Api = (method: 'GET' | 'POST' | 'PATCH', url: string, payload?: object, lang?: string) => Promise<LightMyRequestResponse>;

/**
 * One token to an app that fails (`error` each time): retried after each backoff and not before, given up after the
 * last attempt, never sent again; the admin's view and the metrics say so.
 */
async function failsThenGivesUp(t: TestApp, api: Api, uri: string, r: LogoutReceiver | undefined, error: string, check: (r: LogoutReceiver | undefined) => void): Promise<void> {
    const user = await createAccount(t, { type: 'user', email: `bcl-fail-${randomUUID().slice(0, 8)}@example.com` });
    const app = await seedServiceApp(t, { members: [user.id], extra: { backchannel_logout_uri: uri } });
    const [retriedBefore, failedBefore] = [await attempts('retried'), await attempts('failed')];
    const start = Date.now();
    await enqueueLogouts(t.db.kysely, user.id, [{ clientId: app.name, sid: 'sid-f' }], 'sign_out', start);
    const worker = t.app.oidc.logoutDeliveries;
    let now = start;
    const began = Date.now();
    expect(await worker.drain({ now })).toMatchObject({ delivered: 0, retried: 1, failed: 0 });
    // the timeout bounds an attempt
    expect(Date.now() - began).toBeLessThan(3000);
    let [row] = await rowsOf(t, app.id);
    expect(row).toMatchObject({ status: 'pending', last_error: error, lease_owner: null });
    expect(Number(row!.attempts)).toBe(1);
    expect(Number(row!.next_attempt_at)).toBe(now + RETRY_DELAYS_MS[0]);
    // not due yet: nothing happens a moment before the backoff ends
    expect(await worker.drain({ now: now + RETRY_DELAYS_MS[0] - 1 })).toMatchObject({ retried: 0, failed: 0 });
    for (const [i, delay] of RETRY_DELAYS_MS.entries()) {
      now += delay;
      const res = await worker.drain({ now });
      if (i < RETRY_DELAYS_MS.length - 1) expect(res, `attempt ${i + 2}`).toMatchObject({ retried: 1, failed: 0 });
      else expect(res, 'last attempt').toMatchObject({ retried: 0, failed: 1 });
    }
    [row] = await rowsOf(t, app.id);
    expect(row).toMatchObject({ status: 'failed', last_error: error });
    expect(Number(row!.attempts)).toBe(MAX_ATTEMPTS);
    // given up: not sent again
    expect(await worker.drain({ now: now + 86_400_000 })).toMatchObject({ delivered: 0, retried: 0, failed: 0 });
    check(r);
    if (r && r.received.length > 1) expect(new Set(r.received.map((x) => decodeJwt(x.token!).jti)).size).toBe(r.received.length);
    const view = (await api('GET', `/api/admin/service-apps/${app.id}`)).json().data;
    expect(view.logout_delivery).toMatchObject({ pending: 0, failed: 1, last_delivered_at: null, last_failure: { error } });
    expect((await attempts('retried')) - retriedBefore).toBe(MAX_ATTEMPTS - 1);
    expect((await attempts('failed')) - failedBefore).toBe(1);
}

describeEachDb(
  'back-channel logout: queue and delivery',
  (get) => {
    let admin: Actor;
    const receivers: LogoutReceiver[] = [];
    const receiver = async (mode?: Parameters<typeof startLogoutReceiver>[0]) => {
      const r = await startLogoutReceiver(mode);
      receivers.push(r);
      return r;
    };
    const api = (method: 'GET' | 'POST' | 'PATCH', url: string, payload?: object, lang = 'en') =>
      get().app.inject({ method, url, headers: { ...admin.headers, 'accept-language': lang }, ...(payload ? { payload } : {}) });
    beforeAll(async () => {
      admin = await actor(get(), 'super_admin');
    });
    afterAll(async () => {
      await Promise.all(receivers.map((r) => r.close()));
    });

    it('admin API: the URI is optional, https (http on loopback only), no fragment or user info, at most 2048 characters; null removes it', async () => {
      const ok = await api('POST', '/api/admin/service-apps', { name: `bcl-${randomUUID().slice(0, 6)}`, display_name: 'BCL', url: 'https://bcl.example', path: '/cb', backchannel_logout_uri: 'https://bcl.example/backchannel?x=1', backchannel_logout_session_required: true });
      expect(ok.statusCode, ok.body).toBe(201);
      const created = ok.json().data;
      expect(created).toMatchObject({ backchannel_logout_uri: 'https://bcl.example/backchannel?x=1', backchannel_logout_session_required: true, logout_delivery: { pending: 0, failed: 0, last_delivered_at: null, last_failure: null } });
      const without = (await api('POST', '/api/admin/service-apps', { name: `bcl-${randomUUID().slice(0, 6)}`, display_name: 'None', url: 'https://none.example', path: '/cb' })).json().data;
      expect(without).toMatchObject({ backchannel_logout_uri: null, backchannel_logout_session_required: false });

      for (const uri of ['http://localhost:8080/bc', 'http://127.0.0.2/bc', 'http://[::1]:9/bc']) {
        const r = await api('PATCH', `/api/admin/service-apps/${created.id}`, { backchannel_logout_uri: uri });
        expect(r.statusCode, uri).toBe(200);
        expect(r.json().data.backchannel_logout_uri).toBe(uri);
      }
      const refused: [unknown, string][] = [
        ['http://bcl.example/backchannel', 'https_required'],
        ['http://10.0.0.1/backchannel', 'https_required'],
        ['https://bcl.example/backchannel#frag', 'invalid'],
        ['https://bcl.example/backchannel#', 'invalid'],
        ['https://user:pw@bcl.example/backchannel', 'invalid'],
        ['ftp://bcl.example/backchannel', 'invalid'],
        ['/backchannel', 'invalid'],
        [`https://bcl.example/${'a'.repeat(2040)}`, 'too_long'],
        ['', 'required'],
      ];
      for (const [uri, code] of refused) {
        const r = await api('PATCH', `/api/admin/service-apps/${created.id}`, { backchannel_logout_uri: uri }, 'de');
        expect(r.statusCode, String(uri).slice(0, 60)).toBe(422);
        expect(r.json().error.fields.backchannel_logout_uri, String(uri).slice(0, 60)).toEqual([code]);
      }
      const localized = await api('PATCH', `/api/admin/service-apps/${created.id}`, { backchannel_logout_uri: 'http://bcl.example/bc' }, 'de');
      expect(localized.json().error.field_messages.backchannel_logout_uri[0]).toContain('https://');
      const cleared = await api('PATCH', `/api/admin/service-apps/${created.id}`, { backchannel_logout_uri: null, backchannel_logout_session_required: false });
      expect(cleared.json().data).toMatchObject({ backchannel_logout_uri: null, backchannel_logout_session_required: false });
    });

    it('discovery says back-channel logout with sid; the provider itself never posts (its clients carry no URI)', async () => {
      const t = get();
      const discovery = (await t.app.inject({ method: 'GET', url: '/oidc/.well-known/openid-configuration' })).json();
      expect(discovery).toMatchObject({ backchannel_logout_supported: true, backchannel_logout_session_supported: true });
      const app = await seedServiceApp(t, { extra: { backchannel_logout_uri: 'https://app.example/bc' } });
      const client = await (await getProvider(t.app)).Client.find(app.name);
      expect(client?.clientId).toBe(app.name);
      // with a URI in the provider's metadata, its own end_session would post inline while the person waits
      expect(client?.backchannelLogoutUri).toBeUndefined();
    });

    it('delivers a logout token the app can verify: typ logout+jwt, kid, iss, aud, sub, sid, events, jti, 2-minute exp, no nonce; a form with only logout_token', async () => {
      const t = get();
      const r = await receiver();
      const user = await createAccount(t, { type: 'user', email: `bcl-ok-${randomUUID().slice(0, 8)}@example.com` });
      const app = await seedServiceApp(t, { members: [user.id], extra: { backchannel_logout_uri: r.uri } });
      const before = await attempts('delivered');
      expect(await enqueueLogouts(t.db.kysely, user.id, [{ clientId: app.name, sid: 'sid-1' }, { clientId: app.name, sid: 'sid-1' }, { clientId: 'portal', sid: 'x' }], 'sessions_ended')).toBe(1);
      expect(await t.app.oidc.logoutDeliveries.drain()).toMatchObject({ delivered: 1, retried: 0, failed: 0 });
      expect(r.received).toHaveLength(1);
      const got = r.received[0]!;
      expect(got.path).toBe('/backchannel');
      expect(got.contentType).toBe('application/x-www-form-urlencoded');
      expect(got.fields).toEqual(['logout_token']);
      const claims = await verifyLogoutToken(t, got.token!, app.name);
      expect(claims).toMatchObject({ iss: t.config.issuer, aud: app.name, sub: user.id, sid: 'sid-1', events: { 'http://schemas.openid.net/event/backchannel-logout': {} } });
      expect(claims.exp! - claims.iat!).toBe(120);
      expect(typeof claims.jti).toBe('string');
      expect(headerOf(got.token!)).toMatchObject({ alg: 'RS256', typ: 'logout+jwt', kid: (await keyRing(t.app)).activeKid });
      // delivered: the row is gone, the app's view says when
      expect(await rowsOf(t, app.id)).toEqual([]);
      const view = (await api('GET', `/api/admin/service-apps/${app.id}`)).json().data;
      expect(view.logout_delivery).toMatchObject({ pending: 0, failed: 0, last_failure: null });
      expect(Date.parse(view.logout_delivery.last_delivered_at)).toBeGreaterThan(Date.now() - 60_000);
      expect((await attempts('delivered')) - before).toBe(1);
      // an app without a URI and the product's own clients get nothing
      const silent = await seedServiceApp(t, { members: [user.id] });
      expect(await enqueueLogouts(t.db.kysely, user.id, [{ clientId: silent.name, sid: 's' }, { clientId: 'admin-console', sid: null }], 'sessions_ended')).toBe(0);
    });

    it('a token without a known session carries sub only', async () => {
      const t = get();
      const r = await receiver();
      const user = await createAccount(t, { type: 'user', email: `bcl-sub-${randomUUID().slice(0, 8)}@example.com` });
      const app = await seedServiceApp(t, { members: [user.id], extra: { backchannel_logout_uri: r.uri } });
      await enqueueLogouts(t.db.kysely, user.id, [{ clientId: app.name, sid: null }], 'account_deleted');
      await t.app.oidc.logoutDeliveries.drain();
      const claims = await verifyLogoutToken(t, r.received[0]!.token!, app.name);
      expect(claims.sub).toBe(user.id);
      expect('sid' in claims).toBe(false);
    });

    const failing: [string, () => Promise<string>, string, (r: LogoutReceiver | undefined) => void][] = [
      ['answers 500', async () => (await receiver({ kind: 'status', status: 500 })).uri, 'http_500', (r) => expect(r?.received).toHaveLength(MAX_ATTEMPTS)],
      ['refuses the connection', deadUri, 'connection_refused', () => undefined],
      ['redirects (never followed)', async () => (await receiver({ kind: 'redirect' })).uri, 'http_302', (r) => expect(r?.followed).toBe(0)],
    ];
    for (const [what, uriOf, error, check] of failing) {
      it(`an app that ${what}: retried with backoff (${MAX_ATTEMPTS} attempts), then given up and shown as failed`, async () => {
        const uri = await uriOf();
        await failsThenGivesUp(get(), api, uri, receivers.find((x) => x.uri === uri), error, check);
      });
    }

    it('a retry that succeeds delivers; the app shows both its last delivery and its last failure', async () => {
      const t = get();
      const r = await receiver({ kind: 'status', status: 503 });
      const user = await createAccount(t, { type: 'user', email: `bcl-retry-${randomUUID().slice(0, 8)}@example.com` });
      const app = await seedServiceApp(t, { members: [user.id], extra: { backchannel_logout_uri: r.uri } });
      const start = Date.now();
      await enqueueLogouts(t.db.kysely, user.id, [{ clientId: app.name, sid: 'sid-r' }], 'sign_out', start);
      expect(await t.app.oidc.logoutDeliveries.drain({ now: start })).toMatchObject({ retried: 1 });
      expect((await api('GET', `/api/admin/service-apps/${app.id}`)).json().data.logout_delivery).toMatchObject({ pending: 1, failed: 0, last_failure: { error: 'http_503' } });
      r.mode = { kind: 'ok' };
      expect(await t.app.oidc.logoutDeliveries.drain({ now: start + RETRY_DELAYS_MS[0] })).toMatchObject({ delivered: 1 });
      expect(await rowsOf(t, app.id)).toEqual([]);
      const view = (await api('GET', `/api/admin/service-apps/${app.id}`)).json().data.logout_delivery;
      expect(view).toMatchObject({ pending: 0, failed: 0, last_failure: { error: 'http_503' } });
      expect(view.last_delivered_at >= view.last_failure.at).toBe(true);
      expect(r.received).toHaveLength(2);
    });

    it('a row another instance holds is left alone until its lease runs out, then taken over and delivered once', async () => {
      const t = get();
      const r = await receiver();
      const user = await createAccount(t, { type: 'user', email: `bcl-lease-${randomUUID().slice(0, 8)}@example.com` });
      const app = await seedServiceApp(t, { members: [user.id], extra: { backchannel_logout_uri: r.uri } });
      const now = Date.now();
      await enqueueLogouts(t.db.kysely, user.id, [{ clientId: app.name, sid: 'sid-l' }], 'sign_out', now);
      // an instance took it and died (no release): its lease runs another minute
      await t.db.kysely.updateTable('logout_deliveries').set({ lease_owner: 'dead-instance:1', lease_until: now + 60_000 }).where('service_app_id', '=', app.id).execute();
      expect(await t.app.oidc.logoutDeliveries.drain({ now })).toMatchObject({ delivered: 0 });
      expect(r.received).toHaveLength(0);
      expect(await t.app.oidc.logoutDeliveries.drain({ now: now + 60_001 })).toMatchObject({ delivered: 1 });
      expect(r.received).toHaveLength(1);
      expect(await rowsOf(t, app.id)).toEqual([]);
    });

    it('deleting the app drops its queued tokens', async () => {
      const t = get();
      const user = await createAccount(t, { type: 'user', email: `bcl-del-${randomUUID().slice(0, 8)}@example.com` });
      const app = await seedServiceApp(t, { members: [user.id], extra: { backchannel_logout_uri: await deadUri() } });
      await enqueueLogouts(t.db.kysely, user.id, [{ clientId: app.name, sid: 's' }], 'sign_out', Date.now() + 3_600_000);
      expect(await rowsOf(t, app.id)).toHaveLength(1);
      expect((await get().app.inject({ method: 'DELETE', url: `/api/admin/service-apps/${app.id}`, headers: admin.headers })).statusCode).toBe(200);
      expect(await rowsOf(t, app.id)).toEqual([]);
    });
  },
  ENV,
);

describeEachDb(
  'back-channel logout: an app that does not answer',
  (get) => {
    let admin: Actor;
    let r: LogoutReceiver;
    beforeAll(async () => {
      admin = await actor(get(), 'super_admin');
      r = await startLogoutReceiver({ kind: 'hang' });
    });
    afterAll(() => r.close());
    const api: Api = (method, url, payload, lang = 'en') => get().app.inject({ method, url, headers: { ...admin.headers, 'accept-language': lang }, ...(payload ? { payload } : {}) });

    it(`does not answer within the timeout: retried with backoff (${MAX_ATTEMPTS} attempts), then given up and shown as failed`, async () => {
      await failsThenGivesUp(get(), api, r.uri, r, 'timeout', (x) => expect(x?.received).toHaveLength(MAX_ATTEMPTS));
    });
  },
  { IAM_BACKCHANNEL_LOGOUT_TIMEOUT_MS: '300' },
);

/** Two app instances on one database (own connections each), as separate processes would be; `close()` ends both. */
async function twoInstances(kind: DbKind): Promise<{ dbOf: () => Db; build: () => Promise<FastifyInstance>; close: () => Promise<void>; primary: Db }> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'iam-bcl-'));
  const config = loadConfig({ IAM_DATA_DIR: dataDir, LOG_LEVEL: 'silent', APP_URL: 'http://localhost:3000', IAM_DIST_DIR: path.join(dataDir, 'no-dist'), ...ENV });
  const url = process.env.TEST_DATABASE_URL;
  const schema = `iam_t_bcl_${Date.now().toString(36)}_${randomUUID().slice(0, 6)}`;
  if (kind === 'postgres') {
    const a = createDb({ databaseUrl: url, poolSize: 1 });
    await a.kysely.schema.createSchema(schema).execute();
    await a.close();
  }
  const dbs: Db[] = [];
  const apps: FastifyInstance[] = [];
  const dbOf = () => {
    const db = kind === 'postgres' ? createDb({ databaseUrl: url, pgSchema: schema, poolSize: 3 }) : createDb({ sqliteFile: path.join(dataDir, 'iam.sqlite') });
    dbs.push(db);
    return db;
  };
  const primary = dbOf();
  await migrateToLatest(primary);
  return {
    dbOf,
    primary,
    build: async () => {
      const app = await buildApp({ config: { ...config, databaseUrl: kind === 'postgres' ? url : undefined }, db: dbOf(), logger: false, migrate: false });
      apps.push(app);
      await app.ready();
      return app;
    },
    close: async () => {
      for (const app of apps) await app.close();
      for (const db of dbs) await db.close();
      if (kind === 'postgres') {
        const a = createDb({ databaseUrl: url, poolSize: 1 });
        await a.kysely.schema.dropSchema(schema).ifExists().cascade().execute();
        await a.close();
      }
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

async function seedApp(db: Db, uri: string): Promise<{ accountId: string; clientId: string; appId: string }> {
  const now = new Date().toISOString();
  const appId = randomUUID();
  const clientId = `bcl-${randomUUID().slice(0, 8)}`;
  await db.kysely.insertInto('service_apps').values({ id: appId, name: clientId, display_name: 'BCL', url: 'https://bcl.example', path: '/cb', client_type: 'public', client_secret: null, backchannel_logout_uri: uri, created_at: now, updated_at: now }).execute();
  return { accountId: randomUUID(), clientId, appId };
}

for (const kind of DB_KINDS) {
  describe(`back-channel logout across instances [${kind}]`, () => {
    it('a token queued by an instance that stopped before sending it goes out from the next instance on the same database', async () => {
      const pair = await twoInstances(kind);
      const r = await startLogoutReceiver();
      try {
        const first = await pair.build();
        const { accountId, clientId } = await seedApp(pair.primary, r.uri);
        // queued (in the transaction that ended the session), then the instance stops before its worker ran
        await first.close();
        await enqueueLogouts(pair.primary.kysely, accountId, [{ clientId, sid: 'sid-restart' }], 'sign_out');
        expect(r.received).toHaveLength(0);
        // the next instance sends it at start, without being asked
        await pair.build();
        await expect.poll(() => r.received.length, { timeout: 10_000 }).toBe(1);
        expect(decodeJwt(r.received[0]!.token!)).toMatchObject({ aud: clientId, sub: accountId, sid: 'sid-restart' });
        await expect.poll(async () => (await pair.primary.kysely.selectFrom('logout_deliveries').select('id').execute()).length).toBe(0);
      } finally {
        await r.close();
        await pair.close();
      }
    });

    it('a row survives its instance: a failed attempt is retried by the next instance; an attempt cut off by a stop is released, not counted', async () => {
      const pair = await twoInstances(kind);
      const r = await startLogoutReceiver({ kind: 'status', status: 503 });
      try {
        const first = await pair.build();
        const { accountId, clientId, appId } = await seedApp(pair.primary, r.uri);
        const start = Date.now() + 5_000;
        await enqueueLogouts(pair.primary.kysely, accountId, [{ clientId, sid: 'sid-a' }], 'password_changed', start);
        expect(await first.oidc.logoutDeliveries.drain({ now: start })).toMatchObject({ retried: 1 });
        // the app hangs on the second try, and the instance stops meanwhile
        r.mode = { kind: 'hang' };
        const cut = first.oidc.logoutDeliveries.drain({ now: start + RETRY_DELAYS_MS[0] });
        await expect.poll(() => r.received.length).toBe(2);
        await first.close();
        expect(await cut).toMatchObject({ delivered: 0, retried: 0, failed: 0 });
        const [row] = await pair.primary.kysely.selectFrom('logout_deliveries').selectAll().where('service_app_id', '=', appId).execute();
        expect(row).toMatchObject({ status: 'pending', lease_owner: null, last_error: 'http_503' });
        expect(Number(row!.attempts)).toBe(1);
        expect(Number(row!.lease_until)).toBe(0);
        // the next instance takes it at once (no lease to wait for) and the app answers now
        r.mode = { kind: 'ok' };
        const second = await pair.build();
        expect(await second.oidc.logoutDeliveries.drain({ now: start + RETRY_DELAYS_MS[0] })).toMatchObject({ delivered: 1 });
        expect(r.received).toHaveLength(3);
        expect(decodeJwt(r.received[2]!.token!)).toMatchObject({ aud: clientId, sub: accountId, sid: 'sid-a' });
      } finally {
        await r.close();
        await pair.close();
      }
    });

    it('two instances draining the same 30 queued tokens at once send each exactly once', async () => {
      const pair = await twoInstances(kind);
      const r = await startLogoutReceiver();
      try {
        const [a, b] = [await pair.build(), await pair.build()];
        const { accountId, clientId } = await seedApp(pair.primary, r.uri);
        const at = Date.now() + 10_000;
        const sids = Array.from({ length: 30 }, (_, i) => `sid-${i}`);
        // due only at `at`: neither worker's own rounds take them before the drains below
        await enqueueLogouts(pair.primary.kysely, accountId, sids.map((sid) => ({ clientId, sid })), 'account_deactivated', at);
        const [ra, rb] = await Promise.all([a.oidc.logoutDeliveries.drain({ now: at }), b.oidc.logoutDeliveries.drain({ now: at })]);
        expect(ra.delivered + rb.delivered).toBe(30);
        expect(r.received.map((x) => decodeJwt(x.token!).sid).sort()).toEqual([...sids].sort());
      } finally {
        await r.close();
        await pair.close();
      }
    });
  });
}
