import { z } from 'zod';
import { LOCALES } from '../locales';
import { isLoopbackHost } from './redirect-uris';

/** docs/SPEC.md §5 formats, shared by the SPA and the server. */
export const PHONE_RE = /^\+[0-9]{4,15}$/;
/** Subscription name XX_XX(X): upper-case segments joined by underscores (2 or 3 segments). */
export const SUBSCRIPTION_NAME_RE = /^[A-Z0-9]+_[A-Z0-9]+(_[A-Z0-9]+)?$/;
/** Role name XX_XX(X)(_XX*): two or more upper-case segments. */
export const ROLE_NAME_RE = /^[A-Z0-9]+(_[A-Z0-9]+)+$/;
export const SERVICE_PATH_RE = /^\/[A-Za-z0-9\-._~!$&'()*+,;=:@%/]*$/;
export { LOCALES, type Locale } from '../locales';

/**
 * The redirect URI that a service app's older fields `url` + `path` make: its URL (trailing slashes dropped) followed
 * by its path, e.g. `https://billing.example.com` + `/auth/callback`. It is the app's first redirect URI
 * (contract/domain/redirect-uris.ts; server/oidc/adapter.ts serviceAppRedirects).
 */
export function serviceRedirectUri(url: string, path: string): string {
  return `${url.trim().replace(/\/+$/, '')}${path.trim()}`;
}

export const emailSchema = z.string().trim().min(1).max(254).pipe(z.email());
export const phoneSchema = z.string().trim().regex(PHONE_RE);
export const roleNameSchema = z.string().trim().min(1).max(64).regex(ROLE_NAME_RE);
export const subscriptionNameSchema = z.string().trim().min(1).max(64).regex(SUBSCRIPTION_NAME_RE);
export const servicePathSchema = z.string().trim().min(1).max(255).regex(SERVICE_PATH_RE);
export const serviceUrlSchema = z
  .string()
  .trim()
  .min(1)
  .max(2048)
  .pipe(z.url({ protocol: /^https?$/ }));

/** Longest back-channel logout URI a service app may register. */
export const BACKCHANNEL_LOGOUT_URI_MAX = 2048;


/**
 * What is wrong with a back-channel logout URI (OpenID Connect Back-Channel Logout 1.0 §2.2), or null: an absolute
 * https URL (http only on a loopback host, for apps on the same machine and tests), without a fragment or user info,
 * at most BACKCHANNEL_LOGOUT_URI_MAX characters. `invalid`, or `https_required` for http on another host.
 */
export function backchannelLogoutUriProblem(value: string): 'invalid' | 'https_required' | null {
  if (value.length > BACKCHANNEL_LOGOUT_URI_MAX || value.includes('#')) return 'invalid';
  const url = URL.parse(value);
  if (!url || url.username || url.password || !url.hostname) return 'invalid';
  if (url.protocol === 'https:') return null;
  if (url.protocol === 'http:') return isLoopbackHost(url.hostname) ? null : 'https_required';
  return 'invalid';
}

/** An endpoint URI an app registers besides its redirect URIs (back-channel logout, initiate login): the same rules. */
const appEndpointUriSchema = () =>
  z
    .string()
    .trim()
    .min(1)
    .max(BACKCHANNEL_LOGOUT_URI_MAX)
    .superRefine((value, ctx) => {
      // empty and too long are said by min() and max() alone
      if (value.length === 0 || value.length > BACKCHANNEL_LOGOUT_URI_MAX) return;
      const problem = backchannelLogoutUriProblem(value);
      if (problem) ctx.addIssue({ code: 'custom', message: problem, params: { code: problem } });
    });
export const backchannelLogoutUriSchema = appEndpointUriSchema();
/**
 * OpenID Connect Core 1.0 §4 `initiate_login_uri`: the app's own "start sign-in" address (e.g. express-openid-connect's
 * `/login`), opened by the portal's home page with `iss`. Same rules as the back-channel logout URI.
 */
export const initiateLoginUriSchema = appEndpointUriSchema();
export const localeSchema = z.enum(LOCALES);
export const personNameSchema = z.string().trim().min(1).max(100);

/** Ids and keys from clients: no control characters (PostgreSQL refuses NUL in text; that must be a 422, not a 5xx). */
// eslint-disable-next-line no-control-regex
export const NO_CONTROL = /^[^\u0000-\u001f\u007f]+$/;
