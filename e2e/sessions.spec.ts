/**
 * Issue 33, sessions and devices, as a person meets them: two browsers (two cookie jars, two user agents) sign in to
 * the same account through the form; the second opens its profile from the account menu, sees both sessions with
 * "This device" on its own, ends the other one there; the first browser's next page asks for a sign-in again, within
 * the auth cache's bound (IAM_AUTH_CACHE_MS; on one instance the end is seen at once).
 */
import type { BrowserContext, Page } from '@playwright/test';
import { authCacheMs } from '../server/config';
import { expect, test } from './fixtures';
import { createUserWithPassword, shot, superAdminToken, userSignIn } from './helpers';

const FIREFOX_LINUX = 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0';
const CHROME_WINDOWS = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36';

async function signedIn(context: BrowserContext, email: string, password: string, first: string): Promise<Page> {
  const page = await context.newPage();
  await userSignIn(page, email, password);
  await expect(page.getByRole('heading', { level: 1, name: `Welcome, ${first}!` })).toBeVisible();
  return page;
}

async function openProfile(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Account menu' }).click();
  await page.getByRole('menuitem', { name: 'Profile' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Profile' })).toBeVisible();
}

test('sessions: a second browser sees both sessions, ends the first one, and the first browser is signed out', async ({ browser, request }) => {
  const run = String(Date.now()).slice(-9);
  const user = { email: `sessions.${run}@example.com`, first: 'Sam', last: 'Sessions', password: 'Sessions-Passw0rd!x' };
  await createUserWithPassword(request, await superAdminToken(browser), user);

  const first = await browser.newContext({ userAgent: FIREFOX_LINUX });
  const second = await browser.newContext({ userAgent: CHROME_WINDOWS });
  try {
    const one = await signedIn(first, user.email, user.password, user.first);
    const two = await signedIn(second, user.email, user.password, user.first);
    await openProfile(two);

    const list = two.getByRole('list', { name: 'Sessions' });
    await expect(list.getByRole('listitem')).toHaveCount(2);
    const here = list.getByRole('listitem').filter({ hasText: 'This device' });
    await expect(here).toHaveCount(1);
    await expect(here).toContainText('Chrome 156 on Windows');
    const other = list.getByRole('listitem').filter({ hasText: 'Firefox 128 on Linux' });
    await expect(other).toHaveCount(1);
    await expect(other).not.toContainText('This device');
    await shot(two, 'sessions-two-browsers');

    await other.getByRole('button', { name: 'End session: Firefox 128 on Linux' }).click();
    const dialog = two.getByRole('alertdialog', { name: 'End this session?' });
    await dialog.getByRole('button', { name: 'End session' }).click();
    const ended = Date.now();
    await expect(list.getByRole('listitem')).toHaveCount(1);
    await expect(list.getByRole('listitem')).toContainText('This device');

    // the first browser moves on by a click: its next calls meet the ended session (401, then a refused refresh)
    await openProfile(one).catch(() => undefined);
    await expect(one).toHaveURL(/\/login\?interaction=/, { timeout: authCacheMs() + 15_000 });
    await expect(one.getByRole('button', { name: 'Sign in', exact: true })).toBeVisible();
    expect(Date.now() - ended).toBeLessThan(authCacheMs() + 15_000);

    // the second browser is still signed in: its home opens from the account menu
    await two.getByRole('button', { name: 'Account menu' }).click();
    await two.getByRole('menuitem', { name: 'Home' }).click();
    await expect(two.getByRole('heading', { level: 1, name: `Welcome, ${user.first}!` })).toBeVisible();
  } finally {
    await first.close();
    await second.close();
  }
});
