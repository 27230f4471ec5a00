import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { toaster } from '../../src/components/ui/toaster';
import { ServiceAppsPage } from '../../src/features/admin/catalog/service-apps-page';
import { UserInformation } from '../../src/features/admin/users/user-information';
import { account, startAdminServer } from './admin-server';
import { renderWithRouter } from './render';
import { serviceAppFixture } from './service-app-fixture';

/**
 * Back-channel logout in the admin console (issue 31.1): the service app form's URI and session-id switch (validated
 * as the server does, empty = none), the app's "Logout delivery" status and the list's warning, and "End sessions" on
 * the user page.
 */
let server: Awaited<ReturnType<typeof startAdminServer>> | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

const app = serviceAppFixture({
  name: 'billing',
  display_name: 'Billing',
  url: 'https://billing.example.com',
  backchannel_logout_uri: 'https://billing.example.com/backchannel',
  backchannel_logout_session_required: true,
  logout_delivery: { pending: 2, failed: 1, last_delivered_at: '2026-03-01T10:00:00.000Z', last_failure: { at: '2026-03-02T11:00:00.000Z', error: 'http_500' } },
});
const quiet = { ...app, id: 'a2', name: 'wiki', display_name: 'Wiki', backchannel_logout_uri: null, backchannel_logout_session_required: false, logout_delivery: { pending: 0, failed: 0, last_delivered_at: null, last_failure: null } };

function appsApi() {
  return startAdminServer((req) => {
    if (req.method === 'GET' && req.path === '/api/admin/service-apps') return { body: { data: [app, quiet], meta: { page: 1, size: 100, total: 2 } } };
    if (req.method === 'GET' && req.path === '/api/admin/roles') return { body: { data: [], meta: { page: 1, size: 100, total: 0 } } };
    if (req.method === 'PATCH') return { body: { data: { ...app, ...(JSON.parse(req.body) as object), client_secret: null } } };
    return undefined;
  });
}

const patches = () => (server?.requests ?? []).filter((r) => r.method === 'PATCH').map((r) => JSON.parse(String(r.body)) as Record<string, unknown>);

describe('service apps: back-channel logout', () => {
  it('the list warns about an app whose logout tokens fail; the form shows the delivery status in words', { timeout: 30_000 }, async () => {
    server = await appsApi();
    const user = userEvent.setup();
    await renderWithRouter(() => <ServiceAppsPage />, '/admin/service-apps');
    const rows = await screen.findAllByTestId('service-app-row', {}, { timeout: 10_000 });
    expect(rows[0]).toHaveTextContent('Logout delivery failing');
    expect(rows[1]).not.toHaveTextContent('Logout delivery failing');
    await user.click(screen.getByRole('button', { name: 'Edit Billing' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByLabelText(/Back-channel logout URI/)).toHaveValue('https://billing.example.com/backchannel');
    expect(within(dialog).getByRole('checkbox', { name: /session id/ })).toBeChecked();
    const status = within(dialog).getByTestId('logout-delivery');
    expect(status).toHaveTextContent('the app answered HTTP 500');
    expect(status).toHaveTextContent(/Waiting to be sent\s*2/);
    expect(status).toHaveTextContent(/Given up after retries\s*1/);
  });

  it('refuses http:// outside loopback and a fragment before sending; an empty URI is sent as null (removed)', { timeout: 30_000 }, async () => {
    server = await appsApi();
    const user = userEvent.setup();
    await renderWithRouter(() => <ServiceAppsPage />, '/admin/service-apps');
    await user.click(await screen.findByRole('button', { name: 'Edit Billing' }, { timeout: 10_000 }));
    const dialog = await screen.findByRole('dialog');
    const field = within(dialog).getByLabelText(/Back-channel logout URI/);
    await user.clear(field);
    await user.type(field, 'http://billing.example.com/bc');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText('Use an https:// address (http:// only for localhost, 127.0.0.1 or ::1)')).toBeInTheDocument();
    await user.clear(field);
    await user.type(field, 'https://billing.example.com/bc#x');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText(/is invalid/)).toBeInTheDocument();
    expect(patches()).toEqual([]);
    await user.clear(field);
    await user.type(field, 'http://127.0.0.1:8080/bc');
    await user.click(within(dialog).getByRole('checkbox', { name: /session id/ }));
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(patches()).toHaveLength(1));
    expect(patches()[0]).toMatchObject({ backchannel_logout_uri: 'http://127.0.0.1:8080/bc', backchannel_logout_session_required: false });

    await user.click(await screen.findByRole('button', { name: 'Edit Billing' }, { timeout: 10_000 }));
    const again = await screen.findByRole('dialog');
    await user.clear(within(again).getByLabelText(/Back-channel logout URI/));
    await user.click(within(again).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(patches()).toHaveLength(2));
    expect(patches()[1]).toMatchObject({ backchannel_logout_uri: null });
  });
});

describe('user information: End sessions', () => {
  const person = account(9);
  it('asks first, then POSTs end-sessions and says so', { timeout: 30_000 }, async () => {
    const toasts = vi.spyOn(toaster, 'create');
    server = await startAdminServer((req) => {
      if (req.method === 'GET' && req.path === `/api/admin/users/${person.id}`) {
        return { body: { data: { ...person, latest_activity: null, role_subscriptions: [], user_authentication_activities: [], created_by_admin: null } } };
      }
      if (req.method === 'POST' && req.path === `/api/admin/users/${person.id}/end-sessions`) return { body: { data: { id: person.id, grants_ended: 3 } } };
      return undefined;
    });
    await renderWithRouter(() => <UserInformation id={person.id} canEditRoles={false} />);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'End sessions' }, { timeout: 10_000 }));
    const dialog = await screen.findByRole('alertdialog', {}, { timeout: 10_000 });
    expect(dialog).toHaveTextContent(`${person.email} is signed out everywhere`);
    expect(server.requests.some((r) => r.method === 'POST')).toBe(false);
    await user.click(within(dialog).getByRole('button', { name: 'End sessions' }));
    await waitFor(() => expect(server?.requests.filter((r) => r.method === 'POST').map((r) => r.path)).toEqual([`/api/admin/users/${person.id}/end-sessions`]), { timeout: 10_000 });
    await waitFor(() => expect(toasts).toHaveBeenCalledWith(expect.objectContaining({ type: 'success', title: 'Sessions ended', description: person.email })), { timeout: 10_000 });
    await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument(), { timeout: 10_000 });
    toasts.mockRestore();
  });
});
