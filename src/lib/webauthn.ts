/**
 * The browser's passkey ceremonies for the passkey machines (machines/webauthn.ts keeps their failures): thin
 * wrappers of @simplewebauthn/browser, loaded when first used so the sign-in page's first load does not carry it.
 * The options are the server's JSON (contract/passkeys.ts ceremonyOptionsSchema), handed over unchanged; the answer
 * is `PublicKeyCredential.toJSON()`, what the contract's `credentialSchema` reads.
 */
import type { PasskeyCredentialJSON } from '../../contract/passkeys';

type Options = Record<string, unknown> & { challenge: string };

const library = () => import('@simplewebauthn/browser');

/** Whether this browser can run a WebAuthn ceremony at all (no prompt; false during server rendering and in jsdom). */
export function passkeysSupported(): boolean {
  return typeof window !== 'undefined' && typeof window.PublicKeyCredential === 'function' && window.isSecureContext !== false && !isIpAddress(window.location.hostname);
}

/**
 * An IP address as the page's host: browsers refuse WebAuthn there (the RP id must be a domain; Chromium: "SecurityError:
 * This is an invalid domain"), so a deployment on `APP_URL=http://127.0.0.1:…` offers no passkey button, no autofill.
 */
export function isIpAddress(hostname: string): boolean {
  return /^\d{1,3}(\.\d{1,3}){3}$/.test(hostname) || hostname.startsWith('[') || hostname.includes(':');
}

/** Whether the e-mail field can offer passkeys through autofill (conditional mediation). */
export async function passkeyAutofillSupported(): Promise<boolean> {
  if (!passkeysSupported()) return false;
  try {
    return await (await library()).browserSupportsWebAuthnAutofill();
  } catch {
    return false;
  }
}

/** `navigator.credentials.create()` with the server's creation options. */
export async function createPasskey(options: Options): Promise<PasskeyCredentialJSON> {
  const { startRegistration } = await library();
  const answer = await startRegistration({ optionsJSON: options as unknown as Parameters<typeof startRegistration>[0]['optionsJSON'] });
  return answer as unknown as PasskeyCredentialJSON;
}

/**
 * `navigator.credentials.get()` with the server's request options; `autofill`: conditional mediation (the e-mail
 * field's suggestions, waits until the person picks one; aborted when another ceremony starts).
 */
export async function getPasskey(options: Options, autofill = false): Promise<PasskeyCredentialJSON> {
  const { startAuthentication } = await library();
  const answer = await startAuthentication({
    optionsJSON: options as unknown as Parameters<typeof startAuthentication>[0]['optionsJSON'],
    useBrowserAutofill: autofill,
  });
  return answer as unknown as PasskeyCredentialJSON;
}

/** Stops the ceremony in progress (the person clicked Cancel, or the machine stopped waiting): it rejects with AbortError. */
export async function cancelPasskeyCeremony(): Promise<void> {
  (await library()).WebAuthnAbortService.cancelCeremony();
}
