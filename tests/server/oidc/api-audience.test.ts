import { randomUUID } from 'node:crypto';
import { expect, it } from 'vitest';
import { decodeJwt } from 'jose';
import { describeEachDb, type TestApp } from '../../helpers/app';
import { createAccount, exchangeCode, followToCode, signIn, startAuthorize } from '../../helpers/auth';
import { seedServiceApp } from '../../helpers/service-app';

const PW = 'Correct-Horse1!x';

/**
 * Routes under /api that answer without any credentials (sign-in steps, public configuration, password
 * reset/invitation flows...). A service app's token must not change their answer; every other /api route
 * must refuse it.
 */
const PUBLIC_ROUTES = new Set([
  'GET /api/config',
  'GET /api/languages',
  'GET /api/health',
  'GET /api/health/live',
  'GET /api/health/ready',
  'GET /api/avatars/{file}',
  'POST /api/setup',
  'POST /api/login',
  'POST /api/admin/login',
  'POST /api/2fa/google/validate-otp',
  'POST /api/admin/2fa/validate-otp',
  'POST /api/2fa/sms/verify',
  'POST /api/2fa/validate-recovery-code',
  // passkeys at the sign-in (issue 33): bound to the interaction and its browser, as the password and the codes are
  'POST /api/passkeys/authentication-options',
  'POST /api/passkeys/sign-in',
  'POST /api/2fa/passkey/verify',
  'POST /api/passkeys/enrolment-options',
  'POST /api/passkeys/enrol',
  'GET /api/sso/{provider}/start',
  'GET /api/sso/{provider}/callback',
  // the upstream provider's return after an app's sign-out (issue 31): a browser redirect, no credentials
  'GET /api/sso/{provider}/signed-out',
  'POST /api/user/verify',
  'POST /api/admin/verify',
  'POST /api/forgot-password',
  'POST /api/reset-password-token',
  'POST /api/reset-password',
  'POST /api/admin/forgot-password',
  'POST /api/admin/reset-password-token',
  'POST /api/admin/reset-password',
]);

type OpenApi = { paths: Record<string, Record<string, unknown>> };

/** Signs `email` in to the service app over the real authorization code flow; returns its access token. */
async function serviceAppToken(t: TestApp, client: string, redirectUri: string, email: string): Promise<string> {
  const start = await startAuthorize(t, { client, redirectUri, scope: 'openid' });
  const login = await t.app.inject({ method: 'POST', url: '/api/login', headers: { cookie: start.jar.header() }, payload: { email, password: PW, interaction: start.interaction } });
  expect(login.statusCode).toBe(200);
  const { code } = await followToCode(t, start, login.json().data.redirect_to);
  return (await exchangeCode(t, start, String(code))).accessToken;
}

const call = (t: TestApp, method: string, url: string, authorization?: string) =>
  t.app.inject({
    method: method.toUpperCase() as 'GET',
    url,
    headers: { ...(authorization ? { authorization } : {}), ...(method === 'get' || method === 'delete' ? {} : { 'content-type': 'application/json' }) },
    ...(method === 'get' || method === 'delete' ? {} : { payload: '{}' }),
  });

describeEachDb('the product API accepts only tokens issued to the product clients', (get) => {
  it("a service app's access token gets 401/403 on every /api route; public routes answer as without a token", async () => {
    const t = get();
    const email = `aud-${randomUUID().slice(0, 8)}@example.com`;
    const acct = await createAccount(t, { type: 'user', email, password: PW });
    const sa = await seedServiceApp(t, { members: [acct.id] });
    const token = await serviceAppToken(t, sa.name, sa.redirectUri, email);
    expect(decodeJwt(token)).toMatchObject({ aud: sa.name, client_id: sa.name, sub: acct.id });
    const bearer = `Bearer ${token}`;

    // the token is good for what it is for: the OIDC UserInfo endpoint
    const info = await t.app.inject({ method: 'GET', url: '/oidc/me', headers: { authorization: bearer } });
    expect(info.statusCode).toBe(200);
    expect(info.json().sub).toBe(acct.id);
    // positive control: the portal's token for the same person works on the API
    const portal = await signIn(t, { email, password: PW });
    expect((await call(t, 'get', '/api/user', portal.authorization)).statusCode).toBe(200);

    const doc = (await t.app.inject({ method: 'GET', url: '/api/openapi.json' })).json<OpenApi>();
    const routes = Object.entries(doc.paths)
      .filter(([p]) => p.startsWith('/api/'))
      .flatMap(([p, ops]) => Object.keys(ops).filter((m) => ['get', 'post', 'put', 'patch', 'delete'].includes(m)).map((m) => ({ m, p })));
    expect(routes.length).toBeGreaterThan(40);
    const accepted: string[] = [];
    const publicSeen = new Set<string>();
    for (const { m, p } of routes) {
      const url = p.replace(/\{[^}]+\}/g, randomUUID());
      const key = `${m.toUpperCase()} ${p}`;
      const res = await call(t, m, url, bearer);
      if (PUBLIC_ROUTES.has(key)) {
        publicSeen.add(key);
        const anonymous = await call(t, m, url);
        expect(res.statusCode, key).toBe(anonymous.statusCode);
        continue;
      }
      if (res.statusCode < 300 || (res.statusCode !== 401 && res.statusCode !== 403)) accepted.push(`${key} → ${res.statusCode}`);
    }
    expect(accepted).toEqual([]);
    expect([...publicSeen].sort()).toEqual([...PUBLIC_ROUTES].sort());
    // the grant itself is intact: the refusal is about the audience, not a dead token
    expect((await t.app.inject({ method: 'GET', url: '/oidc/me', headers: { authorization: bearer } })).statusCode).toBe(200);
  });
});
