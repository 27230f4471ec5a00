import { randomBytes } from 'node:crypto';
import type { KoaContextWithOIDC } from 'oidc-provider';
import type { ServiceHost } from '../services/deps';
import { upstreamEndSessionUrl, upstreamSignedOutUri } from '../services/sso-upstream';
import { createAdapterClass } from './adapter';
import { allowFormActionTo } from './csp';
import { findUpstreamSignIn, takeStored, takeUpstreamSignIn } from './upstream-sessions';

/**
 * An app's RP-initiated logout of a session that was signed in through an upstream provider (SSO_PROVIDERS) goes on
 * to sign out there too, then ends where RP-initiated logout says. At `POST /oidc/session/end/confirm`, when the whole
 * session ended ("Yes"), the provider has answered 303 to its target: the app's registered post_logout_redirect_uri
 * with the app's `state`, or our signed-out page (end_session_success). That target is kept server-side (oidc_models,
 * model `SsoLogoutReturn`, 15 minutes) under a random key set as the `iam_sso_logout` cookie of this browser, and the
 * browser goes instead to the upstream's end_session_endpoint with the upstream ID token as `id_token_hint`, a fixed
 * post_logout_redirect_uri of ours (`APP_URL/api/sso/<provider>/signed-out`, registered at the upstream) and a random
 * `state`. The upstream sends the browser back there; that route (server/routes/auth/sso.routes.ts) takes the kept
 * target once, for the browser holding the cookie, and redirects to it. Anything else there — no cookie, an unknown,
 * expired or used key, another provider, another `state` — goes to our signed-out page: never to a URI from the request.
 * "Sign out of this app only" (the session stays) and sessions without an upstream sign-in behave as without SSO.
 */

/** The cookie binding a pending upstream sign-out to the browser that started it (its value: the kept record's key). */
export const SSO_LOGOUT_COOKIE = 'iam_sso_logout';
export const SSO_LOGOUT_COOKIE_PATH = '/api/sso/';
const MODEL = 'SsoLogoutReturn';
/** How long the person may take at the upstream's sign-out page (some ask to confirm) before the way back is forgotten. */
export const SSO_LOGOUT_RETURN_SECONDS = 15 * 60;

/** Where the browser goes after the upstream: the provider's own answer to the app's RP-initiated logout. */
interface LogoutReturn {
  provider: string;
  /** The `state` sent to the upstream's end_session_endpoint. */
  sentState: string;
  target: string;
}

function logoutReturnOf(raw: unknown): LogoutReturn | undefined {
  if (!raw || typeof raw !== 'object') return undefined;
  const r = raw as Record<string, unknown>;
  return typeof r.provider === 'string' && typeof r.sentState === 'string' && typeof r.target === 'string' ? { provider: r.provider, sentState: r.sentState, target: r.target } : undefined;
}

/** Our signed-out page (the provider's end_session_success): where a return that is not the browser's own goes. */
export const signedOutPage = (issuer: string): string => `${issuer}/session/end/success`;

/**
 * Koa middleware for the provider (provider.use): the logout page of an SSO session may be followed by a redirect to
 * the upstream's end_session_endpoint, and browsers apply the page's form-action to the redirects after its form is
 * sent; so the upstream's origin is added to it (server/oidc/csp.ts), taken from the provider's discovery, never from
 * the request.
 */
export function upstreamLogoutFormAction(host: Pick<ServiceHost, 'db' | 'config' | 'log'>) {
  return async (ctx: KoaContextWithOIDC, next: () => Promise<void>): Promise<void> => {
    await next();
    const oidc = ctx.oidc as KoaContextWithOIDC['oidc'] | undefined;
    const session = oidc?.session;
    if (oidc?.route !== 'end_session' || !session?.accountId || !ctx.response.is('html')) return;
    try {
      const upstream = await findUpstreamSignIn(host.db.kysely, session.uid);
      const url = upstream ? await upstreamEndSessionUrl(host, upstream, upstreamSignedOutUri(host.config.appUrl, upstream.provider)) : undefined;
      if (url) allowFormActionTo(ctx, url);
    } catch (err) {
      host.log.warn({ err: err instanceof Error ? err.message : String(err) }, 'upstream sign-out: form-action not widened');
    }
  };
}

/**
 * After `POST /session/end/confirm` ended the whole provider session `sessionUid` (its 303 already set): when the
 * session came through an upstream provider that signs out (end_session_endpoint, `end_session` not false), the
 * provider's redirect target is kept for this browser and the browser is sent to the upstream's sign-out instead.
 * The upstream sign-in record is taken (once) either way. Failures leave the provider's redirect as it is: the
 * sign-out here has happened.
 */
export async function continueAtUpstream(host: Pick<ServiceHost, 'db' | 'config' | 'log'>, ctx: KoaContextWithOIDC, sessionUid: string): Promise<void> {
  const db = host.db.kysely;
  try {
    const upstream = await takeUpstreamSignIn(db, [sessionUid]);
    const target = ctx.response.get('location');
    if (!upstream || !target) return;
    const key = randomBytes(32).toString('base64url');
    const state = randomBytes(24).toString('base64url');
    const url = await upstreamEndSessionUrl(host, upstream, upstreamSignedOutUri(host.config.appUrl, upstream.provider), state);
    if (!url) return;
    const Store = createAdapterClass(db);
    const record: LogoutReturn = { provider: upstream.provider, sentState: state, target };
    await new Store(MODEL).upsert(key, { ...record }, SSO_LOGOUT_RETURN_SECONDS);
    ctx.cookies.set(SSO_LOGOUT_COOKIE, key, {
      path: SSO_LOGOUT_COOKIE_PATH,
      httpOnly: true,
      sameSite: 'lax',
      secure: host.config.appUrl.startsWith('https:'),
      signed: false,
      overwrite: true,
      maxAge: SSO_LOGOUT_RETURN_SECONDS * 1000,
    });
    ctx.status = 303;
    ctx.redirect(url);
  } catch (err) {
    host.log.warn({ err: err instanceof Error ? err.message : String(err) }, 'upstream sign-out skipped');
  }
}

/** Where a return from the upstream goes, and whether the browser's `iam_sso_logout` cookie is still needed. */
export interface UpstreamReturn {
  to: string;
  /** A live way back of this browser that this return did not match (another provider or `state`): kept for the real one. */
  keepCookie: boolean;
}

/**
 * The upstream sent the browser back to `APP_URL/api/sso/<providerId>/signed-out`: the kept target of this browser's
 * sign-out (`key`: its `iam_sso_logout` cookie), once, when it is live, of this provider, and the `state` the upstream
 * returned (if it returned one) is the one sent; otherwise our signed-out page. A return with another provider or
 * `state` leaves the record, and the cookie, for the real one.
 */
export async function returnFromUpstream(host: Pick<ServiceHost, 'db' | 'config'>, providerId: string, state: string | undefined, key: string | undefined): Promise<UpstreamReturn> {
  const fallback = signedOutPage(host.config.issuer);
  if (!key) return { to: fallback, keepCookie: false };
  const Store = createAdapterClass(host.db.kysely);
  const kept = logoutReturnOf(await new Store(MODEL).find(key));
  if (!kept) return { to: fallback, keepCookie: false };
  if (kept.provider !== providerId || (state !== undefined && state !== kept.sentState)) return { to: fallback, keepCookie: true };
  const taken = logoutReturnOf(await takeStored(host.db.kysely, MODEL, key));
  return { to: taken?.target ?? fallback, keepCookie: false };
}
