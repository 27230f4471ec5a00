import { randomBytes } from 'node:crypto';
import { beforeAll, expect, it } from 'vitest';
import { describeEachDb, type TestApp } from '../../helpers/app';
import { createAccount, followToCode, pathOf, type AuthorizeStart, CookieJar } from '../../helpers/auth';
import { actor, type Actor } from '../admin/fixtures';

const PW = 'Correct-Horse1!x';

/** An authorization request without PKCE (what PKCE-less software sends). */
async function authorizeWithoutPkce(t: TestApp, client: string, redirectUri: string) {
  const jar = new CookieJar();
  const state = randomBytes(16).toString('base64url');
  const q = new URLSearchParams({ client_id: client, redirect_uri: redirectUri, response_type: 'code', scope: 'openid', state });
  const res = await t.app.inject({ method: 'GET', url: `/oidc/auth?${q.toString()}`, headers: { cookie: jar.header() } });
  jar.store(res);
  const location = new URL(String(res.headers.location), t.config.appUrl);
  return { start: { jar, verifier: '', state, redirectUri, client, location: location.href, interaction: location.searchParams.get('interaction') ?? undefined } satisfies AuthorizeStart, location };
}

describeEachDb('service apps: per-app PKCE and grant type settings (admin API + provider)', (get) => {
  let admin: Actor;
  const inject = (method: 'GET' | 'POST' | 'PATCH', url: string, payload?: object, lang = 'en') =>
    get().app.inject({ method, url, headers: { ...admin.headers, 'accept-language': lang }, ...(payload ? { payload } : {}) });
  beforeAll(async () => {
    admin = await actor(get(), 'super_admin');
  });

  it('admin API: pkce_required / client_credentials for confidential apps only; the oidc block names what to configure', async () => {
    const t = get();
    const created = await inject('POST', '/api/admin/service-apps', { name: 'legacy-app', display_name: 'Legacy', url: 'https://legacy.example', path: '/cb', client_type: 'confidential', pkce_required: false, client_credentials: true });
    expect(created.statusCode).toBe(201);
    const app = created.json().data;
    expect(app).toMatchObject({
      pkce_required: false,
      client_credentials: true,
      oidc: {
        issuer: t.config.issuer,
        discovery_url: `${t.config.issuer}/.well-known/openid-configuration`,
        redirect_uri: 'https://legacy.example/cb',
        token_endpoint_auth_method: 'client_secret_basic',
        grant_types: ['authorization_code', 'refresh_token', 'client_credentials'],
        pkce_required: false,
      },
    });
    expect(app.client_secret).toBeTruthy();
    // the defaults: PKCE on, no client_credentials
    const plain = (await inject('POST', '/api/admin/service-apps', { name: 'plain-app', display_name: 'Plain', url: 'https://plain.example', path: '/cb', client_type: 'confidential' })).json().data;
    expect(plain).toMatchObject({ pkce_required: true, client_credentials: false, oidc: { grant_types: ['authorization_code', 'refresh_token'] } });
    // public apps cannot opt out of PKCE nor use client_credentials: localized 422 on the field
    for (const [field, value] of [['pkce_required', false], ['client_credentials', true]] as const) {
      const bad = await inject('POST', '/api/admin/service-apps', { name: `pub-${field.replace('_', '-')}`, display_name: 'P', url: 'https://p.example', path: '/cb', [field]: value }, 'de');
      expect(bad.statusCode).toBe(422);
      expect(bad.json().error.fields[field]).toEqual(['confidential_only']);
      expect(bad.json().error.field_messages[field][0]).toContain('vertrauliche');
    }
    const patched = await inject('PATCH', `/api/admin/service-apps/${app.id}`, { pkce_required: true });
    expect(patched.json().data).toMatchObject({ pkce_required: true, client_credentials: true });
    // turning the app public resets both settings
    const pub = await inject('PATCH', `/api/admin/service-apps/${app.id}`, { client_type: 'public' });
    expect(pub.json().data).toMatchObject({ client_type: 'public', pkce_required: true, client_credentials: false, oidc: { token_endpoint_auth_method: 'none' } });
    expect((await inject('PATCH', `/api/admin/service-apps/${app.id}`, { client_credentials: true })).statusCode).toBe(422);
  });

  it('provider: a confidential app with PKCE off signs in without it; PKCE stays required by default and for public apps', async () => {
    const t = get();
    const email = `pkce-${t.kind}-${randomBytes(3).toString('hex')}@example.com`;
    const acct = await createAccount(t, { type: 'user', email, password: PW });
    const role = (await inject('POST', '/api/admin/roles', { name: `PKCE_ROLE_${t.kind.toUpperCase()}` })).json().data;
    const sub = (await inject('POST', '/api/admin/subscriptions', { name: `PKCE_SUB_${t.kind.toUpperCase()}`, description: 'x', role_ids: [role.id] })).json().data;
    expect(sub?.id).toBeTruthy();
    await t.db.kysely.insertInto('role_subscriptions').values({ account_id: acct.id, subscription_id: sub.id, role_id: role.id, created_at: new Date().toISOString() }).execute();
    const mk = async (name: string, body: object) => (await inject('POST', '/api/admin/service-apps', { name, display_name: name, url: 'https://rp.example', path: `/${name}`, role_ids: [role.id], ...body })).json().data as { name: string; client_secret: string | null };
    const nopkce = await mk(`nopkce-${t.kind}`, { client_type: 'confidential', pkce_required: false });
    const strict = await mk(`strict-${t.kind}`, { client_type: 'confidential' });
    const pub = await mk(`pub-${t.kind}`, {});

    // PKCE off: the request goes to the sign-in; the code is exchanged with the secret and no verifier
    const { start, location } = await authorizeWithoutPkce(t, nopkce.name, `https://rp.example/${nopkce.name}`);
    expect(location.pathname).toBe('/login');
    const login = await t.app.inject({ method: 'POST', url: '/api/login', headers: { cookie: start.jar.header() }, payload: { email, password: PW, interaction: start.interaction } });
    const { code } = await followToCode(t, start, login.json().data.redirect_to);
    expect(code).toBeTruthy();
    const basic = `Basic ${Buffer.from(`${nopkce.name}:${nopkce.client_secret}`).toString('base64')}`;
    const tok = await t.app.inject({ method: 'POST', url: '/oidc/token', headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: basic }, payload: new URLSearchParams({ grant_type: 'authorization_code', code: String(code), redirect_uri: start.redirectUri }).toString() });
    expect(tok.statusCode).toBe(200);
    expect(tok.json().id_token).toBeTruthy();

    // default confidential and public apps: no PKCE → the app gets invalid_request, no sign-in page
    for (const a of [strict, pub]) {
      const r = await authorizeWithoutPkce(t, a.name, `https://rp.example/${a.name}`);
      expect(r.location.origin + r.location.pathname).toBe(`https://rp.example/${a.name}`);
      expect(r.location.searchParams.get('error')).toBe('invalid_request');
      expect(r.location.searchParams.get('error_description')).toMatch(/PKCE/);
    }
    expect(pathOf(location.href)).toContain('interaction=');
  });
});
