import type { QueryClient } from '@tanstack/react-query';
import { createActor } from 'xstate';
import { readStoredSession, sessionMachine } from '../../machines/session.machine';
import type { OidcClientConfig } from '../../machines/shared';
import * as system from '../../contract/system';
import { bindApiSession } from '../api';
import { saveLocale } from '../api/account';
import { sessionCall } from '../api/call';
import { oidcClient } from '../api/oidc';
import { listenToStorage, sessionImplementations } from '../api/session-bridge';
import type { SessionHandle } from './router-context';
import { inspectOptions } from './inspect';
import { readStorage, writeStorage } from './storage';

interface SessionDeps {
  queryClient: QueryClient;
  /** SPA navigation; bound to the router once it exists. */
  navigate: (to: string) => void;
}

/** The public client configuration (contract/system.ts clientConfig; docs/DESIGN.md §7). */
export async function fetchClientConfig(): Promise<OidcClientConfig> {
  return (await sessionCall(system.clientConfig)).data;
}

/**
 * After a language change: refetch the (localized) server data in place. Not `resetQueries()`: that drops the data,
 * so screens fall back to their loading state and remount, losing local state such as a two-factor setup in progress
 * or the recovery codes shown only once.
 */
export function refreshCachedData(queryClient: QueryClient): Promise<void> {
  return queryClient.invalidateQueries();
}

/** Creates and starts the session actor the router context carries. */
export async function startSession({ queryClient, navigate }: SessionDeps): Promise<SessionHandle> {
  const config = await fetchClientConfig();
  const machine = sessionMachine.provide(
    sessionImplementations({
      storage: { getItem: readStorage, setItem: writeStorage, removeItem: (key) => writeStorage(key, null) },
      // The session's own calls must not report 401s back to it (no refresh loop).
      refresh: oidcClient.refresh,
      saveLocale,
      redirect: (url) => window.location.assign(url),
      navigate,
      clearQueryCache: () => queryClient.clear(),
      resetCachedData: () => void refreshCachedData(queryClient),
    }),
  );
  const actor = createActor(machine, {
    ...inspectOptions(),
    input: { config, origin: window.location.origin, stored: readStoredSession(window.localStorage) },
  });
  bindApiSession(actor);
  actor.start();
  listenToStorage(actor);
  return actor;
}
