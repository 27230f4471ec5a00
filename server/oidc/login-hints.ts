/**
 * The hints an app's authorization request gives the sign-in page (OpenID Connect Core 3.1.2.1): `ui_locales` (the
 * languages the person prefers, e.g. "de-CH de en") picks the page's language, and `login_hint` (an e-mail address)
 * fills its e-mail field. The provider passes them to the SPA's interaction page (server/oidc/provider.ts
 * interactions.url); the SSO start passes them upstream (server/services/sso.ts). Anything else is dropped.
 */

/** Up to 5 BCP 47 tags separated by spaces, else undefined. */
export function cleanUiLocales(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const tags = value.split(/\s+/).filter((tag) => /^[A-Za-z]{2,8}(-[A-Za-z0-9]{1,8})*$/.test(tag)).slice(0, 5);
  return tags.length ? tags.join(' ') : undefined;
}

/** A login hint that can be an e-mail address (trimmed, ≤ 254 characters, no control characters), else undefined. */
export function cleanLoginHint(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const hint = value.trim();
  // eslint-disable-next-line no-control-regex
  if (hint === '' || hint.length > 254 || /[\u0000-\u001f\u007f\s]/.test(hint)) return undefined;
  return hint;
}

/** The interaction page's query parameters from the authorization request's hints. */
export function loginHintParams(params: Record<string, unknown>): Record<string, string> {
  const out: Record<string, string> = {};
  const uiLocales = cleanUiLocales(params.ui_locales);
  if (uiLocales) out.ui_locales = uiLocales;
  const loginHint = cleanLoginHint(params.login_hint);
  if (loginHint) out.login_hint = loginHint;
  return out;
}
