/**
 * Sessions and devices (issue 33): the list of one's live sessions, ending one or all others, an admin's view and
 * "end", the audit records, the back-channel logout of the ended session's apps, the new-device mail and the place
 * header. Every sign-in goes through the real flow (authorize → POST /api/login → the provider's redirects → token
 * endpoint) with its own cookie jar (one browser each) and User-Agent.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeEachDb, type TestApp } from '../../helpers/app';
import { createAccount, CookieJar, exchangeCode, followToCode, refresh, startAuthorize, type Tokens } from '../../helpers/auth';
import { seedServiceApp } from '../../helpers/service-app';
import { startSmtp } from '../../helpers/smtp';
import { startLogoutReceiver, verifyLogoutToken, type LogoutReceiver } from '../../helpers/logout-receiver';
import { actor, type Actor } from '../admin/fixtures';
import { DEVICE_COOKIE } from '../../../server/services/sessions';

const PASSWORD = 'Str0ng!Passw0rd#';
const FIREFOX_WIN = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0';
const SAFARI_IPHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1';
const CHROME_MAC = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';

const smtp = await startSmtp();
afterAll(() => smtp.close());

interface Browser {
  jar: CookieJar;
  tokens: Tokens;
}

/** One browser (its jar and User-Agent) signs in to the portal (or the admin console) through the real flow. */
async function signInAs(t: TestApp, email: string, opts: { ua: string; jar?: CookieJar; client?: 'portal' | 'admin-console'; headers?: Record<string, string> }): Promise<Browser> {
  const jar = opts.jar ?? new CookieJar();
  const client = opts.client ?? 'portal';
  // a browser signed in already is asked again (prompt=login), as after "sign in again"
  const start = await startAuthorize(t, { jar, client, ...(opts.jar ? { extra: { prompt: 'login' } } : {}) });
  const url = client === 'admin-console' ? '/api/admin/login' : '/api/login';
  const login = await t.app.inject({ method: 'POST', url, headers: { cookie: jar.header(), 'user-agent': opts.ua, ...opts.headers }, payload: { email, password: PASSWORD, interaction: start.interaction } });
  expect(login.statusCode, login.body).toBe(200);
  const { code } = await followToCode(t, start, login.json<{ data: { redirect_to: string } }>().data.redirect_to);
  return { jar, tokens: await exchangeCode(t, start, code!) };
}

const auth = (b: Browser) => ({ authorization: b.tokens.authorization });
const list = (t: TestApp, b: Browser, kind: 'user' | 'admin' = 'user') => t.app.inject({ method: 'GET', url: `/api/${kind}/sessions`, headers: auth(b) });
type SessionJson = { id: string; current: boolean; browser: string | null; os: string | null; device_type: string; ip_address: string | null; place: string | null; apps: { client_id: string; name: string | null }[]; signed_in_at: string; last_used_at: string };
const sessionsOf = async (t: TestApp, b: Browser, kind: 'user' | 'admin' = 'user'): Promise<SessionJson[]> => {
  const res = await list(t, b, kind);
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ data: SessionJson[] }>().data;
};
const newEmail = (p: string) => `${p}-${randomUUID().slice(0, 8)}@example.com`;

describeEachDb(
  'sessions and devices',
  (get) => {
    let admin: Actor;
    beforeAll(async () => {
      admin = await actor(get(), 'super_admin');
    });

    async function person(locale = 'en') {
      const email = newEmail('ses');
      const account = await createAccount(get(), { type: 'user', email, password: PASSWORD, locale });
      return { email, account };
    }

    it('lists the live sessions: device and browser, address, apps, "this device" on the caller’s own', async () => {
      const t = get();
      const { email } = await person();
      const one = await signInAs(t, email, { ua: FIREFOX_WIN });
      const two = await signInAs(t, email, { ua: SAFARI_IPHONE });
      const fromTwo = await sessionsOf(t, two);
      expect(fromTwo).toHaveLength(2);
      expect(fromTwo[0]).toMatchObject({ current: true, browser: 'Safari', os: 'iOS', device_type: 'mobile', place: null, apps: [{ client_id: 'portal', name: null }] });
      expect(fromTwo[1]).toMatchObject({ current: false, browser: 'Firefox', os: 'Windows', device_type: 'desktop' });
      expect(fromTwo[1]!.ip_address).toBeTruthy();
      const fromOne = await sessionsOf(t, one);
      expect(fromOne.map((s) => [s.browser, s.current])).toEqual([
        ['Firefox', true],
        ['Safari', false],
      ]);
      // the same ids in both views
      expect(new Set(fromOne.map((s) => s.id))).toEqual(new Set(fromTwo.map((s) => s.id)));
    });

    it('ending a session ends its grant: its access token is refused on /api at once (this instance) and its refresh token fails', async () => {
      const t = get();
      const { email } = await person();
      const one = await signInAs(t, email, { ua: FIREFOX_WIN });
      const two = await signInAs(t, email, { ua: CHROME_MAC });
      // one's token is in the auth cache now
      expect((await t.app.inject({ method: 'GET', url: '/api/user', headers: auth(one) })).statusCode).toBe(200);
      const target = (await sessionsOf(t, two)).find((s) => !s.current)!;
      const res = await t.app.inject({ method: 'DELETE', url: `/api/user/sessions/${target.id}`, headers: auth(two) });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toEqual({ data: { ended: 1 } });
      expect((await t.app.inject({ method: 'GET', url: '/api/user', headers: auth(one) })).statusCode).toBe(401);
      const r = await refresh(t, one.tokens.refreshToken);
      expect(r.statusCode).toBe(400);
      expect(r.json()).toMatchObject({ error: 'invalid_grant' });
      // the browser's provider session is gone: a new authorization asks for a sign-in again
      expect((await startAuthorize(t, { jar: one.jar })).interaction).toBeTruthy();
      // the other one lives on
      expect((await sessionsOf(t, two)).map((s) => s.current)).toEqual([true]);
      const audit = await t.db.kysely.selectFrom('audit_log').selectAll().where('action', '=', 'user.session_ended').where('target_id', '=', (await t.db.kysely.selectFrom('accounts').select('id').where('email', '=', email).executeTakeFirstOrThrow()).id).execute();
      expect(audit).toHaveLength(1);
      expect(JSON.parse(audit[0]!.after!)).toMatchObject({ session: target.id, device: 'Firefox on Windows' });
    });

    it('"end all others" keeps this browser’s session and ends every other one', async () => {
      const t = get();
      const { email } = await person();
      const a = await signInAs(t, email, { ua: FIREFOX_WIN });
      const b = await signInAs(t, email, { ua: SAFARI_IPHONE });
      const c = await signInAs(t, email, { ua: CHROME_MAC });
      const res = await t.app.inject({ method: 'POST', url: '/api/user/sessions/end-others', headers: auth(b) });
      expect(res.json()).toEqual({ data: { ended: 2 } });
      const left = await sessionsOf(t, b);
      expect(left.map((s) => [s.browser, s.current])).toEqual([['Safari', true]]);
      for (const gone of [a, c]) expect((await t.app.inject({ method: 'POST', url: '/api/logout', headers: auth(gone) })).statusCode).toBe(401);
    });

    it('IDOR: no user sees or ends another user’s session (404 session_not_found, the session lives on)', async () => {
      const t = get();
      const mallory = await signInAs(t, (await person()).email, { ua: FIREFOX_WIN });
      const victim = await signInAs(t, (await person()).email, { ua: CHROME_MAC });
      const victimSession = (await sessionsOf(t, victim))[0]!;
      expect((await sessionsOf(t, mallory)).map((s) => s.id)).not.toContain(victimSession.id);
      const res = await t.app.inject({ method: 'DELETE', url: `/api/user/sessions/${victimSession.id}`, headers: { ...auth(mallory), 'accept-language': 'de' } });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toMatchObject({ error: { code: 'session_not_found', message: 'Keine solche Sitzung (sie ist womöglich schon beendet)' } });
      // the admin endpoints are not the user's
      const victimId = (await t.db.kysely.selectFrom('oidc_models').select('account_id').where('uid', '=', victimSession.id).executeTakeFirstOrThrow()).account_id!;
      expect((await t.app.inject({ method: 'GET', url: `/api/admin/users/${victimId}/sessions`, headers: auth(mallory) })).statusCode).toBe(403);
      expect((await t.app.inject({ method: 'DELETE', url: `/api/admin/users/${victimId}/sessions/${victimSession.id}`, headers: auth(mallory) })).statusCode).toBe(403);
      // an admin's own "sessions" endpoints are not a user's either
      expect((await t.app.inject({ method: 'GET', url: '/api/admin/sessions', headers: auth(mallory) })).statusCode).toBe(403);
      expect((await sessionsOf(t, victim)).map((s) => s.id)).toEqual([victimSession.id]);
      expect((await t.app.inject({ method: 'GET', url: '/api/user', headers: auth(victim) })).statusCode).toBe(200);
      // and an admin naming another user's session under the wrong user id gets 404
      const other = await person();
      const wrong = await t.app.inject({ method: 'DELETE', url: `/api/admin/users/${other.account.id}/sessions/${victimSession.id}`, headers: admin.headers });
      expect(wrong.statusCode).toBe(404);
      expect(wrong.json()).toMatchObject({ error: { code: 'session_not_found' } });
      expect((await sessionsOf(t, victim)).map((s) => s.id)).toEqual([victimSession.id]);
    });

    it('admins list a user’s sessions and end one: audited, the session’s apps get a back-channel logout', async () => {
      const t = get();
      const receiver: LogoutReceiver = await startLogoutReceiver();
      try {
        const { email, account } = await person();
        const app = await seedServiceApp(t, { members: [account.id], url: 'https://ses.example', extra: { backchannel_logout_uri: receiver.uri } });
        const one = await signInAs(t, email, { ua: FIREFOX_WIN });
        // the same browser signs in to the service app by single sign-on: the app joins the session
        const start = await startAuthorize(t, { client: app.name, redirectUri: app.redirectUri, jar: one.jar, scope: 'openid' });
        const { code } = await followToCode(t, start, new URL(start.location, t.config.appUrl).href);
        await exchangeCode(t, start, code!);
        const two = await signInAs(t, email, { ua: CHROME_MAC });
        const res = await t.app.inject({ method: 'GET', url: `/api/admin/users/${account.id}/sessions`, headers: admin.headers });
        expect(res.statusCode).toBe(200);
        const seen = res.json<{ data: SessionJson[] }>().data;
        expect(seen.every((s) => !s.current)).toBe(true);
        const withApp = seen.find((s) => s.browser === 'Firefox')!;
        expect(withApp.apps).toEqual([
          { client_id: 'portal', name: null },
          { client_id: app.name, name: expect.stringMatching(/^Service /) },
        ]);
        const end = await t.app.inject({ method: 'DELETE', url: `/api/admin/users/${account.id}/sessions/${withApp.id}`, headers: admin.headers });
        expect(end.statusCode, end.body).toBe(200);
        await t.app.oidc.logoutDeliveries.drain();
        const told = [];
        for (const r of receiver.received) told.push(await verifyLogoutToken(t, r.token!, app.name));
        expect(told.map((c) => c.sub)).toEqual([account.id]);
        expect((await t.app.inject({ method: 'GET', url: '/api/user', headers: auth(one) })).statusCode).toBe(401);
        expect((await t.app.inject({ method: 'GET', url: '/api/user', headers: auth(two) })).statusCode).toBe(200);
        const audit = await t.db.kysely.selectFrom('audit_log').selectAll().where('action', '=', 'user.session_ended').where('target_id', '=', account.id).executeTakeFirstOrThrow();
        expect(audit.actor_id).toBe(admin.account.id);
        // "end all" is the existing end-sessions (audited user.sessions_ended)
        expect((await t.app.inject({ method: 'POST', url: `/api/admin/users/${account.id}/end-sessions`, headers: admin.headers })).statusCode).toBe(200);
        expect((await t.app.inject({ method: 'GET', url: `/api/admin/users/${account.id}/sessions`, headers: admin.headers })).json()).toEqual({ data: [] });
        // an unknown user is 404 user_not_found, an admin account too (this view is for users)
        for (const id of [randomUUID(), admin.account.id]) {
          const r = await t.app.inject({ method: 'GET', url: `/api/admin/users/${id}/sessions`, headers: admin.headers });
          expect(r.statusCode).toBe(404);
          expect(r.json()).toMatchObject({ error: { code: 'user_not_found' } });
        }
      } finally {
        await receiver.close();
      }
    });

    it('admins have their own list on /api/admin/sessions', async () => {
      const t = get();
      const email = newEmail('ses-adm');
      await createAccount(t, { type: 'admin', email, password: PASSWORD });
      const b = await signInAs(t, email, { ua: CHROME_MAC, client: 'admin-console' });
      const mine = await sessionsOf(t, b, 'admin');
      expect(mine).toMatchObject([{ current: true, browser: 'Chrome', os: 'macOS', apps: [{ client_id: 'admin-console', name: null }] }]);
      // a user's endpoints are not an admin's
      expect((await list(t, b, 'user')).statusCode).toBe(403);
    });

    it('last used moves on a token refresh, at most once a minute', async () => {
      const t = get();
      const { email } = await person();
      const b = await signInAs(t, email, { ua: FIREFOX_WIN });
      const [s] = await sessionsOf(t, b);
      const old = new Date(Date.now() - 5 * 60_000).toISOString();
      await t.db.kysely.updateTable('account_sessions').set({ last_used_at: old }).where('uid', '=', s!.id).execute();
      const r = await refresh(t, b.tokens.refreshToken);
      expect(r.statusCode).toBe(200);
      // written after the token answer (the provider's grant.success event, not awaited): PostgreSQL may land it a moment later
      const lastUsed = async () => (await t.db.kysely.selectFrom('account_sessions').select('last_used_at').where('uid', '=', s!.id).executeTakeFirstOrThrow()).last_used_at;
      await expect.poll(lastUsed, { timeout: 5_000 }).not.toBe(old);
      const moved = { last_used_at: await lastUsed() };
      expect(moved.last_used_at > old).toBe(true);
      // within the minute: not written again
      const r2 = await refresh(t, r.json<{ refresh_token: string }>().refresh_token);
      expect(r2.statusCode).toBe(200);
      expect((await t.db.kysely.selectFrom('account_sessions').select('last_used_at').where('uid', '=', s!.id).executeTakeFirstOrThrow()).last_used_at).toBe(moved.last_used_at);
    });

    it('new device: no mail on the first sign-in nor from a known browser; a new browser or another browser family with the same cookie is mailed, in the person’s language', async () => {
      const t = get();
      const { email } = await person('de');
      const first = await signInAs(t, email, { ua: FIREFOX_WIN });
      expect(first.jar.cookies.has(DEVICE_COOKIE)).toBe(true);
      // the same browser again (its device cookie), a newer Firefox: known
      await signInAs(t, email, { ua: FIREFOX_WIN.replaceAll('133.0', '134.0'), jar: first.jar });
      // a new browser: mailed
      await signInAs(t, email, { ua: CHROME_MAC });
      const mail = await smtp.waitFor(email);
      expect(mail.subject).toBe('Neue Anmeldung bei IAM mit Chrome unter macOS');
      expect(mail.text).toContain('Chrome unter macOS');
      expect(mail.text).toMatch(/UTC, Adresse /);
      expect(mail.links).toContain(`${t.config.appUrl}/profile#sessions`);
      // the first device's cookie copied into another browser family: mailed too
      const copied = new CookieJar();
      for (const [k, v] of first.jar.cookies) if (k.startsWith(DEVICE_COOKIE)) copied.cookies.set(k, v);
      await signInAs(t, email, { ua: SAFARI_IPHONE, jar: copied });
      await smtp.waitFor(email, { subject: /Safari unter iOS/ });
      expect(smtp.mails.filter((m) => m.to.includes(email))).toHaveLength(2);
    });

    it('a forged device cookie counts as no cookie (a new device)', async () => {
      const t = get();
      const { email } = await person();
      const first = await signInAs(t, email, { ua: FIREFOX_WIN });
      const forged = new CookieJar();
      forged.cookies.set(DEVICE_COOKIE, first.jar.cookies.get(DEVICE_COOKIE)!);
      forged.cookies.set(`${DEVICE_COOKIE}.sig`, 'AAAAAAAAAAAAAAAAAAAAAAAAAAA');
      await signInAs(t, email, { ua: FIREFOX_WIN, jar: forged });
      const mail = await smtp.waitFor(email);
      expect(mail.subject).toBe('New sign-in to IAM from Firefox on Windows');
    });
  },
  { SMTP_URL: smtp.url, IAM_RATE_LIMIT_PER_MINUTE: '100000' },
);

describe('the place header', () => {
  describeEachDb(
    'with IAM_PLACE_HEADER=CF-IPCountry',
    (get) => {
      it('shows the country the proxy named; ignores anything but a two-letter code', async () => {
        const t = get();
        const email = newEmail('ses-pl');
        await createAccount(t, { type: 'user', email, password: PASSWORD });
        const b = await signInAs(t, email, { ua: FIREFOX_WIN, headers: { 'cf-ipcountry': 'ch' } });
        await signInAs(t, email, { ua: CHROME_MAC, headers: { 'cf-ipcountry': 'XX' } });
        await signInAs(t, email, { ua: SAFARI_IPHONE, headers: { 'cf-ipcountry': '<script>' } });
        const places = (await sessionsOf(t, b)).map((s) => [s.browser, s.place]);
        expect(places).toEqual(
          expect.arrayContaining([
            ['Firefox', 'CH'],
            ['Chrome', null],
            ['Safari', null],
          ]),
        );
      });
    },
    { IAM_PLACE_HEADER: 'CF-IPCountry', IAM_RATE_LIMIT_PER_MINUTE: '100000' },
  );
  describeEachDb(
    'without it',
    (get) => {
      it('shows no place, whatever the request says', async () => {
        const t = get();
        const email = newEmail('ses-np');
        await createAccount(t, { type: 'user', email, password: PASSWORD });
        const b = await signInAs(t, email, { ua: FIREFOX_WIN, headers: { 'cf-ipcountry': 'CH' } });
        expect((await sessionsOf(t, b))[0]!.place).toBeNull();
      });
    },
    { IAM_RATE_LIMIT_PER_MINUTE: '100000' },
  );
});
