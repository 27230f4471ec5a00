/**
 * Stately inspector, attached only in development (`npm run dev`) and only when asked for:
 *
 *   createActor(sessionMachine, { input, inspect })
 *
 * `?inspect` in any URL of the app turns it on for the browser tab, `?inspect=off` turns it off. The wish is
 * remembered in the tab's sessionStorage (`iam.inspect`, development only), so it survives the sign-in's round
 * trip through the provider: `/login?inspect` → the provider → `/login?interaction=…` → the provider →
 * `/login?code=…` → the home page, each a new page load whose URL no longer says `inspect`, and every flow
 * machine on the way (session, login, SSO callback, password links, two-factor setup) shows up in the inspector.
 *
 * `@statelyai/inspect` is loaded with a dynamic import behind `import.meta.env.DEV`, so production builds drop
 * it. Events emitted before the inspector has loaded are buffered and replayed.
 */
import type { InspectionEvent } from 'xstate';

/** sessionStorage key of the wish (development only). */
export const INSPECT_STORAGE_KEY = 'iam.inspect';

/** What the URL says: `?inspect` / `?inspect=1` → on, `?inspect=off|0|false` → off, nothing → keep what was said. */
export function inspectWish(search: string | undefined): 'on' | 'off' | null {
  if (search === undefined) return null;
  const params = new URLSearchParams(search);
  if (!params.has('inspect')) return null;
  return ['off', '0', 'false'].includes((params.get('inspect') ?? '').toLowerCase()) ? 'off' : 'on';
}

/** In development: the URL's wish, else the remembered one. Never outside development. */
export function shouldInspect(dev: boolean, search: string | undefined, remembered = false): boolean {
  if (!dev) return false;
  const wish = inspectWish(search);
  return wish === 'on' || (wish === null && remembered);
}

interface WishStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

/** Applies the URL's wish to the tab's storage and answers whether to inspect this page load. */
export function rememberInspectWish(dev: boolean, search: string | undefined, storage: WishStorage | null): boolean {
  if (!dev) return false;
  const wish = inspectWish(search);
  try {
    if (wish === 'on') storage?.setItem(INSPECT_STORAGE_KEY, '1');
    if (wish === 'off') storage?.removeItem(INSPECT_STORAGE_KEY);
    return shouldInspect(dev, search, storage?.getItem(INSPECT_STORAGE_KEY) === '1');
  } catch {
    // storage refused (privacy mode): the URL alone decides
    return wish === 'on';
  }
}

type Forward = (event: InspectionEvent) => void;

function tabStorage(): WishStorage | null {
  try {
    return window.sessionStorage;
  } catch {
    return null;
  }
}

function createLazyInspect(): Forward | undefined {
  const dev = Boolean(import.meta.env?.DEV);
  if (!dev || typeof window === 'undefined') return undefined;
  if (!rememberInspectWish(dev, window.location.search, tabStorage())) return undefined;
  const buffer: InspectionEvent[] = [];
  let forward: Forward | null = null;
  void import('@statelyai/inspect').then(({ createBrowserInspector }) => {
    const inspector = createBrowserInspector();
    const observer = inspector.inspect;
    forward = (event) => observer.next?.(event);
    buffer.splice(0).forEach(forward);
  });
  return (event) => {
    if (forward) forward(event);
    else buffer.push(event);
  };
}

/** Pass as `createActor(machine, { inspect })`; undefined outside development or without the wish. */
export const inspect: Forward | undefined = createLazyInspect();
