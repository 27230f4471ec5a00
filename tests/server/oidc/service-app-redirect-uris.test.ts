import { randomBytes } from 'node:crypto';
import { beforeAll, expect, it } from 'vitest';
import { describeEachDb, type TestApp } from '../../helpers/app';
import { createAccount, exchangeCode, followToCode, pkcePair, startAuthorize } from '../../helpers/auth';
import { seedServiceApp, type SeededServiceApp } from '../../helpers/service-app';
import { actor, type Actor } from '../admin/fixtures';

/**
 * Issue 31.2 at the provider: a service app with several redirect URIs and post-logout URIs (registered through the
 * admin API) signs in through each of them and signs out to each of them; anything that is not one of them exactly —
 * a prefix, another port, a trailing slash, another case in the path, a URI registered only for the other list or for
 * another app — is refused at /oidc/auth and /oidc/session/end without a redirect. CORS at the token endpoint follows
 * the origins of the registered redirect URIs.
 */
const PW = 'Correct-Horse1!x';
const REDIRECTS = ['https://rp.example.com:8443/cb', 'https://rp2.example.com/auth/Callback', 'http://127.0.0.1:9000/cb'];
const POST_LOGOUT = ['https://rp.example.com:8443/', 'https://rp2.example.com/bye'];

describeEachDb('service apps: several exact redirect URIs at the provider', (get) => {
  let admin: Actor;
  let app: SeededServiceApp;
  let other: SeededServiceApp;
  let email: string;

  beforeAll(async () => {
    const t = get();
    admin = await actor(t, 'super_admin');
    email = `multi-${t.kind}-${randomBytes(3).toString('hex')}@example.com`;
    const acct = await createAccount(t, { type: 'user', email, password: PW });
    app = await seedServiceApp(t, { members: [acct.id] });
    other = await seedServiceApp(t, { members: [acct.id], redirectUris: ['https://other.example.com/cb'], postLogoutRedirectUris: ['https://other.example.com/'] });
    // registered the way an admin does it
    const res = await t.app.inject({ method: 'PATCH', url: `/api/admin/service-apps/${app.id}`, headers: admin.headers, payload: { redirect_uris: REDIRECTS, post_logout_redirect_uris: POST_LOGOUT } });
    expect(res.statusCode).toBe(200);
  });

  /** A full sign-in through `redirectUri`: the code arrives there and is exchanged with the same URI. */
  async function signInThrough(t: TestApp, redirectUri: string) {
    const start = await startAuthorize(t, { client: app.name, redirectUri, scope: 'openid' });
    expect(start.interaction, redirectUri).toBeTruthy();
    const login = await t.app.inject({ method: 'POST', url: '/api/login', headers: { cookie: start.jar.header() }, payload: { email, password: PW, interaction: start.interaction } });
    expect(login.statusCode).toBe(200);
    const { code, location } = await followToCode(t, start, login.json().data.redirect_to);
    expect(location.startsWith(`${redirectUri}?`)).toBe(true);
    const tokens = await exchangeCode(t, start, String(code));
    return { start, tokens };
  }

  const authorize = (t: TestApp, client: string, redirectUri: string) =>
    t.app.inject({
      method: 'GET',
      url: `/oidc/auth?${new URLSearchParams({ client_id: client, redirect_uri: redirectUri, response_type: 'code', scope: 'openid', state: 'S'.repeat(40), code_challenge: pkcePair().challenge, code_challenge_method: 'S256' })}`,
    });

  it('each registered redirect URI signs in, the code arriving at that URI', async () => {
    const t = get();
    for (const uri of REDIRECTS) await signInThrough(t, uri);
  });

  it('refused at /oidc/auth without a redirect: prefix, other port, trailing slash, other case, unregistered or foreign URIs', async () => {
    const t = get();
    const refusedUris = [
      'https://rp.example.com:8443/c', // a prefix of a registered URI
      'https://rp.example.com:8443', // its origin
      'https://rp.example.com:8443/cb/more', // a registered URI as a prefix
      'https://rp.example.com:8444/cb', // another port
      'https://rp.example.com/cb', // no port
      'http://127.0.0.1:9001/cb', // another loopback port
      'https://rp.example.com:8443/cb/', // trailing slash
      'https://rp2.example.com/auth/callback', // another case in the path
      'https://rp2.example.com/auth/Callback?x=1', // a query added
      'https://rp3.example.com/cb', // never registered
      'https://rp2.example.com/bye', // registered for after sign-out only
      'https://other.example.com/cb', // another app's
      app.redirectUri, // the app's URI from before its list was replaced
    ];
    for (const uri of refusedUris) {
      const res = await authorize(t, app.name, uri);
      expect(res.headers.location, uri).toBeUndefined();
      expect(res.statusCode, uri).toBe(400);
      expect(res.body, uri).toContain('invalid_redirect_uri');
    }
    // the positive control: the same request with a registered URI goes to the sign-in
    for (const uri of REDIRECTS) {
      const ok = await authorize(t, app.name, uri);
      expect(ok.statusCode, uri).toBe(303);
      expect(String(ok.headers.location)).toContain('/login?interaction=');
    }
    // the code of one redirect URI is not exchanged with another registered one
    const { start } = await signInThrough(t, REDIRECTS[0] as string);
    const again = await startAuthorize(t, { client: app.name, redirectUri: REDIRECTS[0] as string, jar: start.jar, scope: 'openid' });
    const { code } = await followToCode(t, again, again.location);
    const swapped = await t.app.inject({
      method: 'POST',
      url: '/oidc/token',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ grant_type: 'authorization_code', code: String(code), redirect_uri: REDIRECTS[1] as string, client_id: app.name, code_verifier: again.verifier }).toString(),
    });
    expect(swapped.statusCode).toBe(400);
    expect(swapped.json().error).toBe('invalid_grant');
  });

  it('sign-out: each registered post-logout URI is where the provider sends the person back; others are refused', async () => {
    const t = get();
    for (const [i, back] of POST_LOGOUT.entries()) {
      const { start, tokens } = await signInThrough(t, REDIRECTS[i] as string);
      const end = await t.app.inject({ method: 'GET', url: `/oidc/session/end?${new URLSearchParams({ id_token_hint: tokens.idToken, post_logout_redirect_uri: back, state: 'bye' })}`, headers: { cookie: start.jar.header() } });
      expect(end.statusCode, back).toBe(200);
      start.jar.store(end);
      const xsrf = /name="xsrf" value="([^"]+)"/.exec(end.body)?.[1];
      expect(xsrf).toBeTruthy();
      const confirm = await t.app.inject({
        method: 'POST',
        url: '/oidc/session/end/confirm',
        headers: { cookie: start.jar.header(), 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams({ xsrf: String(xsrf), logout: 'yes' }).toString(),
      });
      expect(confirm.statusCode).toBe(303);
      expect(confirm.headers.location).toBe(`${back}?state=bye`);
    }
    const refusedUris = [
      'https://rp.example.com:8443', // without the slash registered
      'https://rp.example.com:8443/cb', // a redirect URI, not a post-logout one
      'https://rp2.example.com/bye/', // trailing slash
      'https://rp2.example.com/Bye', // another case
      'https://rp2.example.com:443/bye', // the default port written out
      `${new URL(other.redirectUri).origin}/`, // another app's
    ];
    for (const uri of refusedUris) {
      const res = await t.app.inject({ method: 'GET', url: `/oidc/session/end?${new URLSearchParams({ client_id: app.name, post_logout_redirect_uri: uri })}` });
      expect(res.statusCode, uri).toBe(400);
      expect(res.headers.location, uri).toBeUndefined();
    }
    for (const uri of POST_LOGOUT) {
      expect((await t.app.inject({ method: 'GET', url: `/oidc/session/end?${new URLSearchParams({ client_id: app.name, post_logout_redirect_uri: uri })}` })).statusCode, uri).toBe(200);
    }
  });

  it('CORS at the token endpoint: the origin of every registered redirect URI, no other', async () => {
    const t = get();
    const preflight = (origin: string) =>
      t.app.inject({ method: 'OPTIONS', url: '/oidc/token', headers: { origin, 'access-control-request-method': 'POST' } });
    const token = (origin: string) =>
      t.app.inject({
        method: 'POST',
        url: '/oidc/token',
        headers: { origin, 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams({ grant_type: 'authorization_code', code: 'nope', redirect_uri: REDIRECTS[0] as string, client_id: app.name, code_verifier: 'v'.repeat(43) }).toString(),
      });
    for (const origin of ['https://rp.example.com:8443', 'https://rp2.example.com', 'http://127.0.0.1:9000']) {
      expect((await preflight(origin)).statusCode, origin).toBeLessThan(300);
      expect((await token(origin)).headers['access-control-allow-origin'], origin).toBe(origin);
    }
    for (const origin of ['https://rp.example.com', 'https://rp3.example.com', 'https://other.example.com']) {
      expect((await token(origin)).headers['access-control-allow-origin'], origin).toBeUndefined();
    }
  });
});
