/**
 * The sign-in page speaks the visitor's language and takes the hints apps send (issue 29): `ui_locales` on the
 * authorization request picks its language, `login_hint` fills the e-mail field, and with neither a French browser's
 * first visit is in French.
 */
import { createHash, randomBytes } from 'node:crypto';
import { expect, test } from './fixtures';
import { gotoSignIn } from './helpers';
import { tr } from './screens/catalog';

/** An app's authorization request to the provider (the portal client, PKCE), with its hints. */
function authorizationUrl(baseURL: string, hints: Record<string, string>): string {
  const verifier = randomBytes(32).toString('base64url');
  const q = new URLSearchParams({
    client_id: 'portal',
    redirect_uri: `${baseURL}/login`,
    response_type: 'code',
    scope: 'openid profile email',
    state: randomBytes(30).toString('base64url'),
    code_challenge: createHash('sha256').update(verifier).digest('base64url'),
    code_challenge_method: 'S256',
    ...hints,
  });
  return `/oidc/auth?${q.toString()}`;
}

test.describe('login hints', () => {
  test.use({ locale: 'en-US' });

  test('ui_locales=de: the sign-in page is in German; login_hint fills the e-mail field', async ({ page, baseURL }) => {
    await page.goto(authorizationUrl(baseURL ?? '', { ui_locales: 'de', login_hint: 'ada.hint@example.com' }));
    await expect(page).toHaveURL(/\/login\?interaction=.*ui_locales=de/);
    await expect(page.getByRole('heading', { level: 1, name: tr('de', 'Sign in') })).toBeVisible();
    await expect(page.locator('html')).toHaveAttribute('lang', 'de');
    await expect(page.getByRole('textbox', { name: tr('de', 'E-mail') })).toHaveValue('ada.hint@example.com');
    await page.screenshot({ path: 'e2e/artifacts/login-hints-ui-locales-de.png' });
  });

  test('login_hint alone: the e-mail field is filled, the page stays in the browser language', async ({ page, baseURL }) => {
    await page.goto(authorizationUrl(baseURL ?? '', { login_hint: 'grace.hint@example.com' }));
    await expect(page.getByRole('heading', { level: 1, name: 'Sign in' })).toBeVisible();
    await expect(page.getByRole('textbox', { name: 'E-mail' })).toHaveValue('grace.hint@example.com');
  });
});

test.describe('a French browser', () => {
  test.use({ locale: 'fr-FR' });

  test("first visit: the sign-in page is in French without picking a language", async ({ page }) => {
    await gotoSignIn(page, '/login');
    await expect(page).toHaveURL(/\/login\?interaction=/);
    await expect(page.getByRole('heading', { level: 1, name: tr('fr', 'Sign in') })).toBeVisible();
    await expect(page.locator('html')).toHaveAttribute('lang', 'fr');
    await expect(page.getByRole('combobox', { name: tr('fr', 'Language') })).toContainText('Français');
    await page.screenshot({ path: 'e2e/artifacts/login-first-visit-fr.png' });
  });
});
