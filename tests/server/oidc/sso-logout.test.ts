import { createServer as createHttpServer, type Server } from 'node:http';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import Provider from 'oidc-provider';
import { decodeJwt } from 'jose';
import type { LightMyRequestResponse } from 'fastify';
import { describeEachDb, type TestApp } from '../../helpers/app';
import { CookieJar, createAccount, exchangeCode, followToCode, pathOf, startAuthorize, type Tokens } from '../../helpers/auth';
import { Browser, freePort } from '../../helpers/http';
import { seedServiceApp, type SeededServiceApp } from '../../helpers/service-app';

/**
 * Issue 31, upstream SSO sign-out through an app: a service app's RP-initiated logout (this provider's
 * /oidc/session/end → confirm) of a session that was signed in through an upstream provider signs out at the upstream
 * too (its end_session_endpoint, with the upstream ID token as id_token_hint and our fixed post-logout URI), and the
 * browser then lands where the app's sign-out says (its post_logout_redirect_uri with its state), once. The upstream is
 * a second oidc-provider on loopback, which signs its one account in without a password form: every visit to its
 * interaction (`upstreamPrompts`) is where a real upstream would ask for the password.
 */
const upstreamPort = await freePort();
const upstreamIssuer = `http://127.0.0.1:${upstreamPort}`;
const APP_URL = 'http://localhost:3000';
const UPSTREAM_EMAIL = 'sso.logout@corp.example';
const SIGNED_OUT_URI = `${APP_URL}/api/sso/corp/signed-out`;
const APP_BYE = 'https://rp.example.com/bye';
/** How many times the upstream asked for a sign-in (its interaction). */
let upstreamPrompts = 0;

async function startUpstream(): Promise<Server> {
  const provider = new Provider(upstreamIssuer, {
    clients: [
      {
        client_id: 'iam',
        client_secret: 'upstream-secret',
        redirect_uris: [`${APP_URL}/api/sso/corp/callback`],
        post_logout_redirect_uris: [`${APP_URL}/login`, `${APP_URL}/admin/login`, SIGNED_OUT_URI],
        token_endpoint_auth_method: 'client_secret_post',
      },
    ],
    features: {
      devInteractions: { enabled: false },
      rpInitiatedLogout: {
        enabled: true,
        logoutSource: async (ctx, form) => {
          ctx.body = `<!DOCTYPE html><html><body>${form}<button type="submit" form="op.logoutForm" name="logout" value="yes">Sign out</button></body></html>`;
        },
      },
    },
    claims: { openid: ['sub'], email: ['email', 'email_verified'] },
    scopes: ['openid', 'email', 'profile'],
    cookies: { keys: ['upstream-logout-test-key'] },
    findAccount: async (_ctx, sub) => ({ accountId: sub, claims: async () => ({ sub, email: UPSTREAM_EMAIL, email_verified: true }) }),
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
      upstreamPrompts++;
      provider.interactionFinished(req, res, { login: { accountId: 'upstream-logout-subject' } }).catch((err: unknown) => {
        res.statusCode = 500;
        res.end(String(err));
      });
      return;
    }
    callback(req, res);
  });
  await new Promise<void>((resolve) => server.listen(upstreamPort, '127.0.0.1', resolve));
  return server;
}

let upstream: Server | undefined;
beforeAll(async () => {
  upstream = await startUpstream();
});
afterAll(async () => {
  await new Promise((r) => upstream?.close(r));
});

const setCookies = (res: LightMyRequestResponse): string[] => {
  const raw = res.headers['set-cookie'];
  return Array.isArray(raw) ? raw : raw ? [raw] : [];
};
const formAction = (res: LightMyRequestResponse): string => /form-action([^;]*)/.exec(String(res.headers['content-security-policy'] ?? ''))?.[1] ?? '';

describeEachDb(
  'upstream SSO sign-out through an app (RP-initiated logout)',
  (get) => {
    let app: SeededServiceApp;

    beforeAll(async () => {
      const t = get();
      const acct = await createAccount(t, { type: 'user', email: UPSTREAM_EMAIL, password: null, auth_type: 'SSO', provider: 'corp' });
      app = await seedServiceApp(t, { members: [acct.id], redirectUris: ['https://rp.example.com/cb'], postLogoutRedirectUris: [APP_BYE] });
    });

    /**
     * Signs in to the app through the upstream as one browser: `jar` holds its cookies here, `upstreamBrowser` at the
     * upstream (so an upstream session carries over between sign-ins, as in a real browser).
     */
    async function ssoSignIn(t: TestApp, upstreamBrowser: Browser, jar = new CookieJar()): Promise<{ jar: CookieJar; tokens: Tokens }> {
      const start = await startAuthorize(t, { client: app.name, redirectUri: app.redirectUri, scope: 'openid', jar });
      expect(start.interaction).toBeTruthy();
      const go = await t.app.inject({ method: 'GET', url: `/api/sso/corp/start?interaction=${start.interaction}`, headers: { cookie: jar.header() } });
      jar.store(go);
      let url = String(go.headers.location);
      for (let i = 0; i < 6 && url.startsWith(upstreamIssuer); i++) {
        const r = await upstreamBrowser.go(url);
        url = new URL(String(r.headers.get('location')), upstreamIssuer).href;
      }
      expect(url.startsWith(`${APP_URL}/api/sso/corp/callback?`)).toBe(true);
      const cb = await t.app.inject({ method: 'GET', url: pathOf(url), headers: { cookie: jar.header() } });
      jar.store(cb);
      const { code } = await followToCode(t, start, String(cb.headers.location));
      return { jar, tokens: await exchangeCode(t, start, String(code)) };
    }

    /** The app sends the browser to our end_session_endpoint; its page confirms ("Yes": the whole session, else this app only). */
    async function rpLogout(t: TestApp, jar: CookieJar, params: Record<string, string>, whole = true) {
      const page = await t.app.inject({ method: 'GET', url: `/oidc/session/end?${new URLSearchParams(params)}`, headers: { cookie: jar.header() } });
      expect(page.statusCode).toBe(200);
      jar.store(page);
      const xsrf = /name="xsrf" value="([^"]+)"/.exec(page.body)?.[1];
      expect(xsrf).toBeTruthy();
      const confirm = await t.app.inject({
        method: 'POST',
        url: '/oidc/session/end/confirm',
        headers: { cookie: jar.header(), 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams({ xsrf: String(xsrf), ...(whole ? { logout: 'yes' } : {}) }).toString(),
      });
      expect(confirm.statusCode).toBe(303);
      jar.store(confirm);
      return { page, confirm, location: String(confirm.headers.location) };
    }

    /** At the upstream's sign-out page: confirms it; answers where the upstream sends the browser. */
    async function upstreamSignOut(upstreamBrowser: Browser, url: string): Promise<string> {
      const page = await upstreamBrowser.go(url);
      const body = await page.text();
      expect(page.status, body.slice(0, 300)).toBe(200);
      const xsrf = /name="xsrf" value="([^"]+)"/.exec(body)?.[1];
      expect(xsrf).toBeTruthy();
      const done = await upstreamBrowser.go(`${upstreamIssuer}/session/end/confirm`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ xsrf: String(xsrf), logout: 'yes' }).toString(),
      });
      expect(done.status).toBe(303);
      return String(done.headers.get('location'));
    }

    const returnTo = (t: TestApp, url: string, jar: CookieJar | string) =>
      t.app.inject({ method: 'GET', url: pathOf(url), headers: { cookie: typeof jar === 'string' ? jar : jar.header() } });
    const upstreamRecords = async (t: TestApp) => (await t.db.kysely.selectFrom('oidc_models').select('id').where('model', '=', 'UpstreamSignIn').execute()).length;

    it("an app's sign-out of an SSO session signs out at the upstream, then lands on the app's post-logout URI with its state, once; the next SSO sign-in asks upstream again", async () => {
      const t = get();
      const upstreamBrowser = new Browser();
      const before = upstreamPrompts;
      const { jar, tokens } = await ssoSignIn(t, upstreamBrowser);
      expect(upstreamPrompts).toBe(before + 1);
      // the control: another sign-in in this browser (a new session here) goes through upstream without being asked
      await ssoSignIn(t, upstreamBrowser);
      expect(upstreamPrompts).toBe(before + 1);

      const { page, confirm, location } = await rpLogout(t, jar, { id_token_hint: tokens.idToken, post_logout_redirect_uri: APP_BYE, state: 'bye-1' });
      // the logout page may send its form on to the upstream (browsers apply form-action to the redirects after it)
      expect(formAction(page)).toContain(upstreamIssuer);
      const upstreamEnd = new URL(location);
      expect(`${upstreamEnd.origin}${upstreamEnd.pathname}`).toBe(`${upstreamIssuer}/session/end`);
      expect(upstreamEnd.searchParams.get('post_logout_redirect_uri')).toBe(SIGNED_OUT_URI);
      expect(decodeJwt(String(upstreamEnd.searchParams.get('id_token_hint')))).toMatchObject({ iss: upstreamIssuer, aud: 'iam', sub: 'upstream-logout-subject' });
      const sentState = upstreamEnd.searchParams.get('state');
      expect(sentState).toMatch(/^[\w-]{20,}$/);
      // the app's target is not in the URL that leaves for the upstream; this browser holds the key to it
      expect(location).not.toContain('rp.example.com');
      const cookie = setCookies(confirm).find((c) => c.startsWith('iam_sso_logout='));
      expect(cookie).toMatch(/; Path=\/api\/sso\/; .*HttpOnly/i);
      expect(cookie).toMatch(/SameSite=Lax/i);
      // signed out here already: the grant of the app's tokens is gone
      const gid = String(decodeJwt(tokens.accessToken).gid);
      expect(await t.db.kysely.selectFrom('oidc_models').select('id').where('model', '=', 'Grant').where('id', '=', gid).execute()).toEqual([]);

      const back = await upstreamSignOut(upstreamBrowser, location);
      expect(back).toBe(`${SIGNED_OUT_URI}?state=${sentState}`);
      const held = jar.header();
      const landed = await returnTo(t, back, jar);
      expect(landed.statusCode).toBe(302);
      expect(landed.headers.location).toBe(`${APP_BYE}?state=bye-1`);
      expect(setCookies(landed).some((c) => /^iam_sso_logout=;.*Max-Age=0/.test(c))).toBe(true);
      expect(landed.headers['cache-control']).toBe('no-store');
      // exactly once: the same return again (a reload, or the cookie kept) goes to our signed-out page
      const again = await returnTo(t, back, held);
      expect(again.headers.location).toBe(`${t.config.issuer}/session/end/success`);
      expect((await t.app.inject({ method: 'GET', url: pathOf(String(again.headers.location)) })).statusCode).toBe(200);

      // the upstream session is over: the next SSO sign-in in this browser is asked for there again
      await ssoSignIn(t, upstreamBrowser);
      expect(upstreamPrompts).toBe(before + 2);
    });

    it("without a post-logout URI the app's sign-out ends on our signed-out page, after the upstream; a return without state (an upstream that drops it) still leads back", async () => {
      const t = get();
      const upstreamBrowser = new Browser();
      const { jar, tokens } = await ssoSignIn(t, upstreamBrowser);
      const { location } = await rpLogout(t, jar, { id_token_hint: tokens.idToken });
      expect(location.startsWith(`${upstreamIssuer}/session/end?`)).toBe(true);
      const back = new URL(await upstreamSignOut(upstreamBrowser, location));
      expect(back.searchParams.get('state')).toBeTruthy();
      // as an upstream that does not hand `state` back would send it: the cookie alone leads back
      back.searchParams.delete('state');
      const landed = await returnTo(t, back.href, jar);
      expect(landed.headers.location).toBe(`${t.config.issuer}/session/end/success`);
      const before = upstreamPrompts;
      await ssoSignIn(t, upstreamBrowser);
      expect(upstreamPrompts).toBe(before + 1);
    });

    it('a forged, foreign or replayed return to the fixed URI goes to our signed-out page, never to a URI it names; the real one still works once', async () => {
      const t = get();
      const upstreamBrowser = new Browser();
      const { jar, tokens } = await ssoSignIn(t, upstreamBrowser);
      const { location } = await rpLogout(t, jar, { id_token_hint: tokens.idToken, post_logout_redirect_uri: APP_BYE, state: 'bye-2' });
      const state = String(new URL(location).searchParams.get('state'));
      const key = jar.cookies.get('iam_sso_logout');
      expect(key).toBeTruthy();
      const signedOut = `${t.config.issuer}/session/end/success`;
      const evil = encodeURIComponent('https://evil.example/steal');
      // [url, cookie, whether the browser keeps its cookie (a live way back this return did not match)]
      const refused: Array<[string, string, boolean]> = [
        [`/api/sso/corp/signed-out?state=${state}`, '', false], // another browser: no cookie
        [`/api/sso/corp/signed-out?state=${state}`, `iam_sso_logout=${randomBytes(32).toString('base64url')}`, false], // a key never issued
        [`/api/sso/corp/signed-out?state=wrong-state`, `iam_sso_logout=${key}`, true], // not the state sent upstream
        [`/api/sso/corpkeep/signed-out?state=${state}`, `iam_sso_logout=${key}`, true], // another provider's return
        [`/api/sso/nope/signed-out?state=${state}`, `iam_sso_logout=${key}`, true], // an unknown provider
        [`/api/sso/corp/signed-out?post_logout_redirect_uri=${evil}&redirect_uri=${evil}&target=${evil}&state=${state}x`, `iam_sso_logout=${key}`, true],
        [`/api/sso/corp/signed-out?post_logout_redirect_uri=${evil}`, '', false],
      ];
      for (const [url, cookie, keeps] of refused) {
        const res = await t.app.inject({ method: 'GET', url, headers: cookie ? { cookie } : {} });
        expect(res.statusCode, url).toBe(302);
        expect(res.headers.location, `${url} ${cookie}`).toBe(signedOut);
        expect(setCookies(res).some((c) => c.startsWith('iam_sso_logout=;')), `${url} ${cookie}`).toBe(!keeps);
      }
      // none of them used the way back up: the browser that holds it, with the upstream's state, goes to the app
      const landed = await t.app.inject({ method: 'GET', url: `/api/sso/corp/signed-out?state=${state}&post_logout_redirect_uri=${evil}`, headers: { cookie: `iam_sso_logout=${key}` } });
      expect(landed.headers.location).toBe(`${APP_BYE}?state=bye-2`);
      // and only once
      expect((await t.app.inject({ method: 'GET', url: `/api/sso/corp/signed-out?state=${state}`, headers: { cookie: `iam_sso_logout=${key}` } })).headers.location).toBe(signedOut);

      // a kept way back past its lifetime is gone
      const second = await ssoSignIn(t, upstreamBrowser);
      const out2 = await rpLogout(t, second.jar, { id_token_hint: second.tokens.idToken, post_logout_redirect_uri: APP_BYE, state: 'bye-3' });
      const key2 = String(second.jar.cookies.get('iam_sso_logout'));
      await t.db.kysely.updateTable('oidc_models').set({ expires_at: Math.floor(Date.now() / 1000) - 1 }).where('model', '=', 'SsoLogoutReturn').where('id', '=', key2).execute();
      const late = await t.app.inject({ method: 'GET', url: `/api/sso/corp/signed-out?state=${new URL(out2.location).searchParams.get('state')}`, headers: { cookie: `iam_sso_logout=${key2}` } });
      expect(late.headers.location).toBe(signedOut);

      // two sign-outs racing for one way back: exactly one goes to the app
      const third = await ssoSignIn(t, upstreamBrowser);
      const out3 = await rpLogout(t, third.jar, { id_token_hint: third.tokens.idToken, post_logout_redirect_uri: APP_BYE, state: 'bye-4' });
      const url3 = `/api/sso/corp/signed-out?state=${new URL(out3.location).searchParams.get('state')}`;
      const cookie3 = `iam_sso_logout=${String(third.jar.cookies.get('iam_sso_logout'))}`;
      const raced = await Promise.all(Array.from({ length: 4 }, () => t.app.inject({ method: 'GET', url: url3, headers: { cookie: cookie3 } })));
      expect(raced.map((r) => r.headers.location).filter((l) => l === `${APP_BYE}?state=bye-4`)).toHaveLength(1);
    });

    it("a session without SSO signs out as before; \"this app only\" keeps the SSO session and its upstream; the portal's sign-out afterwards still goes upstream", async () => {
      const t = get();
      const pwEmail = `pw-${t.kind}-${randomBytes(3).toString('hex')}@example.com`;
      const pw = await createAccount(t, { type: 'user', email: pwEmail, password: 'Correct-Horse1!x' });
      await t.db.kysely.insertInto('role_subscriptions').values({ account_id: pw.id, subscription_id: app.subscriptionId, role_id: app.roleId, created_at: new Date().toISOString() }).execute();
      const start = await startAuthorize(t, { client: app.name, redirectUri: app.redirectUri, scope: 'openid' });
      const login = await t.app.inject({ method: 'POST', url: '/api/login', headers: { cookie: start.jar.header() }, payload: { email: pwEmail, password: 'Correct-Horse1!x', interaction: start.interaction } });
      expect(login.statusCode).toBe(200);
      const { code } = await followToCode(t, start, login.json().data.redirect_to);
      const tokens = await exchangeCode(t, start, String(code));
      const plain = await rpLogout(t, start.jar, { id_token_hint: tokens.idToken, post_logout_redirect_uri: APP_BYE, state: 'pw' });
      expect(plain.location).toBe(`${APP_BYE}?state=pw`);
      expect(setCookies(plain.confirm).some((c) => c.startsWith('iam_sso_logout='))).toBe(false);
      expect(formAction(plain.page)).not.toContain(upstreamIssuer);

      // "No": only the app's part of an SSO session ends; the session and its upstream sign-in stay
      const upstreamBrowser = new Browser();
      const sso = await ssoSignIn(t, upstreamBrowser);
      const records = await upstreamRecords(t);
      const appOnly = await rpLogout(t, sso.jar, { id_token_hint: sso.tokens.idToken, post_logout_redirect_uri: APP_BYE, state: 'app-only' }, false);
      expect(appOnly.location).toBe(`${APP_BYE}?state=app-only`);
      expect(await upstreamRecords(t)).toBe(records);
      // the portal, signed in through the same session, signs out later: that one goes upstream (POST /api/logout)
      const portal = await startAuthorize(t, { client: 'portal', jar: sso.jar });
      const portalCode = (await followToCode(t, portal, portal.location)).code;
      const portalTokens = await exchangeCode(t, portal, String(portalCode));
      const out = await t.app.inject({ method: 'POST', url: '/api/logout', headers: { authorization: portalTokens.authorization } });
      expect(new URL(String(out.json().data.upstream_logout_url)).searchParams.get('post_logout_redirect_uri')).toBe(`${APP_URL}/login`);
      expect(await upstreamRecords(t)).toBe(records - 1);
    });
  },
  {
    SSO_PROVIDERS: JSON.stringify([
      { id: 'corp', name: 'Corp IdP', issuer: upstreamIssuer, client_id: 'iam', client_secret: 'upstream-secret' },
      { id: 'corpkeep', name: 'Corp Keep', issuer: upstreamIssuer, client_id: 'iam', client_secret: 'upstream-secret', end_session: false },
    ]),
  },
);
