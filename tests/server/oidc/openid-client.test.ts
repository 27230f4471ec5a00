import { afterAll, beforeAll, expect, it } from 'vitest';
import * as client from 'openid-client';
import { describeEachDb } from '../../helpers/app';
import { createAccount } from '../../helpers/auth';
import { Browser, freePort } from '../../helpers/http';

const PW = 'Correct-Horse1!x';
const port = await freePort();
const appUrl = `http://127.0.0.1:${port}`;

describeEachDb(
  'openid-client (v6) drives the portal client against the listening app',
  (get) => {
    beforeAll(async () => {
      await get().app.listen({ port, host: '127.0.0.1' });
    });
    afterAll(async () => {
      // closed by the harness
    });

    it('discovery, authorization code + PKCE, token, userinfo, refresh, end session', async () => {
      const t = get();
      const email = `oc-${t.kind}@example.com`;
      const acct = await createAccount(t, { type: 'user', email, password: PW });
      const config = await client.discovery(new URL(`${appUrl}/oidc`), 'portal', undefined, client.None(), { execute: [client.allowInsecureRequests] });
      expect(config.serverMetadata().issuer).toBe(`${appUrl}/oidc`);
      const verifier = client.randomPKCECodeVerifier();
      const state = client.randomState();
      const redirectUri = `${appUrl}/login`;
      const authUrl = client.buildAuthorizationUrl(config, {
        redirect_uri: redirectUri,
        scope: 'openid profile email offline_access',
        code_challenge: await client.calculatePKCECodeChallenge(verifier),
        code_challenge_method: 'S256',
        state,
      });
      const browser = new Browser();
      const r1 = await browser.go(authUrl.href);
      expect(r1.status).toBe(303);
      const loginPage = new URL(String(r1.headers.get('location')));
      expect(loginPage.pathname).toBe('/login');
      const interaction = loginPage.searchParams.get('interaction');
      const login = await browser.go(`${appUrl}/api/login`, { method: 'POST', headers: { 'content-type': 'application/json', origin: appUrl, 'user-agent': 'vitest-browser' }, body: JSON.stringify({ email, password: PW, interaction }) });
      expect(login.status).toBe(200);
      const { redirect_to } = ((await login.json()) as { data: { redirect_to: string } }).data;
      const r2 = await browser.go(redirect_to);
      const back = String(r2.headers.get('location'));
      expect(back.startsWith(`${redirectUri}?`)).toBe(true);

      const tokens = await client.authorizationCodeGrant(config, new URL(back), { pkceCodeVerifier: verifier, expectedState: state, idTokenExpected: true });
      expect(tokens.claims()?.sub).toBe(acct.id);
      expect(tokens.refresh_token).toBeTruthy();
      const info = await client.fetchUserInfo(config, tokens.access_token, acct.id);
      expect(info).toMatchObject({ sub: acct.id, email, email_verified: true });

      const refreshed = await client.refreshTokenGrant(config, String(tokens.refresh_token));
      expect(refreshed.refresh_token).not.toBe(tokens.refresh_token);
      const activity = await t.db.kysely.selectFrom('auth_activities').selectAll().where('account_id', '=', acct.id).executeTakeFirstOrThrow();
      expect(activity).toMatchObject({ origin: appUrl, user_agent: 'vitest-browser', logged_out_at: null });

      // RP-initiated logout: confirm page (CSP-friendly), then the grant is revoked and the sign-out recorded
      const endUrl = client.buildEndSessionUrl(config, { id_token_hint: String(tokens.id_token), post_logout_redirect_uri: redirectUri, state: 'bye' });
      const page = await browser.go(endUrl.href);
      expect(page.status).toBe(200);
      expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
      const html = await page.text();
      // no inline script or style: only the same-origin script that confirms a hinted logout
      expect(html).not.toMatch(/<style|<script>/);
      const scriptSrc = /<script src="([^"]+)"><\/script>/.exec(html)?.[1];
      expect(scriptSrc).toBe('/api/oidc-pages/logout.js');
      const script = await fetch(`${appUrl}${scriptSrc}`);
      expect(script.headers.get('content-type')).toContain('javascript');
      expect(await script.text()).toContain("op.logoutYes");
      const xsrf = /name="xsrf" value="([^"]+)"/.exec(html)?.[1];
      expect(xsrf).toBeTruthy();
      const confirm = await browser.go(`${appUrl}/oidc/session/end/confirm`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ xsrf: String(xsrf), logout: 'yes' }).toString() });
      expect(confirm.status).toBe(303);
      expect(confirm.headers.get('location')).toBe(`${redirectUri}?state=bye`);
      await expect(client.refreshTokenGrant(config, String(refreshed.refresh_token))).rejects.toThrow();
      const me = await fetch(`${appUrl}/api/user`, { headers: { authorization: `Bearer ${refreshed.access_token}` } });
      expect(me.status).toBe(401);
      const closed = await t.db.kysely.selectFrom('auth_activities').select('logged_out_at').where('id', '=', activity.id).executeTakeFirstOrThrow();
      expect(closed.logged_out_at).not.toBeNull();
      // the provider session is gone: a new authorization asks for a sign-in again
      const again = await browser.go(authUrl.href);
      expect(String(again.headers.get('location'))).toContain('/login?interaction=');
    });
  },
  { APP_URL: appUrl },
);
