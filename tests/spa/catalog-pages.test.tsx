import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { RolesPage } from '../../src/features/admin/catalog/roles-page';
import { ServiceAppsPage } from '../../src/features/admin/catalog/service-apps-page';
import { SubscriptionsPage } from '../../src/features/admin/catalog/subscriptions-page';
import { toaster } from '../../src/components/ui/toaster';
import { startAdminServer, type Handler, type Recorded } from './admin-server';
import { renderWithRouter } from './render';
import { serviceAppFixture } from './service-app-fixture';

/** The roles, subscriptions and service apps pages: list, create/edit dialog, delete confirmation, toasts. */

let server: Awaited<ReturnType<typeof startAdminServer>> | null = null;
let toasts: ReturnType<typeof vi.spyOn>;
beforeEach(() => {
  toasts = vi.spyOn(toaster, 'create');
});
afterEach(async () => {
  vi.restoreAllMocks();
  await server?.close();
  server = null;
});

const T = '2026-01-01T00:00:00.000Z';
const list = (data: unknown[]) => ({ body: { data, meta: { page: 1, size: 100, total: data.length } } });
const admin = { id: 'r1', name: 'APP_ADMIN', description: 'Admins', created_at: T, updated_at: T };
const user = { id: 'r2', name: 'APP_USER', description: '', created_at: T, updated_at: T };
const plan = { id: 's1', name: 'PRO_PLAN', description: 'Pro', roles: [{ id: 'r1', name: 'APP_ADMIN' }, { id: 'r2', name: 'APP_USER' }], role_count: 2, user_count: 7, created_at: T, updated_at: T };
const legacy = serviceAppFixture({
  name: 'legacy',
  display_name: 'Legacy',
  url: 'https://legacy.example.com',
  redirect_uris: ['https://legacy.example.com/cb', 'http://localhost:8080/cb'],
  post_logout_redirect_uris: ['https://legacy.example.com/cb'],
  roles: [{ id: 'r1', name: 'APP_ADMIN' }],
});

async function api(handler: Handler) {
  server = await startAdminServer((req) => {
    const own = handler(req);
    if (own) return own;
    if (req.method === 'GET' && req.path === '/api/admin/roles') return list([admin, user]);
    if (req.method === 'GET' && req.path === '/api/admin/subscriptions') return list([plan]);
    if (req.method === 'GET' && req.path === '/api/admin/service-apps') return list([legacy]);
    return undefined;
  });
  return server;
}

const sent = (method: string) =>
  waitFor(() => {
    const r = server?.requests.find((q: Recorded) => q.method === method);
    expect(r).toBeTruthy();
    return r as Recorded;
  });
const toasted = (title: string, description: string) => waitFor(() => expect(toasts).toHaveBeenCalledWith(expect.objectContaining({ title, description })));

describe('roles page', () => {
  it('lists the roles and creates one; a taken name marks the name field', async () => {
    let taken = true;
    await api((req) => {
      if (req.method !== 'POST' || req.path !== '/api/admin/roles') return undefined;
      if (taken) {
        taken = false;
        return { status: 409, body: { error: { code: 'name_taken', message: 'taken', fields: { name: ['name_taken'] } } } };
      }
      return { status: 201, body: { data: { ...user, id: 'r3', ...(JSON.parse(req.body) as object) } } };
    });
    const u = userEvent.setup();
    await renderWithRouter(() => <RolesPage />, '/admin/roles');
    expect(await screen.findByRole('heading', { name: 'Roles' })).toBeInTheDocument();
    const rows = await screen.findAllByTestId('role-row', {}, { timeout: 5_000 });
    expect(rows.map((r) => within(r).getAllByRole('cell')[0]?.textContent)).toEqual(['APP_ADMIN', 'APP_USER']);
    expect(within(rows[1] as HTMLElement).getAllByRole('cell')[1]).toHaveTextContent('—');
    expect(screen.getAllByRole('columnheader').map((h) => h.textContent)).toEqual(['Name', 'Description', 'Updated', 'Actions']);

    await u.click(screen.getByRole('button', { name: 'Create role' }));
    const dialog = await screen.findByRole('dialog', { name: 'Create role' });
    const name = within(dialog).getByLabelText(/^Name/);
    await u.type(name, 'APP_NEW');
    await u.click(within(dialog).getByRole('button', { name: 'Create role' }));
    await waitFor(() => expect(name).toHaveAttribute('aria-invalid', 'true'));
    await u.click(within(dialog).getByRole('button', { name: 'Create role' }));
    await toasted('Role created', 'APP_NEW');
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Create role' })).toBeNull());
    expect(JSON.parse((await sent('POST')).body)).toEqual({ name: 'APP_NEW', description: '' });
    // the list is fetched again after the change
    await waitFor(() => expect(server?.requests.filter((q) => q.method === 'GET' && q.path === '/api/admin/roles')).toHaveLength(2));
  });

  it('refuses to delete a role in use with the server explanation, deletes an unused one', async () => {
    await api((req) => {
      if (req.method === 'DELETE' && req.path === '/api/admin/roles/r1') return { status: 409, body: { error: { code: 'role_in_use', message: 'Used by PRO_PLAN' } } };
      if (req.method === 'DELETE' && req.path === '/api/admin/roles/r2') return { body: { data: { id: 'r2', deleted: true } } };
      return undefined;
    });
    const u = userEvent.setup();
    await renderWithRouter(() => <RolesPage />, '/admin/roles');
    await u.click(await screen.findByRole('button', { name: 'Delete APP_ADMIN' }, { timeout: 5_000 }));
    let confirm = await screen.findByRole('alertdialog', { name: 'Delete role' });
    expect(confirm).toHaveTextContent('Are you sure you want to delete the role APP_ADMIN?');
    await u.click(within(confirm).getByRole('button', { name: 'Delete' }));
    expect(await within(confirm).findByRole('alert')).toHaveTextContent('Used by PRO_PLAN');
    await u.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());

    await u.click(screen.getByRole('button', { name: 'Delete APP_USER' }));
    confirm = await screen.findByRole('alertdialog', { name: 'Delete role' });
    expect(within(confirm).queryByRole('alert')).toBeNull();
    await u.click(within(confirm).getByRole('button', { name: 'Delete' }));
    await toasted('Role deleted', 'APP_USER');
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
  });
});

describe('role and subscription names convert to UPPER_SNAKE as typed (issue 29)', () => {
  it('"content editor" becomes CONTENT_EDITOR; "Editor" becomes EDITOR and its error explains the rule', async () => {
    await api((req) => (req.method === 'POST' && req.path === '/api/admin/roles' ? { status: 201, body: { data: { ...user, id: 'r3', ...(JSON.parse(req.body) as object) } } } : undefined));
    const u = userEvent.setup();
    await renderWithRouter(() => <RolesPage />, '/admin/roles');
    await u.click(await screen.findByRole('button', { name: 'Create role' }, { timeout: 5_000 }));
    const dialog = await screen.findByRole('dialog', { name: 'Create role' });
    const name = within(dialog).getByLabelText(/^Name/);
    expect(dialog).toHaveTextContent('Capital letters and digits in two or more parts joined by underscores, e.g. APP_ADMIN.');
    await u.type(name, 'Editor');
    expect(name).toHaveValue('EDITOR');
    await u.click(within(dialog).getByRole('button', { name: 'Create role' }));
    await waitFor(() => expect(name).toHaveAttribute('aria-invalid', 'true'));
    expect(dialog).toHaveTextContent('Use capital letters and digits in two or more parts joined by underscores, e.g. APP_ADMIN or CONTENT_EDITOR');
    expect(dialog).not.toHaveTextContent('Name is invalid');
    await u.clear(name);
    await u.type(name, 'content éditor-');
    expect(name).toHaveValue('CONTENT_EDITOR_');
    await u.tab();
    expect(name).toHaveValue('CONTENT_EDITOR');
    await u.click(within(dialog).getByRole('button', { name: 'Create role' }));
    await toasted('Role created', 'CONTENT_EDITOR');
    expect(JSON.parse((await sent('POST')).body)).toEqual({ name: 'CONTENT_EDITOR', description: '' });
  });

  it('a subscription name: "acme pro" becomes ACME_PRO; four parts are refused with the rule', async () => {
    await api(() => undefined);
    const u = userEvent.setup();
    await renderWithRouter(() => <SubscriptionsPage />, '/admin/subscriptions');
    await u.click(await screen.findByRole('button', { name: 'Add subscription' }, { timeout: 5_000 }));
    const dialog = await screen.findByRole('dialog', { name: 'Add subscription' });
    const name = within(dialog).getByLabelText(/^Name/);
    await u.type(name, 'acme pro');
    expect(name).toHaveValue('ACME_PRO');
    await u.clear(name);
    await u.type(name, 'a b c d');
    await u.click(within(dialog).getByRole('button', { name: 'Add subscription' }));
    expect(await within(dialog).findByText('Use capital letters and digits in two or three parts joined by underscores, e.g. ACME_PRO or ACME_PRO_EU')).toBeInTheDocument();
  });
});

describe('subscriptions page', () => {
  it('lists subscriptions with their roles and users, edits one keeping its roles', async () => {
    await api((req) => (req.method === 'PATCH' && req.path === '/api/admin/subscriptions/s1' ? { body: { data: { ...plan, ...(JSON.parse(req.body) as object), removed_assignments: 0 } } } : undefined));
    const u = userEvent.setup();
    await renderWithRouter(() => <SubscriptionsPage />, '/admin/subscriptions');
    const [row] = await screen.findAllByTestId('subscription-row', {}, { timeout: 5_000 });
    expect(row).toHaveTextContent('PRO_PLAN');
    expect(row).toHaveTextContent('Pro');
    // the list counts the subscription's roles; "selected" is the form's own summary (issue 29)
    expect(row).toHaveTextContent('2 roles');
    expect(row).not.toHaveTextContent(/selected/);
    expect(row).toHaveTextContent('APP_ADMIN');
    expect(within(row as HTMLElement).getAllByRole('cell')[2]).toHaveTextContent('7');
    expect(screen.getAllByRole('columnheader').map((h) => h.textContent)).toEqual(['Name', 'Roles', 'Users', 'Updated', 'Actions']);

    await u.click(screen.getByRole('button', { name: 'Edit PRO_PLAN' }));
    const dialog = await screen.findByRole('dialog', { name: 'Update subscription' });
    expect(within(dialog).getByTestId('role-count')).toHaveTextContent('2 roles selected');
    await u.clear(within(dialog).getByLabelText(/^Description/));
    await u.type(within(dialog).getByLabelText(/^Description/), 'Professional');
    await u.click(within(dialog).getByRole('button', { name: 'Save' }));
    await toasted('Subscription updated', 'PRO_PLAN');
    expect(JSON.parse((await sent('PATCH')).body)).toEqual({ name: 'PRO_PLAN', description: 'Professional', role_ids: ['r1', 'r2'] });
  });

  it('asks before deleting a subscription and deletes it', async () => {
    await api((req) => (req.method === 'DELETE' && req.path === '/api/admin/subscriptions/s1' ? { body: { data: { id: 's1', deleted: true, removed_assignments: 2 } } } : undefined));
    const u = userEvent.setup();
    await renderWithRouter(() => <SubscriptionsPage />, '/admin/subscriptions');
    await u.click(await screen.findByRole('button', { name: 'Delete PRO_PLAN' }, { timeout: 5_000 }));
    const confirm = await screen.findByRole('alertdialog', { name: 'Delete subscription' });
    expect(confirm).toHaveTextContent('Are you sure you want to delete the subscription PRO_PLAN? Users lose the roles they hold through it.');
    await u.click(within(confirm).getByRole('button', { name: 'Delete' }));
    await toasted('Subscription deleted', 'PRO_PLAN');
  });
});

describe('service apps page', () => {
  it('shows the client secret of a new confidential app once, in its own dialog', async () => {
    let reserved = true;
    await api((req) => {
      if (req.method !== 'POST' || req.path !== '/api/admin/service-apps') return undefined;
      if (reserved) {
        reserved = false;
        return { status: 422, body: { error: { code: 'validation_failed', message: 'invalid', fields: { name: ['name_reserved'] } } } };
      }
      return { status: 201, body: { data: { ...legacy, id: 'a2', ...(JSON.parse(req.body) as object), client_secret: 'the-secret-value' } } };
    });
    const u = userEvent.setup();
    await renderWithRouter(() => <ServiceAppsPage />, '/admin/service-apps');
    const [row] = await screen.findAllByTestId('service-app-row', {}, { timeout: 5_000 });
    expect(row).toHaveTextContent('https://legacy.example.com/cb+1 more');
    expect(row).toHaveTextContent('Public (PKCE)');
    expect(screen.getAllByRole('columnheader').map((h) => h.textContent)).toEqual(['Name', 'Redirect URIs', 'Client type', 'Allowed roles', 'Actions']);

    await u.click(screen.getByRole('button', { name: 'Add service app' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add service app' });
    await u.type(within(dialog).getByLabelText(/Display name/), 'Wiki');
    await u.type(within(dialog).getByLabelText(/Client ID/), 'wiki');
    // the redirect URIs are named as such, with what they are for (issue 29; issue 31.2 replaced URL + Path)
    expect(within(dialog).getByRole('group', { name: 'Redirect URIs' })).toHaveAccessibleDescription(/Where the provider may send people back to the app after they sign in/);
    await u.type(within(dialog).getByRole('textbox', { name: 'Redirect URI 1' }), 'https://wiki.example.com/auth/callback');
    await u.click(within(dialog).getByRole('combobox', { name: 'Client type' }));
    await u.click(await screen.findByRole('option', { name: 'Confidential (with client secret)' }));
    await u.click(within(dialog).getByRole('button', { name: 'Add service app' }));
    // a reserved client id (portal, admin-console) is refused beside the field
    expect(await within(dialog).findByText('This name is reserved')).toBeInTheDocument();
    expect(toasts).not.toHaveBeenCalled();
    await u.click(within(dialog).getByRole('button', { name: 'Add service app' }));
    await toasted('Service app added', 'Wiki');
    const secret = await screen.findByRole('dialog', { name: 'Client secret' });
    expect(secret).toHaveTextContent("The client secret of Wiki. Store it in the app's configuration.");
    expect(secret).toHaveTextContent('the-secret-value');
    await u.click(within(secret).getByRole('button', { name: 'Done' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('asks before deleting a service app and deletes it', async () => {
    await api((req) => (req.method === 'DELETE' && req.path === '/api/admin/service-apps/a1' ? { body: { data: { id: 'a1', deleted: true } } } : undefined));
    const u = userEvent.setup();
    await renderWithRouter(() => <ServiceAppsPage />, '/admin/service-apps');
    await u.click(await screen.findByRole('button', { name: 'Delete Legacy' }, { timeout: 5_000 }));
    const confirm = await screen.findByRole('alertdialog', { name: 'Delete service app' });
    expect(confirm).toHaveTextContent('Are you sure you want to delete Legacy? Users can no longer sign in to it.');
    await u.click(within(confirm).getByRole('button', { name: 'Delete' }));
    await toasted('Service app deleted', 'Legacy');
  });
});
