/**
 * Where a machine sends the SPA (its injected `navigate` action): a page of the route tree, typed by the route tree
 * without importing the router. As TanStack Router's own `Register`, the SPA registers the paths of its route tree
 * here (src/router.tsx: `declare module '../machines/navigation' { interface Register { to: … } }`), so a target that
 * is no page fails tsc in the machine itself, and the screen hands it to `navigate({ to })`, which checks it again.
 */

/** Filled by src/router.tsx with the route tree's paths (the pages without path parameters). */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- augmented by the SPA, as TanStack Router's Register
export interface Register {}

/** A page of the SPA's route tree (`'/admin/dashboard'`, `'/login'`); any string only where nothing registered it. */
export type AppPath = Register extends { to: infer To extends string } ? To : string;

/** A page by its route path, opened with `search` (a plain record of strings); `replace` replaces the history entry. */
export interface PageTarget {
  to: AppPath;
  search?: Record<string, string>;
  replace?: boolean;
}

