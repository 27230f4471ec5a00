/**
 * Shared helpers of the e2e specs (outbox mail and SMS, sign-in, axe, screenshots, codes).
 */
import AxeBuilder from '@axe-core/playwright';
import { expect, type APIRequestContext, type Browser, type Page } from '@playwright/test';
import Database from 'better-sqlite3';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import * as OTPAuth from 'otpauth';

export const ARTIFACTS = 'e2e/artifacts';
export const ADMIN = { email: 'admin@example.com', password: 'Admin-Passw0rd!x' } as const;
export type Lang = 'en' | 'de';

export function dataDir(): string {
  const dir = process.env.E2E_DATA_DIR;
  if (!dir) throw new Error('E2E_DATA_DIR not set (playwright.config.ts sets it)');
  return dir;
}

export const outboxDir = (): string => join(dataDir(), 'outbox');

/** The first link matching `link` in the newest mail to `to` that has one. */
export async function linkFromOutbox(to: string, link: RegExp): Promise<string> {
  let found: string | undefined;
  await expect
    .poll(
      () => {
        let files: string[] = [];
        try {
          files = readdirSync(outboxDir()).filter((f) => f.endsWith('.eml'));
        } catch {
          return undefined;
        }
        for (const file of files.sort().reverse()) {
          const raw = readFileSync(join(outboxDir(), file), 'utf8');
          if (!raw.toLowerCase().includes(to.toLowerCase())) continue;
          // quoted-printable soft line breaks and escapes
          const text = raw.replace(/=\r?\n/g, '').replace(/=3D/g, '=');
          const match = link.exec(text);
          if (match) return (found = match[0].replace(/&amp;/g, '&'));
        }
        return undefined;
      },
      { timeout: 15_000 },
    )
    .toBeTruthy();
  if (!found) throw new Error(`no link for ${to}`);
  return found;
}

export interface SmsLine {
  to: string;
  body: string;
  at: string;
}

/** Every SMS the server's `log` provider wrote to `to`, oldest first. */
export function smsTo(to: string): SmsLine[] {
  const file = join(outboxDir(), 'sms.log');
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as SmsLine)
    .filter((sms) => sms.to === to);
}

/** Waits for an SMS to `to` newer than `after` (count of earlier ones) and returns its 6-digit code. */
export async function nextSmsCode(to: string, after: number): Promise<{ code: string; at: number }> {
  let result: { code: string; at: number } | undefined;
  await expect
    .poll(
      () => {
        const all = smsTo(to);
        if (all.length <= after) return undefined;
        const last = all[all.length - 1];
        if (!last) return undefined;
        const code = /\b(\d{6})\b/.exec(last.body)?.[1];
        if (!code) return undefined;
        result = { code, at: Date.parse(last.at) };
        return code;
      },
      { timeout: 15_000 },
    )
    .toBeTruthy();
  if (!result) throw new Error(`no SMS to ${to}`);
  return result;
}

/** Runs `fn` on the e2e SQLite database (the server keeps it open; WAL and a busy timeout make this safe). */
export function withDb<T>(fn: (db: Database.Database) => T): T {
  const db = new Database(join(dataDir(), 'iam.sqlite'));
  try {
    db.pragma('busy_timeout = 5000');
    return fn(db);
  } finally {
    db.close();
  }
}

export async function axe(page: Page, name: string): Promise<void> {
  const results = await new AxeBuilder({ page }).analyze();
  const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(serious.map((v) => `${name}: ${v.id} ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`)).toEqual([]);
}

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

export interface AxeViolation {
  id: string;
  impact?: string | null;
  help: string;
  nodes: Array<{ target: unknown[] }>;
}

/**
 * axe-core's WCAG 2.x A and AA rules (what @axe-core/playwright's AxeBuilder runs) on the page as it is: the script goes
 * into a document once (the SPA keeps its document, so a screen's several widths or a journey's steps inject it once),
 * only violations come back.
 */
export async function wcagViolations(page: Page): Promise<AxeViolation[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE_SOURCE);
  return page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (ctx: Document, options: object) => Promise<{ violations: AxeViolation[] }> } }).axe;
    const result = await axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] }, resultTypes: ['violations'] });
    return result.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map((n) => ({ target: n.target })) }));
  });
}

export async function shot(page: Page, name: string, lang: Lang = 'en'): Promise<void> {
  await page.waitForTimeout(200);
  await page.screenshot({ path: `${ARTIFACTS}/${name}-${lang}.png`, fullPage: true });
}

export async function setLanguage(page: Page, label: 'Deutsch' | 'English'): Promise<void> {
  await page.getByRole('combobox', { name: /Language|Sprache/ }).first().click();
  await page.getByRole('option', { name: label }).click();
}

/** The sign-in form's labels per language: a browser's first visit shows the page in its own language (issue 29). */
const SIGN_IN_FORM = {
  en: { password: /^password/i, submit: 'Sign in' },
  de: { password: /^passwort(?! anzeigen)/i, submit: 'Anmelden' },
} as const;

export async function fillCredentials(page: Page, email: string, password: string, lang: keyof typeof SIGN_IN_FORM = 'en'): Promise<void> {
  const form = SIGN_IN_FORM[lang];
  await page.getByRole('textbox', { name: /e-mail/i }).fill(email);
  await page.getByLabel(form.password).fill(password);
  await page.getByRole('button', { name: form.submit, exact: true }).click();
}

/**
 * The shared admin's saved language wins at sign-in (issue 14): a spec that switches the console's language saves it in
 * the admin's profile, and every later spec would sign in to that language. Specs that switch give English back with this.
 */
export function restoreAdminLanguage(): void {
  withDb((db) => db.prepare("UPDATE accounts SET locale = 'en' WHERE type = 'admin' AND email_normalized = ?").run(ADMIN.email.toLowerCase()));
}

/**
 * Opens a sign-in page, which leaves for the provider at once and comes back with `?interaction=`: waits for the commit
 * only (its 'load' may be cut short). The page already open may navigate at the same moment (its session machine
 * reacting to cleared cookies or to another tab's storage) and abort this navigation before it commits
 * (net::ERR_ABORTED, seen in the session walk at load 18; "interrupted by another navigation", session-token-removed-elsewhere
 * at load 29): then its navigation is let settle and the page opened once
 * more. The caller asserts where it lands.
 */
export async function gotoSignIn(page: Page, path: '/login' | '/admin/login'): Promise<void> {
  // The page's own navigation can win more than once in a row (its session machine's redirect to the sign-in page,
  // then that page's redirect to the provider's authorization, seen in CI's walks-1 at its start: "interrupted by
  // another navigation" on the second try): up to three tries, each after the page's navigation settled.
  for (let attempt = 1; ; attempt++) {
    try {
      await page.goto(path, { waitUntil: 'commit' });
      return;
    } catch (err) {
      // Playwright says either; the page's own navigation (often to this very sign-in page) won
      if (attempt >= 3 || !/net::ERR_ABORTED|is interrupted by another navigation/.test(String(err))) throw err;
      await page.waitForLoadState('domcontentloaded').catch(() => undefined);
    }
  }
}

export async function adminSignIn(page: Page, creds: { email: string; password: string } = ADMIN): Promise<void> {
  await gotoSignIn(page, '/admin/login');
  await expect(page).toHaveURL(/\/admin\/login\?interaction=/);
  await fillCredentials(page, creds.email, creds.password);
  await expect(page).toHaveURL(/\/admin\/dashboard/);
}

export async function userSignIn(page: Page, email: string, password: string): Promise<void> {
  await gotoSignIn(page, '/login');
  await expect(page).toHaveURL(/\/login\?interaction=/);
  await fillCredentials(page, email, password);
}

/** The SPA's access token (localStorage `token`). */
export async function apiToken(page: Page): Promise<string> {
  const raw = await page.evaluate(() => window.localStorage.getItem('token'));
  return (JSON.parse(raw ?? '{}') as { access_token: string }).access_token;
}

/** The bootstrap super_admin's access token, from a throwaway browser context. */
export async function superAdminToken(browser: Browser): Promise<string> {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    await adminSignIn(page);
    return await apiToken(page);
  } finally {
    await context.close();
  }
}

/**
 * Codes of an authenticator key as the server takes them one after another: each call gives the code of the first
 * 30 s step after the one given last, not earlier than the current step. The server accepts the current step ±1 and
 * refuses a step at or before the last one it accepted (replay), so a second code within the same step is the next
 * step's code, taken at once, instead of a wait of up to 30 s for the clock to reach it.
 */
export function totpFromSecret(secret: string): () => string {
  const generator = new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(secret), digits: 6, period: 30 });
  let last = -Infinity;
  return () => {
    const now = generator.counter();
    const step = Math.max(now, last + 1);
    // beyond now + 1 the server would refuse it: a third code within one step needs a real wait
    if (step > now + 1) throw new Error(`TOTP step ${step} is past the server's window (now ${now})`);
    last = step;
    return generator.generate({ timestamp: step * 30_000 + 1_000 });
  };
}

export async function typeCode(page: Page, code: string): Promise<void> {
  const first = page.getByRole('textbox', { name: /^(Digit|Ziffer) 1 (of|von) 6$/ }).first();
  await first.click();
  await page.keyboard.type(code);
}

export interface NewUser {
  email: string;
  first: string;
  last: string;
  password: string;
  phone?: string;
  /** The account's saved language (default en). */
  locale?: 'en' | 'de' | 'fr' | 'it';
}

/** Creates a user through the admin API and sets the password through the invitation link (API, no UI). */
export async function createUserWithPassword(request: APIRequestContext, adminToken: string, user: NewUser): Promise<void> {
  const created = await request.post('/api/admin/users', {
    headers: { Authorization: `Bearer ${adminToken}` },
    data: { email: user.email, first_name: user.first, last_name: user.last, locale: user.locale ?? 'en', auth_type: 'CREDENTIALS', ...(user.phone ? { phone: user.phone } : {}) },
  });
  expect(created.ok(), await created.text()).toBeTruthy();
  const invitation = await linkFromOutbox(user.email, /https?:\/\/[^\s"<>]+\/verify\/user\?url=[^\s"<>]+/);
  const url = new URL(invitation).searchParams.get('url');
  const verified = await request.post('/api/user/verify', { data: { url, password: user.password, password_confirmation: user.password } });
  expect(verified.ok(), await verified.text()).toBeTruthy();
}

/** Creates a super_admin through the admin API and sets its password through the invitation link (API, no UI). */
export async function createAdminWithPassword(request: APIRequestContext, adminToken: string, admin: NewUser): Promise<void> {
  const created = await request.post('/api/admin/admins', {
    headers: { Authorization: `Bearer ${adminToken}` },
    data: { email: admin.email, first_name: admin.first, last_name: admin.last, role: 'super_admin', locale: admin.locale ?? 'en' },
  });
  expect(created.ok(), await created.text()).toBeTruthy();
  const invitation = await linkFromOutbox(admin.email, /https?:\/\/[^\s"<>]+\/verify\/admin\?url=[^\s"<>]+/);
  const url = new URL(invitation).searchParams.get('url');
  const verified = await request.post('/api/admin/verify', { data: { url, password: admin.password, password_confirmation: admin.password } });
  expect(verified.ok(), await verified.text()).toBeTruthy();
}

export async function toast(page: Page, text: string | RegExp): Promise<void> {
  await expect(page.locator('[data-scope="toast"][data-part="root"]').filter({ hasText: text }).first()).toBeVisible();
}

/**
 * Every page of the context starts with `lang` saved as the SPA's language (localStorage `locale`). The init script
 * runs in every document, about:blank too, where reading localStorage throws: only http(s) documents are touched,
 * so the guard sees no page error of the test's own making.
 */
export async function presetLocale(context: import('@playwright/test').BrowserContext, lang: string): Promise<void> {
  await context.addInitScript((l) => {
    if (window.location.protocol === 'http:' || window.location.protocol === 'https:') window.localStorage.setItem('locale', l);
  }, lang);
}
