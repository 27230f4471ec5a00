import { createServer as createHttpServer, type Server } from 'node:http';
import { afterAll, beforeAll, expect, it } from 'vitest';
import Provider from 'oidc-provider';
import { describeEachDb } from '../../helpers/app';
import { decodeJwt } from 'jose';
import { CookieJar, createAccount, exchangeCode, followToCode, pathOf, signIn, startAuthorize } from '../../helpers/auth';
import { Browser, freePort } from '../../helpers/http';
import { actor } from '../admin/fixtures';

/**
 * A tiny upstream identity provider: a second oidc-provider on loopback with one fixed account and
 * automatic sign-in + consent.
 */
const upstreamPort = await freePort();
const upstreamIssuer = `http://127.0.0.1:${upstreamPort}`;
const APP_URL = 'http://localhost:3000';
const UPSTREAM_EMAIL = 'sso.user@corp.example';
/** What the upstream says of the address: true, false, or nothing (the claim left out). */
let upstreamVerified: boolean | undefined = true;
/** The address the upstream sends (undefined: none). */
let upstreamEmail: string | undefined = UPSTREAM_EMAIL;
/** `ui_locales` of the last authorization request the upstream provider received. */
let upstreamUiLocales: string | null = null;
/** `login_hint` of the last authorization request the upstream provider received. */
let upstreamLoginHint: string | null = null;
/** How our server authenticated at the upstream token endpoint last time: HTTP Basic or the secret in the body. */
let upstreamTokenAuth: 'basic' | 'post' | null = null;

async function startUpstream(): Promise<Server> {
  const provider = new Provider(upstreamIssuer, {
    clients: [
      {
        client_id: 'iam',
        client_secret: 'upstream-secret',
        redirect_uris: [`${APP_URL}/api/sso/corp/callback`],
        post_logout_redirect_uris: [`${APP_URL}/login`, `${APP_URL}/admin/login`],
        token_endpoint_auth_method: 'client_secret_post',
      },
      // registered for HTTP Basic only: a secret in the body is refused (SSO_PROVIDERS token_endpoint_auth_method)
      { client_id: 'iam-basic', client_secret: 'basic-secret', redirect_uris: [`${APP_URL}/api/sso/corpbasic/callback`], token_endpoint_auth_method: 'client_secret_basic' },
      { client_id: 'iam-lax', client_secret: 'lax-secret', redirect_uris: [`${APP_URL}/api/sso/corplax/callback`], token_endpoint_auth_method: 'client_secret_post' },
    ],
    features: { devInteractions: { enabled: false } },
    claims: { openid: ['sub'], email: ['email', 'email_verified'] },
    scopes: ['openid', 'email', 'profile'],
    cookies: { keys: ['upstream-test-key'] },
    findAccount: async (_ctx, sub) => ({
      accountId: sub,
      claims: async () => ({ sub, ...(upstreamEmail === undefined ? {} : { email: upstreamEmail }), ...(upstreamVerified === undefined ? {} : { email_verified: upstreamVerified }) }),
    }),
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
    if (req.url?.startsWith('/auth?')) {
      upstreamUiLocales = new URL(req.url, upstreamIssuer).searchParams.get('ui_locales');
      upstreamLoginHint = new URL(req.url, upstreamIssuer).searchParams.get('login_hint');
    }
    if (req.method === 'POST' && req.url?.startsWith('/token')) upstreamTokenAuth = req.headers.authorization?.startsWith('Basic ') ? 'basic' : 'post';
    if (req.url?.startsWith('/interaction/')) {
      provider.interactionFinished(req, res, { login: { accountId: 'upstream-subject-1' } }).catch((err: unknown) => {
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

describeEachDb(
  'upstream SSO (the server as relying party)',
  (get) => {
    /**
     * Drives the browser: our start → upstream (auto sign-in) → our callback; returns our callback's redirect.
     * `jar`: the browser's cookies for our app (the `iam_sso` cookie set by start goes with the callback).
     */
    async function viaUpstream(client: 'portal' | 'admin-console' = 'portal', opts: { startQuery?: string; extra?: Record<string, string>; provider?: string } = {}) {
      const t = get();
      const provider = opts.provider ?? 'corp';
      const start = await startAuthorize(t, { client, ...(opts.extra ? { extra: opts.extra } : {}) });
      const go = await t.app.inject({ method: 'GET', url: `/api/sso/${provider}/start?interaction=${start.interaction}${opts.startQuery ?? ''}`, headers: { cookie: start.jar.header() } });
      start.jar.store(go);
      expect(go.statusCode).toBe(302);
      const upstreamAuth = new URL(String(go.headers.location));
      expect(upstreamAuth.origin).toBe(upstreamIssuer);
      expect(upstreamAuth.searchParams.get('code_challenge_method')).toBe('S256');
      expect(upstreamAuth.searchParams.get('nonce')).toBeTruthy();
      const browser = new Browser();
      let url = upstreamAuth.href;
      for (let i = 0; i < 6 && url.startsWith(upstreamIssuer); i++) {
        const r = await browser.go(url);
        url = new URL(String(r.headers.get('location')), upstreamIssuer).href;
      }
      expect(url.startsWith(`${APP_URL}/api/sso/${provider}/callback?`)).toBe(true);
      const callbackUrl = url;
      /** Opens the callback URL (again) with a browser's cookies (default: the one that started). */
      const openCallback = async (jar: CookieJar = start.jar) => {
        const r = await t.app.inject({ method: 'GET', url: pathOf(callbackUrl), headers: { cookie: jar.header() } });
        jar.store(r);
        return r;
      };
      const cb = await openCallback();
      return { start, cb, callbackUrl, upstreamAuth, openCallback };
    }

    /** Upstream round trip up to (not including) our callback: for opening it in other browsers. */
    async function upToCallback(client: 'portal' | 'admin-console' = 'portal') {
      const t = get();
      const start = await startAuthorize(t, { client });
      const go = await t.app.inject({ method: 'GET', url: `/api/sso/corp/start?interaction=${start.interaction}`, headers: { cookie: start.jar.header() } });
      start.jar.store(go);
      const browser = new Browser();
      let url = String(go.headers.location);
      for (let i = 0; i < 6 && url.startsWith(upstreamIssuer); i++) {
        const r = await browser.go(url);
        url = new URL(String(r.headers.get('location')), upstreamIssuer).href;
      }
      const open = async (jar: CookieJar) => {
        const r = await t.app.inject({ method: 'GET', url: pathOf(url), headers: { cookie: jar.header() } });
        jar.store(r);
        return r;
      };
      return { start, callbackUrl: url, open };
    }

    const activitiesOf = (accountId: string) => get().db.kysely.selectFrom('auth_activities').selectAll().where('account_id', '=', accountId).execute();

    it('signs an ACTIVE SSO account in by provider + verified e-mail and finishes the same interaction', async () => {
      const t = get();
      const acct = await createAccount(t, { type: 'user', email: UPSTREAM_EMAIL, password: null, auth_type: 'SSO', provider: 'corp', email_verified_at: null });
      const { start, cb, callbackUrl } = await viaUpstream();
      expect(cb.statusCode).toBe(302);
      const { code } = await followToCode(t, start, String(cb.headers.location));
      const tokens = await exchangeCode(t, start, code ?? '');
      const me = await t.app.inject({ method: 'GET', url: '/api/user', headers: { authorization: tokens.authorization } });
      expect(me.json().data.auth_user.id).toBe(acct.id);
      expect(me.json().data.sso_login).toBe(true);
      const row = await t.db.kysely.selectFrom('accounts').select(['provider_subject', 'email_verified_at']).where('id', '=', acct.id).executeTakeFirstOrThrow();
      expect(row.provider_subject).toBe('upstream-subject-1');
      // the upstream vouched for the address (email_verified: true): the account's verified flag is now true
      expect(row.email_verified_at).toEqual(expect.any(String));
      // the state is single use: replaying the callback (a reload) lands on the login page, not on a JSON error
      const replay = await t.app.inject({ method: 'GET', url: pathOf(callbackUrl), headers: { cookie: start.jar.header() } });
      expect(replay.statusCode).toBe(302);
      expect(String(replay.headers.location)).toBe(`${APP_URL}/login?error=interaction_expired`);
      // and an SSO account cannot use a password
      await t.db.kysely.deleteFrom('accounts').where('id', '=', acct.id).execute();
    });

    it('never creates accounts, ignores password accounts, refuses unverified e-mails and inactive accounts', async () => {
      const t = get();
      const none = await viaUpstream();
      expect(String(none.cb.headers.location)).toMatch(/\/login\?interaction=.*error=sso_account_not_found/);
      expect(await t.db.kysely.selectFrom('accounts').select('id').where('email_normalized', '=', UPSTREAM_EMAIL).executeTakeFirst()).toBeUndefined();

      const cred = await createAccount(t, { type: 'user', email: UPSTREAM_EMAIL, password: 'Correct-Horse1!x' });
      expect(String((await viaUpstream()).cb.headers.location)).toContain('error=sso_account_not_found');
      await t.db.kysely.deleteFrom('accounts').where('id', '=', cred.id).execute();

      const inactive = await createAccount(t, { type: 'user', email: UPSTREAM_EMAIL, password: null, auth_type: 'SSO', provider: 'corp', status: 'INACTIVE' });
      expect(String((await viaUpstream()).cb.headers.location)).toContain('error=sso_account_not_found');
      await t.db.kysely.updateTable('accounts').set({ status: 'ACTIVE' }).where('id', '=', inactive.id).execute();

      upstreamVerified = false;
      try {
        expect(String((await viaUpstream()).cb.headers.location)).toContain('error=sso_email_unverified');
      } finally {
        upstreamVerified = true;
      }
      expect(String((await viaUpstream()).cb.headers.location)).toContain('/oidc/auth/');
      await t.db.kysely.deleteFrom('accounts').where('id', '=', inactive.id).execute();
    });

    it('a reloaded callback of an admin sign-in and an unknown state land on the (admin) login page, never on JSON', async () => {
      const t = get();
      const admin = await createAccount(t, { type: 'admin', email: UPSTREAM_EMAIL, password: null, auth_type: 'SSO', provider: 'corp' });
      try {
        const { cb, openCallback } = await viaUpstream('admin-console');
        expect(String(cb.headers.location)).toContain('/oidc/auth/');
        const again = await openCallback();
        expect(again.statusCode).toBe(302);
        expect(String(again.headers.location)).toBe(`${APP_URL}/admin/login?error=interaction_expired`);
      } finally {
        await t.db.kysely.deleteFrom('accounts').where('id', '=', admin.id).execute();
      }
      for (const url of ['/api/sso/corp/callback?state=never-issued&code=x', '/api/sso/corp/callback']) {
        const res = await t.app.inject({ method: 'GET', url });
        expect(res.statusCode).toBe(302);
        expect(String(res.headers.location)).toBe(`${APP_URL}/login?error=interaction_expired`);
      }
    });

    it('a callback opened in another browser is refused and records nothing; the sign-in is recorded once, when it completes', async () => {
      const t = get();
      const acct = await createAccount(t, { type: 'user', email: UPSTREAM_EMAIL, password: null, auth_type: 'SSO', provider: 'corp' });
      try {
        const { start, open } = await upToCallback();
        const other = await open(new CookieJar());
        expect(other.statusCode).toBe(302);
        expect(String(other.headers.location)).toBe(`${APP_URL}/login?error=interaction_expired`);
        expect(await activitiesOf(acct.id)).toEqual([]);
        // the browser that started it still can: the refused one did not use the state up
        const mine = await open(start.jar);
        expect(String(mine.headers.location)).toContain('/oidc/auth/');
        // finished at our callback, but not yet completed at the provider: no sign-in yet
        expect(await activitiesOf(acct.id)).toEqual([]);
        const { code } = await followToCode(t, start, String(mine.headers.location));
        expect(code).toBeTruthy();
        const rows = await activitiesOf(acct.id);
        expect(rows).toHaveLength(1);
        expect(rows[0]).toMatchObject({ client_id: 'portal', origin: upstreamIssuer, logged_out_at: null });
        expect(rows[0]!.session_ref).toEqual(expect.any(String));
      } finally {
        await t.db.kysely.deleteFrom('auth_activities').where('account_id', '=', acct.id).execute();
        await t.db.kysely.deleteFrom('accounts').where('id', '=', acct.id).execute();
      }
    });

    it("passes the person's language upstream (ui_locales): the SPA's, else the authorization request's", async () => {
      const t = get();
      await viaUpstream('portal', { startQuery: '&ui_locales=de' });
      expect(upstreamUiLocales).toBe('de');
      await viaUpstream('portal', { extra: { ui_locales: 'fr-CH fr' } });
      expect(upstreamUiLocales).toBe('fr-CH fr');
      await viaUpstream('portal', { startQuery: `&ui_locales=${encodeURIComponent('<x> it')}` });
      expect(upstreamUiLocales).toBe('it');
      expect(t).toBeTruthy();
    });

    it("passes the app's login_hint upstream (issue 29); junk is dropped", async () => {
      await viaUpstream('portal', { extra: { login_hint: UPSTREAM_EMAIL } });
      expect(upstreamLoginHint).toBe(UPSTREAM_EMAIL);
      await viaUpstream('portal', { extra: { login_hint: 'two words' } });
      expect(upstreamLoginHint).toBeNull();
      await viaUpstream('portal');
      expect(upstreamLoginHint).toBeNull();
    });

    it("the admin views show what the provider vouched for and the provider's name with each SSO sign-in", async () => {
      const t = get();
      const admin = await actor(t, 'super_admin');
      const acct = await createAccount(t, { type: 'user', email: UPSTREAM_EMAIL, password: null, auth_type: 'SSO', provider: 'corp', email_verified_at: null });
      try {
        const { start, cb } = await viaUpstream();
        await followToCode(t, start, String(cb.headers.location));
        // signed in before the e-mail was marked as verified (provider_subject set, email_verified_at not): still verified
        await t.db.kysely.updateTable('accounts').set({ email_verified_at: null }).where('id', '=', acct.id).execute();
        const detail = await t.app.inject({ method: 'GET', url: `/api/admin/users/${acct.id}`, headers: admin.headers });
        expect(detail.json().data.email_verified).toBe(true);
        const logs = await t.app.inject({ method: 'GET', url: `/api/admin/logs/activities?user=${encodeURIComponent(UPSTREAM_EMAIL)}`, headers: admin.headers });
        expect(logs.statusCode).toBe(200);
        expect(logs.json().data).toEqual([expect.objectContaining({ provider: { id: 'corp', name: 'Corp IdP' }, origin: upstreamIssuer, client_id: 'portal' })]);
      } finally {
        await t.db.kysely.deleteFrom('auth_activities').where('account_id', '=', acct.id).execute();
        await t.db.kysely.deleteFrom('accounts').where('id', '=', acct.id).execute();
      }
    });

    it('a password tried for an address of the provider\'s domain: sso_account_use_provider naming the provider, the same whether or not an account exists', async () => {
      const t = get();
      const sso = await createAccount(t, { type: 'user', email: 'ann@corp.example', password: null, auth_type: 'SSO', provider: 'corp' });
      const cred = await createAccount(t, { type: 'user', email: 'bob@corp.example', password: 'Correct-Horse1!x' });
      const other = await createAccount(t, { type: 'user', email: 'cy@elsewhere.example', password: 'Correct-Horse1!x' });
      try {
        const tryPassword = async (email: string, password: string) => {
          const start = await startAuthorize(t);
          return t.app.inject({ method: 'POST', url: '/api/login', headers: { cookie: start.jar.header(),  'accept-language': 'de' }, payload: { email, password, interaction: start.interaction } });
        };
        const answers = [];
        for (const email of ['ann@corp.example', 'nobody@corp.example', 'bob@corp.example']) {
          const res = await tryPassword(email, 'Wrong-Passw0rd!');
          expect(res.statusCode).toBe(401);
          answers.push(res.json().error);
        }
        // one answer for an SSO account, an unknown address and a wrong password there: nothing reveals an account
        expect(answers.map((a) => a.code)).toEqual(['sso_account_use_provider', 'sso_account_use_provider', 'sso_account_use_provider']);
        expect(new Set(answers.map((a) => a.message)).size).toBe(1);
        expect(answers[0].message).toContain('Corp IdP');
        expect(answers[0].message).toContain('Weiter mit');
        // a password account of that domain still signs in with its password; other domains keep the old answer
        expect((await tryPassword('bob@corp.example', 'Correct-Horse1!x')).statusCode).toBe(200);
        expect((await tryPassword('cy@elsewhere.example', 'Wrong-Passw0rd!')).json().error.code).toBe('invalid_credentials');
        expect((await tryPassword('nobody@elsewhere.example', 'Wrong-Passw0rd!')).json().error.code).toBe('invalid_credentials');
      } finally {
        await t.db.kysely.deleteFrom('accounts').where('id', 'in', [sso.id, cred.id, other.id]).execute();
      }
    });

    it('an upstream that does not vouch for the address, or sends none, is named on the page and in the admin error log (issue 31.6)', async () => {
      const t = get();
      const acct = await createAccount(t, { type: 'user', email: UPSTREAM_EMAIL, password: null, auth_type: 'SSO', provider: 'corp', email_verified_at: null });
      const logged = async (code: string) =>
        t.db.kysely.selectFrom('error_logs').select(['error_code', 'status', 'url', 'message']).where('error_code', '=', code).orderBy('created_at', 'desc').executeTakeFirst();
      try {
        // LemonLDAP::NG's default: the claim left out
        upstreamVerified = undefined;
        const omitted = new URL(String((await viaUpstream()).cb.headers.location));
        expect(omitted.pathname).toBe('/login');
        expect(omitted.searchParams.get('error')).toBe('sso_email_unverified');
        expect(omitted.searchParams.get('provider')).toBe('corp');
        expect(omitted.searchParams.get('interaction')).toBeTruthy();
        expect(await logged('sso_email_unverified')).toMatchObject({ status: 403, url: '/api/sso/corp/callback', message: expect.stringContaining('no email_verified claim') });

        upstreamVerified = false;
        expect(String((await viaUpstream()).cb.headers.location)).toContain('error=sso_email_unverified');
        expect((await logged('sso_email_unverified'))?.message).toContain('email_verified: false');

        upstreamVerified = true;
        upstreamEmail = undefined;
        expect(String((await viaUpstream()).cb.headers.location)).toContain('error=sso_email_missing');
        expect((await logged('sso_email_missing'))?.message).toContain('sent no e-mail address');
        // never the person's claims in the log
        expect(JSON.stringify(await t.db.kysely.selectFrom('error_logs').select('message').execute())).not.toContain('upstream-subject-1');
        const row = await t.db.kysely.selectFrom('accounts').select(['provider_subject', 'email_verified_at']).where('id', '=', acct.id).executeTakeFirstOrThrow();
        expect(row).toEqual({ provider_subject: null, email_verified_at: null });
      } finally {
        upstreamVerified = true;
        upstreamEmail = UPSTREAM_EMAIL;
        await t.db.kysely.deleteFrom('accounts').where('id', '=', acct.id).execute();
      }
    });

    it('per provider: require_email_verified false matches on the address alone (not marking it verified); client_secret_basic authenticates with HTTP Basic', async () => {
      const t = get();
      const lax = await createAccount(t, { type: 'user', email: UPSTREAM_EMAIL, password: null, auth_type: 'SSO', provider: 'corplax', email_verified_at: null });
      try {
        upstreamVerified = undefined;
        expect(String((await viaUpstream('portal', { provider: 'corplax' })).cb.headers.location)).toContain('/oidc/auth/');
        const row = await t.db.kysely.selectFrom('accounts').select('email_verified_at').where('id', '=', lax.id).executeTakeFirstOrThrow();
        expect(row.email_verified_at).toBeNull();
        // the same upstream answer for a provider that requires the claim (the default) is refused
        await t.db.kysely.updateTable('accounts').set({ provider: 'corp', provider_subject: null }).where('id', '=', lax.id).execute();
        expect(String((await viaUpstream()).cb.headers.location)).toContain('error=sso_email_unverified');
        upstreamVerified = true;
        // the upstream registered this client for client_secret_basic only: the code exchange works only with Basic
        await t.db.kysely.updateTable('accounts').set({ provider: 'corpbasic', provider_subject: null }).where('id', '=', lax.id).execute();
        expect(String((await viaUpstream('portal', { provider: 'corpbasic' })).cb.headers.location)).toContain('/oidc/auth/');
        expect(upstreamTokenAuth).toBe('basic');
        expect(String((await viaUpstream('portal', { provider: 'corplax' })).cb.headers.location)).toContain('error=sso_account_not_found');
        expect(upstreamTokenAuth).toBe('post');
      } finally {
        upstreamVerified = true;
        await t.db.kysely.deleteFrom('accounts').where('id', '=', lax.id).execute();
      }
    });

    it('signing out of an SSO session continues at the upstream end_session_endpoint (id_token_hint, back to the login page); once; not with end_session false', async () => {
      const t = get();
      const acct = await createAccount(t, { type: 'user', email: UPSTREAM_EMAIL, password: null, auth_type: 'SSO', provider: 'corp' });
      try {
        const { start, cb } = await viaUpstream();
        const { code } = await followToCode(t, start, String(cb.headers.location));
        const tokens = await exchangeCode(t, start, code ?? '');
        const out = await t.app.inject({ method: 'POST', url: '/api/logout', headers: { authorization: tokens.authorization } });
        expect(out.statusCode).toBe(200);
        const url = new URL(String(out.json().data.upstream_logout_url));
        expect(`${url.origin}${url.pathname}`).toBe(`${upstreamIssuer}/session/end`);
        expect(url.searchParams.get('post_logout_redirect_uri')).toBe(`${APP_URL}/login`);
        const hint = decodeJwt(String(url.searchParams.get('id_token_hint')));
        expect(hint).toMatchObject({ iss: upstreamIssuer, aud: 'iam', sub: 'upstream-subject-1' });
        // the upstream accepts it: its sign-out page, not its error page (the redirect URI is registered there)
        const page = await new Browser().go(url.href);
        expect(page.status).toBe(200);
        expect(await page.text()).toContain('logout');
        // the session is gone here: the token no longer works, and there is nothing left to continue with
        expect((await t.app.inject({ method: 'GET', url: '/api/user', headers: { authorization: tokens.authorization } })).statusCode).toBe(401);
        expect(await t.db.kysely.selectFrom('oidc_models').select('id').where('model', '=', 'UpstreamSignIn').where('payload', 'like', `%${hint.sub ?? ''}%`).execute()).toEqual([]);

        // a password sign-in's sign-out has no upstream step
        const other = await createAccount(t, { type: 'user', email: `pw-${Date.now()}@example.com`, password: 'Correct-Horse1!x' });
        const pw = await signIn(t, { email: other.email, password: 'Correct-Horse1!x' });
        const plain = await t.app.inject({ method: 'POST', url: '/api/logout', headers: { authorization: pw.authorization } });
        expect(plain.json().data).toEqual({ status: 'logged_out' });
        await t.db.kysely.deleteFrom('accounts').where('id', '=', other.id).execute();

        // a provider set to end_session: false
        await t.db.kysely.updateTable('accounts').set({ provider: 'corplax', provider_subject: null }).where('id', '=', acct.id).execute();
        const lax = await viaUpstream('portal', { provider: 'corplax' });
        const laxCode = (await followToCode(t, lax.start, String(lax.cb.headers.location))).code;
        const laxTokens = await exchangeCode(t, lax.start, laxCode ?? '');
        expect((await t.app.inject({ method: 'POST', url: '/api/logout', headers: { authorization: laxTokens.authorization } })).json().data).toEqual({ status: 'logged_out' });
      } finally {
        await t.db.kysely.deleteFrom('accounts').where('id', '=', acct.id).execute();
      }
    });

    it('unknown providers are refused', async () => {
      const t = get();
      const start = await startAuthorize(t);
      const res = await t.app.inject({ method: 'GET', url: `/api/sso/nope/start?interaction=${start.interaction}` });
      expect(res.statusCode).toBe(404);
      expect(res.json().error.code).toBe('sso_provider_unknown');
    });
  },
  {
    SSO_PROVIDERS: JSON.stringify([
      { id: 'corp', name: 'Corp IdP', issuer: upstreamIssuer, client_id: 'iam', client_secret: 'upstream-secret', domains: ['corp.example'] },
      { id: 'corpbasic', name: 'Corp Basic', issuer: upstreamIssuer, client_id: 'iam-basic', client_secret: 'basic-secret', token_endpoint_auth_method: 'client_secret_basic' },
      { id: 'corplax', name: 'Corp Lax', issuer: upstreamIssuer, client_id: 'iam-lax', client_secret: 'lax-secret', require_email_verified: false, end_session: false },
    ]),
  },
);
