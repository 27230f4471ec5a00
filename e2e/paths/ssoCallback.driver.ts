/**
 * Browser driver of the SSO callback machine (machines/ssoCallback.machine.ts, words in machines/ssoCallback.qa.ts).
 *
 * The SPA's own sign-in is real: an active user (admin API, password set through the invitation link) or the
 * bootstrap admin signs in with e-mail and password, and the provider sends the browser back to
 * /login?code=…&state=…. That document arrives by a redirect (which `page.route` never sees), so the arrangements
 * are made around it: a code used once already = its `oidc_models` row marked consumed just before the page's token
 * request goes on (the token endpoint answers 400 invalid_grant); a state mismatch = a second tab whose sign-in
 * stored another state; no stored verifier = the callback address of another browser (whose own exchange is cut).
 * The token request is held to see "Signing you in…". After a sign-in went through, the provider's session answers
 * the next authorization at once: "Try again" then lands in the app (where the person wanted to go).
 *
 * The upstream provider is a second OpenID provider on 127.0.0.2 (e2e/sso-upstream.ts, SSO_PROVIDERS of
 * playwright.config.ts), started here in the worker; it signs in the person the case chooses. Failing upstream: its
 * token endpoint answers 500. A reused callback: the callback address of an upstream sign-in of another browser.
 * "Without Web Crypto": `crypto.subtle.digest` overridden to fail by an init script, until the walk lets it work again.
 */
import { expect, type Browser, type BrowserContext, type Page, type Request, type Route } from '@playwright/test';
import { randomBytes } from 'node:crypto';
import { ADMIN, createUserWithPassword, fillCredentials, setLanguage, superAdminToken, withDb } from '../helpers';
import { appUrl, runningSsoUpstream, SSO_WALK, sharedSsoUpstream, type SsoUpstream } from '../sso-upstream';
import { nextStep, startedBy, type DriverContext, type DriverFn, type MachineDriver } from './driver';

const PASSWORD = 'Sso-Walk-Passw0rd!';
const PROFILE = '/profile';

interface World {
  admin: boolean;
  /** the password account that signs in (the bootstrap admin for /admin) */
  account?: { email: string; password: string; first: string };
  /** where the sign-in wanted to land (`?origin=`) */
  returnTo?: string;
  /** the upstream answered `sso_failed` (its own message on the error screen) */
  upstreamFailed?: boolean;
  /** the provider's name is on the page (`provider=` in the address) */
  providerNamed?: boolean;
  /** The upstream left email_verified out: the account-not-found screen says so. */
  emailUnverified?: boolean;
  /** the sign-in request of an upstream answer (`interaction=` in the address) */
  interaction?: string;
  /** navigations to /login?code=… (or /admin/login?code=…) */
  callbacks: string[];
  /** authorization requests to this IAM's provider (…/oidc/auth?…) */
  authorizations: URL[];
  /** answers of this IAM's token endpoint */
  tokenAnswers: Array<{ status: number; error?: string }>;
  /** authorization requests before the current step */
  authorizationsBefore: number;
  /** the person signed in at this IAM's provider in this browser (its session answers the next authorization at once) */
  providerSession?: boolean;
  /** a held token request (released by the exchange step) */
  heldToken?: Route;
  contexts: BrowserContext[];
}

const world = (ctx: DriverContext): World => {
  const w = ctx.world as Partial<World>;
  if (!w.callbacks) {
    w.admin = ctx.testCase.scenario.startsWith('/admin');
    w.callbacks = [];
    w.authorizations = [];
    w.tokenAnswers = [];
    w.contexts = [];
    w.authorizationsBefore = 0;
    watch(ctx.page, w as World);
  }
  return w as World;
};

const loginPath = (admin: boolean) => (admin ? '/admin/login' : '/login');
const escaped = (path: string) => path.replace(/\//g, '\\/');
const tag = () => `${Date.now().toString(36)}${randomBytes(3).toString('hex')}`;

function isCallback(url: URL, admin: boolean): boolean {
  return url.origin === appUrl() && url.pathname === loginPath(admin) && url.searchParams.has('code');
}
const isTokenRequest = (url: URL) => url.origin === appUrl() && url.pathname.endsWith('/token');

/** Records the page's way through the sign-in: callbacks, authorization requests, token answers. */
function watch(page: Page, w: World): void {
  page.on('request', (request: Request) => {
    if (!request.isNavigationRequest()) return;
    const url = new URL(request.url());
    if (url.origin !== appUrl()) return; // not the upstream provider's pages
    if (isCallback(url, w.admin)) w.callbacks.push(url.href);
    if (url.pathname.endsWith('/auth') && url.searchParams.has('code_challenge')) w.authorizations.push(url);
  });
  page.on('response', (response) => {
    const request = response.request();
    if (request.method() !== 'POST' || !isTokenRequest(new URL(request.url()))) return;
    const status = response.status();
    void response
      .json()
      .then((body: { error?: string }) => w.tokenAnswers.push({ status, ...(body.error ? { error: body.error } : {}) }))
      .catch(() => w.tokenAnswers.push({ status }));
  });
}

// ---------------------------------------------------------------- accounts and the upstream provider

let cachedToken: string | null = null;
async function adminToken(ctx: DriverContext): Promise<string> {
  if (cachedToken) {
    const probe = await ctx.request.get('/api/admin/admins?page=1&size=1', { headers: { Authorization: `Bearer ${cachedToken}` } });
    if (probe.ok()) return cachedToken;
  }
  cachedToken = await superAdminToken(browserOf(ctx));
  return cachedToken;
}

function browserOf(ctx: DriverContext): Browser {
  const browser = ctx.context.browser();
  if (!browser) throw new Error('no browser');
  return browser;
}

/** An active user with a password (admin API + invitation link); the bootstrap admin on /admin. */
async function passwordAccount(ctx: DriverContext): Promise<NonNullable<World['account']>> {
  const w = world(ctx);
  if (w.admin) return (w.account = { email: ADMIN.email, password: ADMIN.password, first: 'Admin' });
  const id = tag();
  const account = { email: `sso-walk.${id}@paths.example.com`, password: PASSWORD, first: 'Sandra' };
  await createUserWithPassword(ctx.request, await adminToken(ctx), { email: account.email, first: account.first, last: `Walk ${id}`, password: PASSWORD });
  return (w.account = account);
}

/** An SSO account of the upstream provider (never a password); the upstream signs in as it. */
async function ssoAccount(ctx: DriverContext, locale: 'en' | 'de'): Promise<{ email: string; first: string }> {
  const id = tag();
  const account = { email: `walk.${id}@${SSO_WALK.domain}`, first: 'Selma' };
  const created = await ctx.request.post('/api/admin/users', {
    headers: { Authorization: `Bearer ${await adminToken(ctx)}` },
    data: { email: account.email, first_name: account.first, last_name: `Walk ${id}`, locale, auth_type: 'SSO', provider: SSO_WALK.id },
  });
  expect(created.ok(), await created.text()).toBeTruthy();
  return account;
}

/** The upstream provider, started once per worker (the e2e server discovers it on the first upstream sign-in). */
async function upstream(): Promise<SsoUpstream> {
  const u = await sharedSsoUpstream();
  u.person = null;
  u.failTokens = false;
  return u;
}

const upstreamPerson = (email: string) => ({ sub: `walk-${email}`, email, email_verified: true });

// ---------------------------------------------------------------- the SPA's own sign-in

/** Opens /login (or /admin/login, with `?origin=`) and signs in with e-mail and password: back to …?code=…&state=…. */
async function signIn(page: Page, admin: boolean, account: NonNullable<World['account']>, search = ''): Promise<void> {
  await page.goto(`${appUrl()}${loginPath(admin)}${search}`);
  await expect(page).toHaveURL(new RegExp(`${escaped(loginPath(admin))}\\?interaction=`));
  await fillCredentials(page, account.email, account.password);
}

/** The sign-in at the provider went through (it sends the browser back with a code): its session stays. */
function signedInAtProvider(ctx: DriverContext): void {
  world(ctx).providerSession = true;
}

/** The code is used once already (by another tab): its row is marked consumed, as the token endpoint does. */
function spendCode(code: string): void {
  const changed = withDb((db) =>
    db.prepare("UPDATE oidc_models SET consumed_at = ? WHERE model = 'AuthorizationCode' AND id = ? AND consumed_at IS NULL").run(Math.floor(Date.now() / 1000), code).changes,
  );
  expect(changed, 'the authorization code is in the database, not yet used').toBe(1);
}

/**
 * Arranges the first outcome after the callback opens (see `nextStep`) on the page's token request (the callback
 * document itself arrives by a redirect, which `page.route` does not see): the code is used up just before the
 * page's exchange reaches the server, or the request is held so "Signing you in…" can be seen.
 */
async function arrangeExchange(ctx: DriverContext): Promise<void> {
  const w = world(ctx);
  const next = nextStep(ctx)?.key;
  if (next !== 'exchangeCode fails invalid_grant' && next !== 'exchangeCode succeeds') return;
  let seen = false;
  await ctx.page.route(isTokenRequest, async (route) => {
    const request = route.request();
    if (request.method() !== 'POST' || seen) return route.fallback();
    seen = true;
    if (next === 'exchangeCode succeeds') {
      w.heldToken = route; // released by the exchange step
      return;
    }
    const body = new URLSearchParams(request.postData() ?? '');
    expect(body.get('grant_type')).toBe('authorization_code');
    spendCode(body.get('code') ?? '');
    await route.continue();
  });
}

async function storedState(page: Page): Promise<string | undefined> {
  const raw = await page.evaluate(() => window.localStorage.getItem('code_verifier'));
  return (JSON.parse(raw ?? 'null') as { state?: string } | null)?.state;
}

async function callbackOpened(ctx: DriverContext): Promise<void> {
  const w = world(ctx);
  await expect.poll(() => w.callbacks.length, { message: `the provider sent the browser back to ${loginPath(w.admin)}?code=…&state=…` }).toBeGreaterThan(0);
  signedInAtProvider(ctx);
}

/**
 * A sign-in in another browser (another context): `act` signs in there; returns the first address it was sent to
 * that `target` matches (a callback). `exchange: false`: that browser never exchanges its code (its token request
 * fails), so the address stays as unused as the provider left it.
 */
async function callbackOfAnotherBrowser(ctx: DriverContext, target: (url: URL) => boolean, act: (page: Page) => Promise<void>, opts: { exchange: boolean }): Promise<string> {
  const w = world(ctx);
  const other = await browserOf(ctx).newContext();
  w.contexts.push(other);
  const page = await other.newPage();
  let captured: string | undefined;
  page.on('request', (request) => {
    if (request.isNavigationRequest() && target(new URL(request.url()))) captured ??= request.url();
  });
  if (!opts.exchange) await page.route(isTokenRequest, (route) => route.abort('internetdisconnected'));
  await page.goto(`${appUrl()}/login`);
  await expect(page).toHaveURL(/\/login\?interaction=/);
  await act(page);
  await expect.poll(() => captured, { message: 'the other browser was sent to the callback' }).toBeTruthy();
  return captured!;
}

// ---------------------------------------------------------------- upstream sign-in

async function continueWithProvider(page: Page): Promise<void> {
  await page.goto(`${appUrl()}/login`);
  await expect(page).toHaveURL(/\/login\?interaction=/);
  await page.getByRole('link', { name: `Continue with ${SSO_WALK.name}` }).click();
}

/** Back on /login with the upstream answer `error` for the sign-in request (its interaction) and the provider named. */
async function upstreamAnswered(ctx: DriverContext, error: string): Promise<void> {
  const page = ctx.page;
  await expect(page).toHaveURL(new RegExp(`\\/login\\?interaction=[^&]+&error=${error}&provider=${SSO_WALK.id}$`));
  const w = world(ctx);
  w.interaction = new URL(page.url()).searchParams.get('interaction') ?? undefined;
  w.providerNamed = true;
}

// ---------------------------------------------------------------- Web Crypto

/** `crypto.subtle.digest` fails (a browser without Web Crypto) while `window.__ssoWalkCrypto.down`. */
async function cryptoFails(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const subtle = window.crypto.subtle;
    const digest = subtle.digest.bind(subtle);
    const state = { down: true, refused: 0 };
    (window as unknown as { __ssoWalkCrypto: typeof state }).__ssoWalkCrypto = state;
    Object.defineProperty(subtle, 'digest', {
      configurable: true,
      value: (...args: Parameters<SubtleCrypto['digest']>) => {
        if (!state.down) return digest(...args);
        state.refused++;
        return Promise.reject(new DOMException('Web Crypto is not available', 'NotSupportedError'));
      },
    });
  });
}

const cryptoRefused = (page: Page) => page.evaluate(() => (window as unknown as { __ssoWalkCrypto?: { refused: number } }).__ssoWalkCrypto?.refused ?? 0);

async function cryptoWorks(page: Page): Promise<void> {
  await page.evaluate(() => {
    const state = (window as unknown as { __ssoWalkCrypto?: { down: boolean } }).__ssoWalkCrypto;
    if (state) state.down = false;
  });
}

// ---------------------------------------------------------------- screens and buttons

const screenRoot = (page: Page, screen: string) => page.locator(`[data-screen="${screen}"]`);

async function press(page: Page, screen: string, name: string): Promise<void> {
  await screenRoot(page, screen).getByRole('button', { name, exact: true }).click();
}

/** Opens a provider error page and starts a new sign-in from it ("Try again"): the page prepares the authorization. */
async function startFromErrorPage(ctx: DriverContext): Promise<void> {
  const w = world(ctx);
  if (nextStep(ctx)?.key === 'createAuthorizationRequest fails error') await cryptoFails(ctx.page);
  await ctx.page.goto(`${loginPath(w.admin)}?error=access_denied`);
  await expect(screenRoot(ctx.page, 'screen:sso.error').getByRole('alert')).toHaveText('Sign-in could not be completed. Please try again.');
  await press(ctx.page, 'screen:sso.error', 'Try again');
}

/** Where a sign-in lands in the app (machines/ssoCallback.machine.ts afterSignInTarget) and the heading it shows. */
function landing(w: World): { path: string; heading: string } {
  if (w.admin) return { path: '/admin/dashboard', heading: 'Dashboard' };
  if (w.returnTo) return { path: w.returnTo, heading: 'Profile' };
  return { path: '/', heading: `Welcome, ${w.account!.first}!` };
}

async function inTheApp(ctx: DriverContext): Promise<void> {
  const { path, heading } = landing(world(ctx));
  await expect(ctx.page).toHaveURL(`${appUrl()}${path}`);
  await expect(ctx.page.getByRole('heading', { level: 1 })).toHaveText(heading);
}

/**
 * The browser went to the provider with a new authorization request (state and verifier stored for it). Without a
 * session there it shows its sign-in page; signing in there (or a session the person already has at the provider in
 * this browser: the provider answers at once) brings the person back, exchanging the new code, to where they wanted.
 */
async function atProviderSignIn(ctx: DriverContext): Promise<void> {
  const w = world(ctx);
  const page = ctx.page;
  await expect.poll(() => w.authorizations.length, { message: 'the browser went to the provider' }).toBeGreaterThan(w.authorizationsBefore);
  const sent = w.authorizations.at(-1)!;
  expect(sent.searchParams.get('client_id')).toBe(w.admin ? 'admin-console' : 'portal');
  expect(sent.searchParams.get('code_challenge_method')).toBe('S256');
  expect(sent.searchParams.get('redirect_uri')).toBe(`${appUrl()}${loginPath(w.admin)}`);
  if (!w.providerSession) {
    await expect(page).toHaveURL(new RegExp(`${escaped(loginPath(w.admin))}\\?interaction=[^&]+$`));
    const credentials = screenRoot(page, 'screen:login.credentials');
    await expect(credentials.getByRole('heading', { level: 1 })).toHaveText(w.admin ? 'Admin sign in' : 'Sign in');
    await expect(credentials.getByRole('textbox', { name: /e-mail/i })).toBeVisible();
    const stored = await page.evaluate(() => window.localStorage.getItem('code_verifier'));
    const authorization = JSON.parse(stored ?? 'null') as { code_verifier: string; state: string; returnTo?: string } | null;
    expect(authorization?.code_verifier, 'a new verifier is stored for the sign-in').toHaveLength(128);
    expect(authorization?.state, 'the provider got the stored state').toBe(sent.searchParams.get('state'));
    expect(authorization?.returnTo).toBe(w.returnTo);
    if (!w.account) return;
    await fillCredentials(page, w.account.email, w.account.password);
  }
  // back with a code for this very request; its exchange (PKCE: the stored verifier) succeeds
  await inTheApp(ctx);
  expect(new URL(w.callbacks.at(-1)!).searchParams.get('state'), 'back with the state of the new request').toBe(sent.searchParams.get('state'));
  expect(w.tokenAnswers.at(-1)?.status).toBe(200);
}

/** Every start watches the page before it opens anything. */
const starts = (all: Record<string, DriverFn>): Record<string, DriverFn> =>
  Object.fromEntries(
    Object.entries(all).map(([name, fn]) => [
      name,
      async (ctx: DriverContext) => {
        world(ctx);
        await fn(ctx);
      },
    ]),
  );

export const ssoCallbackDriver: MachineDriver = {
  machine: 'ssoCallback',
  start: starts({
    '/login without parameters (start authorization)': startFromErrorPage,
    '/admin/login without parameters (admin client)': startFromErrorPage,
    '/login?code&state (state matches)': async (ctx) => {
      const account = await passwordAccount(ctx);
      await arrangeExchange(ctx);
      await signIn(ctx.page, false, account);
      await callbackOpened(ctx);
      if (nextStep(ctx)?.key === 'exchangeCode succeeds') {
        await expect.poll(() => world(ctx).heldToken !== undefined, { message: 'the page asks the token endpoint' }).toBe(true);
        await ssoCallbackDriver.screens['screen:sso.signing-in']!(ctx);
      }
    },
    '/login?code&state (state mismatch)': async (ctx) => {
      // two tabs: the second one's sign-in stores another state; the first one comes back with its own
      const account = await passwordAccount(ctx);
      await ctx.page.goto('/login');
      await expect(ctx.page).toHaveURL(/\/login\?interaction=/);
      const first = await storedState(ctx.page);
      const tab = await ctx.context.newPage();
      await tab.goto('/login');
      await expect(tab).toHaveURL(/\/login\?interaction=/);
      const second = await storedState(tab);
      expect(second).not.toBe(first);
      await tab.close();
      await fillCredentials(ctx.page, account.email, account.password);
      await callbackOpened(ctx);
      expect(new URL(world(ctx).callbacks[0]!).searchParams.get('state')).toBe(first);
    },
    '/login?code&state (no stored verifier)': async (ctx) => {
      const account = await passwordAccount(ctx);
      const callback = await callbackOfAnotherBrowser(ctx, (url) => isCallback(url, false), (page) => fillCredentials(page, account.email, account.password), { exchange: false });
      expect(new URL(callback).searchParams.get('code')).toBeTruthy();
      await ctx.page.goto(callback);
    },
    '/admin/login?code&state (admin client, state matches)': async (ctx) => {
      const account = await passwordAccount(ctx);
      await arrangeExchange(ctx);
      await signIn(ctx.page, true, account);
      await callbackOpened(ctx);
    },
    '/login?code&state after /login?origin=/profile': async (ctx) => {
      const account = await passwordAccount(ctx);
      world(ctx).returnTo = PROFILE;
      await arrangeExchange(ctx);
      await signIn(ctx.page, false, account, `?origin=${PROFILE}`);
      await callbackOpened(ctx);
    },
    '/login?origin=/profile&error=access_denied (retry keeps the origin)': async (ctx) => {
      await passwordAccount(ctx);
      world(ctx).returnTo = PROFILE;
      await ctx.page.goto(`/login?origin=${PROFILE}&error=access_denied`);
    },
    '/login?error=access_denied': async (ctx) => {
      await ctx.page.goto('/login?error=access_denied');
    },
    '/login?type=sso&provider&interaction (upstream provider)': async (ctx) => {
      const up = await upstream();
      const account = await ssoAccount(ctx, 'de');
      up.person = upstreamPerson(account.email);
      const page = ctx.page;
      await page.goto('/login');
      await expect(page).toHaveURL(/\/login\?interaction=/);
      await setLanguage(page, 'Deutsch');
      await expect(screenRoot(page, 'screen:login.credentials').getByRole('heading', { level: 1 })).toHaveText('Anmelden');
      const interaction = new URL(page.url()).searchParams.get('interaction') ?? '';
      const started = page.waitForRequest((r) => new URL(r.url()).pathname === `/api/sso/${SSO_WALK.id}/start`);
      const seen = up.authorizations.length;
      await page.goto(`/login?type=sso&provider=${SSO_WALK.id}&interaction=${interaction}`);
      // the page sends the browser to the upstream provider for this sign-in request, in the person's language
      const start = new URL((await started).url());
      expect(Object.fromEntries(start.searchParams)).toEqual({ interaction, ui_locales: 'de' });
      await expect.poll(() => up.authorizations.length).toBeGreaterThan(seen);
      expect(up.authorizations.at(-1)?.searchParams.get('ui_locales')).toBe('de');
      // signed in there as the person of the SSO account: back here, signed in, in the app
      await expect(page).toHaveURL(`${appUrl()}/`);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(`Willkommen, ${account.first}!`);
    },
    '/login?interaction&error=sso_failed (upstream provider failed)': async (ctx) => {
      const up = await upstream();
      const account = await ssoAccount(ctx, 'en');
      up.person = upstreamPerson(account.email);
      up.failTokens = true;
      await continueWithProvider(ctx.page);
      await upstreamAnswered(ctx, 'sso_failed');
      expect(up.tokenStatuses.at(-1), 'the upstream token endpoint failed').toBe(500);
      world(ctx).upstreamFailed = true;
    },
    '/login?interaction&error=sso_account_not_found (no SSO account here)': async (ctx) => {
      const up = await upstream();
      // a person the upstream knows, with no account here
      up.person = upstreamPerson(`nobody.${tag()}@${SSO_WALK.domain}`);
      await continueWithProvider(ctx.page);
      await upstreamAnswered(ctx, 'sso_account_not_found');
    },
    '/login?interaction&error=sso_email_unverified (the upstream did not vouch for the address)': async (ctx) => {
      const up = await upstream();
      const account = await ssoAccount(ctx, 'en');
      // the upstream leaves email_verified out: the account exists, but is not matched on an address nobody vouched for
      up.person = { ...upstreamPerson(account.email), email_verified: undefined };
      await continueWithProvider(ctx.page);
      await upstreamAnswered(ctx, 'sso_email_unverified');
      world(ctx).emailUnverified = true;
    },
    '/login?error=sso_account_not_found (interaction gone)': async (ctx) => {
      await ctx.page.goto('/login?error=sso_account_not_found');
    },
    '/login?error=interaction_expired (reloaded or reused SSO callback)': async (ctx) => {
      const up = await upstream();
      const account = await ssoAccount(ctx, 'en');
      up.person = upstreamPerson(account.email);
      const callbackPath = `/api/sso/${SSO_WALK.id}/callback`;
      const callback = await callbackOfAnotherBrowser(
        ctx,
        (url) => url.origin === appUrl() && url.pathname === callbackPath,
        (page) => page.getByRole('link', { name: `Continue with ${SSO_WALK.name}` }).click(),
        { exchange: true },
      );
      // the callback address of that sign-in, opened in this browser
      await ctx.page.goto(callback);
      await expect(ctx.page).toHaveURL(`${appUrl()}/login?error=interaction_expired`);
    },
  }),
  steps: {
    'createAuthorizationRequest succeeds': async (ctx) => {
      const w = world(ctx);
      if (ctx.events.length > 1) w.authorizationsBefore = w.authorizations.length;
      if (startedBy(ctx, 'RETRY')) {
        await cryptoWorks(ctx.page);
        await press(ctx.page, 'screen:sso.error', 'Try again');
      } else if (startedBy(ctx, 'START_OVER')) {
        await press(ctx.page, 'screen:sso.expired', w.admin ? 'Admin sign in' : 'Sign in again');
      } else if (startedBy(ctx, 'BACK_TO_SIGN_IN')) {
        await press(ctx.page, 'screen:sso.account-not-found', w.admin ? 'Back to admin sign in' : 'Back to sign in');
      }
      // else: `start` pressed the button that starts a new sign-in
      await atProviderSignIn(ctx);
    },
    'createAuthorizationRequest fails error': async (ctx) => {
      const w = world(ctx);
      await expect.poll(() => cryptoRefused(ctx.page), { message: 'the page asked Web Crypto for the code challenge' }).toBeGreaterThan(0);
      await expect(ctx.page).toHaveURL(new RegExp(`${escaped(loginPath(w.admin))}\\?error=access_denied$`));
      expect(w.authorizations, 'the browser did not go to the provider').toEqual([]);
    },
    RETRY: async (ctx) => {
      // "Try again" before the page left for the provider: folded into the outcome steps above (startedBy RETRY)
      await press(ctx.page, 'screen:sso.error', 'Try again');
    },
    'exchangeCode succeeds': async (ctx) => {
      const w = world(ctx);
      const held = w.heldToken;
      expect(held, 'the token request was held by start').toBeDefined();
      await held!.continue();
      w.heldToken = undefined;
      await inTheApp(ctx);
      expect(w.tokenAnswers.at(-1)?.status).toBe(200);
      expect(await ctx.page.evaluate(() => window.localStorage.getItem('code_verifier')), 'the used verifier is removed').toBeNull();
    },
    'exchangeCode fails invalid_grant': async (ctx) => {
      const w = world(ctx);
      await expect.poll(() => w.tokenAnswers.at(-1), { message: 'the token endpoint answered' }).toEqual({ status: 400, error: 'invalid_grant' });
    },
    BACK_TO_SIGN_IN: async (ctx) => {
      const w = world(ctx);
      await press(ctx.page, 'screen:sso.account-not-found', w.admin ? 'Back to admin sign in' : 'Back to sign in');
      // back to the same sign-in request: another account, or the provider again
      await expect(ctx.page).toHaveURL(`${appUrl()}${loginPath(w.admin)}?interaction=${w.interaction}`);
      const credentials = screenRoot(ctx.page, 'screen:login.credentials');
      await expect(credentials.getByRole('textbox', { name: /e-mail/i })).toBeVisible();
      await expect(credentials.getByRole('link', { name: `Continue with ${SSO_WALK.name}` })).toBeVisible();
    },
    START_OVER: async (ctx) => {
      await press(ctx.page, 'screen:sso.expired', world(ctx).admin ? 'Admin sign in' : 'Sign in again');
    },
  },
  screens: {
    'screen:sso.signing-in': async (ctx) => {
      const root = screenRoot(ctx.page, 'screen:sso.signing-in');
      await expect(root.getByText('Signing you in…')).toBeVisible();
      await expect(root.getByTestId('loading-bar')).toBeVisible();
    },
    'screen:sso.error': async (ctx) => {
      const root = screenRoot(ctx.page, 'screen:sso.error');
      await expect(root.getByRole('heading', { level: 1 })).toHaveText(world(ctx).admin ? 'Admin sign in' : 'Sign in');
      await expect(root.getByRole('alert')).toHaveText(
        world(ctx).upstreamFailed ? "Signing in through your organization's provider did not work. Please try again." : 'Sign-in could not be completed. Please try again.',
      );
      await expect(root.getByRole('button', { name: 'Try again' })).toBeVisible();
    },
    'screen:sso.account-not-found': async (ctx) => {
      const root = screenRoot(ctx.page, 'screen:sso.account-not-found');
      const who = world(ctx).providerNamed ? SSO_WALK.name : "your organization's provider";
      await expect(root.getByRole('heading', { level: 1 })).toHaveText('No account for this sign-in');
      await expect(root.getByRole('alert')).toHaveText(
        world(ctx).emailUnverified
          ? `${SSO_WALK.name} did not confirm that your e-mail address is verified, so no account here can be matched to it. Trying again will not help: tell an administrator, the error log names what is missing.`
          : `You signed in with ${who}, but no account here uses it. Trying again will not help: ask an administrator to give you access.`,
      );
      await expect(root.getByRole('button', { name: world(ctx).admin ? 'Back to admin sign in' : 'Back to sign in' })).toBeVisible();
      await expect(root.getByRole('button', { name: 'Try again' })).toHaveCount(0);
    },
    'screen:sso.expired': async (ctx) => {
      const root = screenRoot(ctx.page, 'screen:sso.expired');
      await expect(root.getByRole('heading', { level: 1 })).toHaveText('Sign-in link expired');
      await expect(root.getByText('This sign-in link has expired or was already used. Please sign in again.')).toBeVisible();
      await expect(root.getByRole('button', { name: world(ctx).admin ? 'Admin sign in' : 'Sign in again' })).toBeVisible();
    },
  },
  finish: async (ctx) => {
    const w = world(ctx);
    for (const context of w.contexts) await context.close().catch(() => undefined);
    if (w.heldToken) await w.heldToken.abort().catch(() => undefined);
    await ctx.page.unrouteAll({ behavior: 'ignoreErrors' });
    const running = runningSsoUpstream();
    if (running) {
      const up = await running;
      up.person = null;
      up.failTokens = false;
    }
  },
};
