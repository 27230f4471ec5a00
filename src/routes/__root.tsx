import { createRootRouteWithContext, Outlet } from '@tanstack/react-router';
import { useEffect } from 'react';
import { GlobalNotFound } from '../components/errors/not-found-page';
import { PreloadErrorBanner } from '../components/errors/preload-error-banner';
import { RouteErrorPage } from '../components/errors/route-error-page';
import { Toaster } from '../components/ui/toast';
import { usePageTitle } from '../lib/page-title';
import type { RouterContext } from '../lib/router-context';

export const Route = createRootRouteWithContext<RouterContext>()({
  component: RootComponent,
  notFoundComponent: GlobalNotFound,
  errorComponent: RouteErrorPage,
});

/** Keeps document.title on the matched route's (localized) page title. */
function DocumentTitle() {
  const title = usePageTitle();
  useEffect(() => {
    document.title = title;
  }, [title]);
  return null;
}

function RootComponent() {
  return (
    <>
      <DocumentTitle />
      <PreloadErrorBanner />
      <Outlet />
      <Toaster />
    </>
  );
}
