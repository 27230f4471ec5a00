/**
 * Session statechart: tokens, the single shared refresh on 401, logout,
 * cross-tab sync, the public reset/verify link rule and the language
 * (docs/SPEC.md §2 and §4, docs/DESIGN.md §6/§8).
 *
 * Side effects are injected with `.provide()`:
 * - actors:  refreshTokens (token endpoint, grant_type=refresh_token),
 *            revokeTokens (POST /api/logout: ends the grant and the provider session server-side),
 *            saveLocale (the profile's locale)
 *            -> `createSessionActors({ refresh, saveLocale, revoke })` builds real ones from injected functions.
 * - actions: writeStorage / removeStorage (the spec's client keys),
 *            redirect (full browser navigation), navigate (SPA route),
 *            clearQueryCache, resetCachedData, applyLocale (activate the interface language).
 *
 * Guards and components send events and read tags and the selectors below
 * (`selectSessionKind`, `selectAccessToken`, `selectSessionScreen`), never
 * `snapshot.value` or storage. Screens (`screen:session.*`) are rendered by
 * the area layouts' root (`data-screen`); see machines/session.qa.ts.
 *
 * Signing out, three ways, each revoking the grant first (so a live provider
 * session cannot silently sign anyone back in):
 * - LOGOUT (or a failed refresh): revoke → clear → end-session redirect;
 * - PUBLIC_LINK_OPENED (reset/verify pages, sent by the public guard): revoke → clear, stay on the page;
 * - another tab removed the tokens (STORAGE_CHANGED): revoke this tab's copy → clear → this area's login page.
 */
import { assign, fromPromise, setup, type SnapshotFrom } from 'xstate';
import { LOCALES, type Locale } from '../contract/locales';
import type { AppPath } from './navigation';
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
  /** `qaVariant` (here and below) only names a sample in the QA words (machines/testing/qa.ts `stepKey`). */
  | { type: 'TOKENS_RECEIVED'; tokens: Tokens; qaVariant?: string }
  /** A request failed with 401 (src/api/session-bridge.ts). `accessToken` is the token that request used. */
  | { type: 'REQUEST_UNAUTHORIZED'; accessToken: string | null; qaVariant?: string }
  | { type: 'LOGOUT' }
  /** A localStorage change made by another tab (`storage` event). */
  | { type: 'STORAGE_CHANGED'; key: string | null; newValue: string | null; qaVariant?: string }
  | { type: 'LANGUAGE_CHANGED'; locale: string }
  /** A public reset or verify page was opened (docs/SPEC.md §2): stored tokens are cleared. Sent by the public guard. */
  | { type: 'PUBLIC_LINK_OPENED' };

export type SessionScreen = 'screen:session.signed-out' | 'screen:session.signed-in' | 'screen:session.signing-out';
export type SessionTag = 'loading' | 'session:guest' | 'session:signed-in' | SessionScreen;

export interface RefreshInput {
  tokenEndpoint: string;
  refreshToken: string;
  clientId: string;
}
export interface RevokeInput {
  tokens: Tokens;
}
/** What the server's sign-out answered: for an SSO session, the upstream provider's sign-out page to continue at. */
export interface RevokeOutput {
  upstreamLogoutUrl: string | null;
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

function base64UrlDecode(part: string): string {
  const b64 = part.replace(/-/g, '+').replace(/_/g, '/');
  const padded = b64 + '='.repeat((4 - (b64.length % 4)) % 4);
  const binary = atob(padded);
  const bytes = Uint8Array.from(binary, (c) => c.charCodeAt(0));
  return new TextDecoder().decode(bytes);
}

/**
 * The account's saved language: the `locale` claim of the ID token (profile scope; server/oidc/claims.ts), when it
 * is one of the product's languages. Read only as a preference, the token was checked by the token endpoint's answer.
 */
export function accountLocale(tokens: Pick<Tokens, 'id_token'> | null): Locale | null {
  const payload = tokens?.id_token?.split('.')[1];
  if (!payload) return null;
  try {
    const claims: unknown = JSON.parse(base64UrlDecode(payload));
    if (typeof claims !== 'object' || claims === null) return null;
    const locale = (claims as Record<string, unknown>).locale;
    if (typeof locale !== 'string') return null;
    const lower = locale.toLowerCase().split(/[-_]/)[0];
    return (LOCALES as readonly string[]).includes(lower ?? '') ? (lower as Locale) : null;
  } catch {
    return null;
  }
}

/** The session's effects on the server, injected by the app (src/lib/session.ts, src/api/oidc.ts). */
export interface SessionEffects {
  /** The provider's token endpoint, grant_type=refresh_token. Must NOT route 401s back into the session. */
  refresh: (input: RefreshInput) => Promise<TokenEndpointResponse>;
  /** Saves the signed-in account's language (its profile); answers the saved locale. */
  saveLocale: (input: SaveLocaleInput) => Promise<{ locale: string }>;
  /** Server-side revocation (POST /api/logout with the session's bearer). Must NOT route 401s back into the session. */
  revoke: (input: RevokeInput) => Promise<RevokeOutput>;
  now?: () => number;
}

/** Real actor implementations from the injected effects. */
export function createSessionActors(deps: SessionEffects) {
  const now = deps.now ?? Date.now;
  return {
    refreshTokens: fromPromise<Tokens, RefreshInput>(async ({ input }) => tokensFromResponse(await deps.refresh(input), input.clientId, now())),
    revokeTokens: fromPromise<RevokeOutput, RevokeInput>(async ({ input }) => deps.revoke(input)),
    saveLocale: fromPromise<{ locale: string }, SaveLocaleInput>(async ({ input }) => ({ locale: (await deps.saveLocale(input)).locale })),
  };
}

// ---------------------------------------------------------------- selectors (guards, components, the API bridge)

type AnySessionSnapshot = Pick<SnapshotFrom<typeof sessionMachine>, 'hasTag' | 'context'>;

export type SessionKind = 'guest' | 'user' | 'admin';
/** Who is signed in; meaningful once the snapshot has no `loading` tag. */
export function selectSessionKind(snapshot: AnySessionSnapshot): SessionKind {
  if (!snapshot.hasTag('session:signed-in') || !snapshot.context.tokens) return 'guest';
  return snapshot.context.admin ? 'admin' : 'user';
}
export function selectAccessToken(snapshot: Pick<AnySessionSnapshot, 'context'>): string | null {
  return snapshot.context.tokens?.access_token ?? null;
}
export function selectIsAdmin(snapshot: Pick<AnySessionSnapshot, 'context'>): boolean {
  return snapshot.context.admin;
}
export function selectIsSettled(snapshot: Pick<AnySessionSnapshot, 'hasTag'>): boolean {
  return !snapshot.hasTag('loading');
}
const SCREENS: readonly SessionScreen[] = ['screen:session.signed-in', 'screen:session.signing-out', 'screen:session.signed-out'];
/** The session's screen tag: what the area layouts render as `data-screen` on their root. */
export function selectSessionScreen(snapshot: Pick<AnySessionSnapshot, 'hasTag'>): SessionScreen {
  return SCREENS.find((tag) => snapshot.hasTag(tag)) ?? 'screen:session.signed-out';
}

// ---------------------------------------------------------------- machine

const tokenKeys: StorageKey[] = [STORAGE_KEYS.token, STORAGE_KEYS.adminSession];
const homePath = (admin: boolean): AppPath => (admin ? '/admin/dashboard' : '/');

export const sessionMachine = setup({
  types: {
    context: {} as SessionContext,
    events: {} as SessionEvent,
    input: {} as SessionInput,
    tags: {} as SessionTag,
  },
  actors: {
    refreshTokens: fromPromise<Tokens, RefreshInput>(async () => notProvided('refreshTokens')),
    revokeTokens: fromPromise<RevokeOutput, RevokeInput>(async () => notProvided('revokeTokens')),
    saveLocale: fromPromise<{ locale: string }, SaveLocaleInput>(async () => notProvided('saveLocale')),
  },
  actions: {
    // injected effects
    writeStorage: (_, _params: { key: StorageKey; value: string }) => notProvided('writeStorage'),
    removeStorage: (_, _params: { keys: StorageKey[] }) => notProvided('removeStorage'),
    redirect: (_, _params: { url: string }) => notProvided('redirect'),
    navigate: (_, _params: { to: AppPath }) => notProvided('navigate'),
    clearQueryCache: () => notProvided('clearQueryCache'),
    resetCachedData: () => notProvided('resetCachedData'),
    applyLocale: (_, _params: { locale: string }) => notProvided('applyLocale'),
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
    storedTokensAdded: (_, params: { key: string | null; newValue: string | null }) =>
      params.key === STORAGE_KEYS.token && parseTokens(params.newValue) !== null,
    storedTokensRemoved: (_, params: { key: string | null; newValue: string | null }) =>
      (params.key === STORAGE_KEYS.token || params.key === null) && params.newValue === null,
    accountHasLocale: (_, params: { tokens: Tokens }) => accountLocale(params.tokens) !== null,
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
  states: {
    restoring: {
      always: [{ guard: 'hasTokens', target: 'authenticated' }, { target: 'unauthenticated' }],
    },
    unauthenticated: {
      tags: ['session:guest', 'screen:session.signed-out'],
      on: {
        TOKENS_RECEIVED: [
          {
            // the account's saved language (ID token claim) wins over a guest's stored choice (docs/SPEC.md §4)
            guard: { type: 'accountHasLocale', params: ({ event }) => ({ tokens: event.tokens }) },
            target: 'authenticated',
            actions: [
              { type: 'setTokens', params: ({ event }) => ({ tokens: event.tokens }) },
              { type: 'writeStorage', params: ({ event }) => ({ key: STORAGE_KEYS.token, value: JSON.stringify(event.tokens) }) },
              { type: 'writeStorage', params: ({ context }) => ({ key: STORAGE_KEYS.adminSession, value: String(context.admin) }) },
              { type: 'setLocale', params: ({ event }) => ({ locale: accountLocale(event.tokens)! }) },
              { type: 'writeStorage', params: ({ event }) => ({ key: STORAGE_KEYS.locale, value: accountLocale(event.tokens)! }) },
              { type: 'applyLocale', params: ({ event }) => ({ locale: accountLocale(event.tokens)! }) },
            ],
          },
          {
            target: 'authenticated',
            actions: [
              { type: 'setTokens', params: ({ event }) => ({ tokens: event.tokens }) },
              { type: 'writeStorage', params: ({ event }) => ({ key: STORAGE_KEYS.token, value: JSON.stringify(event.tokens) }) },
              { type: 'writeStorage', params: ({ context }) => ({ key: STORAGE_KEYS.adminSession, value: String(context.admin) }) },
            ],
          },
        ],
        STORAGE_CHANGED: {
          // signed in in another tab: follow, and leave the sign-in page for this account's home
          guard: { type: 'storedTokensAdded', params: ({ event }) => ({ key: event.key, newValue: event.newValue }) },
          target: 'authenticated',
          actions: [
            { type: 'setTokens', params: ({ event }) => ({ tokens: parseTokens(event.newValue)! }) },
            { type: 'navigate', params: ({ context, event }) => ({ to: homePath(parseTokens(event.newValue)!.client === context.config.clients.admin) }) },
          ],
        },
        LANGUAGE_CHANGED: {
          actions: [
            { type: 'setLocale', params: ({ event }) => ({ locale: event.locale }) },
            { type: 'writeStorage', params: ({ event }) => ({ key: STORAGE_KEYS.locale, value: event.locale }) },
          ],
        },
      },
    },
    authenticated: {
      tags: ['session:signed-in', 'screen:session.signed-in'],
      initial: 'idle',
      on: {
        REQUEST_UNAUTHORIZED: [
          {
            guard: { type: 'tokenAlreadyRotated', params: ({ event, context }) => ({ accessToken: event.accessToken, current: context.tokens?.access_token ?? null }) },
          },
          { guard: 'hasRefreshToken', target: 'refreshing' },
          { target: 'loggingOut' },
        ],
        LOGOUT: 'loggingOut',
        PUBLIC_LINK_OPENED: 'leavingForLink',
        STORAGE_CHANGED: [
          {
            guard: { type: 'storedTokensAdded', params: ({ event }) => ({ key: event.key, newValue: event.newValue }) },
            actions: { type: 'setTokens', params: ({ event }) => ({ tokens: parseTokens(event.newValue)! }) },
          },
          {
            guard: { type: 'storedTokensRemoved', params: ({ event }) => ({ key: event.key, newValue: event.newValue }) },
            target: 'signedOutElsewhere',
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
      tags: ['loading', 'session:signed-in', 'screen:session.signed-in'],
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
        // Further 401s while refreshing are not events: the bridge waits until `loading` ends (one shared refresh).
        // A failing refresh is the refresh actor's error (→ loggingOut), never a REQUEST_UNAUTHORIZED.
        LOGOUT: 'loggingOut',
        PUBLIC_LINK_OPENED: 'leavingForLink',
        STORAGE_CHANGED: [
          {
            // another tab refreshed first: adopt its tokens
            guard: { type: 'storedTokensAdded', params: ({ event }) => ({ key: event.key, newValue: event.newValue }) },
            target: 'authenticated',
            actions: { type: 'setTokens', params: ({ event }) => ({ tokens: parseTokens(event.newValue)! }) },
          },
          {
            guard: { type: 'storedTokensRemoved', params: ({ event }) => ({ key: event.key, newValue: event.newValue }) },
            target: 'signedOutElsewhere',
          },
        ],
      },
    },
    /** LOGOUT, a failed refresh, a 401 without refresh token: revoke, clear, then the provider's end-session page. */
    loggingOut: {
      tags: ['loading', 'screen:session.signing-out'],
      entry: 'clearQueryCache',
      invoke: {
        id: 'revokeTokens',
        src: 'revokeTokens',
        input: ({ context }) => ({ tokens: context.tokens! }),
        onDone: {
          target: 'unauthenticated',
          actions: [
            { type: 'removeStorage', params: { keys: tokenKeys } },
            // an SSO session signs out at its upstream provider too (which returns to the login page); else the provider's end-session page
            { type: 'redirect', params: ({ context, event }) => ({ url: event.output?.upstreamLogoutUrl ?? endSessionUrl(context) }) },
            'clearSession',
          ],
        },
        onError: {
          target: 'unauthenticated',
          actions: [{ type: 'removeStorage', params: { keys: tokenKeys } }, { type: 'redirect', params: ({ context }) => ({ url: endSessionUrl(context) }) }, 'clearSession'],
        },
      },
    },
    /** A public reset/verify page: revoke, clear the stored tokens, stay on the page (no reload). */
    leavingForLink: {
      tags: ['loading', 'screen:session.signing-out'],
      entry: 'clearQueryCache',
      invoke: {
        id: 'revokeForLink',
        src: 'revokeTokens',
        input: ({ context }) => ({ tokens: context.tokens! }),
        onDone: { target: 'unauthenticated', actions: [{ type: 'removeStorage', params: { keys: tokenKeys } }, 'clearSession'] },
        onError: { target: 'unauthenticated', actions: [{ type: 'removeStorage', params: { keys: tokenKeys } }, 'clearSession'] },
      },
    },
    /**
     * Another tab removed the tokens (its logout, a reset link, or by hand): revoke this tab's copy too (a no-op when
     * that tab already did), then this area's login page. Storage is not touched: it is already empty, and writing
     * would echo back to the other tabs.
     */
    signedOutElsewhere: {
      tags: ['loading', 'screen:session.signing-out'],
      entry: 'clearQueryCache',
      invoke: {
        id: 'revokeElsewhere',
        src: 'revokeTokens',
        input: ({ context }) => ({ tokens: context.tokens! }),
        onDone: { target: 'unauthenticated', actions: [{ type: 'navigate', params: ({ context }) => ({ to: loginPath(context.admin) }) }, 'clearSession'] },
        onError: { target: 'unauthenticated', actions: [{ type: 'navigate', params: ({ context }) => ({ to: loginPath(context.admin) }) }, 'clearSession'] },
      },
    },
  },
});

export type SessionMachine = typeof sessionMachine;
