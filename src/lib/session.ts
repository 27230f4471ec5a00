import type { QueryClient } from '@tanstack/react-query';
import { createActor } from 'xstate';
import { createSessionActors, readStoredSession, sessionMachine } from '../../machines/session.machine';
import type { OidcClientConfig, StorageKey } from '../../machines/shared';
import { bindApiSession, sessionHttp } from '../api';
import { saveLocale } from '../api/account';
import { oidcClient } from '../api/oidc';
import type { SessionHandle } from './router-context';
import { inspectOptions } from './inspect';
import { writeStorage } from './storage';

interface SessionDeps {
  queryClient: QueryClient;
  /** SPA navigation; bound to the router once it exists. */
  navigate: (to: string) => void;
}

/** `GET /api/config` (docs/DESIGN.md §7). */
export async function fetchClientConfig(): Promise<OidcClientConfig> {
  const body = await sessionHttp<{ data: OidcClientConfig }>('/api/config');
  return body.data;
}

/** Creates and starts the session actor the router context carries. */
/**
 * After a language change: refetch the (localized) server data in place. Not `resetQueries()`: that drops the data,
 * so screens fall back to their loading state and remount, losing local state such as a two-factor setup in progress
 * or the recovery codes shown only once.
 */
export function refreshCachedData(queryClient: QueryClient): Promise<void> {
  return queryClient.invalidateQueries();
}

export async function startSession({ queryClient, navigate }: SessionDeps): Promise<SessionHandle> {
  const config = await fetchClientConfig();
  // The session's own calls must not report 401s back to it (no refresh loop).
  const machine = sessionMachine.provide({
    actors: createSessionActors({ refresh: oidcClient.refresh, saveLocale }),
    actions: {
      writeStorage: (_, params: { key: StorageKey; value: string }) => writeStorage(params.key, params.value),
      removeStorage: (_, params: { keys: StorageKey[] }) => params.keys.forEach((key) => writeStorage(key, null)),
      redirect: (_, params: { url: string }) => window.location.assign(params.url),
      navigate: (_, params: { to: string }) => navigate(params.to),
      clearQueryCache: () => queryClient.clear(),
      resetCachedData: () => void refreshCachedData(queryClient),
    },
  });
  const actor = createActor(machine, {
    ...inspectOptions(),
    input: { config, origin: window.location.origin, stored: readStoredSession(window.localStorage) },
  });
  bindApiSession(actor);
  actor.start();
  window.addEventListener('storage', (event) => {
    if (event.storageArea === window.localStorage) {
      actor.send({ type: 'STORAGE_CHANGED', key: event.key, newValue: event.newValue });
    }
  });
  return actor;
}
