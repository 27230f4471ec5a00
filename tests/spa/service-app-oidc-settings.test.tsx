import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { ServiceAppsPage } from '../../src/features/admin/catalog/service-apps-page';
import { startAdminServer } from './admin-server';
import { renderWithRouter } from './render';
import { serviceAppFixture } from './service-app-fixture';

let server: Awaited<ReturnType<typeof startAdminServer>> | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

const legacy = serviceAppFixture({
  name: 'legacy',
  display_name: 'Legacy',
  url: 'https://legacy.example.com',
  post_logout_redirect_uris: ['https://legacy.example.com/', 'https://legacy.example.com', 'https://legacy.example.com/cb'],
  client_type: 'confidential',
});

async function api() {
  return startAdminServer((req) => {
    if (req.method === 'GET' && req.path === '/api/admin/service-apps') return { body: { data: [legacy], meta: { page: 1, size: 100, total: 1 } } };
    if (req.method === 'GET' && req.path === '/api/admin/roles') return { body: { data: [], meta: { page: 1, size: 100, total: 0 } } };
    if (req.method === 'PATCH' && req.path === '/api/admin/service-apps/a1') return { body: { data: { ...legacy, ...(JSON.parse(req.body) as object), client_secret: null } } };
    if (req.method === 'POST' && req.path === '/api/admin/service-apps') return { status: 201, body: { data: { ...legacy, id: 'a2', ...(JSON.parse(req.body) as object), client_secret: null } } };
    return undefined;
  });
}

describe('service app form: per-app PKCE, client_credentials and token endpoint authentication', () => {
  it('a confidential app shows both switches and the authentication select and saves them', async () => {
    server = await api();
    const user = userEvent.setup();
    await renderWithRouter(() => <ServiceAppsPage />, '/admin/service-apps');
    await user.click(await screen.findByRole('button', { name: 'Edit Legacy' }, { timeout: 5_000 }));
    const dialog = await screen.findByRole('dialog');
    const pkce = within(dialog).getByRole('checkbox', { name: /Require PKCE/ });
    const cc = within(dialog).getByRole('checkbox', { name: /client credentials grant/ });
    expect(pkce).toBeChecked();
    expect(cc).not.toBeChecked();
    await user.click(pkce);
    await user.click(cc);
    const method = within(dialog).getByRole('combobox', { name: 'Client authentication at the token endpoint' });
    expect(method).toHaveTextContent('client_secret_basic');
    await user.click(method);
    await user.click(await screen.findByRole('option', { name: /client_secret_post/ }));
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    const patch = await waitFor(() => {
      const r = server?.requests.find((q) => q.method === 'PATCH');
      expect(r).toBeTruthy();
      return r;
    });
    expect(JSON.parse(String(patch?.body))).toMatchObject({ client_type: 'confidential', pkce_required: false, client_credentials: true, token_endpoint_auth_method: 'client_secret_post' });
  });

  it('a public app has no such switches nor authentication select and always sends PKCE on, no client_credentials, no secret method', async () => {
    server = await api();
    const user = userEvent.setup();
    await renderWithRouter(() => <ServiceAppsPage />, '/admin/service-apps');
    await user.click(await screen.findByRole('button', { name: 'Add service app' }, { timeout: 5_000 }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).queryByRole('checkbox', { name: /Require PKCE/ })).toBeNull();
    expect(within(dialog).queryByRole('combobox', { name: 'Client authentication at the token endpoint' })).toBeNull();
    await user.type(within(dialog).getByLabelText(/Display name/), 'Wiki');
    await user.type(within(dialog).getByLabelText(/Client ID/), 'wiki');
    await user.type(within(dialog).getByRole('textbox', { name: 'Redirect URI 1' }), 'https://wiki.example.com/cb');
    await user.click(within(dialog).getByRole('button', { name: 'Add service app' }));
    const post = await waitFor(() => {
      const r = server?.requests.find((q) => q.method === 'POST');
      expect(r).toBeTruthy();
      return r;
    });
    const body = JSON.parse(String(post?.body)) as Record<string, unknown>;
    expect(body).toMatchObject({ name: 'wiki', client_type: 'public', pkce_required: true, client_credentials: false, redirect_uris: ['https://wiki.example.com/cb'], post_logout_redirect_uris: [] });
    // a secret method on a public app is a 422 on the server: the form never sends one
    expect(body).not.toHaveProperty('token_endpoint_auth_method');
  });
});
