/**
 * Stately inspector, attached only in development (`npm run dev`) and only when asked for:
 *
 *   createActor(sessionMachine, { input, inspect })
 *
 * `?inspect` in any URL of the app turns it on for the browser tab (a button opens the inspector window; `?inspect=ws`
 * for the local WebSocket inspector, `?inspect=console` offline: see InspectMode), `?inspect=off` turns it off. The wish is
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

/**
 * How to inspect:
 * - `popup` (`?inspect`): a small "Open the Stately inspector" button; a click opens stately.ai/inspect in a window
 *   (a click is a user gesture, so no pop-up blocker stops it; nothing opens by itself on each page load);
 * - `ws` (`?inspect=ws`): the events go over a WebSocket to the local inspector server (`npm run inspect:server`,
 *   ws://localhost:8080 unless VITE_INSPECT_WS_URL says otherwise), which shows them in a browser tab it serves;
 * - `console` (`?inspect=console`): fully offline, each actor's transitions are logged in the browser console.
 */
export type InspectMode = 'popup' | 'ws' | 'console';

/** What the URL says: a mode, `off` (`?inspect=off|0|false`), or nothing said (null). */
export function inspectWish(search: string | undefined): InspectMode | 'off' | null {
  if (search === undefined) return null;
  const params = new URLSearchParams(search);
  if (!params.has('inspect')) return null;
  const value = (params.get('inspect') ?? '').toLowerCase();
  if (['off', '0', 'false'].includes(value)) return 'off';
  if (value === 'ws' || value === 'console') return value;
  return 'popup';
}

/** A remembered value as a mode ('1' was the popup of earlier builds). */
function modeOf(remembered: string | null | undefined): InspectMode | null {
  if (remembered === 'ws' || remembered === 'console' || remembered === 'popup') return remembered;
  return remembered === '1' ? 'popup' : null;
}

/** In development: the URL's wish, else the remembered one. Never outside development. */
export function inspectModeOf(dev: boolean, search: string | undefined, remembered: string | null = null): InspectMode | null {
  if (!dev) return null;
  const wish = inspectWish(search);
  if (wish === 'off') return null;
  return wish ?? modeOf(remembered);
}

interface WishStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

/** Applies the URL's wish to the tab's storage and answers how to inspect this page load (null: not at all). */
export function rememberInspectWish(dev: boolean, search: string | undefined, storage: WishStorage | null): InspectMode | null {
  if (!dev) return null;
  const wish = inspectWish(search);
  try {
    if (wish === 'off') storage?.removeItem(INSPECT_STORAGE_KEY);
    else if (wish) storage?.setItem(INSPECT_STORAGE_KEY, wish);
    return inspectModeOf(dev, search, storage?.getItem(INSPECT_STORAGE_KEY) ?? null);
  } catch {
    // storage refused (privacy mode): the URL alone decides
    return inspectModeOf(dev, search, null);
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

/** A snapshot event as one console line: the actor, the event that led there, the state value. */
export function consoleLine(event: InspectionEvent): string | null {
  if (event.type !== '@xstate.snapshot') return null;
  const snapshot = event.snapshot as { value?: unknown; status?: string };
  const id = (event.actorRef as { id?: string }).id ?? event.actorRef.sessionId;
  return `[inspect] ${id}: ${event.event.type} → ${JSON.stringify(snapshot.value ?? snapshot.status ?? null)}`;
}

/** The development-only button of the popup mode (not product UI: production builds drop this module). */
function openButton(open: () => void): void {
  const button = document.createElement('button');
  button.type = 'button';
  button.textContent = 'Open the Stately inspector';
  button.setAttribute('data-testid', 'stately-inspector-open');
  button.style.cssText = 'position:fixed;left:8px;bottom:8px;z-index:2147483647;font:12px system-ui;padding:4px 8px;border-radius:6px;border:1px solid #888;background:#fff;color:#111;opacity:.85';
  button.addEventListener('click', () => {
    open();
    button.remove();
  });
  const place = () => document.body.appendChild(button);
  if (document.body) place();
  else window.addEventListener('DOMContentLoaded', place, { once: true });
}

function createLazyInspect(): Forward | undefined {
  const dev = Boolean(import.meta.env?.DEV);
  if (!dev || typeof window === 'undefined') return undefined;
  const mode = rememberInspectWish(dev, window.location.search, tabStorage());
  if (!mode) return undefined;
  const buffer: InspectionEvent[] = [];
  let forward: Forward | null = null;
  const start = (next: Forward) => {
    forward = next;
    buffer.splice(0).forEach(next);
  };
  if (mode === 'console') {
    start((event) => {
      const line = consoleLine(event);
      if (line) console.info(line);
    });
  } else if (mode === 'ws') {
    const url = (import.meta.env?.VITE_INSPECT_WS_URL as string | undefined) ?? 'ws://localhost:8080';
    void import('@statelyai/inspect').then(({ createWebSocketInspector }) => {
      const inspector = createWebSocketInspector({ url });
      start((event) => inspector.inspect.next?.(event));
    });
  } else {
    openButton(() => {
      void import('@statelyai/inspect').then(({ createBrowserInspector }) => {
        const inspector = createBrowserInspector();
        start((event) => inspector.inspect.next?.(event));
      });
    });
  }
  return (event) => {
    if (forward) forward(event);
    else buffer.push(event);
  };
}

/** Pass as `createActor(machine, { inspect })`; undefined outside development or without the wish. */
export const inspect: Forward | undefined = createLazyInspect();
