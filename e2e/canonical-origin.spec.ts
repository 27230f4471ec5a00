/**
 * Issue 14: one canonical origin. The e2e server's APP_URL is http://127.0.0.1:PORT; opened as
 * http://localhost:PORT the app redirects to APP_URL and sign-in works (before: the provider's bare
 * "invalid_redirect_uri" page). The provider's own error page has the product's look and language.
 */
import { expect, test } from './fixtures';
import { ADMIN, fillCredentials } from './helpers';

/** APP_URL (playwright.config.ts: http://127.0.0.1:PORT) and the same server under its other local name. */
function origins(baseURL: string | undefined): { base: URL; other: string } {
  const base = new URL(baseURL ?? 'http://127.0.0.1:3100');
  return { base, other: `http://localhost:${base.port}` };
}

test('the app opened under another local name redirects to APP_URL and signs in', async ({ page, baseURL }) => {
  const { base, other } = origins(baseURL);
  await page.goto(`${other}/admin/login`);
  await expect(page).toHaveURL(new RegExp(`^${base.origin}/admin/login\\?interaction=`));
  await fillCredentials(page, ADMIN.email, ADMIN.password);
  await expect(page).toHaveURL(new RegExp(`^${base.origin}/admin/dashboard`));
});

test("the provider's error page speaks the visitor's language and leads back to sign-in", async ({ browser, baseURL }) => {
  const { base, other } = origins(baseURL);
  const context = await browser.newContext({ locale: 'de-DE', extraHTTPHeaders: { 'accept-language': 'de' } });
  const page = await context.newPage();
  const query = new URLSearchParams({ client_id: 'portal', redirect_uri: `${other}/login`, response_type: 'code', scope: 'openid', state: 'x'.repeat(40), code_challenge: 'a'.repeat(43), code_challenge_method: 'S256' });
  await page.goto(`${base.origin}/oidc/auth?${query.toString()}`);
  await expect(page.getByRole('heading', { level: 1, name: 'Die Anmeldung kann nicht fortgesetzt werden' })).toBeVisible();
  await expect(page.getByText(`Öffnen Sie ${base.origin} und melden Sie sich dort an.`)).toBeVisible();
  // the stylesheet applied (the CSP allows only same-origin styles): the primary button has the brand colour
  await expect(page.locator('#error-sign-in')).toHaveCSS('background-color', 'rgb(29, 78, 216)');
  await page.locator('#error-sign-in').click();
  await expect(page).toHaveURL(new RegExp(`^${base.origin}/login\\?interaction=`));
  await context.close();
});
