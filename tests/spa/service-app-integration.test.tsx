import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { ServiceAppsPage } from '../../src/features/admin/catalog/service-apps-page';
import { integrationFor } from '../../src/features/admin/catalog/service-app-integration';
import { activateLocale } from '../../src/lib/i18n';
import { startAdminServer } from './admin-server';
import { renderWithRouter } from './render';

let server: Awaited<ReturnType<typeof startAdminServer>> | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
  await activateLocale('en');
});

const ISSUER = 'https://iam.example.com/oidc';
const billing = {
  id: 'a1',
  name: 'billing',
  display_name: 'Billing',
  url: 'https://billing.example.com/',
  path: '/auth/callback',
  client_type: 'confidential',
  roles: [{ id: 'r1', name: 'BILLING_USER' }],
  created_at: '2026-01-01T00:00:00.000Z',
  updated_at: '2026-01-01T00:00:00.000Z',
};

async function api() {
  return startAdminServer((req) => {
    if (req.method === 'GET' && req.path === '/api/admin/service-apps') return { body: { data: [billing], meta: { page: 1, size: 100, total: 1 } } };
    if (req.method === 'GET' && req.path === '/api/admin/roles') return { body: { data: [{ id: 'r1', name: 'BILLING_USER', description: '' }], meta: { page: 1, size: 100, total: 1 } } };
    if (req.method === 'GET' && req.path === '/api/config') return { body: { data: { issuer: ISSUER, sso_providers: [] } } };
    return undefined;
  });
}

describe('service app integration', () => {
  it('derives the exact URIs and fills every set-up with them', () => {
    const info = integrationFor({ issuer: ISSUER, clientId: 'billing', confidential: true, url: 'https://billing.example.com/', path: '/auth/callback' });
    expect(info.discoveryUrl).toBe('https://iam.example.com/oidc/.well-known/openid-configuration');
    expect(info.redirectUri).toBe('https://billing.example.com/auth/callback');
    expect(info.postLogoutRedirectUri).toBe('https://billing.example.com/');
    for (const s of info.snippets) expect(s.code, s.id).toContain('billing');
    const apache = info.snippets.find((s) => s.id === 'mod_auth_openidc')!.code;
    expect(apache).toContain('OIDCProviderMetadataURL https://iam.example.com/oidc/.well-known/openid-configuration');
    expect(apache).toContain('OIDCRedirectURI https://billing.example.com/auth/callback');
    expect(apache).toContain('OIDCPKCEMethod S256');
    expect(apache).toContain('OIDCClientSecret');
    // a public client has no secret anywhere
    const pub = integrationFor({ issuer: ISSUER, clientId: 'spa', confidential: false, url: 'https://spa.example.com', path: '/cb' });
    for (const s of pub.snippets) expect(s.code, s.id).not.toMatch(/ClientSecretBasic|OIDCClientSecret|OIDC_CLIENT_SECRET/);
    expect(pub.snippets.find((s) => s.id === 'openid-client')!.code).toContain('client.None()');
  });

  it('shows the discovery URL, client id, redirect URIs and copyable set-ups on the service apps page', async () => {
    server = await api();
    const user = userEvent.setup();
    await renderWithRouter(() => <ServiceAppsPage />, '/admin/service-apps');
    await user.click(await screen.findByRole('button', { name: 'Connect Billing' }));
    const dialog = await screen.findByRole('dialog', { name: 'Connect Billing' });
    expect(await within(dialog).findByTestId('discovery-url')).toHaveTextContent('https://iam.example.com/oidc/.well-known/openid-configuration');
    expect(within(dialog).getByTestId('client-id')).toHaveTextContent('billing');
    expect(within(dialog).getByTestId('redirect-uri')).toHaveTextContent('https://billing.example.com/auth/callback');
    expect(within(dialog).getByTestId('post-logout-uri')).toHaveTextContent('https://billing.example.com/');
    expect(within(dialog).getByText(/compared exactly/)).toBeVisible();
    expect(within(dialog).getByTestId('snippet-env')).toHaveTextContent('OIDC_CLIENT_ID=billing');

    await user.click(within(dialog).getByRole('tab', { name: 'Apache mod_auth_openidc' }));
    const apache = await within(dialog).findByTestId('snippet-mod_auth_openidc');
    expect(apache).toHaveTextContent('OIDCRedirectURI https://billing.example.com/auth/callback');
    await user.click(within(dialog).getByRole('button', { name: 'Copy set-up' }));
    expect(await navigator.clipboard.readText()).toContain('OIDCProviderMetadataURL https://iam.example.com/oidc/.well-known/openid-configuration');

    await user.click(within(within(dialog).getByRole('group', { name: 'Discovery URL' })).getByRole('button', { name: 'Copy' }));
    expect(await navigator.clipboard.readText()).toBe('https://iam.example.com/oidc/.well-known/openid-configuration');
    expect(server.requests.filter((r) => r.path === '/api/config')).toHaveLength(1);
  });

  it('is translated (German)', async () => {
    await activateLocale('de');
    server = await api();
    const user = userEvent.setup();
    await renderWithRouter(() => <ServiceAppsPage />, '/admin/service-apps');
    await user.click(await screen.findByRole('button', { name: 'Billing verbinden' }));
    const dialog = await screen.findByRole('dialog', { name: 'Billing verbinden' });
    expect(await within(dialog).findByRole('group', { name: 'Discovery-URL' })).toHaveTextContent('https://iam.example.com/oidc/.well-known/openid-configuration');
    expect(within(dialog).getByRole('tab', { name: 'Umgebung' })).toBeVisible();
  });
});
