/**
 * One canonical origin (issue 14): page loads on another loopback name of the server go to APP_URL; and the
 * development origin of `npm run dev` (IAM_DEV_ORIGINS) is accepted by the provider only with NODE_ENV=development.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../../server/config';
import { canonicalRedirect } from '../../../server/plugins/app/canonical-origin';
import { describeEachDb, type TestApp } from '../../helpers/app';
import { createAccount, exchangeCode, followToCode, startAuthorize } from '../../helpers/auth';

const DEV = 'http://localhost:5173';

/** A token-endpoint call as the SPA on `origin` makes it (CORS): a refresh with an unknown token. */
const tokenCallFrom = (t: TestApp, origin: string) =>
  t.app.inject({
    method: 'POST',
    url: '/oidc/token',
    headers: { origin, 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: 'unknown', client_id: 'portal' }).toString(),
  });

describe('canonical origin', () => {
  const local = { appUrl: 'http://localhost:3000' };
  it('sends page loads on another loopback name of the same port to APP_URL, path and query kept', () => {
    expect(canonicalRedirect(local, 'GET', '/admin/setup?token=abc', '127.0.0.1:3000')).toBe('http://localhost:3000/admin/setup?token=abc');
    expect(canonicalRedirect(local, 'HEAD', '/login', '[::1]:3000')).toBe('http://localhost:3000/login');
    expect(canonicalRedirect({ appUrl: 'http://127.0.0.1:3205' }, 'GET', '/login', 'localhost:3205')).toBe('http://127.0.0.1:3205/login');
  });
  it('leaves the API, the provider, other methods, other ports, other hosts and the canonical host alone', () => {
    expect(canonicalRedirect(local, 'GET', '/login', 'localhost:3000')).toBeNull();
    expect(canonicalRedirect(local, 'GET', '/api/config', '127.0.0.1:3000')).toBeNull();
    expect(canonicalRedirect(local, 'GET', '/oidc/auth?x=1', '127.0.0.1:3000')).toBeNull();
    expect(canonicalRedirect(local, 'GET', '/api', '127.0.0.1:3000')).toBeNull();
    expect(canonicalRedirect(local, 'GET', '/oidc?x=1', '127.0.0.1:3000')).toBeNull();
    // only the two prefixes as whole path segments
    expect(canonicalRedirect(local, 'GET', '/apis?x=1', '127.0.0.1:3000')).toBe('http://localhost:3000/apis?x=1');
    expect(canonicalRedirect(local, 'POST', '/login', '127.0.0.1:3000')).toBeNull();
    expect(canonicalRedirect(local, 'GET', '/login', '127.0.0.1:5173')).toBeNull();
    expect(canonicalRedirect(local, 'GET', '/login', 'iam.internal:3000')).toBeNull();
    expect(canonicalRedirect({ appUrl: 'https://iam.example.com' }, 'GET', '/login', '10.0.0.5')).toBeNull();
    expect(canonicalRedirect(local, 'GET', '/login', undefined)).toBeNull();
  });
  it('the default APP_URL is the localhost origin of PORT', () => {
    expect(loadConfig({ PORT: '3205' }).appUrl).toBe('http://localhost:3205');
  });
});

describe('IAM_DEV_ORIGINS', () => {
  it('is accepted with NODE_ENV=development only', () => {
    expect(loadConfig({ NODE_ENV: 'development', IAM_DEV_ORIGINS: `${DEV}, http://127.0.0.1:5173/` }).devOrigins).toEqual([DEV, 'http://127.0.0.1:5173']);
    expect(loadConfig({ NODE_ENV: 'production' }).devOrigins).toEqual([]);
    for (const env of [{ NODE_ENV: 'production' }, { NODE_ENV: 'test' }, {}]) {
      expect(() => loadConfig({ ...env, IAM_DEV_ORIGINS: DEV })).toThrow(ConfigError);
    }
    expect(() => loadConfig({ NODE_ENV: 'development', IAM_DEV_ORIGINS: 'http://localhost:5173/login' })).toThrow(/IAM_DEV_ORIGINS/);
    expect(() => loadConfig({ NODE_ENV: 'development', IAM_DEV_ORIGINS: 'ftp://localhost' })).toThrow(/IAM_DEV_ORIGINS/);
  });
});

describeEachDb('a page on 127.0.0.1 when APP_URL is localhost', (get) => {
  it('is redirected to APP_URL (308); the API answers on any name', async () => {
    const t = get();
    const page = await t.app.inject({ method: 'GET', url: '/admin/setup?token=abc', headers: { host: '127.0.0.1:3000' } });
    expect(page.statusCode).toBe(308);
    expect(page.headers.location).toBe('http://localhost:3000/admin/setup?token=abc');
    const api = await t.app.inject({ method: 'GET', url: '/api/config', headers: { host: '127.0.0.1:3000' } });
    expect(api.statusCode).toBe(200);
  });
});

describeEachDb('without IAM_DEV_ORIGINS the provider refuses the development origin', (get) => {
  it('answers invalid_redirect_uri for its /login', async () => {
    const t = get();
    await expect(startAuthorize(t, { redirectUri: `${DEV}/login` })).rejects.toThrow(/400/);
    // the provider's page says where the app lives, in the visitor's language
    const page = await t.app.inject({
      method: 'GET',
      url: `/oidc/auth?${new URLSearchParams({ client_id: 'portal', redirect_uri: 'http://127.0.0.1:3000/login', response_type: 'code', scope: 'openid', state: 'x'.repeat(40), code_challenge: 'a'.repeat(43), code_challenge_method: 'S256' }).toString()}`,
      headers: { 'accept-language': 'de' },
    });
    expect(page.statusCode).toBe(400);
    expect(page.body).toContain('Öffnen Sie http:&#47;&#47;localhost:3000 und melden Sie sich dort an.');
    const cors = await tokenCallFrom(t, DEV);
    expect(cors.json()).toEqual({ error: 'invalid_request', error_description: `origin ${DEV} not allowed for client: portal` });
    const config = (await t.app.inject({ method: 'GET', url: '/api/config', headers: { host: 'localhost:5173' } })).json().data;
    expect(config.token_endpoint).toBe('http://localhost:3000/oidc/token');
  });
});

describeEachDb(
  'with IAM_DEV_ORIGINS (development) the provider accepts the development origin',
  (get) => {
    it('signs in from it: the interaction returns to it, the code goes to its /login, its CORS calls are answered', async () => {
      const t = get();
      const email = `dev-${randomUUID().slice(0, 8)}@example.com`;
      await createAccount(t, { type: 'user', email, password: 'Correct-Horse1!x' });
      const start = await startAuthorize(t, { redirectUri: `${DEV}/login` });
      expect(start.location).toMatch(new RegExp(`^${DEV}/login\\?interaction=`));
      const login = await t.app.inject({ method: 'POST', url: '/api/login', headers: { cookie: start.jar.header() }, payload: { email, password: 'Correct-Horse1!x', interaction: start.interaction } });
      expect(login.statusCode).toBe(200);
      const { code } = await followToCode(t, start, login.json<{ data: { redirect_to: string } }>().data.redirect_to);
      expect(code).toBeTruthy();
      expect((await exchangeCode(t, start, code!)).accessToken).toBeTruthy();
      const cors = await tokenCallFrom(t, DEV);
      expect(cors.json().error).toBe('invalid_grant');
      expect(cors.headers['access-control-allow-origin']).toBe(DEV);
      // through the dev server's proxy, the SPA fetches the token endpoint on its own origin; pages stay on APP_URL
      const viaProxy = (await t.app.inject({ method: 'GET', url: '/api/config', headers: { host: 'localhost:5173' } })).json().data;
      expect([viaProxy.token_endpoint, viaProxy.revocation_endpoint]).toEqual([`${DEV}/oidc/token`, `${DEV}/oidc/token/revocation`]);
      expect([viaProxy.authorization_endpoint, viaProxy.end_session_endpoint]).toEqual(['http://localhost:3000/oidc/auth', 'http://localhost:3000/oidc/session/end']);
      expect((await t.app.inject({ method: 'GET', url: '/api/config' })).json().data.token_endpoint).toBe('http://localhost:3000/oidc/token');
      // APP_URL keeps working as before
      expect((await startAuthorize(t)).location).toMatch(/^http:\/\/localhost:3000\/login\?interaction=/);
      const admin = await startAuthorize(t, { client: 'admin-console', redirectUri: `${DEV}/admin/login` });
      expect(admin.location).toMatch(new RegExp(`^${DEV}/admin/login\\?interaction=`));
    });
  },
  { NODE_ENV: 'development', IAM_DEV_ORIGINS: DEV },
);
