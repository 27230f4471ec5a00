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
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request as playwrightRequest, type APIRequestContext } from '@playwright/test';
import { expect, test } from './fixtures';
import { apiToken, createUserWithPassword, fillCredentials } from './helpers';
import { freePort } from './interop/net';
import { addVirtualAuthenticator } from './webauthn';

let PORT = 0;
let ORIGIN = '';
const ADMIN = { email: 'passkeys.admin@example.com', password: 'Passkeys-Admin-Passw0rd!' };

let server: ChildProcess | null = null;
let dataDir = '';
let api: APIRequestContext;

test.beforeAll(async () => {
  PORT = await freePort('127.0.0.1');
  ORIGIN = `http://localhost:${PORT}`;
  dataDir = mkdtempSync(join(tmpdir(), 'iam-e2e-passkeys-'));
  server = spawn('node', ['build/server/main.js'], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, PORT: String(PORT), HOST: '127.0.0.1', APP_URL: ORIGIN, IAM_DATA_DIR: dataDir, IAM_ADMIN_EMAIL: ADMIN.email, IAM_ADMIN_PASSWORD: ADMIN.password, LOG_LEVEL: 'warn', SSO_PROVIDERS: '' },
  });
  let output = '';
  server.stdout?.on('data', (d: Buffer) => (output += d.toString()));
  server.stderr?.on('data', (d: Buffer) => (output += d.toString()));
  api = await playwrightRequest.newContext({ baseURL: ORIGIN });
  await expect
    .poll(async () => (await api.get('/api/languages').catch(() => null))?.ok() ?? false, { timeout: 60_000, message: `the passkeys server did not start:\n${output}` })
    .toBe(true);
});

test.afterAll(async () => {
  await api?.dispose();
  if (server && server.exitCode === null) {
    const exited = new Promise((resolve) => server?.once('exit', resolve));
    server.kill('SIGTERM');
    await exited;
  }
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

test('a passkey is added from the profile through the browser\'s ceremony, listed, renamed and removed; a refused prompt saves nothing', async ({ browser }) => {
  // the first super_admin signs in through the form once, for the token that creates the user
  const adminContext = await browser.newContext({ baseURL: ORIGIN });
  const adminPage = await adminContext.newPage();
  await adminPage.goto('/admin/login');
  await expect(adminPage).toHaveURL(/\/admin\/login\?interaction=/);
  await fillCredentials(adminPage, ADMIN.email, ADMIN.password);
  await expect(adminPage).toHaveURL(/\/admin\/dashboard/);
  const token = await apiToken(adminPage);
  await adminContext.close();
  const run = String(Date.now()).slice(-9);
  const user = { email: `passkey.${run}@example.com`, first: 'Pia', last: 'Passkey', password: 'Passkey-Passw0rd!x' };
  const previous = process.env.E2E_DATA_DIR;
  process.env.E2E_DATA_DIR = dataDir; // the invitation lands in this server's outbox
  try {
    await createUserWithPassword(api, token, user);
  } finally {
    process.env.E2E_DATA_DIR = previous;
  }

  const context = await browser.newContext({ baseURL: ORIGIN });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  try {
    await page.goto('/login');
    await expect(page).toHaveURL(/\/login\?interaction=/);
    await fillCredentials(page, user.email, user.password);
    await expect(page.getByRole('heading', { level: 1, name: `Welcome, ${user.first}!` })).toBeVisible();
    await page.getByRole('button', { name: 'Account menu' }).click();
    await page.getByRole('menuitem', { name: 'Profile' }).click();
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
