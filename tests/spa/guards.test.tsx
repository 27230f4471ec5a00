import { I18nProvider } from '@lingui/react';
import { QueryClientProvider } from '@tanstack/react-query';
import { createMemoryHistory, RouterProvider } from '@tanstack/react-router';
import { render, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import { sessionMachine } from '../../machines/session.machine';
import type { Tokens } from '../../machines/shared';
import { accountKeys, type CurrentAdminResponse, type CurrentUser } from '../../src/api/account';
import { i18n } from '../../src/lib/i18n';
import { createQueryClient } from '../../src/lib/query-client';
import { createAppRouter } from '../../src/router';

type Who = 'guest' | 'user' | 'super_admin' | 'manager';

function tokensFor(who: Who): Tokens | null {
  if (who === 'guest') return null;
  return { access_token: `at-${who}`, refresh_token: 'rt', id_token: null, expires_at: Date.now() + 3_600_000, client: who === 'user' ? 'portal' : 'admin-console' };
}

function createSession(who: Who, effects: string[] = []) {
  const tokens = tokensFor(who);
  const machine = sessionMachine.provide({
    actors: {
      revokeTokens: fromPromise<{ upstreamLogoutUrl: string | null }, { tokens: Tokens }>(async ({ input }) => {
        effects.push(`revokeTokens ${input.tokens.access_token}`);
        return { upstreamLogoutUrl: null };
      }),
    },
    actions: {
      writeStorage: (_, p: { key: string }) => void effects.push(`writeStorage ${p.key}`),
      removeStorage: (_, p: { keys: string[] }) => void effects.push(`removeStorage ${p.keys.join(',')}`),
      redirect: () => void effects.push('redirect'),
      navigate: () => void effects.push('navigate'),
      clearQueryCache: () => void effects.push('clearQueryCache'),
      resetCachedData: () => undefined,
      applyLocale: () => undefined,
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
  return (await openWithEffects(path, who)).router;
}

async function openWithEffects(path: string, who: Who) {
  const effects: string[] = [];
  const session = createSession(who, effects);
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
  const router = createAppRouter({ session, queryClient });
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
  return { router, session, effects };
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
    expect((await landsOn('/admin/settings', 'super_admin')).pathname).toBe('/admin/settings');
  });
  it.each(['/admin/roles', '/admin/admin-management', '/admin/service-apps', '/admin/subscriptions', '/admin/settings'])('sends a manager from %s to /404', async (path) => {
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
  it('a signed-in visitor with a stale `code` goes home: the code is never exchanged (issue 13)', async () => {
    expect((await landsOn('/admin/login?code=abc&state=xyz', 'super_admin')).pathname).toBe('/admin/dashboard');
    expect((await landsOn('/login?code=abc&state=xyz', 'user')).pathname).toBe('/');
  });
  it('keeps a guest on the login page while a code is processed', async () => {
    const location = await landsOn('/admin/login?code=abc&state=xyz', 'guest');
    expect(location.pathname).toBe('/admin/login');
    expect(location.search).toMatchObject({ code: 'abc' });
  });
  it.each(['/reset-password?url=x', '/admin/reset-password?url=x', '/verify/user?url=x'])(
    'on %s the guard only tells the session: it revokes and clears the tokens itself, the page stays, no reload',
    async (path) => {
      const reload = vi.fn();
      vi.stubGlobal('location', { ...window.location, reload });
      const { router, session, effects } = await openWithEffects(path, 'user');
      await waitFor(() => expect(router.state.status).toBe('idle'));
      expect(router.state.location.pathname).toBe(path.split('?')[0]);
      expect(session.getSnapshot().hasTag('screen:session.signed-out')).toBe(true);
      expect(effects).toEqual(['clearQueryCache', 'revokeTokens at-user', 'removeStorage token,admin_session']);
      expect(reload).not.toHaveBeenCalled();
      vi.unstubAllGlobals();
    },
  );
  it('decides from the session, never from storage: a token left in localStorage does not let a guest in', async () => {
    window.localStorage.setItem('token', JSON.stringify(tokensFor('user')));
    try {
      expect((await landsOn('/profile', 'guest')).pathname).toBe('/login');
    } finally {
      window.localStorage.removeItem('token');
    }
  });
});
