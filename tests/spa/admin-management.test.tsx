import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { AdminManagement } from '../../src/features/admin/admins/admin-management';
import { activateLocale } from '../../src/lib/i18n';
import { account, startAdminServer } from './admin-server';
import { renderWithRouter } from './render';

let server: Awaited<ReturnType<typeof startAdminServer>> | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

const me = account(1, { type: 'admin', role: 'super_admin', email: 'admin@example.com' });
const other = account(2, { type: 'admin', role: 'manager', email: 'manager@example.com' });

async function adminsApi() {
  return startAdminServer((req) => {
    if (req.method === 'GET' && req.path === '/api/admin/admins') return { body: { data: [me, other], meta: { page: 1, size: 10, total: 2 } } };
    if (req.method === 'DELETE' && req.path === `/api/admin/admins/${me.id}`) {
      return { status: 403, body: { error: { code: 'cannot_delete_self', message: 'server text', fields: {} } } };
    }
    if (req.method === 'DELETE' && req.path === `/api/admin/admins/${other.id}`) return { body: { data: { id: other.id, deleted: true } } };
    if (req.method === 'PATCH' && req.path === `/api/admin/admins/${other.id}`) return { body: { data: { ...other, role: 'super_admin' } } };
    return undefined;
  });
}

describe('admin management', () => {
  it('does not offer deleting yourself: the button is disabled and says why (spec message)', async () => {
    server = await adminsApi();
    await renderWithRouter(() => <AdminManagement search={{}} onSearchChange={() => {}} currentAdminId={me.id} />, '/admin/admin-management');
    const own = await screen.findByRole('button', { name: 'Delete admin@example.com' });
    expect(own).toBeDisabled();
    expect(own).toHaveAccessibleDescription('You cannot delete your own admin account');
    expect(screen.getByRole('button', { name: 'Delete manager@example.com' })).toBeEnabled();
    expect(server.requests.some((r) => r.method === 'DELETE')).toBe(false);
  });

  it('explains it in Italian too', async () => {
    await activateLocale('it');
    server = await adminsApi();
    await renderWithRouter(() => <AdminManagement search={{}} onSearchChange={() => {}} currentAdminId={me.id} />, '/admin/admin-management');
    const own = await screen.findByRole('button', { name: 'Elimina admin@example.com' });
    expect(own).toBeDisabled();
    expect(own).toHaveAccessibleDescription('Non puoi eliminare il tuo account amministratore');
  });

  it('asks for the language in Add admin and sends it (the invitation mail is written in it)', async () => {
    server = await startAdminServer((req) => {
      if (req.method === 'GET' && req.path === '/api/admin/admins') return { body: { data: [me], meta: { page: 1, size: 10, total: 1 } } };
      if (req.method === 'POST' && req.path === '/api/admin/admins') return { status: 201, body: { data: { ...account(9, { type: 'admin', role: 'manager', email: 'neu@example.com', locale: 'fr' }), invitation_sent: true } } };
      return undefined;
    });
    const user = userEvent.setup();
    await renderWithRouter(() => <AdminManagement search={{}} onSearchChange={() => {}} currentAdminId={me.id} />, '/admin/admin-management');
    await user.click(await screen.findByRole('button', { name: 'Add admin' }));
    const dialog = await screen.findByRole('dialog');
    await user.type(within(dialog).getByLabelText(/E-mail/), 'neu@example.com');
    await user.type(within(dialog).getByLabelText(/First name/), 'Jeanne');
    await user.type(within(dialog).getByLabelText(/Last name/), 'Martin');
    await user.click(within(dialog).getByRole('combobox', { name: 'Language' }));
    await user.click(await within(dialog).findByRole('option', { name: 'French' }));
    await user.click(within(dialog).getByRole('button', { name: 'Add admin' }));
    await waitFor(() => expect(server?.requests.find((r) => r.method === 'POST')).toBeDefined());
    expect(JSON.parse(server.requests.find((r) => r.method === 'POST')?.body ?? '{}')).toMatchObject({ email: 'neu@example.com', locale: 'fr', role: 'manager' });
  });

  it('deletes another admin after confirmation and changes a role', async () => {
    server = await adminsApi();
    const user = userEvent.setup();
    await renderWithRouter(() => <AdminManagement search={{}} onSearchChange={() => {}} currentAdminId={me.id} />, '/admin/admin-management');
    await user.click(await screen.findByRole('combobox', { name: 'Role of manager@example.com' }));
    await user.click(await screen.findByRole('option', { name: 'Super admin' }));
    await waitFor(() => expect(server?.requests.find((r) => r.method === 'PATCH')?.body).toBe('{"role":"super_admin"}'));

    await user.click(screen.getByRole('button', { name: 'Delete manager@example.com' }));
    await user.click(await screen.findByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument());
    expect(server.requests.some((r) => r.method === 'DELETE' && r.path.endsWith(other.id))).toBe(true);
    // the list is refetched after the mutation
    expect(server.requests.filter((r) => r.method === 'GET' && r.path === '/api/admin/admins').length).toBeGreaterThan(1);
  });
});
