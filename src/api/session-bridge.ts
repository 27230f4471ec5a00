/**
 * Wires the API client to the session statechart:
 * - `getAccessToken` reads the session snapshot,
 * - `onUnauthorized` sends REQUEST_UNAUTHORIZED and waits until the session
 *   is settled (no `loading` tag) — so concurrent 401s share the one refresh: it resolves
 *   when signed in with a newer token (the caller replays) and rejects otherwise,
 * - `sessionImplementations()` builds the `.provide()` argument of the
 *   session machine from browser services,
 * - `listenToStorage()` forwards other tabs' localStorage changes (sign-in, sign-out).
 */
import { waitFor, type ActorRefFrom } from 'xstate';
import {
  createSessionActors,
  selectAccessToken,
  selectIsSettled,
  selectSessionKind,
  type SessionEffects,
  type SessionMachine,
} from '../../machines/session.machine';
import type { KeyValueStorage, StorageKey } from '../../machines/shared';
import type { AppPath } from '../../machines/navigation';
import type { Http } from './index';
import { ApiError } from './errors';
import type { ApiClient, ApiClientOptions, UnauthorizedInfo } from './client';

export type SessionActor = ActorRefFrom<SessionMachine>;

export function createSessionBridge(session: SessionActor): Pick<ApiClientOptions, 'getAccessToken' | 'onUnauthorized'> {
  return {
    getAccessToken: () => selectAccessToken(session.getSnapshot()),
    onUnauthorized: async (info: UnauthorizedInfo) => {
      session.send({ type: 'REQUEST_UNAUTHORIZED', accessToken: info.accessToken });
      const settled = await waitFor(session, selectIsSettled, { timeout: Infinity });
      const current = selectAccessToken(settled);
      if (selectSessionKind(settled) !== 'guest' && current !== null && current !== info.accessToken) return;
      throw new ApiError({ kind: 'http', status: 401, code: 'session_expired', message: 'Session expired' });
    },
  };
}

/** Adapts the API client to the machines' `Http` signature. */
export function asHttp(client: ApiClient, defaults: { skipUnauthorized?: boolean } = {}): Http {
  return <T>(url: string, init?: Parameters<Http>[1]) => client<T>(url, { ...init, ...defaults });
}

export interface SessionServices {
  storage: KeyValueStorage;
  /** The token endpoint's refresh (src/api/oidc.ts): must not route 401 back into the session. */
  refresh: SessionEffects['refresh'];
  /** Saves the signed-in account's language. */
  saveLocale: SessionEffects['saveLocale'];
  /** Full browser navigation (end-session endpoint). */
  redirect: (url: string) => void;
  /** SPA route navigation (a page of the route tree: the sign-in pages, home). */
  navigate: (to: AppPath) => void;
  clearQueryCache: () => void;
  resetCachedData: () => void;
  /** Activates an interface language (the account's saved one, at sign-in). */
  applyLocale: (locale: string) => void;
  /** POST /api/logout with the session's bearer: ends the grant and the provider session. */
  revoke: SessionEffects['revoke'];
}

/** `sessionMachine.provide(sessionImplementations(services))` */
export function sessionImplementations(services: SessionServices) {
  return {
    actors: createSessionActors({ refresh: services.refresh, saveLocale: services.saveLocale, revoke: services.revoke }),
    actions: {
      writeStorage: (_: unknown, params: { key: StorageKey; value: string }) => services.storage.setItem(params.key, params.value),
      removeStorage: (_: unknown, params: { keys: StorageKey[] }) => params.keys.forEach((key) => services.storage.removeItem(key)),
      redirect: (_: unknown, params: { url: string }) => services.redirect(params.url),
      navigate: (_: unknown, params: { to: AppPath }) => services.navigate(params.to),
      clearQueryCache: () => services.clearQueryCache(),
      resetCachedData: () => services.resetCachedData(),
      applyLocale: (_: unknown, params: { locale: string }) => services.applyLocale(params.locale),
    },
  };
}

/** Forward other tabs' localStorage changes (`storage` events) to the session machine, which decides; returns the unsubscribe function. */
export function listenToStorage(session: SessionActor, target: Pick<Window, 'addEventListener' | 'removeEventListener' | 'localStorage'> = window): () => void {
  const listener = (event: StorageEvent) => {
    if (event.storageArea !== target.localStorage) return;
    session.send({ type: 'STORAGE_CHANGED', key: event.key, newValue: event.newValue });
  };
  target.addEventListener('storage', listener);
  return () => target.removeEventListener('storage', listener);
}
