/** The chunk graph of a build (dist/.vite/manifest.json) as bench/web.ts and bench/web-composition.ts read it. */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { catalogsForPath } from '../src/lib/catalog-areas';

export type ManifestChunk = { file: string; src?: string; isEntry?: boolean; isDynamicEntry?: boolean; imports?: string[]; dynamicImports?: string[]; css?: string[] };
export type Manifest = Record<string, ManifestChunk>;

export function loadManifest(dist: string): Manifest {
  return JSON.parse(readFileSync(path.join(dist, '.vite', 'manifest.json'), 'utf8')) as Manifest;
}

/** Route files (src/routes/…) the router loads for a URL, outermost first; the root route is part of the entry. */
export const ROUTES: Record<string, string[]> = {
  '/login': ['src/routes/_public.tsx', 'src/routes/_public/login.tsx'],
  '/admin/login': ['src/routes/admin/_public.tsx', 'src/routes/admin/_public/login.tsx'],
  '/admin/… (shell layout alone)': ['src/routes/admin/_shell.tsx'],
  '/admin/dashboard (admin shell)': ['src/routes/admin/_shell.tsx', 'src/routes/admin/_shell/dashboard.tsx'],
  '/admin/user-management': ['src/routes/admin/_shell.tsx', 'src/routes/admin/_shell/user-management.tsx'],
  '/admin/admin-management': ['src/routes/admin/_shell.tsx', 'src/routes/admin/_shell/admin-management.tsx'],
  '/ (user home)': ['src/routes/_user.tsx', 'src/routes/_user/index.tsx'],
};

/** The chunk of `key` and everything it imports statically. */
export function closure(manifest: Manifest, keys: string[], into = new Set<string>()): Set<string> {
  for (const key of keys) {
    const chunk = manifest[key];
    if (!chunk || into.has(chunk.file)) continue;
    into.add(chunk.file);
    closure(manifest, chunk.imports ?? [], into);
  }
  return into;
}

/** Split chunks of a route file that render it (component, loader), not the error/not-found ones. */
export function routeKeys(manifest: Manifest, file: string): string[] {
  return Object.keys(manifest).filter((key) => {
    if (key === file) return true;
    if (!key.startsWith(`${file}?`)) return false;
    const split = new URLSearchParams(key.slice(file.length + 1)).get('tsr-split') ?? '';
    return /(^|[^A-Za-z])(component|loader)/.test(split);
  });
}

/** Catalogs loaded at start-up: src/lib/i18n.ts loads the active locale's catalogs the page needs (catalogsForPath). */
export function catalogsFor(manifest: Manifest, route: string, enCatalogs: string[]): string[] {
  // a route's label is its path, then a description: '/admin/dashboard (admin shell)'
  const names = catalogsForPath(route.split(' ')[0] ?? route);
  return enCatalogs.filter((key) => names.includes(path.basename(key, '.ts')));
}
