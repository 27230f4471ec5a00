/**
 * Issue 29, first-time users of the SPA: what they saw, checked in Chromium, signed in through the form and moving by
 * clicks (the console's sidebar, its navigation drawer at 390 px, buttons).
 *  - the dashboard in German shows no English text the server recorded, and its error-code filter lists words;
 *  - the user list at 390 px folds its five filters into one 'Filters' button and a bottom sheet;
 *  - the service app's Connect dialog keeps identifiers whole at 390 px and shows every set-up tab at 1440 px.
 * Screenshots of each screen go to e2e/artifacts/issue29-*.png.
 */
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { ADMIN, ARTIFACTS, apiToken, fillCredentials, gotoSignIn, restoreAdminLanguage, setLanguage } from './helpers';

test.describe.configure({ mode: 'serial' });
test.afterAll(() => restoreAdminLanguage());

const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1440, height: 900 };

async function signIn(page: Page): Promise<void> {
  await gotoSignIn(page, '/admin/login');
  await expect(page).toHaveURL(/\/admin\/login\?interaction=/);
  await fillCredentials(page, ADMIN.email, ADMIN.password);
  await expect(page).toHaveURL(/\/admin\/dashboard/);
}

/** A sidebar item by a click; at phone widths through the navigation drawer. */
async function nav(page: Page, name: string | RegExp): Promise<void> {
  const width = page.viewportSize()?.width ?? 1280;
  if (width < 768) {
    await page.getByRole('button', { name: 'Open navigation' }).click();
    const drawer = page.getByRole('dialog');
    await drawer.getByRole('link', { name }).click();
    await expect(drawer).toBeHidden();
  } else {
    await page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name }).click();
  }
}

async function shot(page: Page, name: string): Promise<void> {
  await page.waitForTimeout(200);
  await page.screenshot({ path: `${ARTIFACTS}/issue29-${name}.png`, fullPage: false });
}

test('dashboard in German: the admin logs by code in German, no English server text; the code filter in words', async ({ page }) => {
  await page.setViewportSize(DESKTOP);
  // errors to show: an OAuth error of the provider (its English message 'grant request is invalid') and an API one
  const oauth = await page.request.post('/oidc/token', {
    form: { grant_type: 'authorization_code', code: 'issue29-not-a-code-0123456789', redirect_uri: 'http://127.0.0.1/login', client_id: 'portal', code_verifier: 'v'.repeat(43) },
  });
  expect(oauth.status()).toBe(400);
  await signIn(page);
  const token = await apiToken(page);
  const invalid = await page.request.post('/api/admin/roles', { headers: { authorization: `Bearer ${token}` }, data: { name: '' } });
  expect(invalid.status()).toBe(422);
  const recorded = (await (await page.request.get('/api/admin/logs/errors?size=50', { headers: { authorization: `Bearer ${token}` } })).json()) as { data: { error_code: string; message: string }[] };
  const messages = [...new Set(recorded.data.map((e) => e.message).filter(Boolean))];
  expect(messages.length).toBeGreaterThan(0);

  await setLanguage(page, 'Deutsch');
  await expect(page.getByText('Anmeldungen pro Tag').first()).toBeVisible();
  const logs = page.getByRole('region', { name: 'Tabelle der Admin-Protokolle' });
  await expect(logs.getByRole('row').filter({ hasText: '400 · invalid_grant' }).first()).toBeVisible();
  await expect(logs.getByRole('row').filter({ hasText: '400 · invalid_grant' }).first()).toContainText('Ungültige oder abgelaufene Berechtigung');
  const shown = await logs.innerText();
  for (const message of messages) expect(shown, `the recorded '${message}' is on the page`).not.toContain(message);
  await logs.scrollIntoViewIfNeeded();
  await shot(page, 'dashboard-logs-de');

  // the code filter: words in German, sorted, no snake_case; picking one filters by its code
  await page.getByRole('combobox', { name: 'Fehlercode' }).click();
  const options = page.getByRole('listbox').getByRole('option');
  await expect(options.first()).toHaveText('Alle Fehlercodes');
  const labels = (await options.allInnerTexts()).map((s) => s.trim());
  expect(labels.length).toBeGreaterThan(60);
  expect(labels.filter((l) => /^[a-z]+(_[a-z]+)+$/.test(l))).toEqual([]);
  const rest = labels.slice(1);
  expect(rest).toEqual([...rest].sort(new Intl.Collator('de', { sensitivity: 'base' }).compare));
  await shot(page, 'dashboard-code-filter-de');
  await page.getByRole('listbox').getByRole('option', { name: 'Ungültige oder abgelaufene Berechtigung' }).click();
  await expect(page).toHaveURL(/e_code=invalid_grant/);
  await expect(page.getByRole('combobox', { name: 'Fehlercode' })).toHaveText(/Ungültige oder abgelaufene Berechtigung/);
  restoreAdminLanguage();
});

// the selects' lists open inside the sheet: portalled to the body they lay under the modal sheet, out of reach of the
// pointer and hidden from assistive technology (the option is found by role and clicked: both would fail then)
test('user list at 390 px: one Filters button with the count, the filters in a bottom sheet; inline at 1440 px', async ({ page }) => {
  await page.setViewportSize(PHONE);
  await signIn(page);
  await nav(page, 'User management');
  await expect(page.getByRole('heading', { level: 1, name: 'User management' })).toBeVisible();
  for (const name of ['Status', 'Technical', 'Auth type', 'Role', 'Language']) await expect(page.getByRole('main').getByRole('combobox', { name, exact: true })).toHaveCount(0);
  const button = page.getByTestId('user-filters-button');
  await expect(button).toHaveText(/^Filters$/);
  await shot(page, 'users-390');
  await button.click();
  const sheet = page.getByRole('dialog', { name: 'Filters' });
  await expect(sheet).toBeVisible();
  // a bottom sheet: along the bottom edge, full width
  const box = (await sheet.boundingBox())!;
  expect(Math.round(box.y + box.height)).toBeGreaterThanOrEqual(PHONE.height - 2);
  expect(Math.round(box.width)).toBeGreaterThanOrEqual(PHONE.width - 2);
  await sheet.getByRole('combobox', { name: 'Status', exact: true }).click();
  await page.getByRole('option', { name: 'Active', exact: true }).click();
  await expect(page).toHaveURL(/status=ACTIVE/);
  await shot(page, 'users-390-sheet');
  await sheet.getByRole('button', { name: 'Show users' }).click();
  await expect(sheet).toBeHidden();
  await expect(button).toContainText('1');
  await expect(button).toHaveAccessibleName(/Filters\s*1?\s*\(1 active\)/);

  await page.setViewportSize(DESKTOP);
  await expect(page.getByTestId('user-filters-button')).toHaveCount(0);
  await expect(page.getByRole('combobox', { name: 'Status', exact: true })).toBeVisible();
});

// a service app of its own (a fresh data directory has none), with several redirect URIs (issue 31.2), one of them long
const CONNECT_APP = `connect-29-${Date.now().toString(36)}`;
const CONNECT_URIS = ['https://connect-check.example.com/auth/callback', `https://connect-check.example.com/${'a-long-segment-'.repeat(6)}callback`, 'http://localhost:8080/auth/callback'];

test('Connect dialog: identifiers whole at 390 px, every set-up tab visible at 1440 px', async ({ page }) => {
  for (const size of [PHONE, DESKTOP]) {
    await page.setViewportSize(size);
    if (size === PHONE) {
      await signIn(page);
      const created = await page.request.post('/api/admin/service-apps', {
        headers: { authorization: `Bearer ${await apiToken(page)}` },
        data: { name: CONNECT_APP, display_name: 'Connect Check', redirect_uris: CONNECT_URIS, post_logout_redirect_uris: ['https://connect-check.example.com/'], client_type: 'confidential', client_credentials: true },
      });
      expect(created.status(), await created.text()).toBe(201);
    }
    await nav(page, 'Service apps');
    await page.getByRole('button', { name: 'Connect Connect Check' }).click();
    const dialog = page.getByRole('dialog', { name: 'Connect Connect Check' });
    await expect(dialog.getByTestId('discovery-url')).toBeVisible();
    // every registered redirect URI, each inside the dialog (a long one wraps instead of widening it)
    await expect(dialog.getByTestId('redirect-uri')).toHaveText(CONNECT_URIS);
    const box = (await dialog.boundingBox())!;
    for (let i = 0; i < CONNECT_URIS.length; i++) {
      const b = (await dialog.getByTestId('redirect-uri').nth(i).boundingBox())!;
      expect(b.x + b.width).toBeLessThanOrEqual(box.x + box.width + 1);
    }
    // identifiers: one line each (a box one line high), never split inside
    for (const el of [dialog.getByTestId('client-id'), dialog.getByTestId('auth-method')]) {
      const lines = await el.evaluate((node) => {
        const range = document.createRange();
        range.selectNodeContents(node);
        return new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size;
      });
      expect(lines).toBe(1);
    }
    const grants = dialog.getByTestId('grant-types').locator('span > span');
    for (let i = 0; i < (await grants.count()); i++) {
      const rects = await grants.nth(i).evaluate((node) => node.getClientRects().length);
      expect(rects).toBe(1);
    }
    // every tab in sight, inside the dialog
    const tabs = dialog.getByRole('tab');
    // the dialog scrolls on a phone: bring the tab list into sight first, then every tab must be inside it
    await dialog.getByRole('tablist').scrollIntoViewIfNeeded();
    const frame = (await dialog.getByRole('tablist').boundingBox())!;
    for (let i = 0; i < (await tabs.count()); i++) {
      await expect(tabs.nth(i)).toBeInViewport();
      const b = (await tabs.nth(i).boundingBox())!;
      expect(b.x).toBeGreaterThanOrEqual(frame.x - 1);
      expect(b.x + b.width).toBeLessThanOrEqual(frame.x + frame.width + 1);
    }
    await expect(dialog.getByRole('tab', { name: 'authlib (Python)' })).toBeVisible();
    await shot(page, `connect-${size.width}`);
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
  }
});
