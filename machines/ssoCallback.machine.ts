/**
 * Single sign-on statechart for the SPA's own OIDC client (docs/DESIGN.md §6):
 * authorize (PKCE S256) → provider → back on /login or /admin/login with
 * `code`&`state` → check state → exchange the code → tokens.
 * Also: `error` from the provider, and `type=sso&provider=<id>` which sends the
 * browser to the upstream identity provider (contract/auth.ts ssoStart).
 *
 * Injected (`.provide()`): actors createAuthorizationRequest, exchangeCode
 * (`createSsoActors({ exchangeCode })`), actions writeStorage, removeStorage,
 * redirect, tokensReceived (→ session TOKENS_RECEIVED).
 */
import { assign, fromPromise, setup } from 'xstate';
import { ssoStartUrl } from '../contract/auth';
import { createPkceAuthorizationRequest, type PkceAuthorizationRequest } from './pkce';
import {
  STORAGE_KEYS,
  loginPath,
  notProvided,
  tokensFromResponse,
  type ErrorInfo,
  type OidcClientConfig,
  type StorageKey,
  type TokenEndpointResponse,
  type Tokens,
} from './shared';

export interface SsoQuery {
  code?: string | null;
  state?: string | null;
  error?: string | null;
  error_description?: string | null;
  type?: string | null;
  provider?: string | null;
  interaction?: string | null;
}

/** What the `code_verifier` storage key holds (JSON): the verifier and the state sent with it. */
export interface StoredAuthorization {
  code_verifier: string;
  state: string;
}

export interface SsoCallbackInput {
  admin: boolean;
  origin: string;
  config: Pick<OidcClientConfig, 'authorization_endpoint' | 'token_endpoint' | 'scope' | 'clients'>;
  query: SsoQuery;
  /** Raw value of the `code_verifier` storage key. */
  storedAuthorization: string | null;
}

export interface SsoCallbackContext extends SsoCallbackInput {
  error: (ErrorInfo & { providerError?: string }) | null;
  tokens: Tokens | null;
}

export type SsoCallbackEvent = { type: 'RETRY' };
export type SsoCallbackTag = 'loading' | 'route:sso-error';

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
    return typeof v.code_verifier === 'string' && typeof v.state === 'string' ? { code_verifier: v.code_verifier, state: v.state } : null;
  } catch {
    return null;
  }
}

export function clientFor(context: Pick<SsoCallbackInput, 'admin' | 'config'>): string {
  return context.admin ? context.config.clients.admin : context.config.clients.portal;
}
export function redirectUriFor(context: Pick<SsoCallbackInput, 'admin' | 'origin'>): string {
  return context.origin + loginPath(context.admin);
}
/** Where the browser goes to sign in through upstream provider `provider` (contract/auth.ts ssoStart). */
export const upstreamStartUrl = ssoStartUrl;

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

/**
 * Start the authorization from anywhere (e.g. the login machine's
 * `startAuthorization` actor when /login was opened without `interaction`).
 */
export async function startAuthorization(deps: {
  admin: boolean;
  origin: string;
  config: SsoCallbackInput['config'];
  writeStorage: (key: StorageKey, value: string) => void;
  redirect: (url: string) => void;
  crypto?: Crypto;
}): Promise<void> {
  const request = await createPkceAuthorizationRequest(
    { authorizationEndpoint: deps.config.authorization_endpoint, clientId: clientFor(deps), redirectUri: redirectUriFor(deps), scope: deps.config.scope },
    deps.crypto,
  );
  deps.writeStorage(STORAGE_KEYS.codeVerifier, JSON.stringify({ code_verifier: request.codeVerifier, state: request.state } satisfies StoredAuthorization));
  deps.redirect(request.url);
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
    tokensReceived: (_, _params: { tokens: Tokens }) => notProvided('tokensReceived'),
    setError: assign((_, params: ErrorInfo & { providerError?: string }) => ({ error: params })),
    setTokens: assign((_, params: { tokens: Tokens }) => ({ tokens: params.tokens })),
    clearCallback: assign(({ context }) => ({ error: null, query: { ...context.query, code: null, state: null, error: null, error_description: null } })),
  },
  guards: {
    hasProviderError: ({ context }) => Boolean(context.query.error),
    hasCode: ({ context }) => Boolean(context.query.code),
    wantsUpstreamProvider: ({ context }) => context.query.type === 'sso' && Boolean(context.query.provider) && Boolean(context.query.interaction),
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
        {
          guard: 'hasProviderError',
          target: 'failed',
          actions: { type: 'setError', params: ({ context }) => ({ code: 'provider_error' as const, providerError: context.query.error ?? undefined }) },
        },
        { guard: 'hasCode', target: 'checkingState' },
        {
          guard: 'wantsUpstreamProvider',
          target: 'redirecting',
          actions: { type: 'redirect', params: ({ context }) => ({ url: upstreamStartUrl(context.query.provider!, context.query.interaction!) }) },
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
      tags: ['loading'],
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
              params: ({ event }) => ({
                key: STORAGE_KEYS.codeVerifier,
                value: JSON.stringify({ code_verifier: event.output.codeVerifier, state: event.output.state } satisfies StoredAuthorization),
              }),
            },
            { type: 'redirect', params: ({ event }) => ({ url: event.output.url }) },
          ],
        },
        onError: { target: 'failed', actions: { type: 'setError', params: { code: 'unexpected' as const } } },
      },
    },
    exchanging: {
      tags: ['loading'],
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
    redirecting: { type: 'final', tags: ['loading'] },
    authenticated: { type: 'final', tags: ['loading'] },
    failed: {
      tags: ['route:sso-error'],
      on: { RETRY: { target: 'preparing', actions: 'clearCallback' } },
    },
  },
});

export type SsoCallbackMachine = typeof ssoCallbackMachine;
