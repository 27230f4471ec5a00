import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { restoreAdminLanguage } from './helpers';

const ARTIFACTS = 'e2e/artifacts';

/** Fails the test on uncaught page errors and CSP violations. */
function watchErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('console', (message) => {
    if (message.type() === 'error' && /Content Security Policy|Refused to/i.test(message.text())) errors.push(message.text());
  });
  return errors;
}

/**
 * Opens the admin shell. While the admin area has no guard the dashboard is
 * reachable directly; once it requires sign-in, sign in through the UI.
 */
async function openAdminShell(page: Page) {
  await page.goto('/admin/dashboard');
  const sidebar = page.locator('#admin-sidebar');
  const login = page.getByRole('textbox', { name: /e-?mail/i });
  await expect(sidebar.or(login)).toBeVisible();
  if (await login.isVisible()) {
    await login.fill('admin@example.com');
    await page.getByLabel(/password/i).first().fill('Admin-Passw0rd!x');
    await page.getByRole('button', { name: /^(sign in|log in)$/i }).click();
    await expect(sidebar).toBeVisible();
  }
  return sidebar;
}

test.describe('foundation', () => {
  // the sidebar test switches the shared admin's console to German, which saves it in the admin's profile
  test.afterAll(() => restoreAdminLanguage());

  test('unknown paths show the 404 page', async ({ page }) => {
    const errors = watchErrors(page);
    await page.goto('/this-page-does-not-exist');
    await expect(page.getByRole('heading', { level: 1, name: 'Page Not Found' })).toBeVisible();
    await expect(page.getByText("The page you're looking for does not seem to exist")).toBeVisible();
    await expect(page).toHaveTitle('404 · IAM');
    await page.screenshot({ path: `${ARTIFACTS}/404-en.png`, fullPage: true });

    await page.getByRole('link', { name: 'Go to Home' }).click();
    // a guest is sent on to sign in; wait until the OIDC round trip has settled on the form,
    // otherwise the next navigation races the authorization redirect
    await expect(page).toHaveURL(/\/login\?interaction=/, { timeout: 20_000 });

    await page.goto('/errors/403');
    await expect(page.getByRole('heading', { level: 1, name: 'Forbidden Access' })).toBeVisible();
    await page.screenshot({ path: `${ARTIFACTS}/403-en.png`, fullPage: true });
    expect(errors).toEqual([]);
  });

  test('switching to German persists over a reload', async ({ page }) => {
    const errors = watchErrors(page);
    await page.goto('/login');
    await expect(page.getByRole('heading', { level: 1, name: 'Sign in' })).toBeVisible();
    await expect(page.locator('html')).toHaveAttribute('lang', 'en');
    await page.screenshot({ path: `${ARTIFACTS}/login-en.png`, fullPage: true });

    await page.getByRole('combobox', { name: 'Language' }).click();
    await page.getByRole('option', { name: 'Deutsch' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Anmelden' })).toBeVisible();
    await expect(page).toHaveTitle('Anmelden · IAM');

    await page.reload();
    await expect(page.getByRole('heading', { level: 1, name: 'Anmelden' })).toBeVisible();
    await expect(page.locator('html')).toHaveAttribute('lang', 'de');
    expect(await page.evaluate(() => window.localStorage.getItem('locale'))).toBe('de');
    await expect(page.getByText(`© ${new Date().getFullYear()} IAM. Alle Rechte vorbehalten.`)).toBeVisible();
    await page.screenshot({ path: `${ARTIFACTS}/login-de.png`, fullPage: true });

    await page.goto('/nowhere');
    await expect(page.getByRole('heading', { level: 1, name: 'Seite nicht gefunden' })).toBeVisible();
    await page.screenshot({ path: `${ARTIFACTS}/404-de.png`, fullPage: true });
    expect(errors).toEqual([]);
  });

  test('admin sidebar collapses and stays collapsed over a reload', async ({ page }) => {
    const errors = watchErrors(page);
    const sidebar = await openAdminShell(page);
    await expect(sidebar).toHaveAttribute('data-state', 'open');
    expect((await sidebar.boundingBox())?.width).toBe(256);
    await page.screenshot({ path: `${ARTIFACTS}/admin-open-en.png` });

    const collapse = page.getByRole('button', { name: 'Collapse sidebar' });
    await expect(collapse).toHaveAttribute('aria-expanded', 'true');
    await collapse.click();
    await page.mouse.move(900, 400);
    await expect(sidebar).toHaveAttribute('data-state', 'closed');
    await expect.poll(async () => (await sidebar.boundingBox())?.width).toBe(80);

    await page.reload();
    await expect(sidebar).toHaveAttribute('data-state', 'closed');
    await page.mouse.move(900, 400);
    await expect.poll(async () => (await sidebar.boundingBox())?.width).toBe(80);
    await expect(page.getByRole('button', { name: 'Expand sidebar' })).toHaveAttribute('aria-expanded', 'false');
    await page.screenshot({ path: `${ARTIFACTS}/admin-collapsed-en.png` });

    // Hover expands it over the content without changing the stored state.
    await sidebar.hover();
    await expect.poll(async () => (await sidebar.boundingBox())?.width).toBe(256);
    expect(await page.evaluate(() => window.localStorage.getItem('sidebar'))).toBe('closed');
    await page.mouse.move(900, 400);

    await page.getByRole('button', { name: 'Expand sidebar' }).click();
    await page.getByRole('combobox', { name: 'Language' }).click();
    await page.getByRole('option', { name: 'Deutsch' }).click();
    await expect(page.getByText('Verwaltungskonsole')).toBeVisible();
    await page.mouse.move(900, 400);
    await page.screenshot({ path: `${ARTIFACTS}/admin-open-de.png` });
    // and back, through the same menu (it saves English in the profile again)
    await page.getByRole('combobox', { name: 'Sprache' }).click();
    await page.getByRole('option', { name: 'English' }).click();
    await expect(page.getByText('Admin panel')).toBeVisible();
    expect(errors).toEqual([]);
  });
});
