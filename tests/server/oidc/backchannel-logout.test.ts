/**
 * Back-channel logout (issue 31.1): every way a session ends tells the service apps it signed in to. A person signs in
 * to the portal and, in the same browser session, to two service apps with a back-channel logout URI (real HTTP
 * receivers on loopback) and one without; then each trigger — sign-out in the portal, RP-initiated logout ("Yes" and
 * "only this app"), an admin deactivating, deleting or signing the user out everywhere, a password reset by link, an
 * admin setting the password, the person changing it — must deliver a logout token each app verifies against the JWKS,
 * carrying the `sid` of the ID token that app received and the `sub`. A slow, dead or failing app never delays the
 * sign-out. The queue and the sender themselves: backchannel-logout-delivery.test.ts.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { decodeJwt } from 'jose';
import { describeEachDb, type TestApp } from '../../helpers/app';
import { createAccount, CookieJar, exchangeCode, followToCode, startAuthorize, type Tokens } from '../../helpers/auth';
import { seedServiceApp, type SeededServiceApp } from '../../helpers/service-app';
import { apiLinkOf, startSmtp } from '../../helpers/smtp';
import { deadUri, startLogoutReceiver, verifyLogoutToken, type LogoutReceiver } from '../../helpers/logout-receiver';
import { actor, type Actor } from '../admin/fixtures';

const PASSWORD = 'Str0ng!Passw0rd#';
const NEW_PASSWORD = 'An0ther!Secret#9';

const smtp = await startSmtp();
afterAll(() => smtp.close());

interface Person {
  id: string;
  email: string;
  /** the browser: its provider session cookie */
  jar: CookieJar;
  portal: Tokens;
  /** per service app: the tokens it received, and the sid its ID token carried */
  apps: Map<string, { tokens: Tokens; sid: string }>;
}

/** Signs in to the portal through the real flow and keeps the browser's cookies. */
async function portalSignIn(t: TestApp, email: string, jar = new CookieJar()): Promise<{ jar: CookieJar; tokens: Tokens }> {
  const start = await startAuthorize(t, { jar });
  const login = await t.app.inject({ method: 'POST', url: '/api/login', headers: { cookie: jar.header() }, payload: { email, password: PASSWORD, interaction: start.interaction } });
  expect(login.statusCode, login.body).toBe(200);
  const { code } = await followToCode(t, start, login.json().data.redirect_to);
  return { jar, tokens: await exchangeCode(t, start, code!) };
}

/** The same browser signs in to a service app: single sign-on on the provider session, no password asked. */
async function appSignIn(t: TestApp, jar: CookieJar, app: SeededServiceApp): Promise<{ tokens: Tokens; sid: string }> {
  const start = await startAuthorize(t, { client: app.name, redirectUri: app.redirectUri, jar, scope: 'openid' });
  expect(start.interaction, 'signed in already: no sign-in page').toBeUndefined();
  const { code, error } = await followToCode(t, start, new URL(start.location, t.config.appUrl).href);
  expect(error).toBeUndefined();
  const tokens = await exchangeCode(t, start, code!);
  const sid = decodeJwt(tokens.idToken).sid;
  expect(typeof sid).toBe('string');
  return { tokens, sid: sid as string };
}

const userinfo = (t: TestApp, tokens: Tokens) => t.app.inject({ method: 'GET', url: '/oidc/me', headers: { authorization: tokens.authorization } });

describeEachDb(
  'back-channel logout: the sign-out paths',
  (get) => {
    let admin: Actor;
    let a: LogoutReceiver;
    let b: LogoutReceiver;
    let appA: SeededServiceApp;
    let appB: SeededServiceApp;
    let silent: SeededServiceApp;

    beforeAll(async () => {
      admin = await actor(get(), 'super_admin');
      [a, b] = [await startLogoutReceiver(), await startLogoutReceiver()];
    });
    afterAll(async () => {
      await a.close();
      await b.close();
    });

    /** A fresh user, member of the three apps, signed in to the portal and to every app in one browser session. */
    async function person(opts: { apps?: SeededServiceApp[] } = {}): Promise<Person> {
      const t = get();
      const email = `bcl-${randomUUID().slice(0, 8)}@example.com`;
      const acc = await createAccount(t, { type: 'user', email, password: PASSWORD });
      // one set of apps per test file and database; each new person is subscribed to them
      if (!appA) {
        appA = await seedServiceApp(t, { members: [acc.id], url: 'https://a.example', extra: { backchannel_logout_uri: a.uri } });
        appB = await seedServiceApp(t, { members: [acc.id], url: 'https://b.example', extra: { backchannel_logout_uri: b.uri, backchannel_logout_session_required: 1 } });
        silent = await seedServiceApp(t, { members: [acc.id], url: 'https://silent.example' });
      } else {
        const now = new Date().toISOString();
        for (const app of [appA, appB, silent]) {
          await t.db.kysely.insertInto('role_subscriptions').values({ account_id: acc.id, subscription_id: app.subscriptionId, role_id: app.roleId, created_at: now }).execute();
        }
      }
      const { jar, tokens } = await portalSignIn(t, email);
      const apps = new Map<string, { tokens: Tokens; sid: string }>();
      for (const app of opts.apps ?? [appA, appB, silent]) apps.set(app.name, await appSignIn(t, jar, app));
      return { id: acc.id, email, jar, portal: tokens, apps };
    }

    /** Sends what is queued; then each receiver must hold exactly the tokens expected for `p`, verified. */
    async function expectTold(p: Person, expected: { receiver: LogoutReceiver; app: SeededServiceApp; sids: (string | null)[] }[]): Promise<void> {
      const t = get();
      await t.app.oidc.logoutDeliveries.drain();
      for (const { receiver, app, sids } of expected) {
        const mine = [];
        for (const r of receiver.received) {
          const claims = await verifyLogoutToken(t, r.token!, app.name);
          if (claims.sub === p.id) mine.push(claims);
        }
        expect(mine.map((c) => c.sid ?? null).sort(), app.name).toEqual([...sids].sort());
        for (const c of mine) expect(c.aud).toBe(app.name);
      }
      expect(await t.db.kysely.selectFrom('logout_deliveries').select('id').where('account_id', '=', p.id).execute()).toEqual([]);
    }
    const sidOf = (p: Person, app: SeededServiceApp) => p.apps.get(app.name)!.sid;

    it('the session ids differ per app and are the ones the ID tokens carry', async () => {
      const p = await person();
      expect(new Set([sidOf(p, appA), sidOf(p, appB), sidOf(p, silent)]).size).toBe(3);
      // the refresh of an ID token keeps the app's sid (express-openid-connect matches on it)
      expect(decodeJwt(p.apps.get(appA.name)!.tokens.idToken).sid).toBe(sidOf(p, appA));
    });

    it('signing out in the portal: every app of the session is told with its sid, and their grants end', async () => {
      const t = get();
      const p = await person();
      const res = await t.app.inject({ method: 'POST', url: '/api/logout', headers: { authorization: p.portal.authorization } });
      expect(res.statusCode).toBe(200);
      await expectTold(p, [
        { receiver: a, app: appA, sids: [sidOf(p, appA)] },
        { receiver: b, app: appB, sids: [sidOf(p, appB)] },
      ]);
      // the apps' tokens end with the session (they were issued in it)
      expect((await userinfo(t, p.apps.get(appA.name)!.tokens)).statusCode).toBe(401);
      expect((await userinfo(t, p.apps.get(silent.name)!.tokens)).statusCode).toBe(401);
    });

    it('RP-initiated logout, "Yes": every app of the session is told', async () => {
      const t = get();
      const p = await person();
      const q = new URLSearchParams({ id_token_hint: p.apps.get(appA.name)!.tokens.idToken, post_logout_redirect_uri: 'https://a.example/' });
      const page = await t.app.inject({ method: 'GET', url: `/oidc/session/end?${q.toString()}`, headers: { cookie: p.jar.header() } });
      p.jar.store(page);
      const xsrf = /name="xsrf" value="([^"]+)"/.exec(page.body)?.[1];
      expect(xsrf).toBeTruthy();
      const confirm = await t.app.inject({ method: 'POST', url: '/oidc/session/end/confirm', headers: { cookie: p.jar.header(), 'content-type': 'application/x-www-form-urlencoded' }, payload: new URLSearchParams({ xsrf: xsrf!, logout: 'yes' }).toString() });
      expect(confirm.statusCode).toBe(303);
      expect(confirm.headers.location).toBe('https://a.example/');
      await expectTold(p, [
        { receiver: a, app: appA, sids: [sidOf(p, appA)] },
        { receiver: b, app: appB, sids: [sidOf(p, appB)] },
      ]);
    });

    it('RP-initiated logout of one app only (the person keeps the session): only that app is told', async () => {
      const t = get();
      const p = await person();
      const q = new URLSearchParams({ id_token_hint: p.apps.get(appB.name)!.tokens.idToken, post_logout_redirect_uri: 'https://b.example/' });
      const page = await t.app.inject({ method: 'GET', url: `/oidc/session/end?${q.toString()}`, headers: { cookie: p.jar.header() } });
      p.jar.store(page);
      const xsrf = /name="xsrf" value="([^"]+)"/.exec(page.body)?.[1];
      // the page's second button: no `logout` field, the provider ends this client's part of the session only
      const confirm = await t.app.inject({ method: 'POST', url: '/oidc/session/end/confirm', headers: { cookie: p.jar.header(), 'content-type': 'application/x-www-form-urlencoded' }, payload: new URLSearchParams({ xsrf: xsrf! }).toString() });
      expect(confirm.statusCode).toBe(303);
      await expectTold(p, [
        { receiver: a, app: appA, sids: [] },
        { receiver: b, app: appB, sids: [sidOf(p, appB)] },
      ]);
      expect((await userinfo(t, p.apps.get(appA.name)!.tokens)).statusCode).toBe(200);
    });

    it('an admin deactivates the user: every app is told', async () => {
      const t = get();
      const p = await person();
      const res = await t.app.inject({ method: 'PATCH', url: `/api/admin/users/${p.id}`, headers: admin.headers, payload: { status: 'INACTIVE' } });
      expect(res.statusCode, res.body).toBe(200);
      await expectTold(p, [
        { receiver: a, app: appA, sids: [sidOf(p, appA)] },
        { receiver: b, app: appB, sids: [sidOf(p, appB)] },
      ]);
    });

    it('an admin deletes the user: every app is told (sub of the deleted account)', async () => {
      const t = get();
      const p = await person();
      const res = await t.app.inject({ method: 'DELETE', url: `/api/admin/users/${p.id}`, headers: admin.headers });
      expect(res.statusCode, res.body).toBe(200);
      await expectTold(p, [
        { receiver: a, app: appA, sids: [sidOf(p, appA)] },
        { receiver: b, app: appB, sids: [sidOf(p, appB)] },
      ]);
    });

    it('an admin signs the user out everywhere: two browsers, each app told once per session; audited', async () => {
      const t = get();
      const p = await person();
      // a second browser signed in to app A only
      const other = await portalSignIn(t, p.email);
      const second = await appSignIn(t, other.jar, appA);
      expect(second.sid).not.toBe(sidOf(p, appA));
      const res = await t.app.inject({ method: 'POST', url: `/api/admin/users/${p.id}/end-sessions`, headers: admin.headers });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().data).toEqual({ id: p.id, grants_ended: 6 });
      await expectTold(p, [
        { receiver: a, app: appA, sids: [sidOf(p, appA), second.sid] },
        { receiver: b, app: appB, sids: [sidOf(p, appB)] },
      ]);
      expect((await t.app.inject({ method: 'GET', url: '/api/user', headers: { authorization: p.portal.authorization } })).statusCode).toBe(401);
      const audit = await t.db.kysely.selectFrom('audit_log').select(['action', 'target_id']).where('action', '=', 'user.sessions_ended').where('target_id', '=', p.id).execute();
      expect(audit).toHaveLength(1);
      // a manager may do it too; an unknown user is 404; a user is 403
      const manager = await actor(t, 'manager');
      expect((await t.app.inject({ method: 'POST', url: `/api/admin/users/${p.id}/end-sessions`, headers: manager.headers })).json().data).toEqual({ id: p.id, grants_ended: 0 });
      expect((await t.app.inject({ method: 'POST', url: `/api/admin/users/${randomUUID()}/end-sessions`, headers: admin.headers })).statusCode).toBe(404);
      const user = await actor(t, 'user');
      expect((await t.app.inject({ method: 'POST', url: `/api/admin/users/${p.id}/end-sessions`, headers: user.headers })).statusCode).toBe(403);
    });

    it('a password reset by mailed link: every app is told', async () => {
      const t = get();
      const p = await person();
      expect((await t.app.inject({ method: 'POST', url: '/api/forgot-password', payload: { email: p.email }, remoteAddress: '10.31.1.1' })).statusCode).toBe(200);
      const link = apiLinkOf(await smtp.waitFor(p.email, { subject: /reset/i }), '/reset-password');
      const reset = await t.app.inject({ method: 'POST', url: '/api/reset-password', payload: { url: link, password: NEW_PASSWORD, password_confirmation: NEW_PASSWORD } });
      expect(reset.statusCode, reset.body).toBe(200);
      await expectTold(p, [
        { receiver: a, app: appA, sids: [sidOf(p, appA)] },
        { receiver: b, app: appB, sids: [sidOf(p, appB)] },
      ]);
    });

    it('an admin sets the password: every app is told', async () => {
      const t = get();
      const p = await person({ apps: [appA] });
      const res = await t.app.inject({ method: 'POST', url: '/api/admin/user/change-password', headers: admin.headers, payload: { uuid: p.id, password: NEW_PASSWORD, password_confirmation: NEW_PASSWORD } });
      expect(res.statusCode, res.body).toBe(200);
      await expectTold(p, [
        { receiver: a, app: appA, sids: [sidOf(p, appA)] },
        { receiver: b, app: appB, sids: [] },
      ]);
    });

    it('the person changes the password in the portal: the apps are told (also those of the session kept), the portal session stays', async () => {
      const t = get();
      const p = await person();
      const res = await t.app.inject({ method: 'POST', url: '/api/user/change-password', headers: { authorization: p.portal.authorization }, payload: { current_password: PASSWORD, password: NEW_PASSWORD, password_confirmation: NEW_PASSWORD } });
      expect(res.statusCode, res.body).toBe(200);
      await expectTold(p, [
        { receiver: a, app: appA, sids: [sidOf(p, appA)] },
        { receiver: b, app: appB, sids: [sidOf(p, appB)] },
      ]);
      expect((await t.app.inject({ method: 'GET', url: '/api/user', headers: { authorization: p.portal.authorization } })).statusCode).toBe(200);
      expect((await userinfo(t, p.apps.get(appA.name)!.tokens)).statusCode).toBe(401);
    });
  },
  { SMTP_URL: smtp.url },
);

describeEachDb(
  'back-channel logout never holds up a sign-out',
  (get) => {
    const receivers: LogoutReceiver[] = [];
    afterAll(async () => {
      await Promise.all(receivers.map((r) => r.close()));
    });

    it('an app that hangs, one that refuses connections and one that answers 500: the sign-out answers at once; the hanging app is still being waited for', async () => {
      const t = get();
      const hang = await startLogoutReceiver({ kind: 'hang' });
      const failing = await startLogoutReceiver({ kind: 'status', status: 500 });
      receivers.push(hang, failing);
      const email = `bcl-slow-${randomUUID().slice(0, 8)}@example.com`;
      const acc = await createAccount(t, { type: 'user', email, password: PASSWORD });
      const apps = [
        await seedServiceApp(t, { members: [acc.id], url: 'https://hang.example', extra: { backchannel_logout_uri: hang.uri } }),
        await seedServiceApp(t, { members: [acc.id], url: 'https://dead.example', extra: { backchannel_logout_uri: await deadUri() } }),
        await seedServiceApp(t, { members: [acc.id], url: 'https://fail.example', extra: { backchannel_logout_uri: failing.uri } }),
      ];
      const { jar, tokens } = await portalSignIn(t, email);
      for (const app of apps) await appSignIn(t, jar, app);
      const started = performance.now();
      const res = await t.app.inject({ method: 'POST', url: '/api/logout', headers: { authorization: tokens.authorization } });
      const took = performance.now() - started;
      expect(res.statusCode).toBe(200);
      // the worker was woken and is sending: the hanging app got the POST and has not answered (timeout 20 s)
      await expect.poll(() => hang.received.length, { timeout: 10_000 }).toBe(1);
      await expect.poll(() => failing.received.length, { timeout: 10_000 }).toBe(1);
      expect(took, `sign-out took ${took.toFixed(0)} ms`).toBeLessThan(2000);
      expect(performance.now() - started).toBeLessThan(20_000);
      const rows = await t.db.kysely.selectFrom('logout_deliveries').select(['service_app_id', 'status']).where('account_id', '=', acc.id).execute();
      expect(rows).toHaveLength(3);
      // the sign-out itself is complete meanwhile: the portal token is refused
      expect((await t.app.inject({ method: 'GET', url: '/api/user', headers: { authorization: tokens.authorization } })).statusCode).toBe(401);
    });
  },
  { IAM_BACKCHANNEL_LOGOUT_TIMEOUT_MS: '20000' },
);
