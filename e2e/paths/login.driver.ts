/**
 * Browser driver of the login machine (machines/login.machine.ts, words in machines/login.qa.ts): performs every
 * step key of login.model.ts in Chromium against the real server and checks every `screen:login.*` tag.
 *
 * Server-side arrangements go straight to the e2e SQLite database (E2E_DATA_DIR): accounts are inserted ready-made
 * (argon2 hash computed once, TOTP secret encrypted with the server's key, recovery codes hashed as the server does),
 * a lock is a `rate_counters` row, an expired password a cleared `password_changed_at`, an expired sign-in a deleted
 * interaction, an expired reset token a spent `one_time_tokens` row. SMS codes come from the outbox; TOTP codes are
 * computed. A step that ends while the server has not answered holds that request (page.route without an answer);
 * a sign-in that completes holds the browser's navigation to the provider, so the redirecting screen is what is
 * checked, and `finish` lets it go and checks the app is reached.
 */
import { expect, type Page, type Request, type Route } from '@playwright/test';
import { createCipheriv, createHash, generateKeyPairSync, hkdfSync, randomBytes, randomUUID } from 'node:crypto';
import * as OTPAuth from 'otpauth';
import type { EventObject } from 'xstate';
import { hashPassword } from '../../server/services/passwords';
import { nextSmsCode, smsTo, typeCode, withDb } from '../helpers';
import type { VirtualCredential } from '../webauthn';
import { nextStep, startedBy, type DriverContext, type DriverFn, type MachineDriver } from './driver';
import { answerPrompt, deviceOf, holdNextPost, holdOnly, outwait, updatePolicy, waitForPrompt, type HeldPost } from './passkey-prompt';

/** The password of every account the walk inserts (e2e/paths/passkeyRegistration.driver.ts signs in with it too). */
export const PASSWORD = 'Login-Walk-Passw0rd!';
let passwordHash: Promise<string> | undefined;
const hashOnce = () => (passwordHash ??= hashPassword(PASSWORD));

export interface WalkAccount {
  id: string;
  email: string;
  type: 'user' | 'admin';
  method: 'GOOGLE' | 'SMS' | null;
  secret: string | null;
  phone: string | null;
  recoveryCodes: string[];
  /** SMS to the phone before the current code was sent */
  smsSeen: number;
}

interface Held {
  route: Route;
  request: Request;
}

interface World {
  admin: boolean;
  account?: WalkAccount;
  /** requests held open (the step ended "while the server does not answer yet") */
  held: Held[];
  /** the routes holding them (path → handler), dropped before the next step */
  holding: Array<{ active: boolean }>;
  /** the route holding /api/config for the authorization start */
  configHold?: { matcher: (url: URL) => boolean; handler: (route: Route, request: Request) => void };
  /** where the browser was sent (the provider) after a completed step; followed in `finish` */
  heldNavigation: string[];
  /** The page's check of its link (GET /api/interactions/:uid), held until a `checkInteraction` step answers it. */
  checkHold?: Held;
  /** WebAuthn walk: the account's passkey (stored on the server, and what the device gives back) */
  passkey?: VirtualCredential;
  /** WebAuthn walk: the passkey answer held on its way to the server, until the outcome's step */
  passkeyHeld?: HeldPost;
  /** WebAuthn walk: the role whose passkey requirement this case set (taken back in `finish`) */
  requiredRole?: string;
}

const world = (ctx: DriverContext): World => {
  const w = ctx.world as Partial<World>;
  w.held ??= [];
  w.holding ??= [];
  w.heldNavigation ??= [];
  w.admin ??= ctx.testCase.scenario.startsWith('/admin');
  return w as World;
};

// ---------------------------------------------------------------- server-side arrangements (SQLite)

function encryptionKey(): Buffer {
  return withDb((db) => {
    db.prepare("INSERT INTO app_settings (key, value, updated_at) VALUES ('secret:encryption', ?, ?) ON CONFLICT (key) DO NOTHING").run(randomBytes(32).toString('base64'), new Date().toISOString());
    const row = db.prepare("SELECT value FROM app_settings WHERE key = 'secret:encryption'").get() as { value: string };
    // server/services/server-secrets.ts encryptionKey (no IAM_ENCRYPTION_KEY pepper in the e2e server)
    return Buffer.from(hkdfSync('sha256', Buffer.from(row.value, 'base64'), Buffer.from('', 'utf8'), 'iam-totp-secret-v1', 32));
  });
}

function encrypt(plain: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', encryptionKey(), iv);
  const ct = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return ['v1', iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), ct.toString('base64url')].join('.');
}

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

/** A ready account: copied from the bootstrap admin's row (every column), then made what the step needs. */
export async function createAccount(ctx: DriverContext, opts: { method: 'GOOGLE' | 'SMS' | null; expired?: boolean }): Promise<WalkAccount> {
  const w = world(ctx);
  const hash = await hashOnce();
  const id = randomUUID();
  const tag = `${Date.now().toString(36)}${randomBytes(3).toString('hex')}`;
  const email = `walk.${tag}@example.com`;
  const secret = opts.method === 'GOOGLE' ? new OTPAuth.Secret({ size: 20 }).base32 : null;
  const phone = opts.method === 'SMS' ? `+4179${String(Date.now()).slice(-7)}` : null;
  const recoveryCodes = opts.method ? [randomBytes(16).toString('hex').match(/.{8}/g)!.join('-'), randomBytes(16).toString('hex').match(/.{8}/g)!.join('-')] : [];
  const now = new Date().toISOString();
  const encryptedSecret = secret ? encrypt(secret) : null;
  withDb((db) => {
    const template = db.prepare("SELECT * FROM accounts WHERE type = 'admin' ORDER BY created_at LIMIT 1").get() as Record<string, unknown>;
    const row: Record<string, unknown> = {
      ...template,
      id,
      type: w.admin ? 'admin' : 'user',
      email,
      email_normalized: email,
      first_name: 'Walk',
      last_name: tag,
      phone,
      locale: 'en',
      status: 'ACTIVE',
      auth_type: 'CREDENTIALS',
      provider: null,
      provider_subject: null,
      technical: 0,
      admin_role: w.admin ? 'manager' : null,
      avatar: null,
      password_hash: hash,
      password_changed_at: opts.expired ? null : now,
      email_verified_at: now,
      created_by: null,
      two_factor_method: opts.method,
      two_factor_secret: encryptedSecret,
      two_factor_confirmed_at: opts.method ? now : null,
      two_factor_last_step: null,
      api_key_hash: null,
      api_key_prefix: null,
      api_key_created_at: null,
      search_text: `${email} walk ${tag}`,
      created_at: now,
      updated_at: now,
    };
    const columns = Object.keys(row);
    db.prepare(`INSERT INTO accounts (${columns.join(', ')}) VALUES (${columns.map((c) => `@${c}`).join(', ')})`).run(row);
    for (const code of recoveryCodes) {
      db.prepare('INSERT INTO recovery_codes (id, account_id, code_hash, used_at, created_at) VALUES (?, ?, ?, NULL, ?)').run(randomUUID(), id, sha256(code.replace(/[\s-]/g, '').toLowerCase()), now);
    }
  });
  const account: WalkAccount = { id, email, type: w.admin ? 'admin' : 'user', method: opts.method, secret, phone, recoveryCodes, smsSeen: phone ? smsTo(phone).length : 0 };
  w.account = account;
  return account;
}

async function accountOf(ctx: DriverContext): Promise<WalkAccount> {
  return world(ctx).account ?? (await createAccount(ctx, { method: null }));
}

function updateAccount(id: string, set: 'expire-password' | 'deactivate'): void {
  withDb((db) => {
    if (set === 'expire-password') db.prepare('UPDATE accounts SET password_changed_at = NULL WHERE id = ?').run(id);
    else db.prepare("UPDATE accounts SET status = 'INACTIVE' WHERE id = ?").run(id);
  });
}

/** A 15-minute lock on a throttle key (server/services/throttle.ts keys), as after too many failures. */
function lock(key: string): void {
  const now = Date.now();
  withDb((db) =>
    db
      .prepare('INSERT INTO rate_counters (key, count, reset_at, locked_until) VALUES (?, 5, ?, ?) ON CONFLICT (key) DO UPDATE SET count = 5, reset_at = excluded.reset_at, locked_until = excluded.locked_until')
      .run(key, now + 15 * 60_000, now + 15 * 60_000),
  );
}
function unlock(key: string): void {
  withDb((db) => db.prepare('DELETE FROM rate_counters WHERE key = ?').run(key));
}

/** The provider forgets the sign-in (its interaction), as when it expires. */
export function expireInteraction(page: Page): void {
  const uid = new URL(page.url()).searchParams.get('interaction');
  expect(uid, 'the page has an interaction').toBeTruthy();
  withDb((db) => db.prepare("DELETE FROM oidc_models WHERE model = 'Interaction' AND id = ?").run(uid));
}

function expireResetTokens(accountId: string): void {
  withDb((db) => db.prepare("UPDATE one_time_tokens SET expires_at = ? WHERE account_id = ? AND purpose = 'expired_password'").run(new Date(Date.now() - 60_000).toISOString(), accountId));
}

// ---------------------------------------------------------------- requests: hold, fail

const api = (ctx: DriverContext, user: string, admin: string) => (world(ctx).admin ? admin : user);
const loginPath = (ctx: DriverContext) => api(ctx, '/api/login', '/api/admin/login');
const otpPath = (ctx: DriverContext) => api(ctx, '/api/2fa/google/validate-otp', '/api/admin/2fa/validate-otp');
const resetPath = (ctx: DriverContext) => api(ctx, '/api/reset-password', '/api/admin/reset-password');
const pathGlob = (path: string) => (url: URL) => url.pathname === path;

/** Holds every request to `path` from now on (never answered while the case runs). */
async function hold(ctx: DriverContext, path: string): Promise<void> {
  const w = world(ctx);
  const entry = { active: true };
  w.holding.push(entry);
  await ctx.page.route(pathGlob(path), (route, request) => {
    if (!entry.active) return void route.fallback();
    w.held.push({ route, request });
  });
}

/**
 * Before a step: the paths a previous step held are answered normally again; what they held stays unanswered until
 * the step has left that state (`dropHeld` after it): an answer now would be an outcome the case does not take.
 */
function releaseHolds(ctx: DriverContext): Held[] {
  const w = world(ctx);
  for (const entry of w.holding) entry.active = false;
  w.holding = [];
  const keep = w.held.filter((h) => new URL(h.request.url()).pathname === '/api/config');
  const drop = w.held.filter((h) => !keep.includes(h));
  w.held = keep;
  return drop;
}

/** The next request to `path` fails as without a network. */
async function failOnce(ctx: DriverContext, path: string): Promise<void> {
  await ctx.page.route(pathGlob(path), (route) => route.abort('internetdisconnected'), { times: 1 });
}

/**
 * The browser's navigation to the provider (/oidc/…) after a completed step is answered 204 (the browser stays on
 * the page, as while a navigation is under way), so the redirecting screen can be checked; `finish` goes on to the
 * recorded URL and checks where the sign-in lands.
 */
async function holdProviderNavigation(ctx: DriverContext): Promise<void> {
  const w = world(ctx);
  await ctx.page.route(
    (url) => url.pathname.startsWith('/oidc/'),
    (route, request) => {
      if (!request.isNavigationRequest()) return void route.continue();
      w.heldNavigation.push(request.url());
      return void route.fulfill({ status: 204 });
    },
  );
}

/** /api/config after the app's own start: held (the login's authorization start waits on it). */
async function holdConfigAfterBoot(ctx: DriverContext): Promise<void> {
  const w = world(ctx);
  let seen = 0;
  const matcher = pathGlob('/api/config');
  const handler = (route: Route, request: Request) => {
    seen += 1;
    if (seen === 1) return void route.continue();
    w.held.push({ route, request });
  };
  w.configHold = { matcher, handler };
  await ctx.page.route(matcher, handler);
}

function heldConfig(ctx: DriverContext): Held[] {
  const w = world(ctx);
  const mine = w.held.filter((h) => new URL(h.request.url()).pathname === '/api/config');
  w.held = w.held.filter((h) => !mine.includes(h));
  return mine;
}

/**
 * The binding of the page's sign-in to this browser (server/oidc/interaction-binding.ts): without its cookie the
 * browser is, for the server, another browser than the one that started the sign-in.
 */
async function dropInteractionBinding(ctx: DriverContext): Promise<void> {
  const uid = new URL(ctx.page.url()).searchParams.get('interaction');
  expect(uid, 'the page has an interaction').toBeTruthy();
  await ctx.page.context().clearCookies({ name: `iam_interaction_${uid}` });
}

/** The held check of the link, answered by the server (`answer`: continue) or failed as without a network. */
async function answerCheck(ctx: DriverContext, answer: 'continue' | 'network'): Promise<void> {
  const w = world(ctx);
  await expect.poll(() => Boolean(w.checkHold), { message: 'the page checks its link' }).toBe(true);
  const held = w.checkHold!;
  w.checkHold = undefined;
  if (answer === 'network') await held.route.abort('internetdisconnected');
  else await held.route.continue();
}

// ---------------------------------------------------------------- page actions

const firstEvent = (ctx: DriverContext): EventObject | undefined => ctx.events[0];
const outcome = <T>(ctx: DriverContext): T => ctx.events.at(-1) as unknown as T;

async function submitCredentials(ctx: DriverContext, email: string, password: string): Promise<void> {
  const { page } = ctx;
  await page.getByRole('textbox', { name: /e-mail/i }).fill(email);
  await page.getByLabel(/^password/i).fill(password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
}

const totp = (account: WalkAccount) => new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(account.secret ?? ''), digits: 6, period: 30 }).generate();
const wrongCode = (right: string) => (right === '000000' ? '111111' : '000000');

async function currentSmsCode(account: WalkAccount): Promise<string> {
  const { code } = await nextSmsCode(account.phone ?? '', account.smsSeen);
  return code;
}

/** The button a RETRY / RESTART step presses before the authorization starts again. */
async function pressRestartButton(ctx: DriverContext): Promise<void> {
  const type = firstEvent(ctx)?.type;
  if (type === 'RETRY') await ctx.page.getByRole('button', { name: 'Try again' }).click();
  if (type === 'RESTART') await ctx.page.getByRole('button', { name: /Sign in again|Go to admin sign in/ }).click();
}

async function signInWithTwoFactor(ctx: DriverContext, method: 'GOOGLE' | 'SMS'): Promise<void> {
  const account = await createAccount(ctx, { method });
  await submitCredentials(ctx, account.email, PASSWORD);
}

// ---------------------------------------------------------------- steps

const steps: Record<string, DriverFn> = {
  start: async () => {},

  'startAuthorization succeeds': async (ctx) => {
    await holdProviderNavigation(ctx);
    const held = heldConfig(ctx);
    const w = world(ctx);
    if (w.configHold) await ctx.page.unroute(w.configHold.matcher, w.configHold.handler);
    w.configHold = undefined;
    if (held.length) for (const h of held) await h.route.continue();
    else await pressRestartButton(ctx);
    await expect.poll(() => world(ctx).heldNavigation.length).toBeGreaterThan(0);
  },
  'startAuthorization fails network': async (ctx) => {
    const held = heldConfig(ctx);
    if (held.length) {
      const w = world(ctx);
      if (w.configHold) await ctx.page.unroute(w.configHold.matcher, w.configHold.handler);
      w.configHold = undefined;
      for (const h of held) await h.route.abort('internetdisconnected');
    } else {
      await failOnce(ctx, '/api/config');
      await pressRestartButton(ctx);
    }
  },
  RETRY: async (ctx) => {
    await hold(ctx, '/api/config');
    await holdProviderNavigation(ctx);
    await ctx.page.getByRole('button', { name: 'Try again' }).click();
  },
  RESTART: async (ctx) => {
    await hold(ctx, '/api/config');
    await holdProviderNavigation(ctx);
    await ctx.page.getByRole('button', { name: /Sign in again|Go to admin sign in/ }).click();
  },

  'checkInteraction succeeds': async (ctx) => {
    await answerCheck(ctx, 'continue');
    await expect(screenRoot(ctx.page, 'screen:login.credentials').getByRole('button', { name: /^(Sign in|Admin sign in)$/ })).toBeEnabled();
  },
  'checkInteraction fails interaction_foreign_browser': async (ctx) => {
    // the page's own sign-in restarts (portal, admin console): its authorization start waits on /api/config
    await hold(ctx, '/api/config');
    await holdProviderNavigation(ctx);
    await dropInteractionBinding(ctx);
    await answerCheck(ctx, 'continue');
  },
  'checkInteraction fails interaction_expired': async (ctx) => {
    expireInteraction(ctx.page);
    await answerCheck(ctx, 'continue');
  },
  'checkInteraction fails network': async (ctx) => {
    await answerCheck(ctx, 'network');
  },

  SUBMIT: async (ctx) => {
    const account = await accountOf(ctx);
    await hold(ctx, loginPath(ctx));
    await submitCredentials(ctx, account.email, PASSWORD);
  },
  'submitCredentials succeeds complete': async (ctx) => {
    const account = await createAccount(ctx, { method: null });
    await holdProviderNavigation(ctx);
    await submitCredentials(ctx, account.email, PASSWORD);
  },
  'submitCredentials succeeds two_factor_required': async (ctx) => {
    const { output } = outcome<{ output: { method: 'GOOGLE' | 'SMS' | 'PASSKEY'; passkey?: boolean } }>(ctx);
    if (output.method === 'PASSKEY' || output.passkey) {
      // an account whose second factor is (also) a passkey
      const account = await createAccount(ctx, { method: output.method === 'PASSKEY' ? null : output.method });
      await givePasskey(ctx, account);
      await submitCredentials(ctx, account.email, PASSWORD);
      return;
    }
    await signInWithTwoFactor(ctx, output.method);
  },
  'submitCredentials succeeds password_expired': async (ctx) => {
    const account = await createAccount(ctx, { method: null, expired: true });
    await submitCredentials(ctx, account.email, PASSWORD);
    await expect(ctx.page).toHaveURL(/\/expired-password/);
  },
  'submitCredentials fails invalid_credentials': async (ctx) => {
    const account = await accountOf(ctx);
    await submitCredentials(ctx, account.email, `${PASSWORD}-wrong`);
  },
  'submitCredentials fails account_locked': async (ctx) => {
    const account = await accountOf(ctx);
    lock(`account:${account.id}`);
    await submitCredentials(ctx, account.email, PASSWORD);
    await expect(ctx.page.getByRole('alert')).toContainText(/locked/);
    unlock(`account:${account.id}`);
  },
  'submitCredentials fails network': async (ctx) => {
    const account = await accountOf(ctx);
    await failOnce(ctx, loginPath(ctx));
    await submitCredentials(ctx, account.email, PASSWORD);
  },
  'submitCredentials fails interaction_foreign_browser': async (ctx) => {
    const account = await accountOf(ctx);
    const restarts = !ctx.testCase.scenario.includes('type=sso') && !ctx.testCase.scenario.includes('after a restart');
    if (restarts) {
      await hold(ctx, '/api/config');
      await holdProviderNavigation(ctx);
    }
    await dropInteractionBinding(ctx);
    await submitCredentials(ctx, account.email, PASSWORD);
  },
  'submitCredentials fails interaction_expired': async (ctx) => {
    const account = await accountOf(ctx);
    expireInteraction(ctx.page);
    await submitCredentials(ctx, account.email, PASSWORD);
  },

  SUBMIT_CODE: async (ctx) => {
    const account = await accountOf(ctx);
    await hold(ctx, account.method === 'SMS' ? '/api/2fa/sms/verify' : otpPath(ctx));
    await typeCode(ctx.page, '123456');
  },
  'verifyOtp succeeds complete': async (ctx) => {
    const account = await accountOf(ctx);
    await holdProviderNavigation(ctx);
    await typeCode(ctx.page, totp(account));
  },
  'verifyOtp succeeds password_expired': async (ctx) => {
    const account = await accountOf(ctx);
    updateAccount(account.id, 'expire-password');
    await typeCode(ctx.page, totp(account));
    await expect(ctx.page).toHaveURL(/\/expired-password/);
  },
  'verifyOtp fails otp_invalid': async (ctx) => {
    const account = await accountOf(ctx);
    await typeCode(ctx.page, wrongCode(totp(account)));
  },
  'verifyOtp fails account_locked': async (ctx) => {
    const account = await accountOf(ctx);
    lock(`otp:${account.id}`);
    await typeCode(ctx.page, totp(account));
    await expect(ctx.page.getByRole('alert')).toContainText(/locked/);
    unlock(`otp:${account.id}`);
  },
  'verifyOtp fails account_inactive': async (ctx) => {
    const account = await accountOf(ctx);
    updateAccount(account.id, 'deactivate');
    await typeCode(ctx.page, totp(account));
  },
  'verifyOtp fails interaction_expired': async (ctx) => {
    const account = await accountOf(ctx);
    expireInteraction(ctx.page);
    await typeCode(ctx.page, totp(account));
  },

  'verifySmsCode succeeds complete': async (ctx) => {
    const account = await accountOf(ctx);
    const code = await currentSmsCode(account);
    await holdProviderNavigation(ctx);
    await typeCode(ctx.page, code);
  },
  'verifySmsCode fails otp_invalid': async (ctx) => {
    const account = await accountOf(ctx);
    await typeCode(ctx.page, wrongCode(await currentSmsCode(account)));
  },
  RESEND_CODE: async (ctx) => {
    await hold(ctx, '/api/2fa/sms/resend');
    await ctx.page.getByRole('button', { name: 'Resend code' }).click();
  },
  'resendSmsCode succeeds': async (ctx) => {
    const account = await accountOf(ctx);
    account.smsSeen = smsTo(account.phone ?? '').length;
    // the server sends at most one sign-in SMS per 30 s: the cooldown passed (in the page's clock), so here too
    unlock(`rate:sms30:sms_login:${account.id}`);
    await ctx.page.getByRole('button', { name: 'Resend code' }).click();
    await currentSmsCode(account);
  },
  'resendSmsCode fails network': async (ctx) => {
    await failOnce(ctx, '/api/2fa/sms/resend');
    await ctx.page.getByRole('button', { name: 'Resend code' }).click();
  },
  'after smsResendCooldown': async (ctx) => {
    // the scenario's start installed the page clock (only for cases with this step)
    await ctx.page.clock.fastForward(61_000);
  },

  USE_RECOVERY_CODE: async (ctx) => {
    await ctx.page.getByRole('button', { name: 'Use a recovery code' }).click();
  },
  USE_ONE_TIME_PASSWORD: async (ctx) => {
    await ctx.page.getByRole('button', { name: 'Use a one-time password instead' }).click();
  },
  SUBMIT_RECOVERY_CODE: async (ctx) => {
    await hold(ctx, '/api/2fa/validate-recovery-code');
    await enterRecoveryCode(ctx.page, 'aaaaaaaa-aaaaaaaa-aaaaaaaa-aaaaaaaa');
  },
  'verifyRecoveryCode succeeds complete': async (ctx) => {
    const account = await accountOf(ctx);
    await holdProviderNavigation(ctx);
    await enterRecoveryCode(ctx.page, account.recoveryCodes.pop() ?? '');
  },
  'verifyRecoveryCode succeeds password_expired': async (ctx) => {
    const account = await accountOf(ctx);
    updateAccount(account.id, 'expire-password');
    await enterRecoveryCode(ctx.page, account.recoveryCodes.pop() ?? '');
    await expect(ctx.page).toHaveURL(/\/expired-password/);
  },
  'verifyRecoveryCode fails recovery_code_invalid': async (ctx) => {
    await enterRecoveryCode(ctx.page, 'bbbbbbbb-bbbbbbbb-bbbbbbbb-bbbbbbbb');
  },

  SUBMIT_NEW_PASSWORD: async (ctx) => {
    await hold(ctx, resetPath(ctx));
    await changePassword(ctx.page, newPassword());
  },
  'changeExpiredPassword succeeds': async (ctx) => {
    await changePassword(ctx.page, newPassword());
  },
  'changeExpiredPassword fails validation_failed': async (ctx) => {
    // the current password again: only the server knows it (password_same_as_current on the field)
    await changePassword(ctx.page, PASSWORD);
  },
  'changeExpiredPassword fails invalid_link': async (ctx) => {
    const account = await accountOf(ctx);
    expireResetTokens(account.id);
    await changePassword(ctx.page, newPassword());
  },
};

const newPassword = () => `Walk-New-${randomBytes(4).toString('hex')}-Aa1!`;

async function enterRecoveryCode(page: Page, code: string): Promise<void> {
  await page.getByRole('textbox', { name: /recovery code/i }).fill(code);
  await page.getByRole('button', { name: 'Verify' }).click();
}

async function changePassword(page: Page, password: string): Promise<void> {
  await page.getByLabel(/^new password/i).fill(password);
  await page.getByLabel(/^confirm new password/i).fill(password);
  await page.getByRole('button', { name: 'Change password' }).click();
}

// ---------------------------------------------------------------- screens

const screenRoot = (page: Page, tag: string) => page.locator(`[data-screen="${tag}"]`);
/** The server error of the step's outcome, if it failed. */
const failedWith = (ctx: DriverContext): string | undefined => {
  const last = ctx.events.at(-1) as (EventObject & { error?: { code?: string; kind?: string } }) | undefined;
  return last?.type.startsWith('xstate.error.') ? (last.error?.code ?? last.error?.kind) : undefined;
};
const isLoading = (ctx: DriverContext) => /submitting|verifying|resending|saving|checkingInteraction/.test(ctx.step?.state ?? '');

const screens: MachineDriver['screens'] = {
  'screen:login.redirecting': async (ctx) => {
    await expect(screenRoot(ctx.page, 'screen:login.redirecting')).toBeVisible();
    await expect(ctx.page.getByText('Redirecting to the secure sign-in…')).toBeVisible();
  },
  'screen:login.authorization-failed': async (ctx) => {
    const root = screenRoot(ctx.page, 'screen:login.authorization-failed');
    await expect(root.getByRole('alert')).toHaveText('The server cannot be reached. Check your connection and try again.');
    await expect(root.getByRole('button', { name: 'Try again' })).toBeVisible();
  },
  'screen:login.credentials': async (ctx) => {
    const root = screenRoot(ctx.page, 'screen:login.credentials');
    await expect(root.getByRole('heading', { level: 1 })).toHaveText(world(ctx).admin ? 'Admin sign in' : 'Sign in');
    await expect(root.getByRole('textbox', { name: /e-mail/i })).toBeVisible();
    const expected: Record<string, RegExp> = {
      // the e2e server has an upstream SSO provider (playwright.config.ts): a wrong password on /login points to its button
      invalid_credentials: world(ctx).admin
        ? /^Given password is invalid$/
        : /^Given password is invalid\s*Do you sign in with single sign-on\? Use your organization's button below instead of a password\.$/,
      account_locked: /^Too many failed attempts\. Your account is locked, try again in 15 minutes\.$/,
      network: /^The server cannot be reached\. Check your connection and try again\.$/,
    };
    const failure = failedWith(ctx);
    const passkeyWords = ctx.passkeys ? passkeyFailure(ctx) : undefined;
    if (passkeyWords) await expect(root.getByRole('alert').first()).toContainText(passkeyWords);
    else if (failure && expected[failure]) await expect(root.getByRole('alert')).toHaveText(expected[failure]!);
    if (isLoading(ctx)) await expect(root.getByRole('button', { name: /^(Sign in|Admin sign in)$/ })).toBeDisabled();
  },
  'screen:login.two-factor-otp': async (ctx) => {
    const root = screenRoot(ctx.page, 'screen:login.two-factor-otp');
    await twoFactorHeading(ctx.page, root, 'Open your authenticator app and enter the 6-digit code for this account.');
    const failure = failedWith(ctx);
    if (failure === 'otp_invalid') await expect(root.locator('#one-time-password-error')).toHaveText('One time password is invalid');
    if (failure === 'account_locked') await expect(root.getByRole('alert').first()).toHaveText(/Your account is locked, try again in 15 minutes\./);
  },
  'screen:login.two-factor-sms': async (ctx) => {
    const root = screenRoot(ctx.page, 'screen:login.two-factor-sms');
    await twoFactorHeading(ctx.page, root, 'We sent a 6-digit code to your phone. It may take up to a minute to arrive.');
    const state = ctx.step?.state ?? '';
    if (state.endsWith('cooldown')) await expect(root.getByRole('button', { name: 'Resend available in a minute' })).toBeDisabled();
    if (state.endsWith('ready')) await expect(root.getByRole('button', { name: 'Resend code' })).toBeEnabled();
    const failure = failedWith(ctx);
    if (failure === 'otp_invalid') await expect(root.locator('#one-time-password-error')).toHaveText('One time password is invalid');
    if (failure === 'network') await expect(root.getByRole('alert').first()).toHaveText('The server cannot be reached. Check your connection and try again.');
  },
  'screen:login.two-factor-recovery': async (ctx) => {
    const root = screenRoot(ctx.page, 'screen:login.two-factor-recovery');
    await expect(root.getByRole('heading', { level: 1 })).toHaveText('Use a recovery code');
    if (failedWith(ctx) === 'recovery_code_invalid') await expect(root.getByText('Recovery code is invalid')).toBeVisible();
  },
  'screen:login.sign-in-expired': async (ctx) => {
    const root = screenRoot(ctx.page, 'screen:login.sign-in-expired');
    await expect(root.getByRole('heading', { level: 1 })).toHaveText('Sign-in expired');
    await expect(root.getByText('Your sign-in took too long and has expired. Please sign in again.')).toBeVisible();
  },
  'screen:login.foreign-browser': async (ctx) => {
    const root = screenRoot(ctx.page, 'screen:login.foreign-browser');
    await expect(root.getByRole('heading', { level: 1 })).toHaveText('Sign-in started in another browser');
    if (ctx.testCase.scenario.includes('type=sso')) {
      await expect(root.getByText('This sign-in was started in another browser or window. Go back to the app you came from and start the sign-in again there.')).toBeVisible();
      await expect(root.getByRole('button')).toHaveCount(0);
    } else {
      await expect(root.getByText('This sign-in could not be continued in this browser. Make sure cookies are allowed for this site, then sign in again.')).toBeVisible();
      await expect(root.getByRole('button', { name: world(ctx).admin ? 'Go to admin sign in' : 'Sign in again' })).toBeVisible();
    }
  },
  'screen:login.account-inactive': async (ctx) => {
    const root = screenRoot(ctx.page, 'screen:login.account-inactive');
    await expect(root.getByRole('alert')).toHaveText('Your account is deactivated. Please contact your administrator.');
    await expect(root).not.toContainText(/try again|error occurred/i);
    await expect(root.getByRole('button')).toHaveCount(0);
  },
  'screen:login.expired-password': async (ctx) => {
    await expect(ctx.page).toHaveURL(/\/expired-password/);
    const root = screenRoot(ctx.page, 'screen:login.expired-password');
    await expect(root.getByRole('heading', { level: 1 })).toHaveText('Password expired');
    if (failedWith(ctx) === 'validation_failed') await expect(root.getByText(/must differ|different|same as/i).first()).toBeVisible();
  },
  'screen:login.password-changed': async (ctx) => {
    const root = screenRoot(ctx.page, 'screen:login.password-changed');
    await expect(root.getByRole('heading', { level: 1 })).toHaveText('Password changed');
    await expect(root.getByRole('link', { name: 'Go to sign in' })).toBeVisible();
  },
};

/** Issue 14: the challenge's description sits right under its heading (no blank gap). */
async function twoFactorHeading(page: Page, root: ReturnType<typeof screenRoot>, description: string): Promise<void> {
  const heading = root.getByRole('heading', { level: 1 });
  await expect(heading).toHaveText('Two-factor verification');
  const text = root.getByText(description);
  await expect(text).toBeVisible();
  const h = await heading.boundingBox();
  const p = await text.boundingBox();
  expect(h && p, 'heading and description are laid out').toBeTruthy();
  const gap = p!.y - (h!.y + h!.height);
  expect(gap, `gap under the 2FA heading: ${gap}px`).toBeLessThanOrEqual(12);
  void page;
}

// ---------------------------------------------------------------- scenarios

/** Holds the page's check of its link (GET /api/interactions/:uid) until a `checkInteraction` step answers it. */
async function holdCheck(ctx: DriverContext): Promise<void> {
  const w = world(ctx);
  await ctx.page.route(
    (url) => url.pathname.startsWith('/api/interactions/'),
    (route, request) => {
      w.checkHold = { route, request };
    },
    { times: 1 },
  );
}

/**
 * Opens the sign-in page of the scenario; the page's check of its link waits for the first step. `variant`: the
 * same page once more as a service app's sign-in (the page tells one by `type=sso`), or after a restart for this
 * browser (the stored authorization says `rebind`, as the login machine's restart writes it).
 */
async function openSignIn(ctx: DriverContext, path: '/login' | '/admin/login', variant?: 'service-app' | 'rebound'): Promise<void> {
  // a WebAuthn walk's context has its clock installed already (e2e/paths/passkey-prompt.ts)
  if (!ctx.passkeys && ctx.testCase.steps.some((s) => s.key === 'after smsResendCooldown')) await ctx.page.clock.install();
  if (!variant) await holdCheck(ctx);
  await ctx.page.goto(path);
  await expect(ctx.page).toHaveURL(new RegExp(`${path.replace(/\//g, '\\/')}\\?interaction=`));
  if (variant) {
    await expect(screenRoot(ctx.page, 'screen:login.credentials').getByRole('button', { name: /^(Sign in|Admin sign in)$/ })).toBeEnabled();
    const url = new URL(ctx.page.url());
    if (variant === 'service-app') url.searchParams.set('type', 'sso');
    else {
      await ctx.page.evaluate(() => {
        const stored = JSON.parse(window.localStorage.getItem('code_verifier') ?? '{}') as Record<string, unknown>;
        window.localStorage.setItem('code_verifier', JSON.stringify({ ...stored, rebind: true }));
      });
    }
    await holdCheck(ctx);
    await ctx.page.goto(url.href);
  }
  await expect(screenRoot(ctx.page, 'screen:login.credentials')).toBeVisible();
}

// ---------------------------------------------------------------- passkeys (the WebAuthn walk, e2e/paths/passkey-prompt.ts)

/**
 * A passkey for `account` made here as an authenticator makes one: a P-256 key pair, the public key as COSE (what
 * the server keeps from an attestation), the private key and the user handle (the account id) for the virtual
 * authenticator. `stored`: the server knows it (a passkey the account has); otherwise it is one removed from the
 * account but still on the device.
 */
function makePasskey(ctx: DriverContext, account: WalkAccount, stored: boolean): VirtualCredential {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const jwk = publicKey.export({ format: 'jwk' });
  const x = Buffer.from(jwk.x ?? '', 'base64url');
  const y = Buffer.from(jwk.y ?? '', 'base64url');
  // COSE_Key {1: 2 (EC2), 3: -7 (ES256), -1: 1 (P-256), -2: x, -3: y}
  const cose = Buffer.concat([Buffer.from([0xa5, 0x01, 0x02, 0x03, 0x26, 0x20, 0x01, 0x21, 0x58, 0x20]), x, Buffer.from([0x22, 0x58, 0x20]), y]);
  const id = randomBytes(32);
  if (stored) {
    withDb((db) =>
      db
        .prepare('INSERT INTO passkeys (id, account_id, credential_id, public_key, counter, transports, attachment, backup_eligible, backed_up, name, created_at) VALUES (?, ?, ?, ?, 0, ?, ?, 1, 1, ?, ?)')
        .run(randomUUID(), account.id, id.toString('base64url'), cose.toString('base64url'), JSON.stringify(['internal', 'hybrid']), 'platform', 'Walk passkey', new Date().toISOString()),
    );
  }
  return {
    credentialId: id.toString('base64'),
    isResidentCredential: true,
    rpId: new URL(ctx.origin ?? ctx.page.url()).hostname,
    userHandle: Buffer.from(account.id, 'utf8').toString('base64'),
    signCount: 0,
    privateKey: privateKey.export({ format: 'der', type: 'pkcs8' }).toString('base64'),
  };
}

/** The account gets a passkey (on the server and on this browser's device). */
async function givePasskey(ctx: DriverContext, account: WalkAccount): Promise<VirtualCredential> {
  const w = world(ctx);
  w.passkey = makePasskey(ctx, account, true);
  await holdOnly(deviceOf(ctx), [w.passkey]);
  return w.passkey;
}

/** The current account, with a passkey (an account of its own made now when the case has none yet). */
async function accountWithPasskey(ctx: DriverContext): Promise<VirtualCredential> {
  const w = world(ctx);
  const account = w.account ?? (await createAccount(ctx, { method: null }));
  return w.passkey ?? (await givePasskey(ctx, account));
}

/** The device holds only a passkey the account had and no longer has (removed from the profile, still on the device). */
async function holdRemovedPasskey(ctx: DriverContext): Promise<void> {
  const w = world(ctx);
  const account = w.account ?? (await createAccount(ctx, { method: null }));
  const removed = makePasskey(ctx, account, true);
  withDb((db) => db.prepare('DELETE FROM passkeys WHERE credential_id = ?').run(Buffer.from(removed.credentialId, 'base64').toString('base64url')));
  await holdOnly(deviceOf(ctx), [removed]);
}

/** A role for the account with the passkey requirement on it (Settings → Second factor), as a super admin sets it. */
function requirePasskeyForRoleOf(account: WalkAccount): string {
  const now = new Date().toISOString();
  const tag = randomBytes(4).toString('hex');
  const roleId = randomUUID();
  const subscriptionId = randomUUID();
  withDb((db) => {
    db.prepare('INSERT INTO roles (id, name, description, created_at, updated_at) VALUES (?, ?, ?, ?, ?)').run(roleId, `walk-passkey-${tag}`, '', now, now);
    db.prepare('INSERT INTO subscriptions (id, name, description, created_at, updated_at) VALUES (?, ?, ?, ?, ?)').run(subscriptionId, `walk-passkey-${tag}`, '', now, now);
    db.prepare('INSERT INTO subscription_roles (subscription_id, role_id) VALUES (?, ?)').run(subscriptionId, roleId);
    db.prepare('INSERT INTO role_subscriptions (account_id, subscription_id, role_id, created_at) VALUES (?, ?, ?, ?)').run(account.id, subscriptionId, roleId, now);
  });
  updatePolicy((policy) => ({ ...policy, roles: [...policy.roles, { role_id: roleId, requirement: 'passkey' }] }));
  return roleId;
}

function dropPasskeyRequirement(roleId: string): void {
  updatePolicy((policy) => ({ ...policy, roles: policy.roles.filter((r) => r.role_id !== roleId) }));
}

const OPTIONS_PATH = '/api/passkeys/authentication-options';
const isSecondFactor = (ctx: DriverContext) => (ctx.step?.state ?? '').startsWith('twoFactor');
const verifyPath = (ctx: DriverContext) => (isSecondFactor(ctx) ? '/api/2fa/passkey/verify' : '/api/passkeys/sign-in');

/** Holds the passkey's answer on its way to the server until the outcome's step (`releasePasskeyAnswer`). */
async function holdPasskeyAnswer(ctx: DriverContext, path: string): Promise<void> {
  world(ctx).passkeyHeld = await holdNextPost(ctx.page, path);
}
async function releasePasskeyAnswer(ctx: DriverContext): Promise<void> {
  const w = world(ctx);
  expect(w.passkeyHeld, "the passkey's answer is held").toBeTruthy();
  const held = w.passkeyHeld!;
  w.passkeyHeld = undefined;
  await held.release();
}

/** The passkey button of the screen shown: the sign-in form's, the second-factor screen's, or the code screen's. */
async function pressPasskeyButton(ctx: DriverContext): Promise<void> {
  const button = ctx.page.getByRole('button', { name: /^(Sign in with a passkey|Use your passkey|Use a passkey instead)$/ });
  await button.click();
}

/** Answers the held `get()` through the browser's WebAuthn API, and checks the browser's own outcome. */
const answerGet = (ctx: DriverContext, expected: string, conditional = false) => answerPrompt(ctx.page, 'get', 'forward', expected, conditional);

const passkeySteps: Record<string, DriverFn> = {
  PASSKEY: async (ctx) => {
    await hold(ctx, OPTIONS_PATH);
    await pressPasskeyButton(ctx);
  },
  CANCEL: async (ctx) => {
    await ctx.page.getByRole('button', { name: 'Cancel', exact: true }).click();
  },
  USE_ONE_TIME_PASSWORD: async (ctx) => {
    await ctx.page.getByRole('button', { name: 'Use a one-time password instead' }).click();
  },
  'passkeyOptions succeeds': async (ctx) => {
    await pressPasskeyButton(ctx);
    await waitForPrompt(ctx.page, 'get');
  },
  'passkeyOptions fails network': async (ctx) => {
    await failOnce(ctx, OPTIONS_PATH);
    await pressPasskeyButton(ctx);
  },
  'passkeyCeremony succeeds': async (ctx) => {
    const next = nextStep(ctx)?.key ?? '';
    if (next === 'passkeySignIn fails passkey_unknown') await holdRemovedPasskey(ctx);
    else await holdOnly(deviceOf(ctx), [await accountWithPasskey(ctx)]);
    await holdPasskeyAnswer(ctx, verifyPath(ctx));
    await answerGet(ctx, 'answered');
  },
  'passkeyCeremony fails passkey_cancelled': async (ctx) => {
    const d = deviceOf(ctx);
    await d.authenticator.userVerified(false);
    try {
      await answerGet(ctx, 'NotAllowedError');
    } finally {
      await d.authenticator.userVerified(true);
    }
  },
  'after ceremonyTimeout': async (ctx) => {
    await outwait(ctx.page, 'get');
  },
  'passkeySignIn succeeds complete': async (ctx) => {
    await holdProviderNavigation(ctx);
    await releasePasskeyAnswer(ctx);
  },
  'passkeySignIn fails passkey_unknown': async (ctx) => {
    await releasePasskeyAnswer(ctx);
  },
  'passkeySecondFactor succeeds complete': async (ctx) => {
    await holdProviderNavigation(ctx);
    await releasePasskeyAnswer(ctx);
  },
  'passkeySecondFactor fails passkey_invalid': async (ctx) => {
    // the server has seen this key count further than the answer does: a cloned authenticator
    const credentialId = Buffer.from(world(ctx).passkey?.credentialId ?? '', 'base64').toString('base64url');
    withDb((db) => db.prepare('UPDATE passkeys SET counter = 1000000 WHERE credential_id = ?').run(credentialId));
    await releasePasskeyAnswer(ctx);
    await expect(screenRoot(ctx.page, 'screen:login.two-factor-passkey').getByRole('alert')).toContainText('The passkey could not be verified');
    withDb((db) => db.prepare('UPDATE passkeys SET counter = 0 WHERE credential_id = ?').run(credentialId));
  },
  'passkeyAutofill succeeds complete': async (ctx) => {
    if (startedBy(ctx, 'CANCEL')) await ctx.page.getByRole('button', { name: 'Cancel', exact: true }).click();
    await holdOnly(deviceOf(ctx), [await accountWithPasskey(ctx)]);
    await holdProviderNavigation(ctx);
    await answerGet(ctx, 'answered', true);
  },
  'passkeyAutofill fails passkey_unknown': async (ctx) => {
    await holdRemovedPasskey(ctx);
    await answerGet(ctx, 'answered', true);
  },
  'submitCredentials succeeds enrolment_required': async (ctx) => {
    const account = await createAccount(ctx, { method: null });
    world(ctx).requiredRole = requirePasskeyForRoleOf(account);
    await submitCredentials(ctx, account.email, PASSWORD);
  },
  'passkeyEnrolment succeeds signed_in': async (ctx) => {
    await holdOnly(deviceOf(ctx), []);
    await holdProviderNavigation(ctx);
    await screenRoot(ctx.page, 'screen:passkey-add.name').getByRole('button', { name: 'Continue', exact: true }).click();
    await answerPrompt(ctx.page, 'create', 'forward', 'answered');
  },
  'passkeyEnrolment succeeds failed': async (ctx) => {
    expireInteraction(ctx.page);
    await screenRoot(ctx.page, 'screen:passkey-add.name').getByRole('button', { name: 'Continue', exact: true }).click();
  },
};

const PASSKEY_FAILURE_WORDS: Record<string, string> = {
  passkey_cancelled: 'The passkey request was cancelled or timed out',
  passkey_timeout: 'Your device did not answer in time',
  passkey_unknown: 'This passkey is not registered (any more)',
  passkey_invalid: 'The passkey could not be verified',
  network: 'The server cannot be reached',
};

/** The failure the state reached reads in words: the machine's own error (a time-out is an `after` step). */
function passkeyFailure(ctx: DriverContext): string | undefined {
  if (ctx.step?.key === 'after ceremonyTimeout') return PASSKEY_FAILURE_WORDS.passkey_timeout;
  const failure = failedWith(ctx);
  return failure ? PASSKEY_FAILURE_WORDS[failure] : undefined;
}

const passkeyScreens: MachineDriver['screens'] = {
  'screen:login.passkey': async (ctx) => {
    const root = screenRoot(ctx.page, 'screen:login.passkey');
    await expect(root.getByRole('heading', { level: 1 })).toHaveText('Sign in with a passkey');
    if (ctx.step?.state === 'passkey.prompting') {
      await expect(root.getByText("Follow your browser's prompt to sign in with your passkey.")).toBeVisible();
      await expect(root.getByRole('button', { name: 'Cancel', exact: true })).toBeVisible();
      await waitForPrompt(ctx.page, 'get');
    }
  },
  'screen:login.two-factor-passkey': async (ctx) => {
    const root = screenRoot(ctx.page, 'screen:login.two-factor-passkey');
    await expect(root.getByRole('heading', { level: 1 })).toHaveText('Two-factor verification');
    const state = ctx.step?.state ?? '';
    if (state.endsWith('prompting')) {
      await expect(root.getByText("Follow your browser's prompt to sign in with your passkey.")).toBeVisible();
      await waitForPrompt(ctx.page, 'get');
    }
    if (state.endsWith('ready')) await expect(root.getByRole('button', { name: 'Use your passkey' })).toBeEnabled();
    const words = passkeyFailure(ctx);
    if (words && state.endsWith('ready')) await expect(root.getByRole('alert').first()).toContainText(words);
  },
  'screen:login.passkey-enrolment': async (ctx) => {
    const root = screenRoot(ctx.page, 'screen:login.passkey-enrolment');
    await expect(root.getByRole('heading', { level: 1 })).toHaveText('Add a passkey to continue');
    await expect(root.getByRole('textbox', { name: 'Name' })).toHaveValue(/\S/);
  },
};

export const loginDriver: MachineDriver = {
  machine: 'login',
  start: {
    '/login?interaction=uid-1': (ctx) => openSignIn(ctx, '/login'),
    // on the WebAuthn walk's server, with the virtual authenticator (e2e/paths.spec.ts WEBAUTHN_SCENARIOS)
    '/login?interaction=uid-1 with passkeys': (ctx) => openSignIn(ctx, '/login'),
    '/admin/login?interaction=uid-1': (ctx) => openSignIn(ctx, '/admin/login'),
    "/login?interaction=uid-1&type=sso (a service app's sign-in)": (ctx) => openSignIn(ctx, '/login', 'service-app'),
    '/login?interaction=uid-1 after a restart for this browser': (ctx) => openSignIn(ctx, '/login', 'rebound'),
    '/login opened directly (no interaction)': async (ctx) => {
      // the authorization start waits (its /api/config held) until the next step says how it ends
      await holdConfigAfterBoot(ctx);
      await ctx.page.goto('/login');
      await expect(screenRoot(ctx.page, 'screen:login.redirecting')).toBeVisible();
      await expect.poll(() => world(ctx).held.length).toBeGreaterThan(0);
    },
    '/expired-password without a sign-in': async (ctx) => {
      await ctx.page.goto('/expired-password');
    },
  },
  steps: Object.fromEntries(
    Object.entries({ ...steps, ...passkeySteps }).map(([key, run]): [string, DriverFn] => [
      key,
      async (ctx) => {
        const stale = key.startsWith('startAuthorization') ? [] : releaseHolds(ctx);
        await run(ctx);
        for (const h of stale) await h.route.abort('aborted').catch(() => {});
      },
    ]),
  ),
  screens: { ...screens, ...passkeyScreens },
  finish: async (ctx) => {
    const w = world(ctx);
    if (w.requiredRole) dropPasskeyRequirement(w.requiredRole);
    // the browser was sent to the provider: follow it and check where it lands. The page may still be on its way
    // there when the last step returns; wait for it: a context closed with a navigation still being intercepted
    // hung Chromium's teardown for the whole test timeout (login-01, login-08: "Tearing down "context" exceeded")
    if (ctx.testCase.steps.at(-1)?.state === 'leaving') {
      await expect.poll(() => w.heldNavigation.length, { message: 'the page goes to the provider' }).toBeGreaterThan(0);
    }
    const sentTo = w.heldNavigation.at(-1);
    await ctx.page.unrouteAll({ behavior: 'ignoreErrors' });
    if (sentTo && ctx.testCase.steps.at(-1)?.state === 'leaving') {
      await ctx.page.goto(sentTo);
      if (ctx.testCase.steps.at(-1)?.key === 'startAuthorization succeeds') {
        // a new sign-in: the provider sends the browser back with an interaction
        await expect(ctx.page).toHaveURL(/\/login\?interaction=/);
      } else {
        await expect(ctx.page).toHaveURL(w.admin ? /\/admin\/dashboard/ : (url) => !/^\/(admin\/)?login$|^\/oidc\//.test(url.pathname));
        await expect(ctx.page.getByRole('heading', { level: 1 })).toBeVisible();
      }
    }
    // wrong passwords and codes count against the address too: the next case starts clean
    withDb((db) => db.prepare("DELETE FROM rate_counters WHERE key LIKE 'ip:%'").run());
  },
};
