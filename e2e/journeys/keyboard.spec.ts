/**
 * Keyboard journeys (issue 29, "Keyboard and screen-reader users"): after the first page.goto, a person moves with
 * the keyboard only — Tab, Shift+Tab, Enter, Space, arrows and typing; no click, no fill, no goto. The one
 * act that is not a key press is choosing the CSV file (`setInputFiles`), as a person does in the system's file
 * dialog. What a journey needs (accounts, an authenticator key) is set up through the API before it starts.
 *
 * After every in-place swap (the sign-in's password → two-factor step, the import dialog's check and outcome, the
 * two-factor set-up's steps) and every page change, focus must be on the new content's heading or first part
 * (src/lib/focus-after-swap.tsx) and document.title must be '<page> · IAM'. axe (WCAG 2.x A/AA) runs on every screen
 * the journeys pass through, and any violation fails. English, 1440 px.
 */
import type { APIRequestContext, Browser, Locator, Page } from '@playwright/test';
import { expect, test } from '../fixtures';
import { apiToken, superAdminToken, totpFromSecret, userSignIn, wcagViolations, type NewUser } from '../helpers';
import { createAdminAccount, createUserWithPassword, Journey, WIDTHS } from './journey';

const PASSWORD = 'Keyboard-Passw0rd!x';
const CSV_HEADER = 'email,first_name,last_name,locale,auth_type';
/** A fresh stamp per test run (and per repetition: every journey changes its account for good). */
const stamp = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 5)}`;
const newUser = (kind: string, first: string) => ({ email: `kbd.${kind}.${stamp()}@example.com`, first, last: 'Keys', password: PASSWORD, locale: 'en' as const });

/** The console's super_admin of this worker (made once; each journey signs in again, by keyboard). */
const ADMIN = { ...newUser('admin', 'Ada'), role: 'super_admin' as const };

/** The bootstrap super_admin's bearer for the set-up calls, signed in once per worker (renewed after 5 minutes). */
let bootstrap: { token: string; at: number } | null = null;
async function adminToken(browser: Browser): Promise<string> {
  if (!bootstrap || Date.now() - bootstrap.at > 5 * 60_000) bootstrap = { token: await superAdminToken(browser), at: Date.now() };
  return bootstrap.token;
}

test.beforeAll(async ({ browser, request }) => {
  test.setTimeout(90_000);
  await createAdminAccount(request, await adminToken(browser), ADMIN);
});

/**
 * An end user with two-factor on by authenticator app, set up through the API with the user's own token (from a
 * throwaway sign-in) before the journey: answers the user and its next codes (replays are refused).
 */
async function userWithAuthenticator(browser: Browser, request: APIRequestContext): Promise<{ user: NewUser; code: () => string }> {
  const user = newUser('totp', 'Kim');
  await createUserWithPassword(request, await adminToken(browser), user);
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    await userSignIn(page, user.email, user.password);
    await expect(page.getByRole('heading', { level: 1, name: `Welcome, ${user.first}!` })).toBeVisible();
    const headers = { Authorization: `Bearer ${await apiToken(page)}` };
    const created = await request.post('/api/2fa/google/secret', { headers });
    expect(created.ok(), await created.text()).toBeTruthy();
    const { secret } = ((await created.json()) as { data: { secret: string } }).data;
    const code = totpFromSecret(secret);
    const enabled = await request.post('/api/2fa/google/enable', { headers, data: { one_time_password: code() } });
    expect(enabled.ok(), await enabled.text()).toBeTruthy();
    return { user, code };
  } finally {
    await context.close();
  }
}

// ------------------------------------------------------------------------------------------------ keyboard helpers

const isFocused = (target: Locator) => target.evaluate((el) => el === document.activeElement).catch(() => false);

/** Presses Tab (or Shift+Tab) until `target` has focus; answers how many presses it took. */
async function tabTo(page: Page, target: Locator, options: { back?: boolean; max?: number } = {}): Promise<number> {
  const { back = false, max = 40 } = options;
  await expect(target).toBeVisible();
  const started = Date.now();
  for (let presses = 1; presses <= max; presses++) {
    await page.keyboard.press(back ? 'Shift+Tab' : 'Tab');
    if (await isFocused(target)) {
      if (process.env.JOURNEY_TIMING) console.log(`[tab] ${presses} presses to ${String(target)}: ${Date.now() - started} ms`);
      return presses;
    }
  }
  const active = await page.evaluate(() => document.activeElement?.outerHTML.slice(0, 200) ?? 'none');
  throw new Error(`${max} presses of ${back ? 'Shift+Tab' : 'Tab'} never reached ${String(target)} (focus on ${active})`);
}

/** Presses an arrow key until the menu item is highlighted (Ark's menus move a highlight, not always DOM focus). */
async function arrowTo(page: Page, item: Locator, key: 'ArrowDown' | 'ArrowUp' = 'ArrowDown', max = 12): Promise<void> {
  await expect(item).toBeVisible();
  for (let presses = 0; presses <= max; presses++) {
    if ((await item.getAttribute('data-highlighted')) !== null || (await isFocused(item))) return;
    await page.keyboard.press(key);
  }
  throw new Error(`${key} never highlighted ${String(item)}`);
}

/** Where focus must be after a swap or a page change, and the document's title. */
async function landed(page: Page, focus: Locator, title: string): Promise<void> {
  await expect(focus).toBeFocused();
  await expect(page).toHaveTitle(`${title} · IAM`);
}

/**
 * axe-core's WCAG 2.x A and AA rules on the screen at rest (wcagViolations, e2e/helpers.ts); any violation fails.
 */
async function axe(page: Page, screen: string): Promise<void> {
  const started = Date.now();
  // what it checks is the screen at rest: no list refetching (dimmed), no dialog or toast still fading in
  await expect(page.locator('[aria-busy="true"]')).toHaveCount(0);
  await page.evaluate(() => Promise.all(document.getAnimations().map((animation) => animation.finished.catch(() => undefined))));
  const violations = await wcagViolations(page);
  if (process.env.JOURNEY_TIMING) console.log(`[axe] ${screen}: ${Date.now() - started} ms`);
  expect(violations.map((v) => `${screen}: ${v.id} (${v.impact ?? '?'}) ${v.help}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
}

/** Types into the field that has focus, after checking it is the one meant. */
async function typeInto(page: Page, field: Locator, text: string): Promise<void> {
  await expect(field).toBeFocused();
  await page.keyboard.type(text);
}

/** The sign-in form by keyboard: Tab to the e-mail field, type, Tab to the password, type, Enter. */
async function signInByKeyboard(j: Journey, email: string, password: string, heading: 'Sign in' | 'Admin sign in'): Promise<void> {
  const { page } = j;
  await j.step('sign-in page', async () => {
    await j.heading(heading);
    await expect(page).toHaveTitle(`${heading} · IAM`);
    await axe(page, 'sign-in');
  });
  await j.step('credentials typed, Enter', async () => {
    const emailField = page.getByRole('textbox', { name: /e-mail/i });
    await tabTo(page, emailField);
    await typeInto(page, emailField, email);
    const passwordField = page.getByLabel(/^password/i);
    await tabTo(page, passwordField);
    await typeInto(page, passwordField, password);
    await page.keyboard.press('Enter');
  });
}

async function newJourney(browser: Browser, guard: import('../fixtures').Guard): Promise<Journey> {
  const context = await browser.newContext({ viewport: WIDTHS.desktop, locale: 'en-US' });
  return new Journey(await context.newPage(), 'en', guard, 'desktop');
}

const h1 = (page: Page, name: string | RegExp) => page.getByRole('heading', { level: 1, name });

// ------------------------------------------------------------------------------------------------ the journeys

test('keyboard: an end user signs in with an authenticator code', async ({ browser, request, guard }) => {
  test.setTimeout(120_000);
  const { user, code } = await userWithAuthenticator(browser, request);
  const j = await newJourney(browser, guard);
  const { page } = j;
  try {
    await page.goto('/login');
    await expect(page).toHaveURL(/\/login\?interaction=/);
    await signInByKeyboard(j, user.email, user.password, 'Sign in');
    await j.step('two-factor step: focus on its heading', async () => {
      await landed(page, h1(page, 'Two-factor verification'), 'Two-factor verification');
      await axe(page, 'sign-in two-factor');
    });
    await j.step('code typed (sent when complete)', async () => {
      const firstDigit = page.getByRole('textbox', { name: 'Digit 1 of 6' });
      await tabTo(page, firstDigit);
      await page.keyboard.type(code());
    });
    await j.step('home: focus on its heading', async () => {
      await expect(page).toHaveURL(/\/$/);
      await landed(page, h1(page, `Welcome, ${user.first}!`), 'Home');
      await axe(page, 'home');
    });
  } finally {
    await page.context().close();
  }
});

test('keyboard: an end user turns on an authenticator app from the profile', async ({ browser, request, guard }) => {
  test.setTimeout(120_000);
  const user = newUser('setup', 'Kai');
  await createUserWithPassword(request, await adminToken(browser), user);
  const j = await newJourney(browser, guard);
  const { page } = j;
  const section = page.locator('section[aria-labelledby="two-factor-heading"]');
  try {
    await page.goto('/login');
    await expect(page).toHaveURL(/\/login\?interaction=/);
    await signInByKeyboard(j, user.email, user.password, 'Sign in');
    await j.step('home: focus on its heading', async () => {
      await expect(page).toHaveURL(/\/$/);
      await landed(page, h1(page, `Welcome, ${user.first}!`), 'Home');
    });
    await j.step('account menu → Profile', async () => {
      await tabTo(page, page.getByRole('button', { name: 'Account menu' }));
      await page.keyboard.press('Enter');
      await arrowTo(page, page.getByRole('menuitem', { name: 'Profile' }));
      await page.keyboard.press('Enter');
      await expect(page).toHaveURL(/\/profile$/);
      await landed(page, h1(page, 'Profile'), 'Profile');
      await axe(page, 'profile');
    });
    let secret = '';
    await j.step('Set up authenticator app: focus on the first step', async () => {
      await tabTo(page, section.getByRole('button', { name: 'Set up authenticator app' }));
      await page.keyboard.press('Enter');
      await expect(section).toHaveAttribute('data-screen', 'screen:2fa.authenticator');
      await landed(page, section.locator('[data-swap-focus]'), 'Profile');
      await expect(section.locator('[data-swap-focus]')).toContainText('Scan the QR code');
      secret = ((await page.getByTestId('totp-secret').textContent()) ?? '').trim();
      expect(secret).toMatch(/^[A-Z2-7]{16,}$/);
      await axe(page, 'profile: authenticator set-up');
    });
    await j.step('code typed, Turn on: focus on the recovery codes notice', async () => {
      await tabTo(page, section.getByRole('textbox', { name: 'Digit 1 of 6' }));
      await page.keyboard.type(totpFromSecret(secret)());
      await tabTo(page, section.getByRole('button', { name: 'Turn on' }));
      await page.keyboard.press('Enter');
      await expect(section).toHaveAttribute('data-screen', 'screen:2fa.recovery-codes');
      await landed(page, section.locator('[data-swap-focus]'), 'Profile');
      await expect(section.locator('[data-swap-focus]')).toContainText('Save these recovery codes now');
      await expect(page.getByTestId('recovery-codes').getByRole('listitem')).toHaveCount(10);
      await axe(page, 'profile: recovery codes');
    });
    await j.step('I have saved my codes: focus on the new state', async () => {
      await tabTo(page, section.getByRole('button', { name: 'I have saved my codes' }));
      await page.keyboard.press('Enter');
      await expect(section).toHaveAttribute('data-screen', 'screen:2fa.on');
      await landed(page, section.locator('[data-swap-focus]'), 'Profile');
      await expect(section.locator('[data-swap-focus]')).toHaveText('On — authenticator app');
      await axe(page, 'profile: two-factor on');
    });
  } finally {
    await page.context().close();
  }
});

/** The admin's keyboard sign-in and the way to User management by the sidebar. */
async function adminToUserManagement(j: Journey): Promise<void> {
  const { page } = j;
  await page.goto('/admin/login');
  await expect(page).toHaveURL(/\/admin\/login\?interaction=/);
  await signInByKeyboard(j, ADMIN.email, ADMIN.password, 'Admin sign in');
  await j.step('dashboard: focus on its heading', async () => {
    await expect(page).toHaveURL(/\/admin\/dashboard/);
    await landed(page, h1(page, 'Dashboard'), 'Dashboard');
    await axe(page, 'dashboard');
  });
  await j.step('sidebar → User management', async () => {
    // from the page's heading back into the sidebar, which comes before the main content
    await tabTo(page, page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'User management' }), { back: true });
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(/\/admin\/user-management/);
    await landed(page, h1(page, 'User management'), 'User management');
    await axe(page, 'user management');
  });
}

test('keyboard: a super_admin adds a user', async ({ browser, guard }) => {
  test.setTimeout(120_000);
  const j = await newJourney(browser, guard);
  const { page } = j;
  const email = `kbd.added.${stamp()}@example.com`;
  try {
    await adminToUserManagement(j);
    const addUser = page.getByRole('button', { name: 'Add user', exact: true });
    const dialog = page.getByRole('dialog', { name: 'Add user' });
    await j.step('Add user (Space): the dialog, focus inside', async () => {
      await tabTo(page, addUser);
      await page.keyboard.press('Space');
      await expect(dialog).toBeVisible();
      await expect.poll(() => dialog.evaluate((el) => el.contains(document.activeElement))).toBe(true);
      await expect(page).toHaveTitle('User management · IAM');
      await axe(page, 'add user dialog');
    });
    await j.step('form typed, Add and send invitation', async () => {
      const emailField = dialog.getByRole('textbox', { name: 'E-mail' });
      await tabTo(page, emailField);
      await typeInto(page, emailField, email);
      await page.keyboard.press('Tab');
      await typeInto(page, dialog.getByRole('textbox', { name: 'First name' }), 'Tabitha');
      await page.keyboard.press('Tab');
      await typeInto(page, dialog.getByRole('textbox', { name: 'Last name' }), 'Keys');
      await tabTo(page, dialog.getByRole('button', { name: 'Add and send invitation' }));
      await page.keyboard.press('Enter');
      await expect(dialog).toBeHidden();
    });
    await j.step('back on the list: focus on Add user, the new user listed', async () => {
      await expect(addUser).toBeFocused();
      await expect(page.getByRole('main').getByText(email)).toBeVisible();
      await axe(page, 'user management after adding');
    });
  } finally {
    await page.context().close();
  }
});

test('keyboard: a super_admin imports users from a CSV file', async ({ browser, guard }) => {
  test.setTimeout(120_000);
  const j = await newJourney(browser, guard);
  const { page } = j;
  const run = stamp();
  const rows = [`kbd.csv1.${run}@example.com,Cee,Ess,en,CREDENTIALS`, `kbd.csv2.${run}@example.com,Vee,Ess,de,CREDENTIALS`];
  try {
    await adminToUserManagement(j);
    const importButton = page.getByRole('button', { name: 'Import users', exact: true });
    const dialog = page.getByRole('dialog', { name: 'Import users' });
    const target = dialog.locator('[data-swap-focus]');
    await j.step('Import users (Enter): the dialog, focus inside', async () => {
      await tabTo(page, importButton);
      await page.keyboard.press('Enter');
      await expect(dialog).toBeVisible();
      await expect.poll(() => dialog.evaluate((el) => el.contains(document.activeElement))).toBe(true);
      await expect(page).toHaveTitle('User management · IAM');
      await axe(page, 'import dialog');
    });
    await j.step('file chosen (the system dialog), Check file: focus on the results', async () => {
      await page.getByTestId('import-file').setInputFiles({ name: 'keyboard.csv', mimeType: 'text/csv', buffer: Buffer.from(`${[CSV_HEADER, ...rows].join('\n')}\n`) });
      await expect(dialog.getByText('keyboard.csv', { exact: true })).toBeVisible();
      await tabTo(page, dialog.getByRole('button', { name: 'Check file' }));
      await page.keyboard.press('Enter');
      await expect(dialog.locator('[data-screen="screen:import.report"]')).toBeVisible();
      await landed(page, target, 'User management');
      await axe(page, 'import dialog: check results');
    });
    await j.step('Import users: focus on the outcome', async () => {
      await tabTo(page, dialog.getByRole('button', { name: 'Import users', exact: true }));
      await page.keyboard.press('Enter');
      await expect(dialog.locator('[data-screen="screen:import.done"]')).toBeVisible();
      await landed(page, target, 'User management');
      await expect(target).toHaveText('Users imported');
      await axe(page, 'import dialog: done');
    });
    await j.step('Done: back on the list, focus on Import users', async () => {
      await tabTo(page, dialog.getByRole('button', { name: 'Done' }));
      await page.keyboard.press('Enter');
      await expect(dialog).toBeHidden();
      await expect(importButton).toBeFocused();
      await expect(page.getByRole('main').getByText(`kbd.csv1.${run}@example.com`)).toBeVisible();
      await axe(page, 'user management after the import');
    });
  } finally {
    await page.context().close();
  }
});
