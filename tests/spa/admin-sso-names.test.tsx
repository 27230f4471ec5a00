import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { Dashboard } from '../../src/features/admin/dashboard/dashboard';
import { UserManagement } from '../../src/features/admin/users/user-management';
import { account, startAdminServer } from './admin-server';
import { renderWithRouter } from './render';

/** Issue 14: SSO sign-ins name their provider (its configured name, not its id) in the user list and on the dashboard. */
let server: Awaited<ReturnType<typeof startAdminServer>> | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

const config = {
  issuer: 'http://x', authorization_endpoint: '', token_endpoint: '', end_session_endpoint: '', revocation_endpoint: '', userinfo_endpoint: '', jwks_uri: '', scope: 'openid',
  clients: { portal: 'portal', admin: 'admin-console' }, sso_providers: [{ id: 'b', name: 'Corp IdP' }], languages: ['en'], default_locale: 'en',
};

describe('SSO provider names in the admin views', () => {
  it("the user list shows 'SSO · <provider name>' instead of the provider's id", async () => {
    server = await startAdminServer((req) => {
      if (req.path === '/api/config') return { body: { data: config } };
      if (req.path === '/api/admin/users') return { body: { data: [account(1, { auth_type: 'SSO', provider: 'b', has_password: false })], meta: { page: 1, size: 10, total: 1 } } };
      if (req.path === '/api/admin/roles') return { body: { data: [], meta: { page: 1, size: 100, total: 0 } } };
      return undefined;
    });
    await renderWithRouter(() => <UserManagement search={{}} onSearchChange={() => {}} />, '/admin/user-management');
    const row = (await screen.findAllByTestId('user-row'))[0]!;
    expect(await within(row).findByText('SSO · Corp IdP')).toBeInTheDocument();
    expect(within(row).queryByText('SSO · b')).toBeNull();
  });

  it('the dashboard shows the origin and the provider of an SSO sign-in', async () => {
    const activity = { id: 'a1', account_id: 'u1', email: 'sso.user@corp.example', type: 'user', client_id: 'portal', logged_in_at: '2026-01-02T10:00:00.000Z', logged_out_at: null, ip_address: '127.0.0.1', origin: 'http://127.0.0.1:4000', provider: { id: 'b', name: 'Corp IdP' } };
    server = await startAdminServer((req) => {
      if (req.path === '/api/admin/logs/activities') return { body: { data: [activity], meta: { page: 1, size: 10, total: 1 } } };
      if (req.path === '/api/admin/logs/activities/daily') return { body: { data: [] } };
      if (req.path === '/api/admin/logs/errors') return { body: { data: [], meta: { page: 1, size: 10, total: 0 } } };
      return undefined;
    });
    await renderWithRouter(() => <Dashboard search={{}} onSearchChange={() => {}} />, '/admin/dashboard');
    const cell = (await screen.findByText('http://127.0.0.1:4000')).closest('td')!;
    expect(within(cell).getByText('Single sign-on · Corp IdP')).toBeInTheDocument();
  });
});
