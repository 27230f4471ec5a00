import { createHmac } from 'node:crypto';
import { AppError } from '../errors';
import type { ServiceHost } from '../services/deps';
import { safeEqual, serverSecret } from '../services/server-secrets';

/**
 * Binds every sign-in step of an OIDC interaction to the browser that started it (issue 28, finding 1).
 *
 * The provider's own `_interaction` cookie is scoped to the login page's path (`/login`, `/admin/login`), so the
 * API never sees it. When the provider hands a browser to the login page (`interactions.url`, server/oidc/provider.ts)
 * it therefore also gets `iam_interaction_<uid>`: HttpOnly, SameSite=Lax, Path=/api/, as long-lived as the interaction.
 * Its value is HMAC-SHA256(server secret `interaction-binding`, uid): nobody without the secret (kept in the shared
 * database, so every instance checks it alike) can make it, and only the browser whose authorization request created
 * the interaction was given it. Nothing has to be written for it: the interaction itself stays as the provider saved it.
 *
 * Every endpoint that acts on an interaction (password, second factors, SMS resend, SSO start and callback, and the
 * SPA's check `GET /api/interactions/:uid`) calls `assertHoldsInteraction` FIRST, before the interaction is read, a
 * lockout slot reserved or a password verified: a step sent from another browser is refused with 403
 * `interaction_foreign_browser` and changes nothing. The consent step needs none of this: it already reads the
 * provider's own cookie, scoped to its path (server/oidc/consent.ts).
 */

export const BINDING_COOKIE_PREFIX = 'iam_interaction_';
/** Sent with every API call of the SPA (fetch, credentials same-origin) and the SSO start/callback navigations. */
export const BINDING_COOKIE_PATH = '/api/';

export const bindingCookieName = (uid: string): string => `${BINDING_COOKIE_PREFIX}${uid}`;

/** The proof a browser holds interaction `uid`: HMAC-SHA256(secret, "interaction-binding:v1:" + uid), base64url. */
export async function bindingValue(deps: ServiceHost, uid: string): Promise<string> {
  return createHmac('sha256', await serverSecret(deps, 'interaction-binding')).update(`interaction-binding:v1:${uid}`).digest('base64url');
}

/** The value of cookie `name` in a `Cookie` header (the API registers no cookie plugin). */
export function cookieOf(header: string | undefined, name: string): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const i = part.indexOf('=');
    if (i > 0 && part.slice(0, i).trim() === name) return part.slice(i + 1).trim();
  }
  return undefined;
}

/** Whether the request's cookies (`cookieHeader`) prove it comes from the browser that holds interaction `uid`. */
export async function holdsInteraction(deps: ServiceHost, cookieHeader: string | undefined, uid: string): Promise<boolean> {
  const expected = await bindingValue(deps, uid);
  const presented = cookieOf(cookieHeader, bindingCookieName(uid));
  // compared in constant time; a missing cookie still spends the comparison
  return safeEqual(presented ?? '', expected) && presented !== undefined;
}

/** 403 `interaction_foreign_browser` unless the caller's browser holds interaction `uid`. */
export async function assertHoldsInteraction(deps: ServiceHost, cookieHeader: string | undefined, uid: string): Promise<void> {
  if (!(await holdsInteraction(deps, cookieHeader, uid))) throw new AppError(403, 'interaction_foreign_browser');
}
