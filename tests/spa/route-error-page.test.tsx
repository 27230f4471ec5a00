/**
 * The error boundary (issue 29): a route error nobody handled shows a product page in the person's language with a
 * way back, focus on its heading; never the error's message or stack.
 */
import { I18nProvider } from '@lingui/react';
import { QueryClientProvider } from '@tanstack/react-query';
import { createMemoryHistory, createRootRoute, createRoute, createRouter, Outlet, RouterProvider } from '@tanstack/react-router';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { RouteErrorPage } from '../../src/components/errors/route-error-page';
import { activateLocale, i18n } from '../../src/lib/i18n';
import { createQueryClient } from '../../src/lib/query-client';

const SECRET = 'TypeError: (v.data ?? []).map is not a function at secret.ts:12';

async function renderFailing(path: string, failures: { left: number }) {
  const rootRoute = createRootRoute({ component: Outlet, errorComponent: RouteErrorPage });
  const Boom = () => {
    if (failures.left > 0) {
      failures.left -= 1;
      throw new Error(SECRET);
    }
    return <h1>Recovered</h1>;
  };
  const page = createRoute({ getParentRoute: () => rootRoute, path: '$', component: Boom });
  const router = createRouter({ routeTree: rootRoute.addChildren([page]), history: createMemoryHistory({ initialEntries: [path] }) });
  await router.load();
  render(
    <I18nProvider i18n={i18n}>
      <QueryClientProvider client={createQueryClient()}>
        <RouterProvider router={router} />
      </QueryClientProvider>
    </I18nProvider>,
  );
}

describe('route error page', () => {
  it("in the person's language, focus on its heading, a way back, and no raw message or stack", async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    await activateLocale('de');
    await renderFailing('/admin/user-management', { left: 99 });
    const heading = await screen.findByRole('heading', { level: 1, name: 'Etwas ist schiefgelaufen' });
    await waitFor(() => expect(heading).toHaveFocus());
    expect(screen.getByRole('link', { name: 'Zur Startseite' })).toHaveAttribute('href', '/admin/dashboard');
    expect(screen.getByRole('button', { name: 'Erneut versuchen' })).toBeInTheDocument();
    expect(document.body.textContent).not.toContain('is not a function');
    expect(document.body.textContent).not.toContain('secret.ts');
    expect(document.body.textContent).not.toContain('Unexpected Application Error');
  });

  it('outside the console the way back is home; "Try again" renders the page again', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const failures = { left: 99 };
    await renderFailing('/profile', failures);
    expect(await screen.findByRole('heading', { level: 1, name: 'Something went wrong' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Go to Home' })).toHaveAttribute('href', '/');
    failures.left = 0;
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('heading', { name: 'Recovered' })).toBeInTheDocument();
  });
});
