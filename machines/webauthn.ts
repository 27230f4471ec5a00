/**
 * The browser's side of a passkey ceremony (`navigator.credentials.create()` / `.get()`, through
 * @simplewebauthn/browser in src/lib/webauthn.ts), as the passkey machines keep its failures: the ceremony's own
 * outcomes are not answers of the server, so they get codes of their own next to the contract's (machines/errors.ts).
 *
 * - `passkey_cancelled`: the person closed the browser's prompt, or the browser gave up waiting (WebAuthn reports both
 *   as `NotAllowedError`, on purpose: a page must not learn which credentials a device holds);
 * - `passkey_timeout`: the machine stopped waiting (its `ceremonyTimeout` delay, the options' `timeout`) and aborted;
 * - `passkey_unsupported`: this browser or page cannot do passkeys (no WebAuthn, not a secure context, an RP id that
 *   does not match the page's origin: `NotSupportedError`, `SecurityError`, `ConstraintError`);
 * - `passkey_aborted`: another ceremony replaced this one (the conditional-UI request is aborted when the person
 *   clicks "Sign in with a passkey"): not a failure to show;
 * - `passkey_already_registered` (a contract code): `InvalidStateError` from `create()`, the authenticator already
 *   holds one of the account's passkeys (the options' `excludeCredentials`).
 * Anything else thrown by the ceremony is `unexpected`; a failed call to the server keeps its contract code.
 */
import { toMachineError, type MachineError } from './errors';
import { isCallFailure } from './shared';

export const CEREMONY_ERROR_CODES = ['passkey_cancelled', 'passkey_timeout', 'passkey_unsupported', 'passkey_aborted'] as const;
export type CeremonyErrorCode = (typeof CEREMONY_ERROR_CODES)[number];

/** The DOMException names a WebAuthn ceremony rejects with, and what each means here. */
const BY_NAME: Record<string, MachineError['code']> = {
  NotAllowedError: 'passkey_cancelled',
  AbortError: 'passkey_aborted',
  InvalidStateError: 'passkey_already_registered',
  NotSupportedError: 'passkey_unsupported',
  SecurityError: 'passkey_unsupported',
  ConstraintError: 'passkey_unsupported',
};

/**
 * A rejected ceremony (or a failed call to the server around it) as a machine keeps it. @simplewebauthn/browser
 * wraps the DOMException in a `WebAuthnError` whose `cause` is the original; both are read.
 */
export function toCeremonyError(error: unknown): MachineError {
  if (isCallFailure(error)) return toMachineError(error);
  const names = [nameOf(error), nameOf(causeOf(error))];
  for (const name of names) {
    const code = name ? BY_NAME[name] : undefined;
    if (code) return { code, retryable: code === 'passkey_cancelled' || code === 'passkey_aborted' };
  }
  // @simplewebauthn/browser's own codes for the same cases
  const code = codeOf(error);
  if (code === 'ERROR_CEREMONY_ABORTED') return { code: 'passkey_aborted', retryable: true };
  if (code === 'ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED') return { code: 'passkey_already_registered', retryable: false };
  if (code === 'ERROR_INVALID_DOMAIN' || code === 'ERROR_INVALID_RP_ID') {
    return { code: 'passkey_unsupported', retryable: false };
  }
  return { code: 'unexpected', retryable: true };
}

function nameOf(value: unknown): string | undefined {
  return typeof value === 'object' && value !== null && 'name' in value && typeof value.name === 'string' ? value.name : undefined;
}
function causeOf(value: unknown): unknown {
  return typeof value === 'object' && value !== null && 'cause' in value ? value.cause : undefined;
}
function codeOf(value: unknown): string | undefined {
  return typeof value === 'object' && value !== null && 'code' in value && typeof value.code === 'string' ? value.code : undefined;
}
