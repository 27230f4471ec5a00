/**
 * PKCE helpers (RFC 7636) for the SPA's authorization code flow.
 * Pure functions on top of Web Crypto (`globalThis.crypto`), so they run in
 * browsers and in Node 20 alike. docs/SPEC.md §9: verifier 128 chars, state 40 chars,
 * challenge method S256.
 */

/** RFC 3986 unreserved characters, the alphabet allowed for a code verifier. */
export const UNRESERVED = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~';
export const CODE_VERIFIER_LENGTH = 128;
export const STATE_LENGTH = 40;
export const CODE_CHALLENGE_METHOD = 'S256';

type RandomSource = Pick<Crypto, 'getRandomValues'>;
type DigestSource = Pick<Crypto, 'subtle'>;

/** Uniformly random string over `alphabet` (rejection sampling, no modulo bias). */
export function randomString(length: number, alphabet: string = UNRESERVED, random: RandomSource = globalThis.crypto): string {
  if (alphabet.length < 2 || alphabet.length > 256) throw new RangeError('alphabet must have 2..256 characters');
  const limit = 256 - (256 % alphabet.length);
  let out = '';
  while (out.length < length) {
    const bytes = random.getRandomValues(new Uint8Array(Math.max(16, (length - out.length) * 2)));
    for (const byte of bytes) {
      if (byte >= limit) continue;
      out += alphabet[byte % alphabet.length];
      if (out.length === length) break;
    }
  }
  return out;
}

export function createCodeVerifier(random?: RandomSource): string {
  return randomString(CODE_VERIFIER_LENGTH, UNRESERVED, random);
}

export function createState(random?: RandomSource): string {
  return randomString(STATE_LENGTH, UNRESERVED, random);
}

export function base64UrlEncode(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** code_challenge = BASE64URL(SHA-256(ASCII(code_verifier))) */
export async function createCodeChallenge(verifier: string, crypto: DigestSource = globalThis.crypto): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(verifier));
  return base64UrlEncode(new Uint8Array(digest));
}

export interface AuthorizationRequestParams {
  authorizationEndpoint: string;
  clientId: string;
  redirectUri: string;
  scope: string;
  /** Extra query parameters (e.g. `prompt`, `login_hint`). */
  extra?: Record<string, string>;
}

export interface PkceAuthorizationRequest {
  codeVerifier: string;
  state: string;
  codeChallenge: string;
  codeChallengeMethod: typeof CODE_CHALLENGE_METHOD;
  /** The full authorization URL to send the browser to. */
  url: string;
}

export function buildAuthorizationUrl(
  params: AuthorizationRequestParams & { state: string; codeChallenge: string },
): string {
  const url = new URL(params.authorizationEndpoint);
  url.searchParams.set('response_type', 'code');
  url.searchParams.set('client_id', params.clientId);
  url.searchParams.set('redirect_uri', params.redirectUri);
  url.searchParams.set('scope', params.scope);
  url.searchParams.set('state', params.state);
  url.searchParams.set('code_challenge', params.codeChallenge);
  url.searchParams.set('code_challenge_method', CODE_CHALLENGE_METHOD);
  for (const [key, value] of Object.entries(params.extra ?? {})) url.searchParams.set(key, value);
  return url.toString();
}

export async function createPkceAuthorizationRequest(
  params: AuthorizationRequestParams,
  crypto: RandomSource & DigestSource = globalThis.crypto,
): Promise<PkceAuthorizationRequest> {
  const codeVerifier = createCodeVerifier(crypto);
  const state = createState(crypto);
  const codeChallenge = await createCodeChallenge(codeVerifier, crypto);
  return {
    codeVerifier,
    state,
    codeChallenge,
    codeChallengeMethod: CODE_CHALLENGE_METHOD,
    url: buildAuthorizationUrl({ ...params, state, codeChallenge }),
  };
}
