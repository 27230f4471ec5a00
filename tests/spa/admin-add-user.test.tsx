import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { AddUserDialog } from '../../src/features/admin/users/add-user-dialog';
import { account, startAdminServer } from './admin-server';
import { renderWithRouter } from './render';

let server: Awaited<ReturnType<typeof startAdminServer>> | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

const config = (providers: { id: string; name: string }[]) => ({
  data: {
    issuer: 'http://x/oidc', authorization_endpoint: '', token_endpoint: '', end_session_endpoint: '', jwks_uri: '', scope: 'openid',
    clients: { portal: 'portal', admin: 'admin-console' }, sso_providers: providers, languages: ['en', 'de', 'fr', 'it'], default_locale: 'en',
  },
});

function api(providers: { id: string; name: string }[]) {
  return startAdminServer((req) => {
    if (req.path === '/api/config') return { body: config(providers) };
    if (req.method === 'POST' && req.path === '/api/admin/users') return { status: 201, body: { data: { ...account(5, { email: 'luca@example.com', locale: 'it' }), invitation_sent: true } } };
    return undefined;
  });
}

describe('Add user dialog', () => {
  it("does not offer 'By SSO' without an identity provider and says why", async () => {
    server = await api([]);
    await renderWithRouter(() => <AddUserDialog open onOpenChange={() => {}} />, '/admin/user-management');
    const dialog = await screen.findByRole('dialog');
    const sso = within(dialog).getByRole('radio', { name: 'By SSO' });
    await waitFor(() => expect(sso).toBeDisabled());
    expect(sso).toHaveAccessibleDescription('Sign-in by SSO needs an identity provider; none is configured on this server.');
    expect(within(dialog).getByRole('radio', { name: 'By credentials (invitation)' })).toBeChecked();
  });

  it("offers 'By SSO' when a provider exists", async () => {
    server = await api([{ id: 'corp', name: 'Corp AD' }]);
    await renderWithRouter(() => <AddUserDialog open onOpenChange={() => {}} />, '/admin/user-management');
    const dialog = await screen.findByRole('dialog');
    await waitFor(() => expect(server?.requests.some((r) => r.path === '/api/config')).toBe(true));
    const sso = within(dialog).getByRole('radio', { name: 'By SSO' });
    expect(sso).toBeEnabled();
    expect(sso).not.toHaveAccessibleDescription();
  });

  it('asks for the language and sends it', async () => {
    server = await api([]);
    const user = userEvent.setup();
    await renderWithRouter(() => <AddUserDialog open onOpenChange={() => {}} />, '/admin/user-management');
    const dialog = await screen.findByRole('dialog');
    await user.type(within(dialog).getByLabelText(/E-mail/), 'luca@example.com');
    await user.type(within(dialog).getByLabelText(/First name/), 'Luca');
    await user.type(within(dialog).getByLabelText(/Last name/), 'Bianchi');
    await user.click(within(dialog).getByRole('combobox', { name: 'Language' }));
    await user.click(await within(dialog).findByRole('option', { name: 'Italian' }));
    await user.click(within(dialog).getByRole('button', { name: 'Add and send invitation' }));
    await waitFor(() => expect(server?.requests.find((r) => r.method === 'POST')).toBeDefined());
    expect(JSON.parse(server.requests.find((r) => r.method === 'POST')?.body ?? '{}')).toMatchObject({ locale: 'it', auth_type: 'CREDENTIALS' });
  });

  it('phone: the hint shows the expected format; a number without country code is refused with it; spaces are accepted (issue 29)', async () => {
    server = await api([]);
    const user = userEvent.setup();
    await renderWithRouter(() => <AddUserDialog open onOpenChange={() => {}} />, '/admin/user-management');
    const dialog = await screen.findByRole('dialog');
    const phone = within(dialog).getByLabelText(/^Phone/);
    expect(phone).toHaveAccessibleDescription(/International format: \+ and the country code, then the number, e\.g\. \+33612345678/);
    await user.type(within(dialog).getByLabelText(/E-mail/), 'luca@example.com');
    await user.type(within(dialog).getByLabelText(/First name/), 'Luca');
    await user.type(within(dialog).getByLabelText(/Last name/), 'Bianchi');
    await user.type(phone, '06 12 34 56 78');
    await user.click(within(dialog).getByRole('button', { name: 'Add and send invitation' }));
    expect(await within(dialog).findByText('Enter the number in international format: + and the country code, then the number, e.g. +33612345678')).toBeInTheDocument();
    expect(dialog).not.toHaveTextContent('is invalid');
    expect(server?.requests.some((r) => r.method === 'POST')).toBe(false);
    await user.clear(phone);
    await user.type(phone, '+33 6 12 34 56 78');
    await user.click(within(dialog).getByRole('button', { name: 'Add and send invitation' }));
    await waitFor(() => expect(server?.requests.find((r) => r.method === 'POST')).toBeDefined());
    expect(JSON.parse(server?.requests.find((r) => r.method === 'POST')?.body ?? '{}')).toMatchObject({ phone: '+33612345678' });
  });
});
