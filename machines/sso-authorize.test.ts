import { describe, expect, it } from 'vitest';
import { safeReturnTo, storedAuthorizationJson } from './sso-authorize';
import { afterSignInTarget, parseStoredAuthorization } from './ssoCallback.machine';

/**
 * The one open-redirect check of the sign-in (safeReturnTo): where `/login?origin=…` may send the visitor after the
 * sign-in. The router hands the check the search value decoded once; what it keeps goes into the stored authorization
 * (storedAuthorizationJson), comes back from it (parseStoredAuthorization) and is where the SSO callback lands
 * (afterSignInTarget). Every form of another origin is refused at each of the three.
 */
describe('safeReturnTo: same-site paths only', () => {
  const otherSites = [
    '//evil.example',
    '//evil.example/profile',
    '/\\evil.example',
    '/\\/evil.example',
    '\\\\evil.example',
    '/\t/evil.example',
    '/\n/evil.example',
    '/\r\n/evil.example',
    '/\\\t/evil.example',
    'https://evil.example/',
    'HTTPS://evil.example/',
    'http:evil.example',
    '///evil.example',
    'javascript:alert(1)',
    'JaVaScRiPt:alert(document.domain)',
    ' javascript:alert(1)',
    'data:text/html,<script>alert(1)</script>',
    'evil.example',
    // encoded: as they arrive when a link encodes them once more than the router decodes (no leading `/`)
    '%2F%2Fevil.example',
    'javascript%3Aalert(1)',
    '%6A%61%76%61%73%63%72%69%70%74:alert(1)',
    '',
  ];

  it('the browser would read each of those tab, newline and backslash forms as another host', () => {
    for (const path of ['/\t/evil.example', '/\n/evil.example', '/\r\n/evil.example', '/\\\t/evil.example', '/\\evil.example', '/\\/evil.example']) {
      expect(new URL(path, 'http://same-site.invalid').host, JSON.stringify(path)).not.toBe('same-site.invalid');
    }
  });

  it.each(otherSites)('refuses %j everywhere a sign-in carries it', (value) => {
    expect(safeReturnTo(value)).toBeUndefined();
    const stored = storedAuthorizationJson({ codeVerifier: 'v', state: 's' }, value);
    expect(JSON.parse(stored)).toEqual({ code_verifier: 'v', state: 's' });
    expect(parseStoredAuthorization(JSON.stringify({ code_verifier: 'v', state: 's', returnTo: value }))).toEqual({ code_verifier: 'v', state: 's' });
    expect(afterSignInTarget('user', value)).toEqual({ to: '/' });
  });

  it.each([undefined, null, 42, ['/profile'], { path: '/profile' }])('refuses a value that is no string (%j)', (value) => {
    expect(safeReturnTo(value)).toBeUndefined();
  });

  it.each([
    '/',
    '/profile',
    '/profile?tab=security#two-factor',
    '/profile?next=%2F%2Fevil.example',
    '/verify/user?url=a%20b',
    '/a/b//c',
    // percent-encoded slashes, backslashes and tabs stay in the path: pages of this site
    '/%2F/evil.example',
    '/%2F%2Fevil.example',
    '/%5Cevil.example',
    '/%09/evil.example',
  ])('keeps %j', (value) => {
    expect(safeReturnTo(value)).toBe(value);
    // as the browser's URL parser reads it: a path of this site
    expect(new URL(value, 'http://same-site.invalid').host).toBe('same-site.invalid');
    expect(parseStoredAuthorization(storedAuthorizationJson({ codeVerifier: 'v', state: 's' }, value))?.returnTo).toBe(value);
  });
});
