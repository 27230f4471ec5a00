import { I18nProvider } from '@lingui/react';
import { QueryClientProvider } from '@tanstack/react-query';
import { createMemoryHistory, RouterProvider } from '@tanstack/react-router';
import { render, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createActor } from 'xstate';
import { sessionMachine } from '../../machines/session.machine';
import type { Tokens } from '../../machines/shared';
import { accountKeys, type CurrentAdminResponse, type CurrentUser } from '../../src/api/account';
import { afterLoginTarget, guardPublicArea, safeOrigin, type PublicGuardEffects } from '../../src/lib/guards';
import { i18n } from '../../src/lib/i18n';
import { createQueryClient } from '../../src/lib/query-client';
import { createAppRouter } from '../../src/router';

type Who = 'guest' | 'user' | 'super_admin' | 'manager';

function tokensFor(who: Who): Tokens | null {
  if (who === 'guest') return null;
  return { access_token: `at-${who}`, refresh_token: 'rt', id_token: null, expires_at: Date.now() + 3_600_000, client: who === 'user' ? 'portal' : 'admin-console' };
}

function createSession(who: Who) {
  const tokens = tokensFor(who);
  const machine = sessionMachine.provide({
    actions: {
      writeStorage: () => undefined,
      removeStorage: () => undefined,
      redirect: () => undefined,
      navigate: () => undefined,
      clearQueryCache: () => undefined,
      resetCachedData: () => undefined,
    },
  });
  const actor = createActor(machine, {
    input: {
      config: { token_endpoint: 'http://localhost/oidc/token', end_session_endpoint: 'http://localhost/oidc/session/end', clients: { portal: 'portal', admin: 'admin-console' } },
      origin: 'http://localhost',
      stored: { token: tokens ? JSON.stringify(tokens) : null, admin_session: tokens ? String(tokens.client === 'admin-console') : null, locale: null },
    },
  });
  actor.start();
  return actor;
}

const baseUser = {
  id: 'u1',
  email: 'ada@example.com',
  first_name: 'Ada',
  last_name: 'Lovelace',
  phone: null,
  locale: 'en',
  status: 'ACTIVE' as const,
  auth_type: 'CREDENTIALS' as const,
  provider: null,
  technical: false,
  avatar_url: null,
  created_at: '2024-01-01T00:00:00Z',
  updated_at: '2024-01-01T00:00:00Z',
};

/** The real route tree, a memory history, and a fake server for the few account calls. */
async function openAt(path: string, who: Who) {
  const queryClient = createQueryClient();
  if (who === 'super_admin' || who === 'manager') {
    const admin: CurrentAdminResponse = { auth_user: { ...baseUser, type: 'admin', role: who }, '2fa': { enabled: false, method: null } };
    queryClient.setQueryData(accountKeys.admin, admin);
  }
  if (who === 'user') {
    const user: CurrentUser = { auth_user: { ...baseUser, type: 'user', subscriptions: [] }, '2fa': { enabled: false, method: null }, sso_login: false };
    queryClient.setQueryData(accountKeys.user, user);
  }
  // Anything not pre-seeded (languages, config…) answers like a server that is down.
  vi.stubGlobal('fetch', vi.fn(async () => new Response(JSON.stringify({ error: { code: 'internal_error', message: 'x' } }), { status: 500 })));
  const router = createAppRouter({ session: createSession(who), queryClient });
  router.history.destroy();
  router.update({ ...router.options, history: createMemoryHistory({ initialEntries: [path] }) });
  await router.load();
  render(
    <I18nProvider i18n={i18n}>
      <QueryClientProvider client={queryClient}>
        <RouterProvider router={router} />
      </QueryClientProvider>
    </I18nProvider>,
  );
  return router;
}

async function landsOn(path: string, who: Who) {
  const router = await openAt(path, who);
  await waitFor(() => expect(router.state.status).toBe('idle'));
  return router.state.location;
}

afterEach(() => {
  window.sessionStorage.clear();
});

describe('admin area guard', () => {
  it('sends guests to the admin login', async () => {
    expect((await landsOn('/admin/dashboard', 'guest')).pathname).toBe('/admin/login');
  });
  it('sends a signed-in user to /404', async () => {
    expect((await landsOn('/admin/user-management', 'user')).pathname).toBe('/404');
  });
  it('lets an admin in', async () => {
    expect((await landsOn('/admin/dashboard', 'manager')).pathname).toBe('/admin/dashboard');
    expect((await landsOn('/admin/roles', 'super_admin')).pathname).toBe('/admin/roles');
  });
  it.each(['/admin/roles', '/admin/admin-management', '/admin/service-apps', '/admin/subscriptions'])('sends a manager from %s to /404', async (path) => {
    expect((await landsOn(path, 'manager')).pathname).toBe('/404');
  });
  it('lets a manager open user management', async () => {
    expect((await landsOn('/admin/user-management', 'manager')).pathname).toBe('/admin/user-management');
  });
  it('redirects a bare /admin/ to the dashboard', async () => {
    expect((await landsOn('/admin/', 'super_admin')).pathname).toBe('/admin/dashboard');
  });
});

describe('user area guard', () => {
  it('sends guests to /login keeping origin', async () => {
    const location = await landsOn('/profile', 'guest');
    expect(location.pathname).toBe('/login');
    expect(location.search).toMatchObject({ origin: '/profile' });
  });
  it('sends an admin to /404', async () => {
    expect((await landsOn('/profile', 'super_admin')).pathname).toBe('/404');
  });
  it('lets a user in', async () => {
    expect((await landsOn('/', 'user')).pathname).toBe('/');
  });
});

describe('public area guard', () => {
  it('sends a signed-in user home and an admin to the dashboard', async () => {
    expect((await landsOn('/login', 'user')).pathname).toBe('/');
    expect((await landsOn('/admin/login', 'super_admin')).pathname).toBe('/admin/dashboard');
    expect((await landsOn('/forgot-password', 'manager')).pathname).toBe('/admin/dashboard');
  });
  it('keeps the visitor on the login page while a code is processed', async () => {
    expect((await landsOn('/admin/login?code=abc&state=xyz', 'super_admin')).pathname).toBe('/admin/login');
  });
  it('clears stored tokens on reset and verify paths and reloads once', async () => {
    const flags = new Map<string, string>();
    const effects: PublicGuardEffects = {
      hasStoredTokens: () => true,
      clearStoredTokens: vi.fn(),
      reload: vi.fn(),
      flags: { getItem: (k) => flags.get(k) ?? null, setItem: (k, v) => void flags.set(k, v), removeItem: (k) => void flags.delete(k) },
    };
    const context = { session: createSession('user'), queryClient: createQueryClient() };
    const location = { pathname: '/reset-password', href: '/reset-password?url=x', search: { url: 'x' } };
    await guardPublicArea({ context, location }, effects);
    expect(effects.clearStoredTokens).toHaveBeenCalledTimes(1);
    expect(effects.reload).toHaveBeenCalledTimes(1);
    // after the reload the flag stops a second one
    await guardPublicArea({ context, location }, effects);
    expect(effects.reload).toHaveBeenCalledTimes(1);
  });
});

describe('after login', () => {
  it('sends admins and /admin origins to the dashboard, others to origin or /', () => {
    expect(afterLoginTarget('admin', '/profile')).toBe('/admin/dashboard');
    expect(afterLoginTarget('user', '/admin/roles')).toBe('/admin/dashboard');
    expect(afterLoginTarget('user', '/profile')).toBe('/profile');
    expect(afterLoginTarget('user')).toBe('/');
    expect(afterLoginTarget('user', 'https://evil.example')).toBe('/');
    expect(safeOrigin('//evil.example')).toBeUndefined();
  });
});
