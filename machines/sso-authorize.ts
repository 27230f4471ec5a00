/**
 * The start of the SPA's own OIDC sign-in, apart from the SSO-callback statechart (ssoCallback.machine.ts, which
 * re-exports all of this): the login screen's first load starts the authorization (PKCE) and links to the upstream
 * providers, but needs the callback machine only when coming back from a provider, so that machine and its view are
 * a chunk of their own (issue 15: first load of /login).
 */
import { auth } from '../contract/routes';
import { createPkceAuthorizationRequest } from './pkce';
import { loginPath, STORAGE_KEYS, type OidcClientConfig, type StorageKey } from './shared';

/** The OIDC client settings a sign-in needs (from GET /api/config). */
export type SsoClientConfig = Pick<OidcClientConfig, 'authorization_endpoint' | 'token_endpoint' | 'scope' | 'clients'>;

/**
 * What the `code_verifier` storage key holds (JSON): the verifier and the state sent with it, and where to land
 * after the exchange (`returnTo`, a same-site path) — the hand-off across the provider round trip.
 */
export interface StoredAuthorization {
  code_verifier: string;
  state: string;
  returnTo?: string;
  /**
   * Started because a login link's sign-in belonged to another browser (login machine `restartForThisBrowser`): if
   * the sign-in this starts is not this browser's either, the login page stops instead of restarting in a loop.
   */
  rebind?: true;
}

/**
 * A same-site path (`/profile`), else undefined: never another origin. The one open-redirect check of the sign-in:
 * `?origin=` and the stored authorization's `returnTo` (machines/sso-authorize.test.ts). Read as the browser's URL
 * parser reads it, which drops tabs and newlines anywhere and takes `\` for `/`: one `/` must lead (not `//evil`,
 * `/\evil`, `/<tab>/evil`, nor `https:`, `javascript:`…). Percent-encoded slashes stay in the path (`/%2F%2Fevil` is
 * a page of this site).
 */
export function safeReturnTo(value: unknown): string | undefined {
  return typeof value === 'string' && /^\/(?![/\\])/.test(value.replace(/[\t\n\r]/g, '')) ? value : undefined;
}

export function storedAuthorizationJson(request: { codeVerifier: string; state: string }, returnTo: unknown, rebind = false): string {
  const safe = safeReturnTo(returnTo);
  return JSON.stringify({ code_verifier: request.codeVerifier, state: request.state, ...(safe ? { returnTo: safe } : {}), ...(rebind ? { rebind: true as const } : {}) } satisfies StoredAuthorization);
}

/** Whether the stored authorization (`code_verifier` storage value) was started for this browser after a foreign link. */
export function isReboundAuthorization(raw: string | null): boolean {
  if (!raw) return false;
  try {
    const value: unknown = JSON.parse(raw);
    return typeof value === 'object' && value !== null && (value as Record<string, unknown>).rebind === true;
  } catch {
    return false;
  }
}

export function clientFor(context: { admin: boolean; config: SsoClientConfig }): string {
  return context.admin ? context.config.clients.admin : context.config.clients.portal;
}
export function redirectUriFor(context: { admin: boolean; origin: string }): string {
  return context.origin + loginPath(context.admin);
}
/**
 * Where the browser goes to sign in through upstream provider `provider` within `interaction` (contract/auth.ts
 * ssoStart, through the schema-free table of contract/routes.ts: the login screen's first load has no zod);
 * `locale`: the person's language, passed upstream as `ui_locales`.
 */
export function upstreamStartUrl(provider: string, interaction: string, locale?: string): string {
  const qs = new URLSearchParams({ interaction, ...(locale ? { ui_locales: locale } : {}) });
  return `${auth.ssoStart.path.replace(':provider', encodeURIComponent(provider))}?${qs.toString()}`;
}

/**
 * Start the authorization from anywhere (e.g. the login machine's
 * `startAuthorization` actor when /login was opened without `interaction`).
 */
export async function startAuthorization(deps: {
  admin: boolean;
  origin: string;
  config: SsoClientConfig;
  /** Where to land after the sign-in (`/login?origin=…`), kept in the stored authorization. */
  returnTo?: string | undefined;
  /** Restarted for this browser: the link's sign-in belonged to another one (StoredAuthorization `rebind`). */
  rebind?: boolean;
  writeStorage: (key: StorageKey, value: string) => void;
  redirect: (url: string) => void;
  crypto?: Crypto;
}): Promise<void> {
  const request = await createPkceAuthorizationRequest(
    { authorizationEndpoint: deps.config.authorization_endpoint, clientId: clientFor(deps), redirectUri: redirectUriFor(deps), scope: deps.config.scope },
    deps.crypto,
  );
  deps.writeStorage(STORAGE_KEYS.codeVerifier, storedAuthorizationJson(request, deps.returnTo, deps.rebind));
  deps.redirect(request.url);
}

