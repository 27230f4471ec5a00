import { randomBytes, randomUUID } from 'node:crypto';
import { beforeAll, expect, it } from 'vitest';
import * as client from 'openid-client';
import { decodeJwt } from 'jose';
import { TOTP } from 'otpauth';
import { describeEachDb, type TestApp } from '../../helpers/app';
import { createAccount, signIn } from '../../helpers/auth';
import { freePort } from '../../helpers/http';
import { seedServiceApp, serviceAppTokens, type SeededServiceApp } from '../../helpers/service-app';
import { createTotpSecret, enableTotp } from '../../../server/services/two-factor';
import { nowIso } from '../../../server/db/index';

const PW = 'Correct-Horse1!x';
const port = await freePort();
const appUrl = `http://127.0.0.1:${port}`;
const insecure = { execute: [client.allowInsecureRequests] };

const mail = (p: string) => `${p}-${randomBytes(4).toString('hex')}@example.com`;

/** Signs `email` in to a service app over the real endpoints; returns the token response. */
const appTokens = (t: TestApp, sa: SeededServiceApp, email: string, scope: string) => serviceAppTokens(t, sa, email, PW, scope);

describeEachDb(
  'OIDC standards for service apps: roles claim, acr/amr/sid, UserInfo errors and CORS, introspection, client_credentials',
  (get) => {
    beforeAll(async () => {
      await get().app.listen({ port, host: '127.0.0.1' });
    });

    it('discovery advertises what is issued', async () => {
      const d = (await get().app.inject({ method: 'GET', url: '/oidc/.well-known/openid-configuration' })).json();
      for (const c of ['acr', 'amr', 'sid', 'auth_time', 'roles', 'email_verified']) expect(d.claims_supported).toContain(c);
      expect(d.scopes_supported).toContain('roles');
      expect(d.acr_values_supported).toEqual(['urn:iam:acr:pwd', 'urn:iam:acr:mfa', 'urn:iam:acr:sso']);
      expect(d.introspection_endpoint).toBe(`${appUrl}/oidc/token/introspection`);
      expect(d.grant_types_supported).toContain('client_credentials');
      expect(d.userinfo_endpoint).toBe(`${appUrl}/oidc/me`);
    });

    it("roles (scope roles): the app's allowed roles the person holds, in the ID token and UserInfo", async () => {
      const t = get();
      const db = t.db.kysely;
      const email = mail('roles');
      const acct = await createAccount(t, { type: 'user', email, password: PW });
      const sa = await seedServiceApp(t, { members: [acct.id] });
      // a second allowed role the person lacks, and a role the person holds that the app does not allow
      const now = nowIso();
      const [lacked, foreign] = [randomUUID(), randomUUID()];
      await db.insertInto('roles').values([{ id: lacked, name: `LACKED_${sa.roleName}`, description: '', created_at: now, updated_at: now }, { id: foreign, name: `FOREIGN_${sa.roleName}`, description: '', created_at: now, updated_at: now }]).execute();
      await db.insertInto('service_app_roles').values({ service_app_id: sa.id, role_id: lacked }).execute();
      await db.insertInto('subscription_roles').values({ subscription_id: sa.subscriptionId, role_id: foreign }).execute();
      await db.insertInto('role_subscriptions').values({ account_id: acct.id, subscription_id: sa.subscriptionId, role_id: foreign, created_at: now }).execute();

      const withRoles = await appTokens(t, sa, email, 'openid roles');
      expect(decodeJwt(withRoles.id_token).roles).toEqual([sa.roleName]);
      const info = await t.app.inject({ method: 'GET', url: '/oidc/me', headers: { authorization: `Bearer ${withRoles.access_token}` } });
      expect(info.json()).toEqual({ sub: acct.id, roles: [sa.roleName] });

      const without = await appTokens(t, sa, email, 'openid email');
      expect(decodeJwt(without.id_token).roles).toBeUndefined();
      const info2 = (await t.app.inject({ method: 'GET', url: '/oidc/me', headers: { authorization: `Bearer ${without.access_token}` } })).json();
      expect(info2.roles).toBeUndefined();
      expect(info2).toMatchObject({ email, email_verified: true });
    });

    it('acr/amr tell one factor from two; sid and auth_time are in the ID token', async () => {
      const t = get();
      const email = mail('amr');
      const acct = await createAccount(t, { type: 'user', email, password: PW });
      const one = decodeJwt((await signIn(t, { email, password: PW })).idToken);
      expect(one).toMatchObject({ acr: 'urn:iam:acr:pwd', amr: ['pwd'] });
      expect(typeof one.sid).toBe('string');
      expect(typeof one.auth_time).toBe('number');

      const { secret } = await createTotpSecret(t.app, acct);
      const totp = new TOTP({ secret, digits: 6, period: 30 });
      await enableTotp(t.app, acct, totp.generate());
      const two = decodeJwt((await signIn(t, { email, password: PW, otp: () => totp.generate({ timestamp: Date.now() + 30_000 }) })).idToken);
      expect(two).toMatchObject({ acr: 'urn:iam:acr:mfa', amr: ['pwd', 'otp', 'mfa'] });
    });

    it('UserInfo: RFC 6750 errors with WWW-Authenticate, CORS for browser apps, truthful email_verified, dead after sign-out', async () => {
      const t = get();
      const none = await fetch(`${appUrl}/oidc/me`);
      expect(none.status).toBe(401);
      // a challenge per scheme (RFC 6750, RFC 9449 §7.1), the DPoP one with the proof algorithms
      expect(none.headers.get('www-authenticate')).toBe(`Bearer realm="${appUrl}/oidc", DPoP realm="${appUrl}/oidc", algs="ES256 Ed25519 EdDSA"`);
      const bad = await fetch(`${appUrl}/oidc/me`, { headers: { authorization: 'Bearer a.b.c', origin: 'https://spa.example' } });
      expect(bad.status).toBe(401);
      expect(bad.headers.get('www-authenticate')).toMatch(/^Bearer realm="[^"]+", error="invalid_token", error_description="[^"]*", DPoP realm="[^"]+", algs="[^"]+"$/);
      expect(await bad.json()).toMatchObject({ error: 'invalid_token' });
      expect(bad.headers.get('access-control-allow-origin')).toBe('*');

      const pre = await fetch(`${appUrl}/oidc/me`, { method: 'OPTIONS', headers: { origin: 'https://spa.example', 'access-control-request-method': 'GET', 'access-control-request-headers': 'authorization' } });
      expect(pre.status).toBe(204);
      expect(pre.headers.get('access-control-allow-origin')).toBe('*');
      expect(pre.headers.get('access-control-allow-headers')).toMatch(/authorization/i);

      // e-mail never confirmed (no mailed link followed): email_verified false
      const email = mail('unverified');
      const acct = await createAccount(t, { type: 'user', email, password: PW, email_verified_at: null });
      const sa = await seedServiceApp(t, { members: [acct.id] });
      const tokens = await appTokens(t, sa, email, 'openid email');
      const ok = await fetch(`${appUrl}/oidc/me`, { headers: { authorization: `Bearer ${tokens.access_token}`, origin: 'https://spa.example' } });
      expect(ok.status).toBe(200);
      expect(ok.headers.get('access-control-allow-origin')).toBe('*');
      expect(await ok.json()).toEqual({ sub: acct.id, email, email_verified: false });
      expect(decodeJwt(tokens.id_token).email_verified).toBe(false);

      // signing out ends the grant: the access token stops at UserInfo at once
      await t.db.kysely.deleteFrom('oidc_models').where('model', '=', 'Grant').where('account_id', '=', acct.id).execute();
      expect((await fetch(`${appUrl}/oidc/me`, { headers: { authorization: `Bearer ${tokens.access_token}` } })).status).toBe(401);
    });

    it('introspection (RFC 7662, openid-client): confidential apps learn about their own tokens only', async () => {
      const t = get();
      const email = mail('introspect');
      const acct = await createAccount(t, { type: 'user', email, password: PW });
      const sa = await seedServiceApp(t, { members: [acct.id], clientType: 'confidential' });
      const other = await seedServiceApp(t, { members: [acct.id], clientType: 'confidential' });
      const pub = await seedServiceApp(t, { members: [acct.id] });
      const tokens = await appTokens(t, sa, email, 'openid email');
      const otherTokens = await appTokens(t, other, email, 'openid');
      const config = await client.discovery(new URL(`${appUrl}/oidc`), sa.name, undefined, client.ClientSecretBasic(String(sa.secret)), insecure);

      const at = await client.tokenIntrospection(config, tokens.access_token);
      expect(at).toMatchObject({ active: true, client_id: sa.name, sub: acct.id, scope: 'openid email', iss: `${appUrl}/oidc`, token_type: 'Bearer' });
      expect(await client.tokenIntrospection(config, otherTokens.access_token)).toEqual({ active: false });
      expect(await client.tokenIntrospection(config, 'not-a-token')).toEqual({ active: false });
      // the right secret sent another way than the app is registered for (here: basic) is refused; a wrong secret or a public client too
      const post = await fetch(`${appUrl}/oidc/token/introspection`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ token: tokens.access_token, client_id: sa.name, client_secret: String(sa.secret) }) });
      expect(post.status).toBe(401);
      const wrong = await client.discovery(new URL(`${appUrl}/oidc`), sa.name, undefined, client.ClientSecretBasic('wrong'), insecure);
      await expect(client.tokenIntrospection(wrong, tokens.access_token)).rejects.toMatchObject({ status: 401 });
      const wrongRes = await fetch(`${appUrl}/oidc/token/introspection`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: `Basic ${Buffer.from(`${sa.name}:wrong`).toString('base64')}` }, body: new URLSearchParams({ token: tokens.access_token }) });
      expect(await wrongRes.json()).toEqual({ error: 'invalid_client', error_description: 'client authentication failed' });
      const pubRes = await fetch(`${appUrl}/oidc/token/introspection`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ token: tokens.access_token, client_id: pub.name }) });
      expect(pubRes.status).toBe(401);
      // ended grant → inactive
      await t.db.kysely.deleteFrom('oidc_models').where('model', '=', 'Grant').where('account_id', '=', acct.id).execute();
      expect(await client.tokenIntrospection(config, tokens.access_token)).toEqual({ active: false });
    });

    it('client_credentials: only apps with the setting; the token names the app, no person, and opens nothing of the product', async () => {
      const t = get();
      const cc = await seedServiceApp(t, { clientType: 'confidential', extra: { client_credentials: 1 } });
      const off = await seedServiceApp(t, { clientType: 'confidential' });
      const config = await client.discovery(new URL(`${appUrl}/oidc`), cc.name, undefined, client.ClientSecretBasic(String(cc.secret)), insecure);
      const res = await client.clientCredentialsGrant(config);
      const claims = decodeJwt(res.access_token);
      // RFC 9068: sub is the app itself; no grant of a person (gid)
      expect(claims).toMatchObject({ aud: cc.name, client_id: cc.name, sub: cc.name });
      expect(claims.gid).toBeUndefined();
      expect(claims.scope).toBeUndefined();
      // user scopes are not granted without a person
      const asked = await client.clientCredentialsGrant(config, { scope: 'openid email' });
      expect(decodeJwt(asked.access_token).scope).toBeUndefined();
      expect(await client.tokenIntrospection(config, res.access_token)).toMatchObject({ active: true, client_id: cc.name, aud: cc.name });
      expect((await fetch(`${appUrl}/oidc/me`, { headers: { authorization: `Bearer ${res.access_token}` } })).status).toBe(401);
      expect((await fetch(`${appUrl}/api/user`, { headers: { authorization: `Bearer ${res.access_token}` } })).status).toBe(401);
      const offConfig = await client.discovery(new URL(`${appUrl}/oidc`), off.name, undefined, client.ClientSecretBasic(String(off.secret)), insecure);
      await expect(client.clientCredentialsGrant(offConfig)).rejects.toMatchObject({ status: 400, error: 'invalid_request', error_description: 'requested grant type is not allowed for this client' });
    });
  },
  { APP_URL: appUrl },
);
