/**
 * Journeys (issue 29): the end user, the manager and the super_admin, each in their own browser context, sign in
 * through the form on an English sign-in page — their saved language is the journey's (blocker 2: it must win after
 * sign-in, with its messages) — then move by clicks only through every screen, dialog and menu of their part of the
 * product, at 1440 px and then at 390 px (the same context, resized: one sign-in for both widths), in en, de, fr
 * and it. The guard (e2e/fixtures.ts) is checked after every step. The super_admin's "User management" → "Add user"
 * is blocker 1.
 */
import type { Browser, Page } from '@playwright/test';
import { expect, test, type Guard } from '../fixtures';
import { fillCredentials, gotoSignIn, superAdminToken } from '../helpers';
import { LANGS, type ScreenLang } from '../screens/catalog';
import { createAdminAccount, createUserWithPassword, Journey, WIDTHS, type Width } from './journey';

const RUN = Date.now().toString(36);
const PASSWORD = 'Journey-Passw0rd!x';
const account = (kind: string, lang: ScreenLang) => ({
  email: `journey.${kind}.${lang}.${RUN}@example.com`,
  first: kind === 'user' ? 'Jo' : kind === 'manager' ? 'Max' : 'Sam',
  last: `Journey ${lang.toUpperCase()}`,
  password: PASSWORD,
  locale: lang,
});
const LANGUAGE_NAMES: Record<ScreenLang, string> = { en: 'English', de: 'Deutsch', fr: 'Français', it: 'Italiano' };

test.beforeAll(async ({ browser, request }) => {
  test.setTimeout(180_000);
  const token = await superAdminToken(browser);
  for (const lang of LANGS) {
    await createUserWithPassword(request, token, account('user', lang));
    await createAdminAccount(request, token, { ...account('manager', lang), role: 'manager' });
    await createAdminAccount(request, token, { ...account('super', lang), role: 'super_admin' });
  }
});

/** A fresh context (a first visit: no stored language) at the first width, on the English sign-in page. */
async function signIn(browser: Browser, guard: Guard, lang: ScreenLang, who: 'user' | 'manager' | 'super'): Promise<Journey> {
  const context = await browser.newContext({ viewport: WIDTHS.desktop, locale: 'en-US' });
  const page = await context.newPage();
  const j = new Journey(page, lang, guard, 'desktop');
  await j.step('sign-in page (English)', async () => {
    await gotoSignIn(page, who === 'user' ? '/login' : '/admin/login');
    await expect(page.getByRole('heading', { level: 1, name: 'Sign in' })).toBeVisible();
    await expect(page.locator('html')).toHaveAttribute('lang', 'en');
  });
  await j.step('signed in: the saved language wins', async () => {
    const { email, password } = account(who, lang);
    await fillCredentials(page, email, password);
    await expect(page.locator('html')).toHaveAttribute('lang', lang);
  });
  return j;
}

async function resize(j: Journey, width: Width): Promise<Journey> {
  await j.page.setViewportSize(WIDTHS[width]);
  return new Journey(j.page, j.lang, j.guard, width);
}

async function signOut(j: Journey, who: 'user' | 'manager' | 'super'): Promise<void> {
  await j.step('sign out (account menu)', async () => {
    await j.accountMenu('Logout');
    await expect(j.page).toHaveURL(/\/login/);
    await j.heading(who === 'user' ? 'Sign in' : 'Admin sign in');
  });
}

// ------------------------------------------------------------------------------------------------ the end user

async function userTour(j: Journey): Promise<void> {
  const { page } = j;
  await j.step('home', async () => {
    if (j.width === 'phone') await j.accountMenu('Home');
    await expect(page.getByRole('heading', { level: 1 })).toContainText(j.t('Welcome, {name}!').split('{name}')[0]!.trim());
  });
  await j.step('language menu', () => j.languageMenu(LANGUAGE_NAMES[j.lang]));
  await j.step('account menu → profile', async () => {
    await j.accountMenu('Profile');
    await j.heading('Profile');
    await expect(page.getByRole('heading', { name: j.re('Personal information') })).toBeVisible();
    await expect(page.getByRole('heading', { name: j.re('Two-factor authentication') })).toBeVisible();
  });
  await j.step('profile: authenticator set-up opened and cancelled', async () => {
    await j.button('Set up authenticator app').click();
    await expect(j.text('Scan the QR code with an authenticator app (Google Authenticator, Microsoft Authenticator, 1Password…).')).toBeVisible();
    await j.button('Cancel').click();
    await expect(j.text('Scan the QR code with an authenticator app (Google Authenticator, Microsoft Authenticator, 1Password…).')).toBeHidden();
  });
  await j.step('account menu → home', async () => {
    await j.accountMenu('Home');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expect(page).toHaveURL(/\/$/);
  });
}

// ------------------------------------------------------------------------------------------------ the console

async function consoleCommon(j: Journey): Promise<void> {
  const { page } = j;
  await j.step('dashboard', async () => {
    // after the sign-in the console opens on it; on the second pass the sidebar leads there
    if (j.width === 'phone') await j.nav('Dashboard');
    await j.heading('Dashboard');
  });
  await j.step('user management', async () => {
    await j.nav('User management');
    await j.heading('User management');
  });
  await j.step('add user dialog (blocker 1)', async () => {
    await j.dialog(j.button('Add user'), 'Add user');
  });
  await j.step('add user dialog, a second time', async () => {
    await j.dialog(j.button('Add user'), 'Add user');
  });
  await j.step('import users dialog', async () => {
    await j.dialog(j.button('Import users'), 'Import users');
  });
  await j.step('a user: its information page', async () => {
    await page.getByRole('link', { name: new RegExp(`${j.t('View')}|Jo Journey`) }).first().click();
    await expect(page.getByRole('link', { name: j.re('Back to user management') })).toBeVisible();
  });
  await j.step('back to user management', async () => {
    await page.getByRole('link', { name: j.re('Back to user management') }).click();
    await j.heading('User management');
  });
  await j.step('language menu', () => j.languageMenu(LANGUAGE_NAMES[j.lang]));
  await j.step('account menu → profile', async () => {
    await j.accountMenu('Profile');
    await j.heading('Profile');
  });
  await j.step('dashboard again (sidebar)', async () => {
    await j.nav('Dashboard');
    await j.heading('Dashboard');
  });
}

async function superAdminTour(j: Journey): Promise<void> {
  await consoleCommon(j);
  await j.step('admin management', async () => {
    await j.nav('Admin management');
    await j.heading('Admin management');
  });
  await j.step('add admin dialog', () => j.dialog(j.button('Add admin'), 'Add admin').then(() => undefined));
  await j.step('roles', async () => {
    await j.nav('Roles');
    await j.heading('Roles');
  });
  await j.step('create role dialog', () => j.dialog(j.button('Create role'), 'Create role').then(() => undefined));
  await j.step('service apps', async () => {
    await j.nav('Service apps');
    await j.heading('Service apps');
  });
  await j.step('add service app dialog', () => j.dialog(j.button('Add service app'), 'Add service app').then(() => undefined));
  await j.step('subscriptions', async () => {
    await j.nav('Subscriptions');
    await j.heading('Subscriptions');
  });
  await j.step('add subscription dialog', () => j.dialog(j.button('Add subscription'), 'Add subscription').then(() => undefined));
}

const TOURS = { user: userTour, manager: consoleCommon, super: superAdminTour } as const;

for (const who of ['user', 'manager', 'super'] as const) {
  for (const lang of LANGS) {
    test(`${who === 'super' ? 'super_admin' : who === 'user' ? 'end user' : 'manager'} journey in ${lang}, 1440 then 390 px`, async ({ browser, guard }) => {
      test.setTimeout(180_000);
      let j = await signIn(browser, guard, lang, who);
      try {
        await TOURS[who](j);
        j = await resize(j, 'phone');
        await TOURS[who](j);
        await signOut(j, who);
      } finally {
        await j.page.context().close();
      }
    });
  }
}

export type { Page };
