import { createRootRouteWithContext, Outlet } from '@tanstack/react-router';
import { lazy, Suspense } from 'react';
import { GlobalNotFound } from '../components/errors/not-found-page';
import { PreloadErrorBanner } from '../components/errors/preload-error-banner';
import { RouteErrorPage } from '../components/errors/route-error-page';
import { RouteAnnouncer } from '../components/route-announcer';
import { loadCatalogsFor } from '../lib/i18n';
import type { RouterContext } from '../lib/router-context';

// Not needed for the first paint: the toast machine loads after it. Toasts created before it mounts are kept by
// the toaster store and shown once it does.
const Toaster = lazy(() => import('../components/ui/toast').then((module) => ({ default: module.Toaster })));

export const Route = createRootRouteWithContext<RouterContext>()({
  // the strings of the page being opened (src/lib/catalog-areas.ts): loaded before it renders when the SPA started on
  // a page that did not need them
  beforeLoad: ({ location }) => loadCatalogsFor(location.pathname),
  component: RootComponent,
  notFoundComponent: GlobalNotFound,
  errorComponent: RouteErrorPage,
});

function RootComponent() {
  return (
    <>
      <RouteAnnouncer />
      <PreloadErrorBanner />
      <Outlet />
      <Suspense fallback={null}>
        <Toaster />
      </Suspense>
    </>
  );
}
