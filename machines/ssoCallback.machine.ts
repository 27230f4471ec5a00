/**
 * Single sign-on statechart for the SPA's own OIDC client (docs/DESIGN.md §6):
 * authorize (PKCE S256) → provider → back on /login or /admin/login with
 * `code`&`state` → check state → exchange the code → tokens → navigate to where the visitor wanted to go
 * (`returnTo`, kept in the stored authorization beside verifier and state, never in a key of its own).
 * Also: `error` from the provider, the upstream-SSO answers of our server (`sso_account_not_found`: no retry,
 * ask an admin; `interaction_expired`: a reloaded/reused callback, start again; `sso_failed`), and
 * `type=sso&provider=<id>` which sends the browser to the upstream identity provider (contract/auth.ts ssoStart)
 * with the person's language (`ui_locales`).
 *
 * Screens are tags (`screen:sso.*`, machines/ssoCallback.qa.ts); the component renders by tag only.
 * Injected (`.provide()`): actors createAuthorizationRequest, exchangeCode (`createSsoActors({ exchangeCode })`),
 * actions writeStorage, removeStorage, redirect (full page), navigate (SPA route), tokensReceived (→ session
 * TOKENS_RECEIVED).
 */
import { assign, fromPromise, setup } from 'xstate';
import type { PageTarget } from './navigation';
import { createPkceAuthorizationRequest, type PkceAuthorizationRequest } from './pkce';
import {
  clientFor,
  redirectUriFor,
  safeReturnTo,
  storedAuthorizationJson,
  upstreamStartUrl,
  type SsoClientConfig,
  type StoredAuthorization,
} from './sso-authorize';
import {
  STORAGE_KEYS,
  loginPath,
  notProvided,
  tokensFromResponse,
  type StorageKey,
  type TokenEndpointResponse,
  type Tokens,
} from './shared';

export interface SsoQuery {
  /** Where the visitor wanted to go (`/login?origin=/profile`); only a same-site path is kept. */
  origin?: string | null;
  code?: string | null;
  state?: string | null;
  error?: string | null;
  error_description?: string | null;
  type?: string | null;
  provider?: string | null;
  interaction?: string | null;
}

export { clientFor, redirectUriFor, safeReturnTo, startAuthorization, upstreamStartUrl, type SsoClientConfig, type StoredAuthorization } from './sso-authorize';

export interface SsoCallbackInput {
  admin: boolean;
  origin: string;
  config: SsoClientConfig;
  query: SsoQuery;
  /** Raw value of the `code_verifier` storage key. */
  storedAuthorization: string | null;
  /** The person's language, passed to an upstream provider as `ui_locales`. */
  locale?: string;
}

/** Why the sign-in could not be completed (the `screen:sso.error` screen; the person may try again). */
export type SsoErrorCode = 'provider_error' | 'state_mismatch' | 'missing_verifier' | 'exchange_failed' | 'sso_failed' | 'unexpected';
export interface SsoError {
  code: SsoErrorCode;
  /** The provider's `error` parameter, for logging. */
  providerError?: string;
}

export interface SsoCallbackContext extends SsoCallbackInput {
  error: SsoError | null;
  tokens: Tokens | null;
}

export type SsoCallbackEvent = { type: 'RETRY' } | { type: 'START_OVER' } | { type: 'BACK_TO_SIGN_IN' };

/** Screens (docs: machines/ssoCallback.qa.ts): every non-transient state has exactly one. */
export const SSO_SCREENS = {
  signingIn: 'screen:sso.signing-in',
  error: 'screen:sso.error',
  accountNotFound: 'screen:sso.account-not-found',
  expired: 'screen:sso.expired',
} as const;
export type SsoScreenTag = (typeof SSO_SCREENS)[keyof typeof SSO_SCREENS];
export type SsoCallbackTag = 'loading' | SsoScreenTag;

/** A same-site path the visitor asked for (`?origin=`, checked by safeReturnTo), opened as it is. */
export interface ReturnTarget {
  href: string;
  replace?: boolean;
}

/** Where a navigation goes: a page of the route tree with its search, or the page the visitor asked for. */
export type NavigateParams = PageTarget | ReturnTarget;

export interface AuthorizationRequestInput {
  authorizationEndpoint: string;
  clientId: string;
  redirectUri: string;
  scope: string;
}
export interface ExchangeCodeInput {
  tokenEndpoint: string;
  code: string;
  codeVerifier: string;
  clientId: string;
  redirectUri: string;
}

export function parseStoredAuthorization(raw: string | null): StoredAuthorization | null {
  if (!raw) return null;
  try {
    const value: unknown = JSON.parse(raw);
    if (typeof value !== 'object' || value === null) return null;
    const v = value as Record<string, unknown>;
    if (typeof v.code_verifier !== 'string' || typeof v.state !== 'string') return null;
    const returnTo = safeReturnTo(v.returnTo);
    return { code_verifier: v.code_verifier, state: v.state, ...(returnTo ? { returnTo } : {}), ...(v.rebind === true ? { rebind: true as const } : {}) };
  } catch {
    return null;
  }
}

/** Where a fresh sign-in lands: admins (or any /admin path) → the admin dashboard; others → `returnTo` or home. */
export function afterSignInTarget(kind: 'user' | 'admin', returnTo: unknown): NavigateParams {
  const safe = safeReturnTo(returnTo);
  if (kind === 'admin' || safe?.startsWith('/admin')) return { to: '/admin/dashboard' };
  if (safe && !safe.startsWith('/login')) return { href: safe };
  return { to: '/' };
}

/**
 * Where the new sign-in should land: the page's `?origin=`, else the wanted page of the sign-in that came back
 * (a retry after a failed exchange: /login?code=…&state=… carries no origin, the stored authorization did).
 */
function wantedPage(context: Pick<SsoCallbackInput, 'query' | 'storedAuthorization'>): string | undefined {
  return safeReturnTo(context.query.origin) ?? parseStoredAuthorization(context.storedAuthorization)?.returnTo;
}

/** Real actors. `exchangeCode`: the provider's token endpoint, grant_type=authorization_code (src/api/oidc.ts). */
export function createSsoActors(deps: { exchangeCode: (input: ExchangeCodeInput) => Promise<TokenEndpointResponse>; now?: () => number; crypto?: Crypto }) {
  const now = deps.now ?? Date.now;
  return {
    createAuthorizationRequest: fromPromise<PkceAuthorizationRequest, AuthorizationRequestInput>(({ input }) =>
      createPkceAuthorizationRequest(input, deps.crypto),
    ),
    exchangeCode: fromPromise<Tokens, ExchangeCodeInput>(async ({ input }) => tokensFromResponse(await deps.exchangeCode(input), input.clientId, now())),
  };
}

export const ssoCallbackMachine = setup({
  types: {
    context: {} as SsoCallbackContext,
    events: {} as SsoCallbackEvent,
    input: {} as SsoCallbackInput,
    tags: {} as SsoCallbackTag,
  },
  actors: {
    createAuthorizationRequest: fromPromise<PkceAuthorizationRequest, AuthorizationRequestInput>(async () => notProvided('createAuthorizationRequest')),
    exchangeCode: fromPromise<Tokens, ExchangeCodeInput>(async () => notProvided('exchangeCode')),
  },
  actions: {
    writeStorage: (_, _params: { key: StorageKey; value: string }) => notProvided('writeStorage'),
    removeStorage: (_, _params: { keys: StorageKey[] }) => notProvided('removeStorage'),
    redirect: (_, _params: { url: string }) => notProvided('redirect'),
    navigate: (_, _params: NavigateParams) => notProvided('navigate'),
    tokensReceived: (_, _params: { tokens: Tokens }) => notProvided('tokensReceived'),
    setError: assign((_, params: SsoError) => ({ error: params })),
    setTokens: assign((_, params: { tokens: Tokens }) => ({ tokens: params.tokens })),
    clearCallback: assign(({ context }) => ({ error: null, query: { ...context.query, code: null, state: null, error: null, error_description: null } })),
  },
  guards: {
    // no account for this sign-in: none here, or the upstream sent no e-mail / did not vouch for it (the screen says which)
    accountNotFound: ({ context }) => context.query.error === 'sso_account_not_found' || context.query.error === 'sso_email_missing' || context.query.error === 'sso_email_unverified',
    // the callback reached without the sign-in's binding cookie (server/oidc/interaction-binding.ts) is, for this
    // browser, a sign-in it no longer has: the same "start again" as a reloaded callback
    interactionExpired: ({ context }) => context.query.error === 'interaction_expired' || context.query.error === 'interaction_foreign_browser',
    upstreamFailed: ({ context }) => context.query.error === 'sso_failed',
    hasProviderError: ({ context }) => Boolean(context.query.error),
    hasCode: ({ context }) => Boolean(context.query.code),
    wantsUpstreamProvider: ({ context }) => context.query.type === 'sso' && Boolean(context.query.provider) && Boolean(context.query.interaction),
    hasInteraction: ({ context }) => Boolean(context.query.interaction),
    missingVerifier: ({ context }) => parseStoredAuthorization(context.storedAuthorization) === null,
    stateMatches: ({ context }) => {
      const stored = parseStoredAuthorization(context.storedAuthorization);
      return stored !== null && Boolean(context.query.state) && stored.state === context.query.state;
    },
  },
}).createMachine({
  id: 'ssoCallback',
  context: ({ input }) => ({ ...input, error: null, tokens: null }),
  initial: 'start',
  states: {
    start: {
      always: [
        { guard: 'accountNotFound', target: 'accountNotFound' },
        { guard: 'interactionExpired', target: 'expired' },
        { guard: 'upstreamFailed', target: 'failed', actions: { type: 'setError', params: { code: 'sso_failed' as const } } },
        {
          guard: 'hasProviderError',
          target: 'failed',
          actions: { type: 'setError', params: ({ context }) => ({ code: 'provider_error' as const, providerError: context.query.error ?? undefined }) },
        },
        { guard: 'hasCode', target: 'checkingState' },
        {
          guard: 'wantsUpstreamProvider',
          target: 'redirecting',
          actions: { type: 'redirect', params: ({ context }) => ({ url: upstreamStartUrl(context.query.provider!, context.query.interaction!, context.locale) }) },
        },
        { target: 'preparing' },
      ],
    },
    checkingState: {
      always: [
        { guard: 'missingVerifier', target: 'failed', actions: { type: 'setError', params: { code: 'missing_verifier' as const } } },
        { guard: 'stateMatches', target: 'exchanging' },
        { target: 'failed', actions: { type: 'setError', params: { code: 'state_mismatch' as const } } },
      ],
    },
    preparing: {
      tags: ['loading', SSO_SCREENS.signingIn],
      invoke: {
        id: 'createAuthorizationRequest',
        src: 'createAuthorizationRequest',
        input: ({ context }) => ({
          authorizationEndpoint: context.config.authorization_endpoint,
          clientId: clientFor(context),
          redirectUri: redirectUriFor(context),
          scope: context.config.scope,
        }),
        onDone: {
          target: 'redirecting',
          actions: [
            {
              type: 'writeStorage',
              params: ({ context, event }) => ({ key: STORAGE_KEYS.codeVerifier, value: storedAuthorizationJson(event.output, wantedPage(context)) }),
            },
            { type: 'redirect', params: ({ event }) => ({ url: event.output.url }) },
          ],
        },
        onError: { target: 'failed', actions: { type: 'setError', params: { code: 'unexpected' as const } } },
      },
    },
    exchanging: {
      tags: ['loading', SSO_SCREENS.signingIn],
      invoke: {
        id: 'exchangeCode',
        src: 'exchangeCode',
        input: ({ context }) => ({
          tokenEndpoint: context.config.token_endpoint,
          code: context.query.code ?? '',
          codeVerifier: parseStoredAuthorization(context.storedAuthorization)?.code_verifier ?? '',
          clientId: clientFor(context),
          redirectUri: redirectUriFor(context),
        }),
        onDone: {
          target: 'authenticated',
          actions: [
            { type: 'removeStorage', params: { keys: [STORAGE_KEYS.codeVerifier] } },
            { type: 'setTokens', params: ({ event }) => ({ tokens: event.output }) },
            { type: 'tokensReceived', params: ({ event }) => ({ tokens: event.output }) },
            {
              type: 'navigate',
              params: ({ context, event }) => ({
                ...afterSignInTarget(context.admin || event.output.client === context.config.clients.admin ? 'admin' : 'user', parseStoredAuthorization(context.storedAuthorization)?.returnTo),
                replace: true,
              }),
            },
          ],
        },
        onError: {
          target: 'failed',
          actions: [
            { type: 'removeStorage', params: { keys: [STORAGE_KEYS.codeVerifier] } },
            { type: 'setError', params: { code: 'exchange_failed' as const } },
          ],
        },
      },
    },
    redirecting: { type: 'final', tags: ['loading', SSO_SCREENS.signingIn] },
    authenticated: { type: 'final', tags: ['loading', SSO_SCREENS.signingIn] },
    failed: {
      tags: [SSO_SCREENS.error],
      on: { RETRY: { target: 'preparing', actions: 'clearCallback' } },
    },
    /** The upstream provider knows the person, but no active SSO account here matches: trying again cannot help. */
    accountNotFound: {
      tags: [SSO_SCREENS.accountNotFound],
      on: {
        BACK_TO_SIGN_IN: [
          // the sign-in request is still open: back to its sign-in page (another account, or another provider)
          {
            guard: 'hasInteraction',
            target: 'leaving',
            actions: { type: 'navigate', params: ({ context }) => ({ to: loginPath(context.admin), search: { interaction: context.query.interaction ?? '' }, replace: true }) },
          },
          { target: 'preparing', actions: 'clearCallback' },
        ],
      },
    },
    /** A reloaded or reused callback (or one opened in another browser): the sign-in must start again. */
    expired: {
      tags: [SSO_SCREENS.expired],
      on: { START_OVER: { target: 'preparing', actions: 'clearCallback' } },
    },
    leaving: { type: 'final', tags: ['loading', SSO_SCREENS.signingIn] },
  },
});

export type SsoCallbackMachine = typeof ssoCallbackMachine;
