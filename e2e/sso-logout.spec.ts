/**
 * Issue 31, upstream SSO sign-out through an app, walked in Chromium against the built product: a person whose account
 * signs in through the upstream provider (e2e/sso-upstream.ts, on 127.0.0.2) opens an app (a tiny relying party on
 * 127.0.0.10), signs in with the sign-in page's "Continue with Walk IdP", then signs out of the app (RP-initiated
 * logout). The product's sign-out page confirms itself and sends the browser on to the upstream's sign-out, which asks
 * "Sign out?"; after "Yes" the browser comes back through the product's fixed URI and lands on the app's post-logout
 * URI with the app's state, once. The next sign-in at the app is asked for at the upstream again.
 */
import { createServer, type Server } from 'node:http';
import { createHash, randomBytes } from 'node:crypto';
import type { APIRequestContext } from '@playwright/test';
import { expect, test } from './fixtures';
import { superAdminToken } from './helpers';
import { freePort } from './interop/net';
import { appUrl, SSO_WALK, sharedSsoUpstream } from './sso-upstream';

const RP_HOST = '127.0.0.10';

interface Rp {
  origin: string;
  clientId: string;
  verifier: string;
  state: string;
  idToken: string | undefined;
  signIns: number;
  loggedOut: string[];
  server: Server;
}

/** The app: /start (authorization request, PKCE), /cb (code → tokens), /logout (RP-initiated logout), / (after it). */
async function startRp(clientIdOf: (origin: string) => Promise<string>): Promise<Rp> {
  const port = await freePort(RP_HOST);
  const origin = `http://${RP_HOST}:${port}`;
  const rp: Rp = { origin, clientId: '', verifier: '', state: '', idToken: undefined, signIns: 0, loggedOut: [], server: undefined as unknown as Server };
  rp.server = createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', origin);
      if (url.pathname === '/start') {
        rp.verifier = randomBytes(32).toString('base64url');
        rp.state = randomBytes(16).toString('base64url');
        const q = new URLSearchParams({
          client_id: rp.clientId, redirect_uri: `${origin}/cb`, response_type: 'code', scope: 'openid', state: rp.state,
          code_challenge: createHash('sha256').update(rp.verifier).digest('base64url'), code_challenge_method: 'S256',
        });
        res.writeHead(302, { location: `${appUrl()}/oidc/auth?${q.toString()}` }).end();
      } else if (url.pathname === '/cb') {
        if (url.searchParams.get('state') !== rp.state) throw new Error('state mismatch');
        const tok = await fetch(`${appUrl()}/oidc/token`, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({ grant_type: 'authorization_code', code: String(url.searchParams.get('code')), redirect_uri: `${origin}/cb`, client_id: rp.clientId, code_verifier: rp.verifier }),
        });
        rp.idToken = ((await tok.json()) as { id_token?: string }).id_token;
        if (rp.idToken) rp.signIns++;
        res.writeHead(200, { 'content-type': 'text/html' }).end(`<!DOCTYPE html><html lang="en"><title>App</title><h1 id="rp">Signed in to the app: ${tok.status}</h1></html>`);
      } else if (url.pathname === '/logout') {
        const q = new URLSearchParams({ id_token_hint: String(rp.idToken), post_logout_redirect_uri: `${origin}/`, state: 'bye' });
        res.writeHead(302, { location: `${appUrl()}/oidc/session/end?${q.toString()}` }).end();
      } else if (url.pathname === '/') {
        rp.loggedOut.push(url.search);
        res.writeHead(200, { 'content-type': 'text/html' }).end('<!DOCTYPE html><html lang="en"><title>App</title><h1 id="rp">Signed out of the app</h1></html>');
      } else res.writeHead(404).end();
    })().catch((err: unknown) => res.writeHead(500).end(String(err)));
  });
  await new Promise<void>((resolve) => rp.server.listen(port, RP_HOST, resolve));
  rp.clientId = await clientIdOf(origin);
  return rp;
}

async function post<T>(request: APIRequestContext, admin: string, path: string, data: unknown): Promise<T> {
  const res = await request.post(path, { headers: { Authorization: `Bearer ${admin}` }, data });
  expect(res.ok(), `${path}: ${res.status()} ${await res.text()}`).toBeTruthy();
  return ((await res.json()) as { data: T }).data;
}

test('an app signed in through the upstream: its sign-out signs out upstream too and lands on the app with its state, once', async ({ browser, request, page }) => {
  const up = await sharedSsoUpstream();
  const admin = await superAdminToken(browser);
  const tag = randomBytes(3).toString('hex');
  // an SSO account of the upstream, allowed into the app by a role
  const role = await post<{ id: string }>(request, admin, '/api/admin/roles', { name: `SSO_LOGOUT_${tag.toUpperCase()}`, description: 'SSO sign-out walk' });
  const sub = await post<{ id: string }>(request, admin, '/api/admin/subscriptions', { name: `SSO_LOGOUT_${tag.toUpperCase()}`, description: 'SSO sign-out walk', role_ids: [role.id] });
  const email = `logout.${tag}@${SSO_WALK.domain}`;
  const user = await post<{ id: string }>(request, admin, '/api/admin/users', { email, first_name: 'Lena', last_name: `Logout ${tag}`, locale: 'en', auth_type: 'SSO', provider: SSO_WALK.id });
  const patched = await request.patch(`/api/admin/users/${user.id}`, { headers: { Authorization: `Bearer ${admin}` }, data: { subscriptions: [{ subscription_id: sub.id, role_ids: [role.id] }] } });
  expect(patched.ok(), await patched.text()).toBeTruthy();
  up.person = { sub: `logout-${tag}`, email, email_verified: true };

  const rp = await startRp(async (origin) => {
    const app = await post<{ name: string }>(request, admin, '/api/admin/service-apps', {
      name: `sso-logout-${tag}`, display_name: 'SSO sign-out walk', redirect_uris: [`${origin}/cb`], post_logout_redirect_uris: [`${origin}/`], role_ids: [role.id], client_type: 'public',
    });
    return app.name;
  });
  try {
    /** Sign-in at the app: the product's sign-in page, "Continue with Walk IdP", the upstream, back at the app. */
    const signIn = async () => {
      await page.goto(`${rp.origin}/start`);
      await expect(page).toHaveURL((u) => u.origin === appUrl() && u.pathname === '/login' && u.searchParams.has('interaction'));
      await page.getByRole('link', { name: `Continue with ${SSO_WALK.name}` }).click();
      await expect(page).toHaveURL((u) => u.origin === rp.origin && u.pathname === '/cb', { timeout: 20_000 });
      await expect(page.locator('#rp')).toHaveText('Signed in to the app: 200');
    };
    const prompts = up.prompts;
    await signIn();
    expect([rp.signIns, up.prompts - prompts]).toEqual([1, 1]);

    // sign-out at the app: the product's page confirms itself and leads on to the upstream's "Sign out?"
    await page.goto(`${rp.origin}/logout`);
    await expect(page.getByRole('heading', { name: `Sign out of ${SSO_WALK.name}?` })).toBeVisible({ timeout: 20_000 });
    const atUpstream = new URL(page.url());
    expect(`${atUpstream.origin}${atUpstream.pathname}`).toBe(`${up.issuer}/session/end`);
    expect(atUpstream.searchParams.get('post_logout_redirect_uri')).toBe(`${appUrl()}/api/sso/${SSO_WALK.id}/signed-out`);
    await page.screenshot({ path: 'e2e/artifacts/sso-logout-upstream-confirm.png' });
    await page.getByRole('button', { name: 'Yes, sign me out' }).click();
    await expect(page).toHaveURL(`${rp.origin}/?state=bye`);
    await expect(page.locator('#rp')).toHaveText('Signed out of the app');
    expect(rp.loggedOut).toEqual(['?state=bye']);
    // Back re-opens the upstream's sign-out address; signed out there, it sends the browser straight back to the
    // product's fixed URI: a second return, which shows the product's signed-out page, not the app again
    await page.goBack();
    await expect(page).toHaveURL(`${appUrl()}/oidc/session/end/success`);
    expect(rp.loggedOut).toEqual(['?state=bye']);

    // the upstream session ended with it: the next sign-in at the app is asked for there again
    await signIn();
    expect([rp.signIns, up.prompts - prompts]).toEqual([2, 2]);
  } finally {
    up.person = null;
    await new Promise((r) => rp.server.close(r));
  }
});
