/**
 * Session statechart: tokens, the single shared refresh on 401, logout,
 * cross-tab sync and language changes (docs/SPEC.md §4, docs/DESIGN.md §6/§8).
 *
 * Side effects are injected with `.provide()`:
 * - actors:  refreshTokens (token endpoint, grant_type=refresh_token),
 *            revokeTokens (server-side revoke before the end-session redirect),
 *            saveLocale (the profile's locale)
 *            -> `createSessionActors({ refresh, saveLocale, revoke })` builds real ones from injected functions.
 * - actions: writeStorage / removeStorage (the spec's client keys),
 *            redirect (full browser navigation), navigate (SPA route),
 *            clearQueryCache, resetCachedData.
 */
import { assign, fromPromise, setup } from 'xstate';
import {
  STORAGE_KEYS,
  loginPath,
  notProvided,
  parseTokens,
  tokensFromResponse,
  type KeyValueStorage,
  type OidcClientConfig,
  type StorageKey,
  type TokenEndpointResponse,
  type Tokens,
} from './shared';

export interface StoredSession {
  token: string | null;
  admin_session: string | null;
  locale: string | null;
}

export interface SessionInput {
  config: Pick<OidcClientConfig, 'token_endpoint' | 'end_session_endpoint' | 'clients'>;
  /** APP origin, e.g. `https://iam.example.com` */
  origin: string;
  /** What `readStoredSession(localStorage)` returned at start. */
  stored: StoredSession;
}

export interface SessionContext {
  config: SessionInput['config'];
  origin: string;
  tokens: Tokens | null;
  /** Whether the session belongs to the admin console (`admin_session`). */
  admin: boolean;
  locale: string | null;
  error: 'locale_save_failed' | null;
}

export type SessionEvent =
  | { type: 'TOKENS_RECEIVED'; tokens: Tokens }
  | { type: 'AUTHENTICATION_STARTED' }
  | { type: 'AUTHENTICATION_FAILED' }
  /** A request failed with 401. `accessToken` is the token that request used; `refresh` marks a failing refresh call. */
  | { type: 'REQUEST_UNAUTHORIZED'; accessToken: string | null; refresh?: boolean }
  | { type: 'LOGOUT' }
  | { type: 'STORAGE_CHANGED'; key: string | null; newValue: string | null }
  | { type: 'EXTERNAL_UNAUTHORIZED'; adminArea: boolean }
  | { type: 'LANGUAGE_CHANGED'; locale: string };

export type SessionTag = 'loading' | 'session:guest' | 'session:signed-in';

export interface RefreshInput {
  tokenEndpoint: string;
  refreshToken: string;
  clientId: string;
}
export interface RevokeInput {
  tokens: Tokens;
}
export interface SaveLocaleInput {
  admin: boolean;
  locale: string;
}

export function readStoredSession(storage: Pick<KeyValueStorage, 'getItem'>): StoredSession {
  return {
    token: storage.getItem(STORAGE_KEYS.token),
    admin_session: storage.getItem(STORAGE_KEYS.adminSession),
    locale: storage.getItem(STORAGE_KEYS.locale),
  };
}

export function endSessionUrl(context: Pick<SessionContext, 'config' | 'origin' | 'tokens' | 'admin'>): string {
  const url = new URL(context.config.end_session_endpoint);
  if (context.tokens?.id_token) url.searchParams.set('id_token_hint', context.tokens.id_token);
  url.searchParams.set('post_logout_redirect_uri', context.origin + loginPath(context.admin));
  url.searchParams.set('client_id', context.admin ? context.config.clients.admin : context.config.clients.portal);
  return url.toString();
}

/** The session's effects on the server, injected by the app (src/lib/session.ts, src/api/oidc.ts). */
export interface SessionEffects {
  /** The provider's token endpoint, grant_type=refresh_token. Must NOT route 401s back into the session. */
  refresh: (input: RefreshInput) => Promise<TokenEndpointResponse>;
  /** Saves the signed-in account's language (its profile); answers the saved locale. */
  saveLocale: (input: SaveLocaleInput) => Promise<{ locale: string }>;
  /** Server-side revocation before the end-session redirect (optional). */
  revoke?: (input: RevokeInput) => Promise<void>;
  now?: () => number;
}

/** Real actor implementations from the injected effects. */
export function createSessionActors(deps: SessionEffects) {
  const now = deps.now ?? Date.now;
  return {
    refreshTokens: fromPromise<Tokens, RefreshInput>(async ({ input }) => tokensFromResponse(await deps.refresh(input), input.clientId, now())),
    revokeTokens: fromPromise<void, RevokeInput>(async ({ input }) => {
      if (deps.revoke) await deps.revoke(input);
    }),
    saveLocale: fromPromise<{ locale: string }, SaveLocaleInput>(async ({ input }) => ({ locale: (await deps.saveLocale(input)).locale })),
  };
}

const tokenKeys: StorageKey[] = [STORAGE_KEYS.token, STORAGE_KEYS.adminSession];

export const sessionMachine = setup({
  types: {
    context: {} as SessionContext,
    events: {} as SessionEvent,
    input: {} as SessionInput,
    tags: {} as SessionTag,
  },
  actors: {
    refreshTokens: fromPromise<Tokens, RefreshInput>(async () => notProvided('refreshTokens')),
    revokeTokens: fromPromise<void, RevokeInput>(async () => notProvided('revokeTokens')),
    saveLocale: fromPromise<{ locale: string }, SaveLocaleInput>(async () => notProvided('saveLocale')),
  },
  actions: {
    // injected effects
    writeStorage: (_, _params: { key: StorageKey; value: string }) => notProvided('writeStorage'),
    removeStorage: (_, _params: { keys: StorageKey[] }) => notProvided('removeStorage'),
    redirect: (_, _params: { url: string }) => notProvided('redirect'),
    navigate: (_, _params: { to: string }) => notProvided('navigate'),
    clearQueryCache: () => notProvided('clearQueryCache'),
    resetCachedData: () => notProvided('resetCachedData'),
    // context
    setTokens: assign(({ context }, params: { tokens: Tokens }) => ({
      tokens: params.tokens,
      admin: params.tokens.client === context.config.clients.admin,
    })),
    clearSession: assign({ tokens: null, admin: false, error: null }),
    setLocale: assign((_, params: { locale: string }) => ({ locale: params.locale, error: null })),
    setLocaleError: assign({ error: 'locale_save_failed' as const }),
  },
  guards: {
    hasTokens: ({ context }) => context.tokens !== null,
    hasRefreshToken: ({ context }) => Boolean(context.tokens?.refresh_token),
    /** The failing request used an older token: a refresh already happened, just replay. */
    tokenAlreadyRotated: (_, params: { accessToken: string | null; current: string | null }) =>
      params.current !== null && params.accessToken !== params.current,
    isRefreshRequest: (_, params: { refresh?: boolean }) => params.refresh === true,
    storedTokensAdded: (_, params: { key: string | null; newValue: string | null }) =>
      params.key === STORAGE_KEYS.token && parseTokens(params.newValue) !== null,
    storedTokensRemoved: (_, params: { key: string | null; newValue: string | null }) =>
      (params.key === STORAGE_KEYS.token || params.key === null) && params.newValue === null,
  },
}).createMachine({
  id: 'session',
  context: ({ input }) => {
    const tokens = parseTokens(input.stored.token);
    return {
      config: input.config,
      origin: input.origin,
      tokens,
      admin: tokens !== null && (input.stored.admin_session === 'true' || tokens.client === input.config.clients.admin),
      locale: input.stored.locale,
      error: null,
    };
  },
  initial: 'restoring',
  on: {
    EXTERNAL_UNAUTHORIZED: {
      target: '.unauthenticated',
      actions: [
        'clearQueryCache',
        { type: 'removeStorage', params: { keys: tokenKeys } },
        { type: 'navigate', params: ({ event }) => ({ to: loginPath(event.adminArea) }) },
        'clearSession',
      ],
    },
  },
  states: {
    restoring: {
      tags: ['loading'],
      always: [{ guard: 'hasTokens', target: 'authenticated' }, { target: 'unauthenticated' }],
    },
    unauthenticated: {
      tags: ['session:guest'],
      on: {
        AUTHENTICATION_STARTED: 'authenticating',
        TOKENS_RECEIVED: {
          target: 'authenticated',
          actions: [
            { type: 'setTokens', params: ({ event }) => ({ tokens: event.tokens }) },
            { type: 'writeStorage', params: ({ event }) => ({ key: STORAGE_KEYS.token, value: JSON.stringify(event.tokens) }) },
            { type: 'writeStorage', params: ({ context }) => ({ key: STORAGE_KEYS.adminSession, value: String(context.admin) }) },
          ],
        },
        STORAGE_CHANGED: {
          guard: { type: 'storedTokensAdded', params: ({ event }) => ({ key: event.key, newValue: event.newValue }) },
          target: 'authenticated',
          actions: { type: 'setTokens', params: ({ event }) => ({ tokens: parseTokens(event.newValue)! }) },
        },
        LANGUAGE_CHANGED: {
          actions: [
            { type: 'setLocale', params: ({ event }) => ({ locale: event.locale }) },
            { type: 'writeStorage', params: ({ event }) => ({ key: STORAGE_KEYS.locale, value: event.locale }) },
          ],
        },
      },
    },
    authenticating: {
      tags: ['loading', 'session:guest'],
      on: {
        TOKENS_RECEIVED: {
          target: 'authenticated',
          actions: [
            { type: 'setTokens', params: ({ event }) => ({ tokens: event.tokens }) },
            { type: 'writeStorage', params: ({ event }) => ({ key: STORAGE_KEYS.token, value: JSON.stringify(event.tokens) }) },
            { type: 'writeStorage', params: ({ context }) => ({ key: STORAGE_KEYS.adminSession, value: String(context.admin) }) },
          ],
        },
        AUTHENTICATION_FAILED: 'unauthenticated',
      },
    },
    authenticated: {
      tags: ['session:signed-in'],
      initial: 'idle',
      on: {
        REQUEST_UNAUTHORIZED: [
          {
            guard: { type: 'tokenAlreadyRotated', params: ({ event, context }) => ({ accessToken: event.accessToken, current: context.tokens?.access_token ?? null }) },
          },
          { guard: { type: 'isRefreshRequest', params: ({ event }) => ({ refresh: event.refresh }) }, target: 'loggingOut' },
          { guard: 'hasRefreshToken', target: 'refreshing' },
          { target: 'loggingOut' },
        ],
        LOGOUT: 'loggingOut',
        STORAGE_CHANGED: [
          {
            guard: { type: 'storedTokensAdded', params: ({ event }) => ({ key: event.key, newValue: event.newValue }) },
            actions: { type: 'setTokens', params: ({ event }) => ({ tokens: parseTokens(event.newValue)! }) },
          },
          {
            guard: { type: 'storedTokensRemoved', params: ({ event }) => ({ key: event.key, newValue: event.newValue }) },
            target: 'unauthenticated',
            actions: [
              'clearQueryCache',
              { type: 'navigate', params: ({ context }) => ({ to: loginPath(context.admin) }) },
              'clearSession',
            ],
          },
        ],
        LANGUAGE_CHANGED: {
          target: '.savingLocale',
          actions: [
            { type: 'setLocale', params: ({ event }) => ({ locale: event.locale }) },
            { type: 'writeStorage', params: ({ event }) => ({ key: STORAGE_KEYS.locale, value: event.locale }) },
          ],
        },
      },
      states: {
        idle: {},
        savingLocale: {
          invoke: {
            id: 'saveLocale',
            src: 'saveLocale',
            input: ({ context }) => ({ admin: context.admin, locale: context.locale ?? 'en' }),
            onDone: { target: 'idle', actions: 'resetCachedData' },
            onError: { target: 'idle', actions: 'setLocaleError' },
          },
        },
      },
    },
    refreshing: {
      tags: ['loading', 'session:signed-in'],
      invoke: {
        id: 'refreshTokens',
        src: 'refreshTokens',
        input: ({ context }) => ({
          tokenEndpoint: context.config.token_endpoint,
          refreshToken: context.tokens?.refresh_token ?? '',
          clientId: context.tokens?.client ?? context.config.clients.portal,
        }),
        onDone: {
          target: 'authenticated',
          actions: [
            { type: 'setTokens', params: ({ event }) => ({ tokens: event.output }) },
            { type: 'writeStorage', params: ({ event }) => ({ key: STORAGE_KEYS.token, value: JSON.stringify(event.output) }) },
          ],
        },
        onError: 'loggingOut',
      },
      on: {
        // Further 401s while refreshing wait for this one refresh (the bridge awaits the snapshot).
        REQUEST_UNAUTHORIZED: {
          guard: { type: 'isRefreshRequest', params: ({ event }) => ({ refresh: event.refresh }) },
          target: 'loggingOut',
        },
        LOGOUT: 'loggingOut',
        STORAGE_CHANGED: [
          {
            // another tab refreshed first: adopt its tokens
            guard: { type: 'storedTokensAdded', params: ({ event }) => ({ key: event.key, newValue: event.newValue }) },
            target: 'authenticated',
            actions: { type: 'setTokens', params: ({ event }) => ({ tokens: parseTokens(event.newValue)! }) },
          },
          {
            guard: { type: 'storedTokensRemoved', params: ({ event }) => ({ key: event.key, newValue: event.newValue }) },
            target: 'unauthenticated',
            actions: [
              'clearQueryCache',
              { type: 'navigate', params: ({ context }) => ({ to: loginPath(context.admin) }) },
              'clearSession',
            ],
          },
        ],
      },
    },
    loggingOut: {
      tags: ['loading'],
      entry: 'clearQueryCache',
      invoke: {
        id: 'revokeTokens',
        src: 'revokeTokens',
        input: ({ context }) => ({ tokens: context.tokens! }),
        onDone: {
          target: 'unauthenticated',
          actions: [
            { type: 'removeStorage', params: { keys: tokenKeys } },
            { type: 'redirect', params: ({ context }) => ({ url: endSessionUrl(context) }) },
            'clearSession',
          ],
        },
        onError: {
          target: 'unauthenticated',
          actions: [
            { type: 'removeStorage', params: { keys: tokenKeys } },
            { type: 'redirect', params: ({ context }) => ({ url: endSessionUrl(context) }) },
            'clearSession',
          ],
        },
      },
    },
  },
});

export type SessionMachine = typeof sessionMachine;
