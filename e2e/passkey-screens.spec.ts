/**
 * The passkey screens (issue 33) at 360, 768 and 1440 px in en, de, fr and it, with the checks of the screens matrix
 * (e2e/screens.spec.ts): no horizontal overflow, no clipped text, no control that needs sideways scrolling, no
 * English catalog message on a de/fr/it page, no axe (WCAG 2.x A/AA) violation; a screenshot of each to
 * e2e/artifacts/screens/<lang>/<width>/passkey-*.png.
 *
 * The matrix runs on the e2e server's 127.0.0.1, where the web app offers no passkey (browsers refuse WebAuthn on an
 * IP address), so these screens have a server of their own on http://localhost (e2e/localhost-server.ts). Reached
 * as a person reaches them: sign in through the form, the profile from the account menu, "Add a passkey"; the
 * browser's prompt held open (e2e/paths/passkey-prompt.ts) and answered by Chromium's virtual authenticator; then
 * signed out, the sign-in page's passkey button, the passkey as the second factor, and an admin's required enrolment.
 */
import type { Page } from '@playwright/test';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from './fixtures';
import { createAdminWithPassword, createUserWithPassword, wcagViolations } from './helpers';
import { startLocalhostServer, type LocalhostServer } from './localhost-server';
import { answerPrompt, attachDevice, prepareContext, updatePolicy, waitForPrompt } from './paths/passkey-prompt';
import { auditPage } from './screens/audit';
import { LANGS, tr, untranslatedMessage, type ScreenLang } from './screens/catalog';

const WIDTHS = [360, 768, 1440] as const;
const HEIGHTS: Record<(typeof WIDTHS)[number], number> = { 360: 780, 768: 1024, 1440: 900 };
const OUT = 'e2e/artifacts/screens';
const ADMIN = { email: 'passkey.screens.admin@example.com', password: 'Passkey-Screens-Admin-Passw0rd!' };
const PASSWORD = 'Passkey-Screens-Passw0rd!x';
const RUN = Date.now().toString(36);
const userOf = (lang: ScreenLang) => ({ email: `passkey.screens.${lang}.${RUN}@example.com`, first: 'Beatrice', last: 'Cavendish-Bentinck', password: PASSWORD, locale: lang });
const adminOf = (lang: ScreenLang) => ({ email: `passkey.screens.admin.${lang}.${RUN}@example.com`, first: 'Greta', last: 'Lindqvist-Moreau', password: PASSWORD, locale: lang });

let server: LocalhostServer;

test.use({ trace: 'off' });
test.describe.configure({ mode: 'serial' });

test.beforeAll(async ({ browser }) => {
  test.setTimeout(240_000);
  server = await startLocalhostServer('passkey-screens', ADMIN);
  const token = await server.adminToken(browser);
  await server.withOutbox(async () => {
    for (const lang of LANGS) {
      await createUserWithPassword(server.api, token, userOf(lang));
      await createAdminWithPassword(server.api, token, adminOf(lang));
    }
    // every admin must have a passkey: the admins above enrol at their next sign-in
    updatePolicy((policy) => ({ ...policy, admins: 'passkey' }));
  });
});

test.afterAll(async () => {
  await server?.close();
});

async function settled(page: Page): Promise<void> {
  await page.evaluate(() => document.fonts.ready.then(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)))));
}

/** The matrix's checks of the page as it is now, at every width; axe at one width (rotating with the language). */
async function checkScreen(page: Page, lang: ScreenLang, screen: string, problems: string[]): Promise<void> {
  const axeWidth = WIDTHS[(LANGS.indexOf(lang) + screen.length) % WIDTHS.length];
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: HEIGHTS[width] });
    await page.waitForFunction((w) => window.innerWidth === w, width);
    await settled(page);
    const label = `${lang} ${width}px ${screen}`;
    const audit = await page.evaluate(auditPage);
    for (const o of audit.overflow) problems.push(`${label}: horizontal overflow: ${o}`);
    for (const c of audit.clipped) problems.push(`${label}: clipped text: ${c}`);
    for (const h of audit.hiddenControls) problems.push(`${label}: control needs sideways scrolling: ${h}`);
    if (lang !== 'en') for (const text of audit.texts) if (untranslatedMessage(lang, text)) problems.push(`${label}: untranslated: "${text}"`);
    if (width === axeWidth) for (const v of await wcagViolations(page)) problems.push(`${label}: axe ${v.id} (${v.impact}): ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).slice(0, 3).join(', ')}`);
    const dir = join(OUT, lang, String(width));
    mkdirSync(dir, { recursive: true });
    await page.screenshot({ path: join(dir, `${screen}.png`), fullPage: true });
  }
  await page.setViewportSize({ width: 1440, height: HEIGHTS[1440] });
}

/** The sign-in form, filled and sent (any language: found by field type). */
async function submitPassword(page: Page, account: { email: string; password: string }): Promise<void> {
  await page.getByRole('textbox', { name: /e-mail/i }).fill(account.email);
  await page.locator('input[type=password]').fill(account.password);
  await page.locator('button[type=submit]').click();
}

/** This browser forgets its session (tokens and cookies), as after a sign-out. */
async function signOut(page: Page): Promise<void> {
  await page.evaluate(() => window.localStorage.removeItem('token'));
  await page.context().clearCookies();
}

for (const lang of LANGS) {
  test(`the passkey screens in ${lang} at 360, 768 and 1440 px`, async ({ browser }) => {
    test.setTimeout(300_000);
    const problems: string[] = [];
    const context = await browser.newContext({ baseURL: server.origin, viewport: { width: 1440, height: HEIGHTS[1440] } });
    await prepareContext(context);
    const page = await context.newPage();
    await attachDevice(page);
    const user = userOf(lang);

    // the profile's card, its name step, the browser's prompt, "Passkey added"
    await page.goto('/login');
    await expect(page).toHaveURL(/\/login\?interaction=/);
    await submitPassword(page, user);
    await expect(page).toHaveURL((url) => url.pathname === '/');
    await page.getByRole('button', { name: tr(lang, 'Account menu') }).click();
    await page.getByRole('menuitem', { name: tr(lang, 'Profile') }).click();
    const card = page.locator('section[aria-labelledby="passkeys"]');
    await card.scrollIntoViewIfNeeded();
    await checkScreen(page, lang, 'passkey-profile-card', problems);
    await card.getByRole('button', { name: tr(lang, 'Add a passkey') }).click();
    await expect(page.locator('[data-screen="screen:passkey-add.name"]')).toBeVisible();
    await checkScreen(page, lang, 'passkey-profile-name', problems);
    await page.locator('[data-screen="screen:passkey-add.name"] button[type=submit]').click();
    await waitForPrompt(page, 'create');
    await checkScreen(page, lang, 'passkey-profile-prompt', problems);
    await answerPrompt(page, 'create', 'forward', 'answered');
    await expect(page.locator('[data-screen="screen:passkey-add.added"]')).toBeVisible();
    await checkScreen(page, lang, 'passkey-profile-added', problems);

    // signed out: the sign-in form with its passkey button, and "Sign in with a passkey" while the browser asks
    await signOut(page);
    await page.goto('/login');
    await expect(page).toHaveURL(/\/login\?interaction=/);
    await expect(page.getByRole('button', { name: tr(lang, 'Sign in with a passkey') })).toBeVisible();
    await checkScreen(page, lang, 'passkey-sign-in-form', problems);
    await page.getByRole('button', { name: tr(lang, 'Sign in with a passkey') }).click();
    await waitForPrompt(page, 'get');
    await expect(page.locator('[data-screen="screen:login.passkey"]')).toBeVisible();
    await checkScreen(page, lang, 'passkey-sign-in-prompt', problems);
    await page.locator('[data-screen="screen:login.passkey"]').getByRole('button', { name: tr(lang, 'Cancel') }).click();

    // the password, then the passkey as the second factor
    await submitPassword(page, user);
    await expect(page.locator('[data-screen="screen:login.two-factor-passkey"]')).toBeVisible();
    await checkScreen(page, lang, 'passkey-second-factor', problems);

    // an admin whose organization requires a passkey: "Add a passkey to continue"
    await signOut(page);
    const admin = adminOf(lang);
    await page.goto('/admin/login');
    await expect(page).toHaveURL(/\/admin\/login\?interaction=/);
    await submitPassword(page, admin);
    await expect(page.locator('[data-screen="screen:login.passkey-enrolment"]')).toBeVisible();
    await checkScreen(page, lang, 'passkey-enrolment', problems);

    await context.close();
    expect(problems, problems.join('\n')).toEqual([]);
  });
}
