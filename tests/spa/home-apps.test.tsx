import { screen, within } from '@testing-library/react';
import { afterEach, expect, it } from 'vitest';
import type { CurrentUser } from '../../contract/auth';
import { HomeScreen } from '../../src/features/account/home/home-screen';
import { startAdminServer } from './admin-server';
import { renderWithRouter } from './render';

/** The home page opens each app where the server says (`launch_url`: initiate_login_uri with iss, else the app's url), never at its redirect URI. */
let server: Awaited<ReturnType<typeof startAdminServer>> | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

const me: CurrentUser = {
  auth_user: {
    id: 'u1', email: 'ann@example.com', first_name: 'Ann', last_name: 'Lee', phone: null, locale: 'en', type: 'user', status: 'ACTIVE',
    auth_type: 'CREDENTIALS', provider: null, technical: false, avatar_url: null, created_at: '2026-01-01T00:00:00.000Z', updated_at: '2026-01-01T00:00:00.000Z',
    subscriptions: [
      {
        id: 's1', name: 'Team', description: '', roles: [{ id: 'r1', name: 'MEMBER' }],
        service_apps: [
          { id: 'a1', name: 'wiki', display_name: 'Wiki', url: 'https://wiki.example.com', path: '/auth/callback', launch_url: 'https://wiki.example.com/login?iss=https%3A%2F%2Fiam.example.com%2Foidc' },
          { id: 'a2', name: 'crm', display_name: 'CRM', url: 'https://crm.example.com', path: '/callback', launch_url: 'https://crm.example.com/' },
        ],
      },
    ],
  },
  '2fa': { enabled: false, method: null },
  sso_login: false,
};

it("links each app to its launch_url in a new tab, not to url + path (the app's callback)", { timeout: 30_000 }, async () => {
  server = await startAdminServer((req) => (req.method === 'GET' && req.path === '/api/user' ? { body: { data: me } } : undefined));
  await renderWithRouter(() => <HomeScreen />, '/');
  const wiki = await screen.findByRole('link', { name: /Wiki/ }, { timeout: 10_000 });
  expect(wiki.getAttribute('href')).toBe('https://wiki.example.com/login?iss=https%3A%2F%2Fiam.example.com%2Foidc');
  expect(wiki.getAttribute('target')).toBe('_blank');
  expect(wiki.getAttribute('rel')).toContain('noopener');
  const crm = screen.getByRole('link', { name: /CRM/ });
  expect(crm.getAttribute('href')).toBe('https://crm.example.com/');
  for (const link of [wiki, crm]) expect(link.getAttribute('href')).not.toMatch(/callback/);
  expect(within(screen.getByRole('list', { name: 'Your roles' })).getByText('MEMBER')).toBeTruthy();
});
