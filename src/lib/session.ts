import type { QueryClient } from '@tanstack/react-query';
import { createActor } from 'xstate';
import { readStoredSession, sessionMachine, type RevokeInput, type RevokeOutput } from '../../machines/session.machine';
import type { AppPath } from '../../machines/navigation';
import type { OidcClientConfig } from '../../machines/shared';
import { auth, system } from '../../contract/routes';
import { bindApiSession } from '../api';
import { saveLocale } from '../api/account';
import { sessionCall } from '../api/call';
import { oidcClient } from '../api/oidc';
import { listenToStorage, sessionImplementations } from '../api/session-bridge';
import { activateLocale } from './i18n';
import type { SessionHandle } from './router-context';
import { inspectOptions } from './inspect';
import { readStorage, writeStorage } from './storage';

interface SessionDeps {
  queryClient: QueryClient;
  /** SPA navigation; bound to the router once it exists. */
  navigate: (to: AppPath) => void;
}

/** The public client configuration (contract/system.ts clientConfig; docs/DESIGN.md §7). */
export async function fetchClientConfig(): Promise<OidcClientConfig> {
  return (await sessionCall(system.clientConfig)).data;
}

/**
 * The session's server-side revoke (POST /api/logout, contract/auth.ts): ends the grant and the provider session, so
 * no tab is silently signed back in. The bearer is the session's own: the machine clears its tokens only after this
 * call, so the client still sends `input.tokens.access_token` (a second Authorization header would be merged into
 * an invalid one). A 401 (already revoked) is not fed back into the session.
 */
export async function revokeSession(_input: RevokeInput): Promise<RevokeOutput> {
  const answer = await sessionCall(auth.logout, {});
  return { upstreamLogoutUrl: answer.data.upstream_logout_url ?? null };
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
      applyLocale: (locale) => void activateLocale(locale),
      revoke: revokeSession,
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
