/**
 * Interoperability proof (issue 11): stock OIDC relying parties, each on its own loopback origin, driven
 * in Chromium through the product's sign-in: claims incl. `roles`, refresh, a user without the app's role
 * (the product's "no access" page, the app receives access_denied) and RP-initiated sign-out.
 *
 *   product            http://127.0.0.1:<E2E_PORT>   (playwright.config.ts webServer)
 *   openid-client 6    http://127.0.0.2:<free port>  Node web app, confidential, PKCE
 *   oidc-client-ts     http://127.0.0.3:<free port>  browser-only SPA, public client, PKCE
 *   authlib (Debian)   http://127.0.0.4:<free port>  Python web app, confidential, PKCE
 *   mod_auth_openidc   http://127.0.0.5:<free port>  Debian Apache 2.4, confidential, PKCE
 *   go-oidc 2.1        http://127.0.0.6:<free port>  Debian golang-go + go-oidc + x/oauth2, confidential, PKCE by hand
 *   express-openid-connect 3.4  http://127.0.0.7:<free port>  Node, Express 5, confidential, PKCE, back-channel logout
 *   passport-openidconnect 0.1  http://127.0.0.8:<free port>  Node, Express 5, confidential, client_secret_post, no PKCE
 *   Auth.js (@auth/express 0.12) http://127.0.0.9:<free port>  Node, Express 5, confidential, PKCE + state + nonce
 *
 * Different hosts, not only ports: cookies ignore the port, and every party must keep its own.
 * Apache, authlib and Go come from Debian (.ci/run installs them); without them those tests fail, not skip.
 */
import * as oidcClient from 'openid-client';
import type { APIRequestContext, Browser, BrowserContext, Page, PlaywrightWorkerArgs } from '@playwright/test';
import { expect, test } from './fixtures';
import { adminSignIn, fillCredentials, type NewUser } from './helpers';
import { createFixture, registerApp, type InteropFixture } from './interop/fixture';
import { freePort } from './interop/net';
import { startApacheRp } from './interop/rp-apache';
import { startAuthJsRp } from './interop/rp-authjs';
import { startAuthlibRp } from './interop/rp-authlib';
import { startBrowserRp } from './interop/rp-browser';
import { startExpressRp } from './interop/rp-express';
import { startGoRp } from './interop/rp-go';
import { startOpenIdClientRp } from './interop/rp-openid-client';
import { startPassportRp } from './interop/rp-passport';

const SCOPE = process.env.RP_DEV_SCOPE ?? 'openid profile email roles offline_access';
let f: InteropFixture;
let issuer: string;
let productOrigin: string;

test.beforeAll(async ({ browser, playwright }, info) => {
  const baseURL = info.project.use.baseURL!;
  productOrigin = new URL(baseURL).origin;
  const request = await playwright.request.newContext({ baseURL });
  try {
    f = await createFixture(browser, request);
    const config = await request.get('/api/config');
    issuer = ((await config.json()) as { data: { issuer: string } }).data.issuer;
  } finally {
    await request.dispose();
  }
});

async function withRequest<T>(playwright: PlaywrightWorkerArgs['playwright'], fn: (r: APIRequestContext) => Promise<T>): Promise<T> {
  const request = await playwright.request.newContext({ baseURL: productOrigin });
  try {
    return await fn(request);
  } finally {
    await request.dispose();
  }
}

/**
 * From the app's sign-in link through the product's login page back to the app: fills the credentials,
 * answers a consent screen if the product shows one, and waits until the browser is on `rpOrigin` again.
 */
async function signInThroughProduct(page: Page, user: NewUser, rpOrigin: string): Promise<void> {
  await expect(page).toHaveURL((u) => u.origin === productOrigin && /\/login$/.test(u.pathname) && u.searchParams.has('interaction'));
  await fillCredentials(page, user.email, user.password);
  await page.waitForURL((u) => u.origin === rpOrigin || u.searchParams.has('consent') || /\/consent/.test(u.pathname), { timeout: 15_000 });
  if (new URL(page.url()).origin !== rpOrigin) {
    await page.getByRole('button', { name: /allow|accept|continue|authori[sz]e/i }).first().click();
    await page.waitForURL((u) => u.origin === rpOrigin, { timeout: 15_000 });
  }
}

/** The product's "no access" page in the two languages the suite looks at (Accept-Language of the browser context). */
const DENIED_PAGE = {
  en: { heading: /you have no access to/i, continue: /^continue to /i },
  de: { heading: /sie haben keinen zugriff auf/i, continue: /^weiter zu /i },
} as const;

/** The denied user: the product's localized "no access" page, then (Continue) the app receives access_denied. */
async function deniedThroughProduct(page: Page, user: NewUser, rpOrigin: string, lang: keyof typeof DENIED_PAGE = 'en'): Promise<void> {
  await expect(page).toHaveURL((u) => u.origin === productOrigin && u.searchParams.has('interaction'));
  // a German browser's first visit shows the sign-in page in German (navigator.languages, issue 29)
  await fillCredentials(page, user.email, user.password, lang);
  // the product explains the refusal on its own origin before the app hears about it
  await expect(page.getByRole('heading', { name: DENIED_PAGE[lang].heading })).toBeVisible();
  expect(new URL(page.url()).origin).toBe(productOrigin);
  await page.getByRole('link', { name: DENIED_PAGE[lang].continue }).click();
  await page.waitForURL((u) => u.origin === rpOrigin, { timeout: 15_000 });
}

const bodyText = (page: Page): Promise<string> => page.locator('body').innerText({ timeout: 1_000 }).catch(() => '(no body)');

/** The app's `#state`; on failure the message carries the page's text (the app's error, Apache's 403...). */
async function expectState(page: Page, state: 'signed-in' | 'signed-out' | 'error'): Promise<void> {
  try {
    await expect(page.locator('#state')).toHaveText(state);
  } catch (err) {
    throw new Error(`${(err as Error).message}\n--- ${page.url()} ---\n${await bodyText(page)}`);
  }
}

async function claimsOf(page: Page, id: 'userinfo' | 'id-claims'): Promise<Record<string, unknown>> {
  return JSON.parse((await page.locator(`#${id}`).textContent()) ?? 'null') as Record<string, unknown>;
}

/** The shared flow of the apps that render e2e/interop/page.ts's shape (openid-client, authlib, oidc-client-ts). */
async function webAppFlow(browser: Browser, rpUrl: string, o: { probeAfterSignOut?: boolean; deniedLang?: 'en' | 'de' } = {}): Promise<void> {
  const rpOrigin = new URL(rpUrl).origin;
  const context: BrowserContext = await browser.newContext();
  const page = await context.newPage();
  try {
    await test.step('sign-in: claims incl. roles', async () => {
      await page.goto(`${rpUrl}/login`);
      await signInThroughProduct(page, f.allowed, rpOrigin);
      await expectState(page, 'signed-in');
      const userinfo = await claimsOf(page, 'userinfo');
      expect(userinfo).toMatchObject({ email: f.allowed.email, given_name: f.allowed.first, family_name: f.allowed.last });
      expect(userinfo.roles).toEqual([f.role.name]);
      const idClaims = await claimsOf(page, 'id-claims');
      expect(idClaims.sub).toBe(userinfo.sub);
    });

    await test.step('refresh: new access token, UserInfo still answers', async () => {
      const before = await page.locator('#at-hash').textContent();
      await page.goto(`${rpUrl}/refresh`);
      await expectState(page, 'signed-in');
      await expect(page.locator('#refreshes')).toHaveText('1');
      expect(await page.locator('#at-hash').textContent()).not.toBe(before);
      expect((await claimsOf(page, 'userinfo')).roles).toEqual([f.role.name]);
    });

    await test.step('RP-initiated sign-out lands back on the app', async () => {
      // the provider's sign-out page confirms itself (valid id_token_hint) and redirects back
      await page.goto(`${rpUrl}/logout`, { waitUntil: 'commit' });
      await page.waitForURL((u) => u.origin === rpOrigin && u.pathname === '/', { timeout: 15_000 });
      await expectState(page, 'signed-out');
      if (o.probeAfterSignOut) {
        // the refresh token of the ended session no longer works
        await page.goto(`${rpUrl}/probe`);
        await expect(page.locator('#probe')).toHaveText('invalid_grant');
      }
      // the product session is gone too: signing in again asks for the password
      await page.goto(`${rpUrl}/login`);
      await expect(page).toHaveURL((u) => u.origin === productOrigin && u.searchParams.has('interaction'));
      await expect(page.getByLabel(/^password/i)).toBeVisible();
    });
  } finally {
    await context.close();
  }

  const lang = o.deniedLang ?? 'en';
  const other = await browser.newContext(lang === 'de' ? { locale: 'de-DE' } : {});
  try {
    await test.step(`denied user: no-access page (${lang}), app receives access_denied`, async () => {
      const p = await other.newPage();
      await p.goto(`${rpUrl}/login`);
      await deniedThroughProduct(p, f.denied, rpOrigin, lang);
      await expectState(p, 'error');
      await expect(p.locator('#error')).toContainText('access_denied');
    });
  } finally {
    await other.close();
  }
}

test('openid-client 6 (Node web app, confidential, PKCE)', async ({ browser, playwright }) => {
  const host = '127.0.0.2';
  const port = await freePort(host);
  const app = await withRequest(playwright, (r) => registerApp(r, f, { name: 'rp-openid-client', origin: `http://${host}:${port}`, path: '/callback', clientType: 'confidential' }));
  const rp = await startOpenIdClientRp({ issuer, host, port, clientId: app.clientId, clientSecret: app.clientSecret!, scope: SCOPE });
  try {
    await webAppFlow(browser, rp.url, { probeAfterSignOut: true });
  } finally {
    await rp.close();
  }
});

test('openid-client 6: client_credentials and introspection (machine to machine, no browser)', async ({ playwright }) => {
  const app = await withRequest(playwright, (r) =>
    registerApp(r, f, { name: 'rp-machine', origin: 'http://127.0.0.2:9', path: '/callback', clientType: 'confidential', clientCredentials: true }),
  );
  const config = await oidcClient.discovery(new URL(issuer), app.clientId, undefined, oidcClient.ClientSecretBasic(app.clientSecret!), { execute: [oidcClient.allowInsecureRequests] });
  const tokens = await oidcClient.clientCredentialsGrant(config);
  expect(tokens.token_type.toLowerCase()).toBe('bearer');
  const payload = JSON.parse(Buffer.from(tokens.access_token.split('.')[1]!, 'base64url').toString()) as { aud: unknown; client_id: string };
  expect(payload.client_id).toBe(app.clientId);
  expect(payload.aud).toBe(app.clientId);
  // RFC 7662 introspection through the stock client: the app's own token is active
  const introspected = await oidcClient.tokenIntrospection(config, tokens.access_token);
  expect(introspected).toMatchObject({ active: true, client_id: app.clientId });
  // a token for the app, not for the product's own API
  const refused = await withRequest(playwright, (r) => r.get('/api/user', { headers: { Authorization: `Bearer ${tokens.access_token}` } }).then((res) => res.status()));
  expect(refused).toBe(401);
});

test('admin Connect dialog: the discovery URL and set-ups the stock clients use', async ({ browser, playwright }) => {
  const origin = 'http://127.0.0.2:8443';
  const app = await withRequest(playwright, (r) => registerApp(r, f, { name: 'rp-connect', origin, path: '/protected/redirect_uri', clientType: 'confidential' }));
  const discovery = await withRequest(playwright, (r) => r.get('/oidc/.well-known/openid-configuration').then((res) => res.json() as Promise<{ issuer: string }>));
  const context = await browser.newContext({ baseURL: productOrigin });
  try {
    const page = await context.newPage();
    await adminSignIn(page);
    await page.goto('/admin/service-apps');
    await page.getByRole('button', { name: 'Connect Interop rp-connect' }).click();
    const dialog = page.getByRole('dialog', { name: 'Connect Interop rp-connect' });
    await expect(dialog.getByTestId('discovery-url')).toHaveText(`${discovery.issuer}/.well-known/openid-configuration`);
    await expect(dialog.getByTestId('client-id')).toHaveText(app.clientId);
    await expect(dialog.getByTestId('redirect-uri')).toHaveText(`${origin}/protected/redirect_uri`);
    await dialog.getByRole('tab', { name: 'Apache mod_auth_openidc' }).click();
    await expect(dialog.getByTestId('snippet-mod_auth_openidc')).toContainText(`OIDCProviderMetadataURL ${discovery.issuer}/.well-known/openid-configuration`);
    await expect(dialog.getByTestId('snippet-mod_auth_openidc')).toContainText(`OIDCRedirectURI ${origin}/protected/redirect_uri`);
  } finally {
    await context.close();
  }
});

test('oidc-client-ts (browser SPA, public client, PKCE, CORS)', async ({ browser, playwright }) => {
  const host = '127.0.0.3';
  const port = await freePort(host);
  const app = await withRequest(playwright, (r) => registerApp(r, f, { name: 'rp-oidc-client-ts', origin: `http://${host}:${port}`, path: '/callback', clientType: 'public' }));
  const rp = await startBrowserRp({ issuer, host, port, clientId: app.clientId, scope: SCOPE });
  try {
    await webAppFlow(browser, rp.url);
  } finally {
    await rp.close();
  }
});

test('authlib (Debian python3-authlib, confidential, PKCE)', async ({ browser, playwright }) => {
  const host = '127.0.0.4';
  const port = await freePort(host);
  const app = await withRequest(playwright, (r) => registerApp(r, f, { name: 'rp-authlib', origin: `http://${host}:${port}`, path: '/callback', clientType: 'confidential' }));
  const rp = await startAuthlibRp({ issuer, host, port, clientId: app.clientId, clientSecret: app.clientSecret!, scope: SCOPE });
  try {
    await webAppFlow(browser, rp.url, { deniedLang: 'de' });
  } catch (err) {
    throw new Error(`${(err as Error).message}\n--- authlib RP output ---\n${rp.output()}`);
  } finally {
    await rp.close();
  }
});

test('go-oidc 2.1 + x/oauth2 0.3 (Debian golang-go, confidential, PKCE by hand)', async ({ browser, playwright }) => {
  const host = '127.0.0.6';
  const port = await freePort(host);
  const origin = `http://${host}:${port}`;
  const app = await withRequest(playwright, (r) =>
    registerApp(r, f, { name: 'rp-go', origin, path: '/callback', clientType: 'confidential', backchannelLogoutUri: `${origin}/backchannel-logout` }),
  );
  const rp = await startGoRp({ issuer, host, port, clientId: app.clientId, clientSecret: app.clientSecret!, scope: SCOPE });
  /** Back-channel logout tokens the Go app accepted (verified by go-oidc + the spec's checks) and rejected. */
  const delivered = async (page: Page) => {
    await page.goto(`${rp.url}/`);
    return { accepted: Number(await page.locator('#backchannel').textContent()), rejected: Number(await page.locator('#backchannel-rejected').textContent()) };
  };
  try {
    await webAppFlow(browser, rp.url);
    const context = await browser.newContext();
    const page = await context.newPage();
    try {
      // the RP-initiated sign-out of the flow above reached the app by back-channel too
      await expect.poll(async () => (await delivered(page)).accepted, { timeout: 15_000 }).toBeGreaterThan(0);
      await test.step('sign-out in the portal: the Go app verifies the logout token and ends its own session', async () => {
        const before = await delivered(page);
        await page.goto(`${rp.url}/login`);
        await signInThroughProduct(page, f.allowed, origin);
        await expectState(page, 'signed-in');
        await page.goto(`${productOrigin}/`);
        await page.getByRole('button', { name: 'Account menu' }).click({ timeout: 20_000 });
        await page.getByRole('menuitem', { name: 'Logout' }).click();
        await expect(page).toHaveURL(/\/login\?interaction=/, { timeout: 20_000 });
        await expect.poll(async () => (await delivered(page)).accepted, { timeout: 15_000 }).toBeGreaterThan(before.accepted);
        await expectState(page, 'signed-out');
        expect((await delivered(page)).rejected).toBe(0);
      });
    } finally {
      await context.close();
    }
  } catch (err) {
    throw new Error(`${(err as Error).message}\n--- go RP output ---\n${rp.output()}`);
  } finally {
    await rp.close();
  }
});

test('express-openid-connect 3.4 (Node, Express 5, confidential, PKCE; back-channel logout)', async ({ browser, playwright }) => {
  const host = '127.0.0.7';
  const port = await freePort(host);
  const origin = `http://${host}:${port}`;
  const app = await withRequest(playwright, (r) =>
    registerApp(r, f, { name: 'rp-express', origin, path: '/callback', clientType: 'confidential', backchannelLogoutUri: `${origin}/backchannel-logout` }),
  );
  const rp = await startExpressRp({ issuer, host, port, clientId: app.clientId, clientSecret: app.clientSecret!, scope: SCOPE });
  try {
    await webAppFlow(browser, rp.url);
    // the RP-initiated sign-out above told the app too (its own back-channel endpoint accepted the token); wait for it,
    // or a late token (it names the person's sub) would end the next session as well
    await expect.poll(() => rp.logouts().length, { timeout: 15_000 }).toBeGreaterThan(0);

    await test.step('sign-out in the portal: the app verifies the logout token and its next request is signed out', async () => {
      const context = await browser.newContext();
      const page = await context.newPage();
      try {
        await page.goto(`${rp.url}/login`);
        await signInThroughProduct(page, f.allowed, origin);
        await expectState(page, 'signed-in');
        const { sid } = await claimsOf(page, 'id-claims');
        expect(typeof sid).toBe('string');
        // the portal in the same browser signs in on the product session (no password), then the person signs out there
        await page.goto(`${productOrigin}/`);
        await page.getByRole('button', { name: 'Account menu' }).click({ timeout: 20_000 });
        await page.getByRole('menuitem', { name: 'Logout' }).click();
        await expect(page).toHaveURL(/\/login\?interaction=/, { timeout: 20_000 });
        // delivered from the product's queue, verified by the library (signature, iss, aud, events, no nonce)
        await expect.poll(() => rp.logouts(), { timeout: 15_000 }).toContain(`${issuer}|${String(sid)}`);
        // the app's own session cookie is still there, but the library now treats it as signed out
        await page.goto(`${rp.url}/`);
        await expectState(page, 'signed-out');
      } finally {
        await context.close();
      }
    });
  } finally {
    await rp.close();
  }
});

test('passport-openidconnect 0.1.2 (Express 5, confidential, client_secret_post, no PKCE; roles from UserInfo)', async ({ browser, playwright }) => {
  const host = '127.0.0.8';
  const port = await freePort(host);
  // the library cannot send PKCE and authenticates only in the form body: this one app is registered for that
  const app = await withRequest(playwright, (r) =>
    registerApp(r, f, { name: 'rp-passport', origin: `http://${host}:${port}`, path: '/callback', clientType: 'confidential', pkceRequired: false, tokenEndpointAuthMethod: 'client_secret_post' }),
  );
  const rp = await startPassportRp({ issuer, host, port, clientId: app.clientId, clientSecret: app.clientSecret!, scope: SCOPE });
  try {
    await webAppFlow(browser, rp.url);
  } finally {
    await rp.close();
  }
});

test('Auth.js (@auth/express 0.12, Express 5, confidential, PKCE + state + nonce)', async ({ browser, playwright }) => {
  const host = '127.0.0.9';
  const port = await freePort(host);
  const origin = `http://${host}:${port}`;
  const app = await withRequest(playwright, (r) => registerApp(r, f, { name: 'rp-authjs', origin, path: '/auth/callback/iam', clientType: 'confidential' }));
  const rp = await startAuthJsRp({ issuer, host, port, clientId: app.clientId, clientSecret: app.clientSecret! });
  /** The app's /login is Auth.js's own sign-in page: one button per provider. */
  const startSignIn = async (page: Page) => {
    await page.goto(`${origin}/login`);
    await page.getByRole('button', { name: 'Sign in with IAM' }).click();
  };
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    await test.step('sign-in: roles from the ID token into the session', async () => {
      await startSignIn(page);
      await signInThroughProduct(page, f.allowed, origin);
      await expectState(page, 'signed-in');
      const session = await claimsOf(page, 'userinfo');
      expect(session).toMatchObject({ user: { email: f.allowed.email, name: `${f.allowed.first} ${f.allowed.last}` }, roles: [f.role.name] });
      expect((await claimsOf(page, 'id-claims')).roles).toEqual([f.role.name]);
    });

    await test.step("RP-initiated sign-out: Auth.js's sign-out, then the provider's", async () => {
      await page.goto(`${origin}/logout`);
      await page.getByRole('button', { name: 'Sign out' }).click();
      await page.waitForURL((u) => u.origin === origin && u.pathname === '/', { timeout: 15_000 });
      await expectState(page, 'signed-out');
      // the product session is gone too: signing in again asks for the password
      await startSignIn(page);
      await expect(page).toHaveURL((u) => u.origin === productOrigin && u.searchParams.has('interaction'));
      await expect(page.getByLabel(/^password/i)).toBeVisible();
    });

    await test.step('denied user: no-access page, Auth.js reports OAuthCallbackError (cause access_denied)', async () => {
      const other = await browser.newContext();
      try {
        const p = await other.newPage();
        await startSignIn(p);
        await deniedThroughProduct(p, f.denied, origin);
        await expect(p).toHaveURL((u) => u.pathname === '/auth/signin' && u.searchParams.get('error') === 'OAuthCallbackError');
        expect(rp.errors()).toContain('provider: access_denied');
      } finally {
        await other.close();
      }
    });
  } catch (err) {
    throw new Error(`${(err as Error).message}\n--- Auth.js errors ---\n${rp.errors().join('\n')}`);
  } finally {
    await context.close();
    await rp.close();
  }
});

test('mod_auth_openidc (Debian Apache 2.4, confidential, PKCE)', async ({ browser, playwright }) => {
  const host = '127.0.0.5';
  const port = await freePort(host);
  const origin = `http://${host}:${port}`;
  const app = await withRequest(playwright, (r) => registerApp(r, f, { name: 'rp-apache', origin, path: '/protected/redirect_uri', clientType: 'confidential' }));
  const rp = await startApacheRp({ issuer, host, port, clientId: app.clientId, clientSecret: app.clientSecret!, role: f.role.name });
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    await test.step('sign-in: claims incl. roles as OIDC_CLAIM_* variables', async () => {
      await page.goto(`${origin}/protected/`);
      await signInThroughProduct(page, f.allowed, origin);
      await expectState(page, 'signed-in');
      await expect(page.locator('#remote-user')).toHaveText(f.allowed.email);
      await expect(page.locator('#roles')).toHaveText(f.role.name);
      await expect(page.locator('#env')).toContainText(`OIDC_CLAIM_given_name=${f.allowed.first}`);
    });

    await test.step('refresh through the info hook', async () => {
      const info = async (extra: string) => {
        const res = await page.request.get(`${origin}/protected/redirect_uri?info=json${extra}`);
        expect(res.ok(), await res.text()).toBeTruthy();
        return (await res.json()) as { access_token?: string; refresh_token?: string };
      };
      const before = await info('');
      expect(before.refresh_token, 'a refresh token was issued').toBeTruthy();
      const after = await info('&access_token_refresh_interval=0');
      expect(after.access_token).toBeTruthy();
      expect(after.access_token).not.toBe(before.access_token);
      expect(after.refresh_token).not.toBe(before.refresh_token);
    });

    await test.step('RP-initiated sign-out lands back on the app', async () => {
      await page.goto(`${origin}/protected/redirect_uri?logout=${encodeURIComponent(`${origin}/`)}`, { waitUntil: 'commit' });
      await page.waitForURL((u) => u.origin === origin && u.pathname === '/', { timeout: 15_000 });
      await expectState(page, 'signed-out');
      await page.goto(`${origin}/protected/`);
      await expect(page).toHaveURL((u) => u.origin === productOrigin && u.searchParams.has('interaction'));
    });

    await test.step('denied user: no-access page, app receives access_denied', async () => {
      const other = await browser.newContext();
      try {
        const p = await other.newPage();
        await p.goto(`${origin}/protected/`);
        await deniedThroughProduct(p, f.denied, origin);
        await expect(p.locator('body')).toContainText('access_denied');
      } finally {
        await other.close();
      }
    });
  } catch (err) {
    throw new Error(`${(err as Error).message}\n--- apache error log ---\n${rp.errorLog()}`);
  } finally {
    await context.close();
    await rp.close();
  }
});
