import { webcrypto } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  CODE_VERIFIER_LENGTH,
  STATE_LENGTH,
  UNRESERVED,
  base64UrlEncode,
  buildAuthorizationUrl,
  createCodeChallenge,
  createCodeVerifier,
  createPkceAuthorizationRequest,
  createState,
  randomString,
} from '../../machines/pkce';

const crypto = webcrypto as unknown as Crypto;

describe('PKCE helpers', () => {
  it('code verifier: 128 chars of the unreserved alphabet; state: 40 chars', () => {
    expect(UNRESERVED).toHaveLength(66);
    const verifier = createCodeVerifier(crypto);
    expect(verifier).toHaveLength(CODE_VERIFIER_LENGTH);
    expect(verifier).toMatch(/^[A-Za-z0-9\-._~]{128}$/);
    expect(createState(crypto)).toMatch(/^[A-Za-z0-9\-._~]{40}$/);
    expect(STATE_LENGTH).toBe(40);
    expect(createCodeVerifier(crypto)).not.toBe(verifier);
  });

  it('random strings cover the whole alphabet without modulo bias (rejection of bytes >= 198)', () => {
    const bytes = [197, 198, 255, 0, 65];
    let i = 0;
    const fake = { getRandomValues: <T extends ArrayBufferView | null>(array: T): T => {
      const view = array as unknown as Uint8Array;
      for (let j = 0; j < view.length; j++) view[j] = bytes[i++ % bytes.length]!;
      return array;
    } };
    // 197 % 66 = 65 -> '~', 198 and 255 rejected, 0 -> 'A', 65 -> '~'
    expect(randomString(3, UNRESERVED, fake)).toBe('~A~');
    const sample = randomString(20_000, UNRESERVED, crypto);
    expect(new Set(sample).size).toBe(66);
  });

  it('code_challenge = BASE64URL(SHA-256(verifier)) — RFC 7636 appendix B', async () => {
    await expect(createCodeChallenge('dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk', crypto)).resolves.toBe('E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM');
  });

  it('base64url has no padding and uses -_', () => {
    expect(base64UrlEncode(new Uint8Array([251, 255, 191]))).toBe('-_-_');
    expect(base64UrlEncode(new Uint8Array([1]))).toBe('AQ');
  });

  it('authorization request URL carries every PKCE parameter', async () => {
    const request = await createPkceAuthorizationRequest(
      { authorizationEndpoint: 'https://iam.test/oidc/auth', clientId: 'portal', redirectUri: 'https://iam.test/login', scope: 'openid offline_access' },
      crypto,
    );
    const url = new URL(request.url);
    expect(Object.fromEntries(url.searchParams)).toEqual({
      response_type: 'code',
      client_id: 'portal',
      redirect_uri: 'https://iam.test/login',
      scope: 'openid offline_access',
      state: request.state,
      code_challenge: await createCodeChallenge(request.codeVerifier, crypto),
      code_challenge_method: 'S256',
    });
    expect(buildAuthorizationUrl({ authorizationEndpoint: 'https://a.test/auth', clientId: 'c', redirectUri: 'r', scope: 's', state: 'x', codeChallenge: 'y', extra: { prompt: 'login' } })).toContain('prompt=login');
  });

  it('works with the global Web Crypto (browser / Node 20)', async () => {
    const request = await createPkceAuthorizationRequest({ authorizationEndpoint: 'https://iam.test/auth', clientId: 'portal', redirectUri: 'https://iam.test/login', scope: 'openid' });
    expect(request.codeVerifier).toHaveLength(128);
  });
});
