/**
 * Issue 33, the console's part, in Chromium: a user's passkey (made by the real ceremony from the profile, with the
 * DevTools virtual authenticator) on the admin's user information page — listed, the removal dialog starts on Cancel
 * and Escape keeps the passkey, "Remove passkey" removes it (audited `user.passkey_removed`); and /admin/settings —
 * a role's requirement set with the keyboard, saved and kept, the page without serious axe findings; a manager has no
 * "Settings" and is sent to /404.
 *
 * WebAuthn refuses IP addresses, so, like e2e/passkeys.spec.ts, this spec starts its own server from the same build on
 * http://localhost:<port> with its own data directory and first super_admin.
 */
import type { Browser, Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { apiToken, axe, createUserWithPassword, fillCredentials, linkFromOutbox, toast } from './helpers';
import { startLocalhostServer, type LocalhostServer } from './localhost-server';
import { addVirtualAuthenticator } from './webauthn';

let ORIGIN = '';
const ADMIN = { email: 'admin.passkeys.admin@example.com', password: 'Passkeys-Admin-Passw0rd!' };
const RUN = String(Date.now()).slice(-9);

let server: LocalhostServer;
let api: LocalhostServer['api'];

test.beforeAll(async () => {
  server = await startLocalhostServer('admin-passkeys', ADMIN);
  ORIGIN = server.origin;
  api = server.api;
});

test.afterAll(async () => {
  await server?.close();
});

/** Runs `fn` with this server's data directory as the outbox the helpers read. */
const withOutbox = <T,>(fn: () => Promise<T>): Promise<T> => server.withOutbox(fn);

async function signedInPage(browser: Browser, path: '/admin/login' | '/login', creds: { email: string; password: string }): Promise<{ page: Page; errors: string[] }> {
  const context = await browser.newContext({ baseURL: ORIGIN });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  await page.goto(path);
  await expect(page).toHaveURL(/\?interaction=/);
  await fillCredentials(page, creds.email, creds.password);
  return { page, errors };
}

test('a user\'s passkey on the user information page: listed, the dialog starts on Cancel, removed and audited; /admin/settings sets a role\'s requirement by keyboard; a manager has no Settings', async ({ browser }) => {
  test.setTimeout(180_000);
  const { page: admin, errors } = await signedInPage(browser, '/admin/login', ADMIN);
  await expect(admin).toHaveURL(/\/admin\/dashboard/);
  const token = await apiToken(admin);
  const auth = { Authorization: `Bearer ${token}` };
  const user = { email: `admin.passkey.${RUN}@example.com`, first: 'Pia', last: 'Passkey', password: 'Passkey-Passw0rd!x' };
  await withOutbox(() => createUserWithPassword(api, token, user));

  // the user adds a passkey from the profile (the real ceremony, verified by the server)
  const { page: person } = await signedInPage(browser, '/login', user);
  await expect(person.getByRole('heading', { level: 1, name: `Welcome, ${user.first}!` })).toBeVisible();
  await person.getByRole('button', { name: 'Account menu' }).click();
  await person.getByRole('menuitem', { name: 'Profile' }).click();
  const profileCard = person.locator('section[aria-labelledby="passkeys"]');
  const authenticator = await addVirtualAuthenticator(person, { backupEligible: true });
  await profileCard.getByRole('button', { name: 'Add a passkey' }).click();
  await profileCard.getByRole('textbox', { name: 'Name' }).fill('Work laptop');
  await profileCard.getByRole('button', { name: 'Continue' }).click();
  await expect(profileCard.getByText('Passkey added: Work laptop')).toBeVisible();
  expect(await authenticator.credentials()).toHaveLength(1);
  await person.context().close();

  // the admin sees it on the user's page
  const found = await api.get(`/api/admin/users?search=${encodeURIComponent(user.email)}`, { headers: auth });
  const userId = ((await found.json()) as { data: Array<{ id: string }> }).data[0]?.id ?? '';
  expect(userId).not.toBe('');
  await admin.goto(`/admin/user-information/${userId}`);
  const card = admin.locator('section').filter({ has: admin.getByRole('heading', { level: 2, name: 'Passkeys' }) });
  const list = card.getByRole('list', { name: 'Passkeys' });
  await expect(list.getByRole('listitem')).toHaveCount(1);
  await expect(list).toContainText('Work laptop');
  await expect(list).toContainText('Synced passkey');
  await expect(list).toContainText('Never used');
  await axe(admin, 'admin-user-passkeys');

  // the confirmation starts on Cancel; Escape closes it and keeps the passkey
  const remove = list.getByRole('button', { name: 'Remove passkey: Work laptop' });
  await remove.focus();
  await admin.keyboard.press('Enter');
  const dialog = admin.getByRole('alertdialog', { name: 'Remove this passkey?' });
  await expect(dialog).toContainText('“Work laptop” can no longer be used to sign in.');
  await expect(dialog.getByRole('button', { name: 'Cancel' })).toBeFocused();
  await axe(admin, 'admin-user-passkeys-dialog');
  await admin.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(list.getByRole('listitem')).toHaveCount(1);
  await remove.click();
  await dialog.getByRole('button', { name: 'Remove passkey' }).click();
  await toast(admin, 'Passkey removed');
  await expect(card.getByText('This user has no passkeys.')).toBeVisible();
  const audit = await api.get('/api/admin/audit?action=user.passkey_removed', { headers: auth });
  const entries = ((await audit.json()) as { data: Array<{ action: string; target_id: string | null }> }).data;
  expect(entries.some((e) => e.action === 'user.passkey_removed' && e.target_id === userId)).toBe(true);

  // /admin/settings from the sidebar: a role's requirement, chosen with the arrow keys, saved and kept
  const role = `E2E_SETTINGS_${RUN}`;
  const created = await api.post('/api/admin/roles', { headers: auth, data: { name: role, description: '' } });
  expect(created.ok(), await created.text()).toBe(true);
  await admin.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Settings' }).click();
  await expect(admin).toHaveURL(/\/admin\/settings$/);
  await expect(admin.getByRole('heading', { level: 1, name: 'Settings' })).toBeVisible();
  await expect(admin.getByText(/walked through setting it up \(for a passkey: enrolling one\) at their next sign-in/)).toBeVisible();
  await expect(admin.getByRole('group', { name: 'All admins' }).getByRole('radio', { name: /^Not required/ })).toBeChecked();
  const none = admin.getByRole('radio', { name: `${role} Not required` });
  await expect(none).toBeChecked();
  await axe(admin, 'admin-settings');
  await none.focus();
  await admin.keyboard.press('ArrowRight');
  await admin.keyboard.press('ArrowRight');
  await expect(admin.getByRole('radio', { name: `${role} Passkey` })).toBeChecked();
  await admin.getByRole('button', { name: 'Save' }).click();
  await toast(admin, 'Second-factor requirement saved');
  const roleId = ((await created.json()) as { data: { id: string } }).data.id;
  const saved = await api.get('/api/admin/settings/second-factor', { headers: auth });
  expect(((await saved.json()) as { data: unknown }).data).toEqual({ admins: 'none', roles: [{ role_id: roleId, requirement: 'passkey' }] });
  await admin.reload();
  await expect(admin.getByRole('radio', { name: `${role} Passkey` })).toBeChecked();
  expect(errors).toEqual([]);
  await admin.context().close();

  // a manager: no "Settings" in the sidebar, the page answers /404
  const manager = { email: `admin.passkeys.manager.${RUN}@example.com`, password: 'Manager-Passw0rd!x' };
  const made = await api.post('/api/admin/admins', { headers: auth, data: { email: manager.email, first_name: 'Max', last_name: 'Manager', role: 'manager', locale: 'en' } });
  expect(made.ok(), await made.text()).toBe(true);
  const invitation = await withOutbox(() => linkFromOutbox(manager.email, /https?:\/\/[^\s"<>]+\/verify\/admin\?url=[^\s"<>]+/));
  const verified = await api.post('/api/admin/verify', { data: { url: new URL(invitation).searchParams.get('url'), password: manager.password, password_confirmation: manager.password } });
  expect(verified.ok(), await verified.text()).toBe(true);
  const { page: managerPage } = await signedInPage(browser, '/admin/login', manager);
  await expect(managerPage).toHaveURL(/\/admin\/dashboard/);
  await expect(managerPage.getByRole('navigation', { name: 'Main navigation' }).getByRole('link')).toHaveText(['Dashboard', 'User management']);
  await managerPage.goto('/admin/settings');
  await expect(managerPage).toHaveURL(/\/404$/);
  await managerPage.context().close();
});
