import type { QueryClient } from '@tanstack/react-query';
import { createActor } from 'xstate';
import { createSessionActors, readStoredSession, sessionMachine } from '../../machines/session.machine';
import type { Http, HttpInit, OidcClientConfig, StorageKey } from '../../machines/shared';
import type { SessionHandle } from './router-context';
import { writeStorage } from './storage';

interface SessionDeps {
  queryClient: QueryClient;
  /** SPA navigation; bound to the router once it exists. */
  navigate: (to: string) => void;
}

/** `GET /api/config` (DESIGN §7). */
export async function fetchClientConfig(): Promise<OidcClientConfig> {
  const response = await fetch('/api/config', { headers: { Accept: 'application/json' }, credentials: 'include' });
  if (!response.ok) throw new Error(`GET /api/config failed with ${response.status}`);
  const body = (await response.json()) as { data: OidcClientConfig };
  return body.data;
}

/**
 * Bare fetch transport for the session's own calls (token refresh and the
 * locale save); it must not feed 401s back into the session.
 */
function createSessionHttp(getAccessToken: () => string | null): Http {
  return async <T>(url: string, init: HttpInit = {}): Promise<T> => {
    const target = new URL(url, window.location.origin);
    for (const [key, value] of Object.entries(init.query ?? {})) target.searchParams.set(key, value);
    const headers: Record<string, string> = { Accept: 'application/json' };
    const token = getAccessToken();
    if (token && target.origin === window.location.origin && target.pathname.startsWith('/api/')) {
      headers.Authorization = `Bearer ${token}`;
    }
    let body: BodyInit | undefined;
    if (init.body instanceof URLSearchParams) {
      body = init.body;
    } else if (init.body) {
      headers['Content-Type'] = 'application/json';
      body = JSON.stringify(init.body);
    }
    const response = await fetch(target, { method: init.method ?? 'GET', headers, body, credentials: 'include' });
    if (!response.ok) throw new Error(`${init.method ?? 'GET'} ${target.pathname} failed with ${response.status}`);
    return (response.status === 204 ? undefined : await response.json()) as T;
  };
}

/** Creates and starts the session actor the router context carries. */
export async function startSession({ queryClient, navigate }: SessionDeps): Promise<SessionHandle> {
  const config = await fetchClientConfig();
  // The transport reads the token from the actor created below.
  const self: { actor?: SessionHandle } = {};
  const http = createSessionHttp(() => self.actor?.getSnapshot().context.tokens?.access_token ?? null);
  const machine = sessionMachine.provide({
    actors: createSessionActors({ http }),
    actions: {
      writeStorage: (_, params: { key: StorageKey; value: string }) => writeStorage(params.key, params.value),
      removeStorage: (_, params: { keys: StorageKey[] }) => params.keys.forEach((key) => writeStorage(key, null)),
      redirect: (_, params: { url: string }) => window.location.assign(params.url),
      navigate: (_, params: { to: string }) => navigate(params.to),
      clearQueryCache: () => queryClient.clear(),
      resetCachedData: () => void queryClient.resetQueries(),
    },
  });
  const actor = createActor(machine, {
    input: { config, origin: window.location.origin, stored: readStoredSession(window.localStorage) },
  });
  self.actor = actor;
  actor.start();
  window.addEventListener('storage', (event) => {
    if (event.storageArea === window.localStorage) {
      actor.send({ type: 'STORAGE_CHANGED', key: event.key, newValue: event.newValue });
    }
  });
  return actor;
}
