import { createRouter } from '@tanstack/react-router';
import { GlobalNotFound } from './components/errors/not-found-page';
import { RouteErrorPage } from './components/errors/route-error-page';
import type { RouterContext } from './lib/router-context';
import { routeTree, type FileRouteTypes } from './routeTree.gen';

export function createAppRouter(context: RouterContext) {
  return createRouter({
    routeTree,
    context,
    defaultPreload: 'intent',
    // react-query owns caching; loaders always ask it.
    defaultPreloadStaleTime: 0,
    defaultNotFoundComponent: GlobalNotFound,
    defaultErrorComponent: RouteErrorPage,
    scrollRestoration: true,
  });
}

export type AppRouter = ReturnType<typeof createAppRouter>;

declare module '@tanstack/react-router' {
  interface Register {
    router: AppRouter;
  }
}

/** The pages machines may open (machines/navigation.ts `AppPath`): the route tree's paths without path parameters. */
declare module '../machines/navigation' {
  interface Register {
    to: Exclude<FileRouteTypes['to'], `${string}$${string}`>;
  }
}
