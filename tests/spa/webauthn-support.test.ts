import { afterEach, describe, expect, it } from 'vitest';
import { isIpAddress, passkeysSupported } from '../../src/lib/webauthn';

/** Issue 33: passkeys are offered only where the browser can run the ceremony for this page's host. */
describe('passkeys: where the page offers them', () => {
  const original = (window as { PublicKeyCredential?: unknown }).PublicKeyCredential;
  afterEach(() => Object.assign(window, { PublicKeyCredential: original }));

  it('IP addresses are not a relying party (browsers refuse WebAuthn there); host names are', () => {
    for (const host of ['127.0.0.1', '10.0.0.7', '[::1]', '::1', '[2001:db8::1]']) expect(isIpAddress(host), host).toBe(true);
    for (const host of ['localhost', 'iam.example.com', 'login.intra', '127.example.com']) expect(isIpAddress(host), host).toBe(false);
  });

  it('offered on a host name with WebAuthn; not without it', () => {
    expect(window.location.hostname).toBe('localhost');
    Object.assign(window, { PublicKeyCredential: undefined });
    expect(passkeysSupported()).toBe(false);
    Object.assign(window, { PublicKeyCredential: function PublicKeyCredential() {} });
    expect(passkeysSupported()).toBe(true);
  });
});
