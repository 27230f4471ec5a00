/**
 * A service app's redirect URIs and post-logout redirect URIs (OIDC registration metadata `redirect_uris`,
 * `post_logout_redirect_uris`; issue 31.2): the rules of one URI and of a list, shared by the admin API
 * (server/services/admin/service-apps.ts) and the service app form. No zod here: the SPA's form imports it.
 *
 * The provider compares a request's URI with the registered ones exactly, character for character
 * (oidc-provider's `redirectUriAllowed` / `postLogoutRedirectUriAllowed`), so a rule here never rewrites a URI.
 */

export const REDIRECT_URIS_MIN = 1;
export const REDIRECT_URIS_MAX = 10;
export const POST_LOGOUT_REDIRECT_URIS_MAX = 10;
/** Longest URI accepted (characters). */
export const REDIRECT_URI_MAX_LENGTH = 2000;

/** Why one URI of a list is refused: the field error code of `redirect_uris.N` / `post_logout_redirect_uris.N`. */
export type RedirectUriProblem = 'required' | 'too_long' | 'invalid' | 'uri_wildcard' | 'uri_fragment' | 'https_required' | 'uri_duplicate';

// eslint-disable-next-line no-control-regex
const SPACE_OR_CONTROL = /[\s\u0000-\u001f\u007f]/;
/** scheme, authority (non-empty), the rest: only absolute http(s) URLs with a host */
const ABSOLUTE_HTTP = /^(https?):\/\/([^/?#]+)(.*)$/i;

/**
 * Hosts whose plain http stays on this computer: localhost, 127.0.0.0/8, [::1] (URL.hostname form). Not names under
 * .localhost: browsers keep them on the machine, but the server's resolver (a back-channel logout URI) need not.
 * The one loopback rule of every URI a service app registers (contract/domain/formats.ts uses it too).
 */
export function isLoopbackHost(hostname: string): boolean {
  const h = hostname.toLowerCase();
  return h === 'localhost' || h === '[::1]' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h);
}

/**
 * The problem of one URI on its own, or null: an absolute https URL (http only on a loopback host: `https_required`, the
 * code of the back-channel logout URI too), no fragment, no wildcard `*`, no user info, no spaces or control
 * characters, at most REDIRECT_URI_MAX_LENGTH characters. `uri` is trimmed already.
 */
export function redirectUriProblem(uri: string): Exclude<RedirectUriProblem, 'uri_duplicate'> | null {
  if (uri === '') return 'required';
  if (uri.length > REDIRECT_URI_MAX_LENGTH) return 'too_long';
  if (SPACE_OR_CONTROL.test(uri)) return 'invalid';
  if (uri.includes('*')) return 'uri_wildcard';
  if (uri.includes('#')) return 'uri_fragment';
  const m = ABSOLUTE_HTTP.exec(uri);
  const parsed = m ? URL.parse(uri) : null;
  if (!m || !parsed || !parsed.hostname || parsed.username || parsed.password) return 'invalid';
  if (parsed.protocol === 'http:' && !isLoopbackHost(parsed.hostname)) return 'https_required';
  return null;
}

export interface RedirectUriListIssue {
  /** the entry's index, or null for the list itself */
  index: number | null;
  code: RedirectUriProblem | 'too_big';
}

/**
 * The problems of a list of URIs (entries trimmed already): each entry by redirectUriProblem, a repeated entry as
 * `uri_duplicate` (at its second place), an empty list when `min` is 1 as `required`, more than `max` as `too_big`.
 * `registered`: the URIs the app has registered in this list already; those are kept as they are (a rule added later,
 * such as plain http on a network host, does not block an admin who edits something else of an older app).
 */
export function redirectUriListIssues(list: readonly string[], opts: { min: number; max: number; registered?: ReadonlySet<string> }): RedirectUriListIssue[] {
  const issues: RedirectUriListIssue[] = [];
  if (list.length < opts.min) issues.push({ index: null, code: 'required' });
  if (list.length > opts.max) issues.push({ index: null, code: 'too_big' });
  const seen = new Set<string>();
  list.forEach((uri, index) => {
    const problem = opts.registered?.has(uri) ? null : redirectUriProblem(uri);
    if (problem) issues.push({ index, code: problem });
    else if (seen.has(uri)) issues.push({ index, code: 'uri_duplicate' });
    seen.add(uri);
  });
  return issues;
}

/**
 * A redirect URI as the older fields `url` + `path` (url: scheme and authority; path: the rest, possibly empty), so
 * that serviceRedirectUri(url, path) gives the URI back unchanged.
 */
export function splitRedirectUri(uri: string): { url: string; path: string } {
  const m = ABSOLUTE_HTTP.exec(uri);
  if (!m) return { url: uri, path: '' };
  return { url: `${m[1]}://${m[2]}`, path: m[3] ?? '' };
}

/**
 * The post-logout URIs an app registered through `url` + `path` had before issue 31.2 (the bare URL with and without a
 * trailing slash, and the redirect URI): migration 0016 fills them in, and an app created through url + path gets them.
 */
export function legacyPostLogoutRedirectUris(url: string, redirectUri: string): string[] {
  const base = url.trim().replace(/\/+$/, '');
  return [...new Set([`${base}/`, base, redirectUri])];
}
