/**
 * Browser driver of the two-factor setup (machines/twoFactorSetup.qa.ts; interface in ./driver.ts), against the
 * real server: a fresh user per case (admin API + invitation link), signed in through the UI, on /profile.
 * TOTP codes are computed from the key the screen shows (otpauth), SMS codes come from the outbox (sms.log), the
 * SPA's 60 s resend cooldown runs on Playwright's clock, the server's 30 s SMS window is arranged in the SQLite
 * file (rate_counters), a network failure is `route.abort()`, and a step whose answer the path never takes
 * (a user event at the end of a path) holds its request until the case ends.
 */
import { expect, type Locator, type Page, type Route } from '@playwright/test';
import * as OTPAuth from 'otpauth';
import { apiToken, createUserWithPassword, fillCredentials, gotoSignIn, nextSmsCode, smsTo, superAdminToken, typeCode, withDb } from '../helpers';
import type { DriverContext, DriverFn, MachineDriver } from './driver';

const PASSWORD = 'Two-Factor-Passw0rd!';
const PHONE_PREFIX = '+41791';

interface World {
  email: string;
  password: string;
  accountId: string;
  phone: string | null;
  method: 'GOOGLE' | 'SMS' | null;
  secret: string | null;
  /** The last TOTP step the server accepted (codes of that step or earlier are replays). */
  lastStep: number;
  smsCode: string | null;
  held: Route[];
}

const world = (ctx: DriverContext): World => ctx.world as unknown as World;
const section = (page: Page): Locator => page.locator('section[aria-labelledby="two-factor-heading"]');

let adminToken: { value: string; at: number } | null = null;

/** The bootstrap super_admin's bearer, signed in once per worker (tokens live 10 minutes; renewed after 5). */
async function superAdmin(ctx: DriverContext): Promise<string> {
  if (adminToken && Date.now() - adminToken.at < 5 * 60_000) return adminToken.value;
  const browser = ctx.context.browser();
  if (!browser) throw new Error('no browser');
  adminToken = { value: await superAdminToken(browser), at: Date.now() };
  return adminToken.value;
}

const totp = (secret: string) => new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(secret), digits: 6, period: 30 });
const stepNow = () => Math.floor(Date.now() / 30_000);

/** A code the server takes: the first step after the last one used, within its ±1 step window. */
function freshTotp(w: World): string {
  if (!w.secret) throw new Error('no authenticator key yet');
  const step = Math.max(stepNow(), w.lastStep + 1);
  w.lastStep = step;
  return totp(w.secret).generate({ timestamp: step * 30_000 + 1_000 });
}

/** Six digits that are none of the codes the server could take now. */
function wrongCode(w: World): string {
  const taken = new Set<string>();
  if (w.secret) for (const d of [-1, 0, 1]) taken.add(totp(w.secret).generate({ timestamp: Date.now() + d * 30_000 }));
  if (w.smsCode) taken.add(w.smsCode);
  for (const candidate of ['000000', '111111', '222222', '333333']) if (!taken.has(candidate)) return candidate;
  throw new Error('unreachable');
}

/** The server's SMS windows of this account: the 30 s resend window of `purpose` and the hourly count. */
export function smsWindow(w: { accountId: string }, purpose: 'sms_enable' | 'sms_disable', open: boolean): void {
  withDb((db) => {
    db.prepare('delete from rate_counters where key in (?, ?)').run(`rate:sms30:${purpose}:${w.accountId}`, `rate:smsh:${w.accountId}`);
    if (!open) db.prepare('insert into rate_counters (key, count, reset_at, locked_until) values (?, 1, ?, 0)').run(`rate:sms30:${purpose}:${w.accountId}`, Date.now() + 30_000);
  });
}

/** Requests to `path` wait until the case ends (the path stops before their answer). */
async function hold(ctx: DriverContext, path: string): Promise<void> {
  await ctx.page.route(`**${path}`, (route) => {
    world(ctx).held.push(route);
  });
}

async function fail(ctx: DriverContext, path: string): Promise<void> {
  await ctx.page.route(`**${path}`, (route) => route.abort('internetdisconnected'), { times: 1 });
}

async function submitCode(page: Page, code: string, button: 'Turn on' | 'Turn off two-factor authentication'): Promise<void> {
  await typeCode(page, code);
  await section(page).getByRole('button', { name: button }).click();
}

async function sendSms(ctx: DriverContext, button: 'Set up SMS' | 'Resend code' | 'Send code by SMS'): Promise<void> {
  const w = world(ctx);
  const before = smsTo(w.phone ?? '').length;
  await section(ctx.page).getByRole('button', { name: button }).click();
  w.smsCode = (await nextSmsCode(w.phone ?? '', before)).code;
}

/**
 * A fresh user signed in on /profile: with a phone, with two-factor already on (`authenticator`: by app; `sms`: by SMS,
 * the code from the outbox; both through the API), or neither. Also the start of the disableCode walk.
 */
export async function startCase(ctx: DriverContext, options: { phone: boolean; authenticator?: boolean; sms?: boolean }): Promise<void> {
  const { page } = ctx;
  const id = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
  const w: World = {
    email: `twofactor.${id}@example.com`,
    password: PASSWORD,
    accountId: '',
    phone: options.phone ? `${PHONE_PREFIX}${String(Date.now()).slice(-6)}` : null,
    method: null,
    secret: null,
    lastStep: 0,
    smsCode: null,
    held: [],
  };
  Object.assign(ctx.world, w);
  await createUserWithPassword(ctx.request, await superAdmin(ctx), { email: w.email, first: 'Tess', last: 'Factor', password: w.password, ...(w.phone ? { phone: w.phone } : {}) });
  world(ctx).accountId = withDb((db) => (db.prepare('select id from accounts where email = ?').get(w.email) as { id: string }).id);
  // the SPA's resend cooldown runs on this clock (fastForward), everything else on real time
  await page.clock.install();
  await gotoSignIn(page, '/login');
  await expect(page).toHaveURL(/\/login\?interaction=/);
  await fillCredentials(page, w.email, w.password);
  await expect(page.getByRole('heading', { level: 1, name: 'Welcome, Tess!' })).toBeVisible();
  const headers = { Authorization: `Bearer ${await apiToken(page)}` };
  if (options.authenticator) {
    // on through the API with the previous step's code, so the browser's codes of this step are no replays
    const created = await ctx.request.post('/api/2fa/google/secret', { headers });
    expect(created.ok(), await created.text()).toBeTruthy();
    const secret = ((await created.json()) as { data: { secret: string } }).data.secret;
    const step = stepNow() - 1;
    const enabled = await ctx.request.post('/api/2fa/google/enable', { headers, data: { one_time_password: totp(secret).generate({ timestamp: step * 30_000 + 1_000 }) } });
    expect(enabled.ok(), await enabled.text()).toBeTruthy();
    Object.assign(world(ctx), { secret, lastStep: step, method: 'GOOGLE' });
  }
  if (options.sms && w.phone) {
    smsWindow(world(ctx), 'sms_enable', true);
    const before = smsTo(w.phone).length;
    const sent = await ctx.request.post('/api/2fa/sms/send', { headers });
    expect(sent.ok(), await sent.text()).toBeTruthy();
    const { code } = await nextSmsCode(w.phone, before);
    const enabled = await ctx.request.post('/api/2fa/sms/enable', { headers, data: { one_time_password: code } });
    expect(enabled.ok(), await enabled.text()).toBeTruthy();
    world(ctx).method = 'SMS';
  }
  await page.goto('/profile');
  await expect(section(page)).toBeVisible();
}

const disable: (how: 'right' | 'wrong' | 'held') => DriverFn = (how) => async (ctx) => {
  const { page } = ctx;
  const w = world(ctx);
  const byPassword = ctx.events.some((e) => (e as { password?: unknown }).password !== undefined);
  if (how === 'held') await hold(ctx, '/api/2fa/disable');
  if (byPassword) {
    await section(page).getByRole('radio', { name: 'Password', exact: true }).check();
    await section(page).locator('input[name="disable_password"]').fill(how === 'wrong' ? `${w.password}-wrong` : w.password);
    await section(page).getByRole('button', { name: 'Turn off two-factor authentication' }).click();
    return;
  }
  // the section keeps the last choice: an earlier turn-off may have chosen "Password"
  await section(page).getByRole('radio', { name: 'One time password', exact: true }).check();
  let code = wrongCode(w);
  if (how === 'right' && w.method === 'GOOGLE') code = freshTotp(w);
  if (how === 'right' && w.method === 'SMS') {
    smsWindow(w, 'sms_disable', true);
    await sendSms(ctx, 'Send code by SMS');
    code = w.smsCode ?? '';
  }
  await submitCode(page, code, 'Turn off two-factor authentication');
};

/** Steps after which the section must show an error (true) or none (false); undefined: whatever was there stays. */
function errorExpected(ctx: DriverContext): boolean | undefined {
  const key = ctx.step?.key ?? '';
  if (/ fails /.test(key) || (key === 'CHOOSE_SMS' && world(ctx).phone === null)) return true;
  if (key.endsWith(' succeeds') || ['start', 'ACKNOWLEDGE', 'CANCEL', 'PHONE_UPDATED', 'after smsResendCooldown'].includes(key)) return false;
  return undefined;
}

async function alertState(ctx: DriverContext): Promise<void> {
  const alert = section(ctx.page).getByRole('alert');
  const expected = errorExpected(ctx);
  if (expected === true) await expect(alert.first()).toBeVisible();
  if (expected === false) await expect(alert).toHaveCount(0);
}

export const twoFactorSetupDriver: MachineDriver = {
  machine: 'twoFactorSetup',
  start: {
    '2FA off, phone set': (ctx) => startCase(ctx, { phone: true, authenticator: false }),
    '2FA off, no phone': (ctx) => startCase(ctx, { phone: false, authenticator: false }),
    '2FA on (authenticator)': (ctx) => startCase(ctx, { phone: false, authenticator: true }),
  },
  steps: {
    start: async ({ page }) => {
      await section(page).scrollIntoViewIfNeeded();
    },
    PHONE_UPDATED: async (ctx) => {
      const w = world(ctx);
      w.phone = `${PHONE_PREFIX}${String(Date.now()).slice(-6)}`;
      await ctx.page.getByRole('textbox', { name: 'Phone' }).fill(w.phone);
      await ctx.page.getByRole('button', { name: 'Save changes' }).click();
      await expect(section(ctx.page)).toContainText(`Codes by text message to ${w.phone}.`);
    },
    CHOOSE_AUTHENTICATOR: async (ctx) => {
      await hold(ctx, '/api/2fa/google/secret');
      await section(ctx.page).getByRole('button', { name: 'Set up authenticator app' }).click();
    },
    'createSecret succeeds': async (ctx) => {
      await section(ctx.page).getByRole('button', { name: 'Set up authenticator app' }).click();
      const key = ctx.page.getByTestId('totp-secret');
      await expect(key).toBeVisible();
      Object.assign(world(ctx), { secret: (await key.textContent())?.trim() ?? null, lastStep: 0 });
    },
    'createSecret fails network': async (ctx) => {
      await fail(ctx, '/api/2fa/google/secret');
      await section(ctx.page).getByRole('button', { name: 'Set up authenticator app' }).click();
    },
    CHOOSE_SMS: async (ctx) => {
      if (world(ctx).phone) await hold(ctx, '/api/2fa/sms/send');
      await section(ctx.page).getByRole('button', { name: 'Set up SMS' }).click();
    },
    'sendSmsCode succeeds': async (ctx) => {
      smsWindow(world(ctx), 'sms_enable', true);
      await sendSms(ctx, 'Set up SMS');
    },
    'sendSmsCode fails too_many_requests': async (ctx) => {
      smsWindow(world(ctx), 'sms_enable', false);
      await section(ctx.page).getByRole('button', { name: 'Set up SMS' }).click();
    },
    SUBMIT_CODE: async (ctx) => {
      const authenticator = (await section(ctx.page).getAttribute('data-screen')) === 'screen:2fa.authenticator';
      await hold(ctx, authenticator ? '/api/2fa/google/enable' : '/api/2fa/sms/enable');
      await submitCode(ctx.page, wrongCode(world(ctx)), 'Turn on');
    },
    'enableAuthenticator succeeds': async (ctx) => {
      await submitCode(ctx.page, freshTotp(world(ctx)), 'Turn on');
      world(ctx).method = 'GOOGLE';
    },
    'enableAuthenticator fails otp_invalid': (ctx) => submitCode(ctx.page, wrongCode(world(ctx)), 'Turn on'),
    'enableSms succeeds': async (ctx) => {
      await submitCode(ctx.page, world(ctx).smsCode ?? '', 'Turn on');
      world(ctx).method = 'SMS';
    },
    'enableSms fails otp_invalid': (ctx) => submitCode(ctx.page, wrongCode(world(ctx)), 'Turn on'),
    'after smsResendCooldown': async ({ page }) => {
      await page.clock.fastForward(61_000);
    },
    RESEND_CODE: async (ctx) => {
      await hold(ctx, '/api/2fa/sms/resend');
      await section(ctx.page).getByRole('button', { name: 'Resend code' }).click();
    },
    'resendSmsCode succeeds': async (ctx) => {
      smsWindow(world(ctx), 'sms_enable', true);
      await sendSms(ctx, 'Resend code');
    },
    'resendSmsCode fails too_many_requests': async (ctx) => {
      smsWindow(world(ctx), 'sms_enable', false);
      await section(ctx.page).getByRole('button', { name: 'Resend code' }).click();
    },
    CANCEL: async ({ page }) => {
      await section(page).getByRole('button', { name: 'Cancel' }).click();
    },
    ACKNOWLEDGE: async ({ page }) => {
      await section(page).getByRole('button', { name: 'I have saved my codes' }).click();
    },
    'DISABLE one-time-password': disable('held'),
    'DISABLE password': disable('held'),
    'disableTwoFactor succeeds': async (ctx) => {
      await disable('right')(ctx);
      Object.assign(world(ctx), { method: null, secret: null });
    },
    'disableTwoFactor fails otp_invalid': disable('wrong'),
    'disableTwoFactor fails validation_failed': disable('wrong'),
  },
  screens: {
    'screen:2fa.off': async (ctx) => {
      const s = section(ctx.page);
      await expect(s).toHaveAttribute('data-screen', 'screen:2fa.off');
      await expect(s.getByRole('button', { name: 'Set up authenticator app' })).toBeVisible();
      await expect(s.getByRole('button', { name: 'Set up SMS' })).toBeVisible();
      await alertState(ctx);
      if (ctx.step?.key === 'CHOOSE_SMS' && world(ctx).phone === null) await expect(s.getByRole('alert')).toHaveText('Add a phone number to your profile first');
    },
    'screen:2fa.authenticator': async (ctx) => {
      const s = section(ctx.page);
      await expect(s).toHaveAttribute('data-screen', 'screen:2fa.authenticator');
      await expect(s.getByRole('img', { name: 'QR code for your authenticator app' })).toBeVisible();
      await expect(ctx.page.getByTestId('totp-secret')).toHaveText(/^[A-Z2-7]{16,}$/);
      await expect(s.getByRole('button', { name: 'Turn on' })).toBeVisible();
      await alertState(ctx);
      if (ctx.step?.key.endsWith('fails otp_invalid')) await expect(s.getByRole('alert')).toHaveText('One time password is invalid');
    },
    'screen:2fa.sms-code': async (ctx) => {
      const s = section(ctx.page);
      await expect(s).toHaveAttribute('data-screen', 'screen:2fa.sms-code');
      await expect(s).toContainText(`We sent a 6-digit code to ${world(ctx).phone ?? ''}.`);
      const state = ctx.step?.state ?? '';
      if (state === 'sms.code.ready') await expect(s.getByRole('button', { name: 'Resend code' })).toBeEnabled();
      else if (state === 'sms.code.cooldown') await expect(s.getByRole('button', { name: 'Resend available in a minute' })).toBeDisabled();
      else await expect(s.getByRole('button', { name: /^Resend/ })).toBeDisabled();
      await alertState(ctx);
    },
    'screen:2fa.recovery-codes': async ({ page }) => {
      const s = section(page);
      await expect(s).toHaveAttribute('data-screen', 'screen:2fa.recovery-codes');
      await expect(page.getByTestId('recovery-codes').getByRole('listitem')).toHaveCount(10);
      await expect(s.getByRole('button', { name: 'I have saved my codes' })).toBeVisible();
    },
    'screen:2fa.on': async (ctx) => {
      const s = section(ctx.page);
      await expect(s).toHaveAttribute('data-screen', 'screen:2fa.on');
      await expect(s).toContainText(world(ctx).method === 'SMS' ? 'On — codes by SMS' : 'On — authenticator app');
      await expect(s.getByRole('radio', { name: 'One time password' })).toBeVisible();
      await alertState(ctx);
    },
  },
  finish: async (ctx) => {
    for (const route of world(ctx).held ?? []) await route.abort().catch(() => undefined);
  },
};
