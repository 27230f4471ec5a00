/**
 * Issue 33, passkeys from the profile, as a person meets them, in Chromium with the DevTools protocol's virtual
 * authenticator (e2e/webauthn.ts): sign in through the form, open the profile from the account menu, "Add a passkey":
 * a refused prompt reads in words and nothing is saved; then the passkey is created by the real ceremony and verified
 * by the server (attestation, origin, RP id, user verification), listed, renamed, removed.
 *
 * WebAuthn does not run on an IP address (Chromium: "SecurityError: This is an invalid domain"), and the e2e server's
 * APP_URL is http://127.0.0.1:PORT, so this spec starts its own server from the same build on http://localhost:<port>
 * (APP_URL, hence the RP id `localhost`), with its own data directory and first super_admin.
 */
import type { Browser, Page } from '@playwright/test';
import { authCacheMs } from '../server/config';
import { expect, test } from './fixtures';
import { createUserWithPassword, fillCredentials } from './helpers';
import { startLocalhostServer, type LocalhostServer } from './localhost-server';
import { addVirtualAuthenticator } from './webauthn';

let server: LocalhostServer;
let ORIGIN = '';
const ADMIN = { email: 'passkeys.admin@example.com', password: 'Passkeys-Admin-Passw0rd!' };

test.beforeAll(async () => {
  server = await startLocalhostServer('passkeys', ADMIN);
  ORIGIN = server.origin;
});

test.afterAll(async () => {
  await server?.close();
});

/** A user with a password on this server (the first super_admin signs in through the form once, for the token). */
async function newUser(browser: Browser, first: string): Promise<{ email: string; first: string; last: string; password: string }> {
  const token = await server.adminToken(browser);
  const run = `${Date.now()}`.slice(-9) + String(Math.floor(Math.random() * 1000));
  const user = { email: `passkey.${run}@example.com`, first, last: 'Passkey', password: 'Passkey-Passw0rd!x' };
  await server.withOutbox(() => createUserWithPassword(server.api, token, user));
  return user;
}

/** Signs in through the form and opens the profile from the account menu. */
async function signInToProfile(page: Page, user: { email: string; first: string; password: string }): Promise<void> {
  await page.goto('/login');
  await expect(page).toHaveURL(/\/login\?interaction=/);
  await fillCredentials(page, user.email, user.password);
  await expect(page.getByRole('heading', { level: 1, name: `Welcome, ${user.first}!` })).toBeVisible();
  await openProfile(page);
}

async function openProfile(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Account menu' }).click();
  await page.getByRole('menuitem', { name: 'Profile' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Profile' })).toBeVisible();
}

function collectErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  return errors;
}

test('a passkey is added from the profile through the browser\'s ceremony, listed, renamed and removed; a refused prompt saves nothing', async ({ browser }) => {
  const user = await newUser(browser, 'Pia');

  const context = await browser.newContext({ baseURL: ORIGIN });
  const page = await context.newPage();
  const errors = collectErrors(page);
  try {
    await signInToProfile(page, user);
    const card = page.locator('section[aria-labelledby="passkeys"]');
    await expect(card.getByText(/No passkeys yet/)).toBeVisible();

    const authenticator = await addVirtualAuthenticator(page, { backupEligible: true });
    // the person refuses the verification: NotAllowedError, the words of a cancelled prompt, nothing stored
    await authenticator.userVerified(false);
    await card.getByRole('button', { name: 'Add a passkey' }).click();
    await expect(card.getByRole('textbox', { name: 'Name' })).toHaveValue(/^Chrome on (Windows|Linux)$/);
    await card.getByRole('button', { name: 'Continue' }).click();
    await expect(card.getByText('The passkey request was cancelled or timed out. Try again, or use another way.')).toBeVisible();
    expect(await authenticator.credentials()).toHaveLength(0);

    await authenticator.userVerified(true);
    await card.getByRole('textbox', { name: 'Name' }).fill('Work laptop');
    await card.getByRole('button', { name: 'Continue' }).click();
    await expect(card.getByText('Passkey added: Work laptop')).toBeVisible();
    const list = card.getByRole('list', { name: 'Passkeys' });
    await expect(list.getByRole('listitem')).toHaveCount(1);
    await expect(list).toContainText('Work laptop');
    await expect(list).toContainText('Synced passkey');
    await expect(list).toContainText('Never used');
    // the credential the server stored is the one the authenticator holds, for this site
    const held = await authenticator.credentials();
    expect(held).toHaveLength(1);
    expect(held[0]?.rpId).toBe('localhost');
    await card.getByRole('button', { name: 'Done' }).click();

    await list.getByRole('button', { name: 'Rename passkey: Work laptop' }).click();
    await card.getByRole('textbox', { name: 'Name' }).fill('Old laptop');
    await card.getByRole('button', { name: 'Save' }).click();
    await expect(list).toContainText('Old laptop');

    await list.getByRole('button', { name: 'Remove passkey: Old laptop' }).click();
    const dialog = page.getByRole('alertdialog');
    await expect(dialog).toContainText('"Old laptop" can no longer sign in to your account.');
    await dialog.getByRole('button', { name: 'Remove passkey' }).click();
    await expect(card.getByText(/No passkeys yet/)).toBeVisible();
    expect(errors).toEqual([]);
  } finally {
    await context.close();
  }
});

test('done-when (issue 33): a passkey registered in the profile signs in without a password; another browser sees that session, ends it, and the first browser is signed out', async ({ browser }) => {
  const user = await newUser(browser, 'Paul');
  const first = await browser.newContext({ baseURL: ORIGIN, userAgent: 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36' });
  const second = await browser.newContext({ baseURL: ORIGIN, userAgent: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:128.0) Gecko/20100101 Firefox/128.0' });
  try {
    const one = await first.newPage();
    const errors = collectErrors(one);
    const authenticator = await addVirtualAuthenticator(one, { backupEligible: true });
    await signInToProfile(one, user);
    const card = one.locator('section[aria-labelledby="passkeys"]');
    await card.getByRole('button', { name: 'Add a passkey' }).click();
    await card.getByRole('button', { name: 'Continue' }).click();
    await expect(card.getByText(/^Passkey added: /)).toBeVisible();

    // signed out: the sign-in page's e-mail field offers the device's passkeys (conditional UI); Chromium's virtual
    // authenticator picks the one it holds at once, so the person is signed in without typing anything
    const visited: string[] = [];
    one.on('framenavigated', (frame) => {
      if (frame === one.mainFrame()) visited.push(frame.url());
    });
    await one.getByRole('button', { name: 'Account menu' }).click();
    await one.getByRole('menuitem', { name: 'Logout' }).click();
    // through the sign-in page and back into the portal, without a password typed
    await expect.poll(() => visited.some((url) => /\/login\?interaction=/.test(url)), { timeout: 30_000 }).toBe(true);
    await expect(one).toHaveURL(new RegExp(`^${ORIGIN}/(profile)?$`), { timeout: 30_000 });
    await expect(one.getByRole('button', { name: 'Account menu' })).toBeVisible();
    await openProfile(one);
    // the passkey was used: its "last used" is set
    await expect(card.getByRole('list', { name: 'Passkeys' })).toContainText('Last used');
    await one.getByRole('button', { name: 'Account menu' }).click();
    await one.getByRole('menuitem', { name: 'Home' }).click();
    await expect(one.getByRole('heading', { level: 1, name: `Welcome, ${user.first}!` })).toBeVisible();

    // another browser of the same person: the synced passkey is on that device too (a copy of the credential, its
    // counter ahead, as a synced passkey's is), so it also signs in without a password (the password would now ask
    // for the passkey as the second factor anyway)
    const two = await second.newPage();
    const [credential] = await authenticator.credentials();
    if (!credential) throw new Error('the authenticator holds no passkey');
    const synced = await addVirtualAuthenticator(two, { backupEligible: true });
    await synced.addCredential({ ...credential, signCount: credential.signCount + 100 });
    await two.goto('/login');
    await expect(two).toHaveURL(new RegExp(`^${ORIGIN}/(profile)?$`), { timeout: 30_000 });
    await openProfile(two);
    const list = two.getByRole('list', { name: 'Sessions' });
    await expect(list.getByRole('listitem')).toHaveCount(2);
    const other = list.getByRole('listitem').filter({ hasText: 'Chrome 156 on Linux' });
    await expect(other).toHaveCount(1);
    await expect(other).not.toContainText('This device');
    await other.getByRole('button', { name: 'End session: Chrome 156 on Linux' }).click();
    await two.getByRole('alertdialog', { name: 'End this session?' }).getByRole('button', { name: 'End session' }).click();
    const ended = Date.now();
    await expect(list.getByRole('listitem')).toHaveCount(1);

    // the first browser's next click meets the ended session: the sign-in page, within the auth cache's bound (the
    // person does not touch the authenticator now, so its passkey is offered, not used)
    await authenticator.presence(false);
    await openProfile(one).catch(() => undefined);
    await expect(one).toHaveURL(/\/login\?interaction=/, { timeout: authCacheMs() + 15_000 });
    expect(Date.now() - ended).toBeLessThan(authCacheMs() + 15_000);
    await expect(one.getByRole('button', { name: 'Sign in', exact: true })).toBeVisible();
    expect((await authenticator.credentials()).length).toBe(1);
    // the ended session's calls are refused (401 at /api, 400 invalid_grant at the token endpoint): the browser logs those
    expect(errors.filter((e) => !/status of (400|401)/.test(e))).toEqual([]);
  } finally {
    await first.close();
    await second.close();
  }
});
