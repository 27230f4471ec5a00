/**
 * Browser driver of the verify / reset-password machine (machines/verifyInvitation.qa.ts says the same in words).
 *
 * Every case gets fresh accounts through the admin API and the link from the outbox mail, exactly as mailed.
 * Server-side arrangements: an expired link = its token's expiry moved into the past in the SQLite database;
 * a used link = the password already set with it through the API; network failures = `page.route(...).abort()`
 * on the link check or the save.
 */
import { expect, type Page, type Route } from '@playwright/test';
import { createHash } from 'node:crypto';
import { ADMIN, adminSignIn, apiToken, linkFromOutbox, withDb } from '../helpers';
import { nextStep, startedBy, type DriverContext, type MachineDriver } from './driver';

/**
 * A request the walk cut off reads as the network's words (the account area's code -> words table, issue 32.2:
 * 'network'); anything else the server could not answer as the generic words.
 */
const NETWORK_OR_GENERIC = /^(The server cannot be reached\. Check your connection and try again\.|An error occurred, please try again)$/;

const STRONG = 'Str0ng-Password!';
const INITIAL = 'Initial-Passw0rd!';
const COMMON = 'Password1234!';

type Kind = 'user' | 'admin';
type Flow = 'verify' | 'reset';

interface World {
  kind: Kind;
  flow: Flow;
  email: string;
  /** the page link of the mail (path + query) */
  link: string;
  /** the signed API link (the `url` parameter) */
  signed: string;
  blocked: Partial<Record<'check' | 'save', (url: URL) => boolean>>;
}

const world = (ctx: DriverContext) => ctx.world as unknown as World;

let counter = 0;
const uniqueEmail = (prefix: string) => `${prefix}.${Date.now().toString(36)}.${++counter}@paths.example.com`;

let cachedToken: string | null = null;
/** The bootstrap super admin's API token (signed in once, in a throwaway context). */
async function adminToken(ctx: DriverContext): Promise<string> {
  if (cachedToken) {
    const probe = await ctx.request.get('/api/admin/admins?page=1&size=1', { headers: { Authorization: `Bearer ${cachedToken}` } });
    if (probe.ok()) return cachedToken;
  }
  const browser = ctx.context.browser();
  if (!browser) throw new Error('no browser to sign the admin in');
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    await adminSignIn(page, ADMIN);
    cachedToken = await apiToken(page);
    return cachedToken;
  } finally {
    await context.close();
  }
}

async function post(ctx: DriverContext, path: string, data: unknown, token?: string): Promise<void> {
  const response = await ctx.request.post(path, { data, headers: token ? { Authorization: `Bearer ${token}` } : {} });
  expect(response.ok(), `${path}: ${response.status()} ${await response.text()}`).toBeTruthy();
}

const pagePattern = (kind: Kind, flow: Flow) =>
  flow === 'verify' ? new RegExp(`https?://[^\\s"<>]+/verify/${kind}\\?url=[^\\s"<>]+`) : new RegExp(`https?://[^\\s"<>]+${kind === 'admin' ? '/admin' : ''}/reset-password\\?url=[^\\s"<>]+`);

/** An invited account: user (Users → Add user) or administrator (Administrators → Add); returns the mailed link. */
async function invite(ctx: DriverContext, kind: Kind): Promise<{ email: string; link: string }> {
  const token = await adminToken(ctx);
  const email = uniqueEmail(kind === 'admin' ? 'walk-admin' : 'walk-user');
  if (kind === 'admin') await post(ctx, '/api/admin/admins', { email, first_name: 'Walk', last_name: 'Admin', role: 'manager', locale: 'en' }, token);
  else await post(ctx, '/api/admin/users', { email, first_name: 'Walk', last_name: 'User', locale: 'en', auth_type: 'CREDENTIALS' }, token);
  return { email, link: await linkFromOutbox(email, pagePattern(kind, 'verify')) };
}

const signedOf = (link: string) => new URL(link).searchParams.get('url') ?? '';
const pathOf = (link: string) => link.replace(/^https?:\/\/[^/]+/, '');

async function prepare(ctx: DriverContext, kind: Kind, flow: Flow): Promise<void> {
  const invited = await invite(ctx, kind);
  let link = invited.link;
  if (flow === 'reset') {
    // the account gets its password from the invitation first, then asks for a reset
    await post(ctx, kind === 'admin' ? '/api/admin/verify' : '/api/user/verify', { url: signedOf(link), password: INITIAL, password_confirmation: INITIAL });
    await post(ctx, kind === 'admin' ? '/api/admin/forgot-password' : '/api/forgot-password', { email: invited.email });
    link = await linkFromOutbox(invited.email, pagePattern(kind, 'reset'));
  }
  Object.assign(ctx.world, { kind, flow, email: invited.email, link: pathOf(link), signed: signedOf(link), blocked: {} } satisfies World);
}

/** The link stops working: expired (invitation: its token's expiry is moved into the past) or already used (reset). */
function expire(w: World): void {
  const token = new URL(w.signed).searchParams.get('token') ?? '';
  const hash = createHash('sha256').update(token).digest('hex');
  const changed = withDb((db) => db.prepare('UPDATE one_time_tokens SET expires_at = ? WHERE token_hash = ?').run(new Date(Date.now() - 60_000).toISOString(), hash).changes);
  expect(changed, 'the link token is in the database').toBe(1);
}

async function spendLink(ctx: DriverContext, w: World): Promise<void> {
  const path = w.flow === 'verify' ? (w.kind === 'admin' ? '/api/admin/verify' : '/api/user/verify') : w.kind === 'admin' ? '/api/admin/reset-password' : '/api/reset-password';
  await post(ctx, path, { url: w.signed, password: 'Other-Passw0rd!', password_confirmation: 'Other-Passw0rd!' });
}

async function makeLinkInvalid(ctx: DriverContext): Promise<void> {
  const w = world(ctx);
  if (w.flow === 'reset') await spendLink(ctx, w);
  else expire(w);
}

const CHECK = /\/api\/(user\/verify-link|admin\/verify-link|reset-password-token|admin\/reset-password-token)(\?|$)/;
const SAVE = /\/api\/(user\/verify|admin\/verify|reset-password|admin\/reset-password)$/;

async function network(ctx: DriverContext, which: 'check' | 'save', up: boolean): Promise<void> {
  const w = world(ctx);
  const current = w.blocked[which];
  if (up && current) {
    await ctx.page.unroute(current);
    delete w.blocked[which];
  }
  if (!up && !current) {
    const matcher = (url: URL) => (which === 'check' ? CHECK : SAVE).test(url.pathname + url.search);
    w.blocked[which] = matcher;
    await ctx.page.route(matcher, (route: Route) => route.abort('internetdisconnected'));
  }
}

const submitLabel = (w: World) => (w.flow === 'verify' ? 'Save password' : 'Change password');

async function fillPasswords(page: Page, password: string, confirmation: string): Promise<void> {
  await page.getByLabel(/^new password/i).fill(password);
  await page.getByLabel(/^confirm new password/i).fill(confirmation);
}

async function submit(ctx: DriverContext, password: string, confirmation = password): Promise<void> {
  await fillPasswords(ctx.page, password, confirmation);
  await ctx.page.getByRole('button', { name: submitLabel(world(ctx)) }).click();
}

async function tryAgain(ctx: DriverContext): Promise<void> {
  await ctx.page.getByRole('button', { name: 'Try again' }).click();
}

/** Opens the page after arranging what the first outcome needs (see `nextStep`). */
async function open(ctx: DriverContext, path?: string): Promise<void> {
  const w = world(ctx);
  const next = nextStep(ctx)?.key;
  if (next === 'checkLink fails network') await network(ctx, 'check', false);
  if (next === 'checkLink fails invalid_link') await makeLinkInvalid(ctx);
  await ctx.page.goto(path ?? w.link);
}

async function clickLink(page: Page, name: string | RegExp): Promise<void> {
  await page.getByRole('link', { name }).first().click();
}

export const verifyInvitationDriver: MachineDriver = {
  machine: 'verifyInvitation',
  start: {
    'user invitation mail: /verify/user?url=…': async (ctx) => {
      await prepare(ctx, 'user', 'verify');
      await open(ctx);
    },
    'admin invitation mail: /verify/admin?url=…': async (ctx) => {
      await prepare(ctx, 'admin', 'verify');
      await open(ctx);
    },
    'reset mail: /reset-password?url=…': async (ctx) => {
      await prepare(ctx, 'user', 'reset');
      await open(ctx);
    },
    'admin reset mail: /admin/reset-password?url=…': async (ctx) => {
      await prepare(ctx, 'admin', 'reset');
      await open(ctx);
    },
    'a user invitation link on the admin page: /verify/admin?url=…/api/user/verify-link…': async (ctx) => {
      await prepare(ctx, 'user', 'verify');
      world(ctx).kind = 'admin';
      await open(ctx, world(ctx).link.replace('/verify/user?', '/verify/admin?'));
    },
    'verify page without url: /verify/user': async (ctx) => {
      Object.assign(ctx.world, { kind: 'user', flow: 'verify', email: '', link: '/verify/user', signed: '', blocked: {} } satisfies World);
      await ctx.page.goto('/verify/user');
    },
  },
  steps: {
    'checkLink succeeds': async (ctx) => {
      if (!startedBy(ctx, 'RETRY')) return; // arranged by start: the link is valid
      await network(ctx, 'check', true);
      await tryAgain(ctx);
    },
    'checkLink fails network': async (ctx) => {
      if (!startedBy(ctx, 'RETRY')) return; // arranged by start
      await network(ctx, 'check', false);
      await tryAgain(ctx);
    },
    'checkLink fails invalid_link': async (ctx) => {
      if (!startedBy(ctx, 'RETRY')) return; // arranged by start
      await network(ctx, 'check', true);
      await makeLinkInvalid(ctx);
      await tryAgain(ctx);
    },
    'INPUT_REJECTED mismatch': async (ctx) => {
      await submit(ctx, STRONG, 'Str0ng-Password?');
      await expect(ctx.page.getByText('Passwords do not match')).toBeVisible();
    },
    'INPUT_REJECTED policy': async (ctx) => {
      await submit(ctx, 'short');
      await expect(ctx.page.getByText(/must be at least 12 characters long/i).first()).toBeVisible();
    },
    'savePassword succeeds': async (ctx) => {
      await network(ctx, 'save', true);
      await submit(ctx, STRONG);
    },
    'savePassword fails validation_failed': async (ctx) => {
      await network(ctx, 'save', true);
      await submit(ctx, COMMON);
      await expect(ctx.page.getByText(/too common/i)).toBeVisible();
    },
    'savePassword fails invalid_link': async (ctx) => {
      await network(ctx, 'save', true);
      await makeLinkInvalid(ctx);
      await submit(ctx, STRONG);
    },
    'savePassword fails network': async (ctx) => {
      await network(ctx, 'save', false);
      await submit(ctx, STRONG);
      await expect(ctx.page.getByText(NETWORK_OR_GENERIC)).toBeVisible();
    },
    SIGN_IN: async (ctx) => {
      await clickLink(ctx.page, /^(Go to sign in|Back to sign in)$/);
    },
    FORGOT_PASSWORD: async (ctx) => {
      await clickLink(ctx.page, 'forgot password');
    },
  },
  screens: {
    'screen:verify.checking': async (ctx) => {
      await expect(ctx.page.getByText('Checking the link…').first()).toBeVisible();
    },
    'screen:verify.form': async (ctx) => {
      const w = world(ctx);
      await expect(ctx.page.getByRole('heading', { level: 1, name: w.flow === 'verify' ? 'Finish your profile setup' : 'Choose a new password' })).toBeVisible();
      await expect(ctx.page.getByRole('button', { name: submitLabel(w) })).toBeEnabled();
    },
    'screen:verify.unavailable': async (ctx) => {
      await expect(ctx.page.getByText(NETWORK_OR_GENERIC)).toBeVisible();
      await expect(ctx.page.getByRole('button', { name: 'Try again' })).toBeVisible();
    },
    'screen:verify.invalid': async (ctx) => {
      await expect(ctx.page.getByRole('heading', { level: 1, name: 'Link expired or invalid' })).toBeVisible();
      await expect(ctx.page.getByText('This link is invalid or has expired')).toBeVisible();
    },
    'screen:verify.done': async (ctx) => {
      const w = world(ctx);
      await expect(ctx.page.getByRole('heading', { level: 1, name: w.flow === 'verify' ? 'Your account is ready' : 'Password changed' })).toBeVisible();
    },
    'screen:verify.to-sign-in': async (ctx) => {
      await expect(ctx.page).toHaveURL(world(ctx).kind === 'admin' ? /\/admin\/login(\?|$)/ : /\/login(\?|$)/);
      await expect(ctx.page.getByRole('textbox', { name: /e-mail/i })).toBeVisible();
    },
    'screen:verify.to-forgot-password': async (ctx) => {
      await expect(ctx.page).toHaveURL(world(ctx).kind === 'admin' ? /\/forgot-password\?type=admin/ : /\/forgot-password$/);
      await expect(ctx.page.getByRole('button', { name: 'Send reset link' })).toBeVisible();
    },
  },
};
