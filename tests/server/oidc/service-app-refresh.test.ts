import { randomBytes } from 'node:crypto';
import { beforeAll, expect, it } from 'vitest';
import * as client from 'openid-client';
import { describeEachDb } from '../../helpers/app';
import { createAccount } from '../../helpers/auth';
import { freePort } from '../../helpers/http';
import { authorizeInBrowser, seedServiceApp } from '../../helpers/service-app';

const PW = 'Correct-Horse1!x';
const port = await freePort();
const appUrl = `http://127.0.0.1:${port}`;

describeEachDb(
  'service apps: first-party consent and refresh tokens (openid-client 6, confidential client)',
  (get) => {
    beforeAll(async () => {
      await get().app.listen({ port, host: '127.0.0.1' });
    });

    /** Authorization code flow through the real endpoints; `prompt` as the app sends it. */
    async function authorize(config: client.Configuration, redirectUri: string, email: string, params: Record<string, string>) {
      const { callback, verifier, state, visited } = await authorizeInBrowser({ appUrl, config, redirectUri, email, password: PW, params }, async (url) => {
        if (new URL(url).pathname.startsWith('/api/oidc-pages/consent/')) {
          // the consent step is bound to the browser that signed in: without its interaction cookie, refused
          const stranger = await fetch(url, { redirect: 'manual' });
          expect(stranger.status).toBe(400);
        }
      });
      const tokens = await client.authorizationCodeGrant(config, callback, { pkceCodeVerifier: verifier, expectedState: state, idTokenExpected: true });
      return { tokens, visited };
    }

    it('offline_access with prompt=consent: consent recorded without a screen, refresh tokens rotate, reuse kills the grant', async () => {
      const t = get();
      const email = `sa-rt-${t.kind}-${randomBytes(3).toString('hex')}@example.com`;
      const acct = await createAccount(t, { type: 'user', email, password: PW });
      const sa = await seedServiceApp(t, { members: [acct.id], clientType: 'confidential', url: 'https://rp.example.com', path: '/cb' });
      const config = await client.discovery(new URL(`${appUrl}/oidc`), sa.name, undefined, client.ClientSecretBasic(String(sa.secret)), { execute: [client.allowInsecureRequests] });

      const { tokens, visited } = await authorize(config, sa.redirectUri, email, { scope: 'openid email offline_access', prompt: 'consent' });
      // the consent step is the server's own (no sign-in page again)
      expect(visited.some((p) => p.startsWith('/api/oidc-pages/consent/'))).toBe(true);
      expect(visited.some((p) => p.startsWith('/login'))).toBe(false);
      expect(tokens.claims()?.sub).toBe(acct.id);
      expect(tokens.scope?.split(' ').sort()).toEqual(['email', 'offline_access', 'openid']);
      expect(tokens.refresh_token).toBeTruthy();
      // the consent is recorded: a grant for this app and account with the scopes
      const grants = await t.db.kysely.selectFrom('oidc_models').select('payload').where('model', '=', 'Grant').where('account_id', '=', acct.id).execute();
      expect(grants).toHaveLength(1);
      expect(JSON.parse(grants[0]!.payload)).toMatchObject({ clientId: sa.name, openid: { scope: expect.stringContaining('offline_access') } });

      const r1 = await client.refreshTokenGrant(config, String(tokens.refresh_token));
      expect(r1.refresh_token).toBeTruthy();
      expect(r1.refresh_token).not.toBe(tokens.refresh_token);
      const info = await client.fetchUserInfo(config, r1.access_token, acct.id);
      expect(info).toMatchObject({ sub: acct.id, email });
      const r2 = await client.refreshTokenGrant(config, String(r1.refresh_token));
      expect(r2.refresh_token).not.toBe(r1.refresh_token);
      // replaying a spent refresh token fails and revokes the grant: the newest one dies too
      await expect(client.refreshTokenGrant(config, String(r1.refresh_token))).rejects.toMatchObject({ error: 'invalid_grant' });
      await expect(client.refreshTokenGrant(config, String(r2.refresh_token))).rejects.toMatchObject({ error: 'invalid_grant' });
    });

    it('without prompt=consent the provider drops offline_access (OpenID Connect) and issues no refresh token', async () => {
      const t = get();
      const email = `sa-nort-${t.kind}-${randomBytes(3).toString('hex')}@example.com`;
      const acct = await createAccount(t, { type: 'user', email, password: PW });
      const sa = await seedServiceApp(t, { members: [acct.id], clientType: 'confidential', url: 'https://rp.example.com', path: '/cb' });
      const config = await client.discovery(new URL(`${appUrl}/oidc`), sa.name, undefined, client.ClientSecretBasic(String(sa.secret)), { execute: [client.allowInsecureRequests] });
      const { tokens, visited } = await authorize(config, sa.redirectUri, email, { scope: 'openid offline_access' });
      expect(visited.some((p) => p.startsWith('/api/oidc-pages/consent/'))).toBe(false);
      expect(tokens.refresh_token).toBeUndefined();
      // the consent step only finishes an interaction of the browser holding its cookie
      const stray = await fetch(`${appUrl}/api/oidc-pages/consent/not-an-interaction`);
      expect(stray.status).toBe(400);
      expect(((await stray.json()) as { error: { code: string } }).error.code).toBe('interaction_expired');
    });
  },
  { APP_URL: appUrl },
);
