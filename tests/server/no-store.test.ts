import { describe, expect, it } from 'vitest';
import { TOTP, Secret } from 'otpauth';
import { describeEachDb, type TestApp } from '../helpers/app';
import { createAccount, refresh, signIn } from '../helpers/auth';
import { wantsNoStore } from '../../server/plugins/app/no-store';

/**
 * Issue 10 B: answers that carry secrets must not be kept by any cache. The rule is central
 * (server/plugins/app/no-store.ts): every /api and /oidc answer is `Cache-Control: no-store` unless the route
 * serves something public (avatars, the logout script, the provider's discovery document and JWKS).
 */
const PASSWORD = 'Str0ng!Passw0rd#';
let n = 0;
const email = (p: string) => `${p}-${++n}-${Date.now()}@example.test`;

async function session(t: TestApp, type: 'user' | 'admin', extra: Record<string, unknown> = {}) {
  const acc = await createAccount(t, { type, email: email(type), password: PASSWORD, ...extra });
  return { acc, tokens: await signIn(t, { email: acc.email, password: PASSWORD, ...(type === 'admin' ? { client: 'admin-console' as const } : {}) }) };
}

describeEachDb('Cache-Control: no-store on secret-carrying answers', (get) => {
  it('token-generate (API key), service-app secret at creation and rotation, the admin and user views', async () => {
    const t = get();
    const admin = await session(t, 'admin', { admin_role: 'super_admin' });
    const h = { authorization: admin.tokens.authorization };
    const tech = await createAccount(t, { type: 'user', email: email('tech'), technical: 1 });
    const checks: Array<[string, Awaited<ReturnType<typeof t.app.inject>>]> = [];
    checks.push(['token-generate', await t.app.inject({ method: 'POST', url: `/api/admin/users/${tech.id}/token-generate`, headers: h })]);
    const created = await t.app.inject({ method: 'POST', url: '/api/admin/service-apps', headers: h, payload: { name: `app-${n}`, display_name: 'App', url: 'https://app.example.test', path: '/cb', client_type: 'confidential' } });
    expect(created.json().data.client_secret).toEqual(expect.any(String));
    checks.push(['service-app create', created]);
    const rotated = await t.app.inject({ method: 'PATCH', url: `/api/admin/service-apps/${created.json().data.id}`, headers: h, payload: { regenerate_secret: true } });
    expect(rotated.json().data.client_secret).toEqual(expect.any(String));
    checks.push(['service-app rotate', rotated]);
    checks.push(['GET /api/admin', await t.app.inject({ method: 'GET', url: '/api/admin', headers: h })]);
    checks.push(['GET /api/admin/users/{id}', await t.app.inject({ method: 'GET', url: `/api/admin/users/${tech.id}`, headers: h })]);
    for (const [name, res] of checks) {
      expect({ name, status: res.statusCode }).toEqual({ name, status: res.statusCode < 300 ? res.statusCode : 200 });
      expect({ name, cache: res.headers['cache-control'] }).toEqual({ name, cache: 'no-store' });
    }
  });

  it('2FA secret, recovery codes, GET /api/user, the token endpoint, /oidc/me and error answers', async () => {
    const t = get();
    const user = await session(t, 'user');
    const h = { authorization: user.tokens.authorization };
    const me = await t.app.inject({ method: 'GET', url: '/api/user', headers: h });
    const secret = await t.app.inject({ method: 'POST', url: '/api/2fa/google/secret', headers: h });
    const totp = new TOTP({ secret: Secret.fromBase32(secret.json().data.secret as string), digits: 6, period: 30, algorithm: 'SHA1' });
    const enable = await t.app.inject({ method: 'POST', url: '/api/2fa/google/enable', headers: h, payload: { one_time_password: totp.generate() } });
    expect(enable.json().data.recovery_codes).toHaveLength(10);
    const tokens = await refresh(t, user.tokens.refreshToken);
    expect(tokens.statusCode).toBe(200);
    const userinfo = await t.app.inject({ method: 'GET', url: '/oidc/me', headers: h });
    const anonymous = await t.app.inject({ method: 'GET', url: '/api/user' });
    const unknown = await t.app.inject({ method: 'GET', url: '/api/no-such-route' });
    for (const [name, res] of Object.entries({ me, secret, enable, tokens, userinfo, anonymous, unknown })) {
      expect({ name, cache: res.headers['cache-control'] }).toEqual({ name, cache: 'no-store' });
    }
    expect(anonymous.statusCode).toBe(401);
  });

  it('public answers keep their own caching: discovery, JWKS, the logout script', async () => {
    const t = get();
    const discovery = await t.app.inject({ method: 'GET', url: '/oidc/.well-known/openid-configuration' });
    expect(discovery.statusCode).toBe(200);
    expect(discovery.headers['cache-control'] ?? '').not.toContain('no-store');
    const jwks = await t.app.inject({ method: 'GET', url: '/oidc/jwks' });
    expect(jwks.statusCode).toBe(200);
    expect(jwks.headers['cache-control'] ?? '').not.toContain('no-store');
    const script = await t.app.inject({ method: 'GET', url: '/api/oidc-pages/logout.js' });
    expect(script.headers['cache-control']).toBe('public, max-age=3600');
  });
});

describe('wantsNoStore', () => {
  it('covers /api and /oidc only, except discovery and JWKS', () => {
    for (const url of ['/api', '/api/user', '/api?x=1', '/oidc/token', '/oidc/me', '/oidc/auth?client_id=x', '/oidc/jwksx', '/oidc']) expect({ url, v: wantsNoStore(url) }).toEqual({ url, v: true });
    for (const url of ['/', '/login', '/assets/x.js', '/apix', '/oidc/.well-known/openid-configuration', '/oidc/jwks', '/oidc/jwks?x=1']) expect({ url, v: wantsNoStore(url) }).toEqual({ url, v: false });
  });
});
