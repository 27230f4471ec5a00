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

const DESKTOP = { width: 1440, height: 900 };

async function signIn(page: Page): Promise<void> {
  await gotoSignIn(page, '/admin/login');
  await expect(page).toHaveURL(/\/admin\/login\?interaction=/);
  await fillCredentials(page, ADMIN.email, ADMIN.password);
  await expect(page).toHaveURL(/\/admin\/dashboard/);
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
