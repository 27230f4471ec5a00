/**
 * Development mode (issue 13): on the Vite dev server, with the API of `npm run dev:api` behind it, signing in
 * works, and `?inspect` attaches the Stately inspector on every page load of the sign-in's round trip through the
 * provider (the inspector's window.open is recorded instead of opening stately.ai).
 */
import { expect, test } from '../fixtures';

const ADMIN = { email: 'admin@example.com', password: 'Admin-Passw0rd!x' };

test('signs in on the dev server; ?inspect is kept across the provider round trip', async ({ page, baseURL }) => {
  await page.addInitScript(() => {
    window.open = ((url?: string | URL) => {
      const opened = JSON.parse(window.sessionStorage.getItem('test.inspector') ?? '[]') as string[];
      opened.push(`${window.location.pathname}${window.location.search.replace(/=[^&]*/g, '=…')} → ${String(url)}`);
      window.sessionStorage.setItem('test.inspector', JSON.stringify(opened));
      return null;
    }) as typeof window.open;
  });
  await page.goto('/admin/login?inspect');
  await expect(page).toHaveURL(new RegExp(`^${baseURL}/admin/login\\?interaction=`));
  await page.getByRole('textbox', { name: /e-mail/i }).fill(ADMIN.email);
  await page.getByLabel(/^password/i).fill(ADMIN.password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`^${baseURL}/admin/dashboard`));
  await expect
    .poll(async () => page.evaluate(() => JSON.parse(window.sessionStorage.getItem('test.inspector') ?? '[]') as string[]))
    .toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^\/admin\/login\?inspect → https:\/\/stately\.ai\/inspect/),
        expect.stringMatching(/^\/admin\/login\?interaction=… → https:\/\/stately\.ai\/inspect/),
        expect.stringMatching(/^\/admin\/login\?code=…&state=…(&iss=…)? → https:\/\/stately\.ai\/inspect/),
      ]),
    );
});
