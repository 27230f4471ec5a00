import { randomBytes } from 'node:crypto';
import { beforeAll, expect, it } from 'vitest';
import * as client from 'openid-client';
import { decodeJwt, generateKeyPair, SignJWT } from 'jose';
import { describeEachDb } from '../../helpers/app';
import { createAccount, signIn } from '../../helpers/auth';
import { freePort } from '../../helpers/http';
import { seedServiceApp, serviceAppTokens } from '../../helpers/service-app';
import { cleanupRevokedAccessTokens } from '../../../server/oidc/revocation';

/**
 * Revocation of access tokens (RFC 7009, issue 31 point 3; server/oidc/revocation.ts). Our access tokens are JWTs the
 * provider does not store: it used to answer 400 unsupported_token_type and the token kept working for its 10
 * minutes. Now revoking one answers 200 and the token is refused at once at introspection, UserInfo and the REST API
 * of this instance (other instances: tests/server/multi-instance/token-revocation.test.ts). Driven by openid-client 6
 * against the listening app.
 */

const PW = 'Correct-Horse1!x';
const port = await freePort();
const appUrl = `http://127.0.0.1:${port}`;
const insecure = { execute: [client.allowInsecureRequests] };
const mail = (p: string) => `${p}-${randomBytes(4).toString('hex')}@example.com`;

const userinfo = (token: string) => fetch(`${appUrl}/oidc/me`, { headers: { authorization: `Bearer ${token}` } });
const revokeRaw = (body: Record<string, string>, headers: Record<string, string> = {}) =>
  fetch(`${appUrl}/oidc/token/revocation`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers }, body: new URLSearchParams(body) });
const basic = (id: string, secret: string) => ({ authorization: `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}` });

describeEachDb(
  'revocation of access tokens (RFC 7009)',
  (get) => {
    beforeAll(async () => {
      await get().app.listen({ port, host: '127.0.0.1' });
    });

    it('openid-client tokenRevocation of an access token: 200, then inactive at introspection and refused at UserInfo at once; only that token', async () => {
      const t = get();
      const email = mail('rv');
      const acct = await createAccount(t, { type: 'user', email, password: PW });
      const sa = await seedServiceApp(t, { members: [acct.id], clientType: 'confidential' });
      const config = await client.discovery(new URL(`${appUrl}/oidc`), sa.name, undefined, client.ClientSecretBasic(String(sa.secret)), insecure);
      expect(config.serverMetadata().revocation_endpoint).toBe(`${appUrl}/oidc/token/revocation`);
      const victim = await serviceAppTokens(t, sa, email, PW, 'openid email');
      const other = await serviceAppTokens(t, sa, email, PW, 'openid email');
      expect(await client.tokenIntrospection(config, victim.access_token)).toMatchObject({ active: true });
      expect((await userinfo(victim.access_token)).status).toBe(200);

      await client.tokenRevocation(config, victim.access_token);

      expect(await client.tokenIntrospection(config, victim.access_token)).toEqual({ active: false });
      const refused = await userinfo(victim.access_token);
      expect(refused.status).toBe(401);
      expect(await refused.json()).toMatchObject({ error: 'invalid_token' });
      await expect(client.fetchUserInfo(config, victim.access_token, acct.id)).rejects.toThrow();
      // the grant and its other tokens live on (revoking a refresh token ends the grant, below)
      expect(await client.tokenIntrospection(config, other.access_token)).toMatchObject({ active: true });
      expect((await userinfo(other.access_token)).status).toBe(200);
      // again, and with the hint: still 200 (nothing left to do)
      await client.tokenRevocation(config, victim.access_token, { token_type_hint: 'access_token' });
      const row = await t.db.kysely.selectFrom('revoked_access_tokens').selectAll().where('jti', '=', String(decodeJwt(victim.access_token).jti)).executeTakeFirstOrThrow();
      expect({ client_id: row.client_id, expires_at: Number(row.expires_at) }).toEqual({ client_id: sa.name, expires_at: decodeJwt(victim.access_token).exp });
      // the provider's refusal of structured tokens, which the product answers itself, is not in the admin error log;
      // a refusal the client does get (a wrong secret, after it) is, and marks when the log has caught up
      expect((await revokeRaw({ token: victim.access_token }, basic(sa.name, 'wrong'))).status).toBe(401);
      const logged = async () => (await t.db.kysely.selectFrom('error_logs').select('error_code').where('url', 'like', '%/oidc/token/revocation%').execute()).map((r) => r.error_code);
      for (let i = 0; i < 100 && !(await logged()).includes('invalid_client'); i++) await new Promise((r) => setTimeout(r, 20));
      expect(await logged()).toEqual(['invalid_client']);
    });

    it('the REST API refuses a revoked portal token at once on the instance that revoked it, from its auth cache too', async () => {
      const t = get();
      const email = mail('rv-api');
      await createAccount(t, { type: 'user', email, password: PW });
      const tokens = await signIn(t, { email, password: PW });
      const cache = t.app.oidc.authCache;
      const now = Date.now();
      cache.clock = () => now; // the entry cannot age out: only the revocation can end it
      try {
        const read = () => fetch(`${appUrl}/api/user`, { headers: { authorization: tokens.authorization } });
        expect((await read()).status).toBe(200);
        expect(cache.get(tokens.accessToken)).toBeDefined();
        const portal = await client.discovery(new URL(`${appUrl}/oidc`), 'portal', undefined, client.None(), insecure);
        await client.tokenRevocation(portal, tokens.accessToken);
        const res = await read();
        expect(res.status).toBe(401);
        expect(((await res.json()) as { error: { code: string } }).error.code).toBe('invalid_token');
        expect((await fetch(`${appUrl}/api/logout`, { method: 'POST', headers: { authorization: tokens.authorization } })).status).toBe(401);
      } finally {
        cache.clock = Date.now;
      }
    });

    it("who may revoke: another client's token is not revoked — a public caller gets 200, a confidential one 400 invalid_request; a wrong secret 401", async () => {
      const t = get();
      const email = mail('rv-who');
      const acct = await createAccount(t, { type: 'user', email, password: PW });
      const owner = await seedServiceApp(t, { members: [acct.id], clientType: 'confidential' });
      const stranger = await seedServiceApp(t, { members: [acct.id], clientType: 'confidential' });
      const pub = await seedServiceApp(t, { members: [acct.id] });
      const tokens = await serviceAppTokens(t, owner, email, PW, 'openid');
      const ownerConfig = await client.discovery(new URL(`${appUrl}/oidc`), owner.name, undefined, client.ClientSecretBasic(String(owner.secret)), insecure);
      const strangerConfig = await client.discovery(new URL(`${appUrl}/oidc`), stranger.name, undefined, client.ClientSecretBasic(String(stranger.secret)), insecure);

      await expect(client.tokenRevocation(strangerConfig, tokens.access_token)).rejects.toMatchObject({ status: 400, error: 'invalid_request', error_description: 'client is not authorized to revoke the presented token' });
      expect((await revokeRaw({ token: tokens.access_token, client_id: pub.name })).status).toBe(200);
      expect((await revokeRaw({ token: tokens.access_token, client_id: 'portal' })).status).toBe(200);
      const wrong = await revokeRaw({ token: tokens.access_token }, basic(owner.name, 'wrong'));
      expect(wrong.status).toBe(401);
      expect(await wrong.json()).toMatchObject({ error: 'invalid_client' });
      // the right secret sent another way than registered (post instead of basic) is refused as everywhere
      expect((await revokeRaw({ token: tokens.access_token, client_id: owner.name, client_secret: String(owner.secret) })).status).toBe(401);
      expect(await client.tokenIntrospection(ownerConfig, tokens.access_token)).toMatchObject({ active: true });
      expect((await userinfo(tokens.access_token)).status).toBe(200);
      expect(await t.db.kysely.selectFrom('revoked_access_tokens').select('jti').execute()).not.toContainEqual({ jti: decodeJwt(tokens.access_token).jti });
    });

    it('unknown, malformed and forged tokens answer 200 and revoke nothing; a forged copy of a real token leaves it alive', async () => {
      const t = get();
      const email = mail('rv-forged');
      const acct = await createAccount(t, { type: 'user', email, password: PW });
      const sa = await seedServiceApp(t, { members: [acct.id], clientType: 'confidential' });
      const config = await client.discovery(new URL(`${appUrl}/oidc`), sa.name, undefined, client.ClientSecretBasic(String(sa.secret)), insecure);
      const tokens = await serviceAppTokens(t, sa, email, PW, 'openid');
      await client.tokenRevocation(config, 'not-a-token');
      await client.tokenRevocation(config, 'a.b.c');
      await client.tokenRevocation(config, randomBytes(40).toString('base64url'), { token_type_hint: 'refresh_token' });
      // the same claims (same jti) signed with a key that is not ours
      const real = decodeJwt(tokens.access_token);
      const { privateKey } = await generateKeyPair('RS256');
      const forged = await new SignJWT({ ...real }).setProtectedHeader({ alg: 'RS256', typ: 'at+jwt', kid: 'forged' }).sign(privateKey);
      await client.tokenRevocation(config, forged);
      expect(await client.tokenIntrospection(config, tokens.access_token)).toMatchObject({ active: true });
      expect((await userinfo(tokens.access_token)).status).toBe(200);
      expect(await t.db.kysely.selectFrom('revoked_access_tokens').select('jti').where('jti', '=', String(real.jti)).execute()).toEqual([]);
    });

    it('client_credentials tokens (no person) are revoked too', async () => {
      const t = get();
      const cc = await seedServiceApp(t, { clientType: 'confidential', extra: { client_credentials: 1 } });
      const config = await client.discovery(new URL(`${appUrl}/oidc`), cc.name, undefined, client.ClientSecretBasic(String(cc.secret)), insecure);
      const { access_token } = await client.clientCredentialsGrant(config);
      expect(await client.tokenIntrospection(config, access_token)).toMatchObject({ active: true });
      await client.tokenRevocation(config, access_token);
      expect(await client.tokenIntrospection(config, access_token)).toEqual({ active: false });
    });

    it('revoking a refresh token (the provider) still ends the grant: its access tokens stop too', async () => {
      const t = get();
      const email = mail('rv-rt');
      await createAccount(t, { type: 'user', email, password: PW });
      const tokens = await signIn(t, { email, password: PW });
      const portal = await client.discovery(new URL(`${appUrl}/oidc`), 'portal', undefined, client.None(), insecure);
      await client.tokenRevocation(portal, tokens.refreshToken);
      await expect(client.refreshTokenGrant(portal, tokens.refreshToken)).rejects.toMatchObject({ error: 'invalid_grant' });
      expect((await fetch(`${appUrl}/api/logout`, { method: 'POST', headers: { authorization: tokens.authorization } })).status).toBe(401);
    });

    it('the cleanup deletes revocations of expired tokens only', async () => {
      const t = get();
      const db = t.db.kysely;
      const now = Math.floor(Date.now() / 1000);
      const rows = [
        { jti: `gone-${randomBytes(4).toString('hex')}`, client_id: 'portal', expires_at: now - 1, revoked_at: new Date().toISOString() },
        { jti: `kept-${randomBytes(4).toString('hex')}`, client_id: 'portal', expires_at: now + 600, revoked_at: new Date().toISOString() },
      ];
      await db.insertInto('revoked_access_tokens').values(rows).execute();
      expect(await cleanupRevokedAccessTokens(db, now)).toBeGreaterThanOrEqual(1);
      const left = (await db.selectFrom('revoked_access_tokens').select('jti').where('jti', 'in', rows.map((r) => r.jti)).execute()).map((r) => r.jti);
      expect(left).toEqual([rows[1]?.jti]);
    });
  },
  { APP_URL: appUrl, IAM_RATE_LIMIT_PER_MINUTE: '100000' },
);
