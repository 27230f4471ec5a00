import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { LoginScreen } from '../../src/features/account/login/login-screen';
import type { LoginSearch } from '../../src/features/account/login/login-search';
import { startAdminServer } from './admin-server';
import { renderWithRouter } from './render';

/** Issue 14: the upstream-SSO answers of the server get their own pages (not "please try again", not JSON). */
let server: Awaited<ReturnType<typeof startAdminServer>> | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

const config = {
  issuer: 'http://x/oidc', authorization_endpoint: 'http://x/oidc/auth', token_endpoint: 'http://x/oidc/token', end_session_endpoint: '', revocation_endpoint: '', userinfo_endpoint: '', jwks_uri: '',
  scope: 'openid', clients: { portal: 'portal', admin: 'admin-console' }, sso_providers: [{ id: 'b', name: 'Corp IdP' }], languages: ['en'], default_locale: 'en',
};

async function open(search: LoginSearch) {
  server = await startAdminServer((req) => (req.path === '/api/config' ? { body: { data: config } } : undefined));
  const qs = new URLSearchParams(search as Record<string, string>).toString();
  return renderWithRouter(() => <LoginScreen admin={false} search={search} />, `/login?${qs}`);
}

describe('SSO callback screens', () => {
  it('no SSO account here: names the provider, tells to ask an admin, offers no "Try again"', async () => {
    await open({ interaction: 'uid-1', error: 'sso_account_not_found', provider: 'b' });
    expect(await screen.findByText(/You signed in with Corp IdP, but no account here uses it\. Trying again will not help: ask an administrator/)).toBeInTheDocument();
    expect(document.querySelector('[data-screen="screen:sso.account-not-found"]')).not.toBeNull();
    expect(screen.queryByRole('button', { name: 'Try again' })).toBeNull();
    expect(screen.queryByText('Sign-in could not be completed. Please try again.')).toBeNull();
  });

  it('a reloaded or reused callback: an expired page with "Sign in again"', async () => {
    await open({ error: 'interaction_expired' });
    expect(await screen.findByText('This sign-in link has expired or was already used. Please sign in again.')).toBeInTheDocument();
    expect(document.querySelector('[data-screen="screen:sso.expired"]')).not.toBeNull();
    expect(screen.getByRole('button', { name: 'Sign in again' })).toBeInTheDocument();
  });

  it('the upstream provider failed: its own message and "Try again"', async () => {
    await open({ interaction: 'uid-1', error: 'sso_failed', provider: 'b' });
    expect(await screen.findByText("Signing in through your organization's provider did not work. Please try again.")).toBeInTheDocument();
    expect(document.querySelector('[data-screen="screen:sso.error"]')).not.toBeNull();
    await userEvent.setup().click(screen.getByRole('button', { name: 'Try again' }));
  });
});
