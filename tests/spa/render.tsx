import { I18nProvider } from '@lingui/react';
import { QueryClientProvider } from '@tanstack/react-query';
import { createMemoryHistory, createRootRoute, createRoute, createRouter, RouterProvider } from '@tanstack/react-router';
import { render } from '@testing-library/react';
import type { ReactNode } from 'react';
import { createActor } from 'xstate';
import { sessionMachine } from '../../machines/session.machine';
import { i18n } from '../../src/lib/i18n';
import { createQueryClient } from '../../src/lib/query-client';
import { createAppRouter } from '../../src/router';

/** The real session machine, not started: what the router context carries. */
function createTestSession() {
  return createActor(sessionMachine, {
    input: {
      config: {
        token_endpoint: 'http://localhost/oidc/token',
        end_session_endpoint: 'http://localhost/oidc/session/end',
        clients: { portal: 'portal', admin: 'admin-console' },
      },
      origin: 'http://localhost',
      stored: { token: null, admin_session: null, locale: null },
    },
  });
}

/** Renders the application's route tree at `path`. */
export async function renderApp(path: string) {
  const queryClient = createQueryClient();
  const router = createAppRouter({ session: createTestSession(), queryClient });
  router.history.destroy();
  router.update({ ...router.options, history: createMemoryHistory({ initialEntries: [path] }) });
  await router.load();
  const view = render(
    <I18nProvider i18n={i18n}>
      <QueryClientProvider client={queryClient}>
        <RouterProvider router={router} />
      </QueryClientProvider>
    </I18nProvider>,
  );
  return { ...view, router, queryClient };
}

/** Renders a component inside a minimal router (for Links) with i18n and react-query. */
export async function renderWithRouter(ui: () => ReactNode, path = '/admin/dashboard') {
  const queryClient = createQueryClient();
  const rootRoute = createRootRoute({ component: () => <>{ui()}</> });
  const catchAll = createRoute({ getParentRoute: () => rootRoute, path: '$', component: () => null });
  const router = createRouter({
    routeTree: rootRoute.addChildren([catchAll]),
    history: createMemoryHistory({ initialEntries: [path] }),
  });
  await router.load();
  const view = render(
    <I18nProvider i18n={i18n}>
      <QueryClientProvider client={queryClient}>
        <RouterProvider router={router} />
      </QueryClientProvider>
    </I18nProvider>,
  );
  return { ...view, router, queryClient };
}
