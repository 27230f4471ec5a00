/**
 * The account screens' words for each error code the machines keep (machines/errors.ts: the contract's codes plus
 * `network` and `unexpected`): sign-in, password links, first set-up, the own profile (catalog account). One code,
 * one text, the same as the server's message where the server has one (tests/spa/error-words.test.ts); the sign-in
 * only adds where a text is shown (login-errors.ts). A code without words here reads as the generic error; every code a
 * sign-in endpoint declares has words (tsc, see ACCOUNT_ERROR_WORDS).
 * "Try again" is said only where trying again can help (no answer, server trouble, an SMS not sent, a wait).
 */
import type { I18n, MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { toMachineError, type MachineError, type MachineErrorCode } from '../../../machines/errors';
import type { SignInErrorCode } from '../../../machines/login.machine';
import { fieldErrorMessage } from '../../lib/field-errors';
import { formatDuration } from './form-kit';

/** The codes whose words name the wait (`{time}`); without a Retry-After they read as their `later` words. */
type WaitCode = 'account_locked' | 'too_many_requests';
const waitWords: Record<WaitCode, { time: MessageDescriptor; later: MessageDescriptor }> = {
  account_locked: {
    time: msg({ message: 'Too many failed attempts. Your account is locked, try again in {time}.' }),
    later: msg`Too many failed attempts. Please try again later.`,
  },
  too_many_requests: {
    time: msg({ message: 'Too many attempts from your network. Please wait {time}, then try again.' }),
    later: msg`Too many attempts from your network. Please wait a moment, then try again.`,
  },
};

const GENERIC = msg`An error occurred, please try again`;

/**
 * Every code a sign-in endpoint declares (SignInErrorCode, machines/login.machine.ts) must have words here or in
 * waitWords: tsc names a missing one on this table. Other codes may. Exported for tests/spa/error-words.test.ts.
 */
export const ACCOUNT_ERROR_WORDS: Record<Exclude<SignInErrorCode, WaitCode>, MessageDescriptor> & Partial<Record<MachineErrorCode, MessageDescriptor>> = {
  account_inactive: msg`Your account is deactivated. Please contact your administrator.`,
  // api_key_not_allowed, invalid_dpop_proof, invalid_token: refusals of a bearer (the SMS resend takes one when signed in)
  api_key_not_allowed: msg`An API key cannot be used for this request; sign in instead`,
  interaction_expired: msg`Your sign-in has expired. Please sign in again.`,
  interaction_foreign_browser: msg`This sign-in was started in another browser. Start the sign-in again in this browser.`,
  interaction_invalid: msg`Your sign-in has expired. Please sign in again.`,
  internal_error: GENERIC,
  invalid_credentials: msg`Given password is invalid`,
  invalid_dpop_proof: msg`The proof of possession (DPoP) sent with the access token is invalid`,
  invalid_link: msg`This link is invalid or has expired`,
  invalid_token: msg`Your session has expired, please sign in again`,
  network: msg`The server cannot be reached. Check your connection and try again.`,
  otp_invalid: msg`One time password is invalid`,
  passkey_already_registered: msg`This passkey is already registered`,
  passkey_cancelled: msg`The passkey request was cancelled or timed out. Try again, or use another way.`,
  passkey_challenge_invalid: msg`This passkey request has expired or was already used, please start again`,
  passkey_invalid: msg`The passkey could not be verified`,
  passkey_limit_reached: msg`You have registered the maximum number of passkeys; remove one first`,
  passkey_not_found: msg`Passkey not found`,
  passkey_timeout: msg`Your device did not answer in time. Try again.`,
  passkey_unknown: msg`This passkey is not registered (any more). Sign in another way, or remove it from your device`,
  passkey_unsupported: msg`This browser or device cannot use passkeys here. Use another way to sign in.`,
  otp_required: msg`Please enter one time password`,
  phone_required: msg`Add a phone number to your profile first`,
  recovery_code_invalid: msg`Recovery code is invalid`,
  // the sign-in admission gate refused at once (503 + Retry-After): busy, not broken
  service_unavailable: msg`Many people are signing in right now. Please try again in a few seconds.`,
  sms_send_failed: msg`The SMS with your code could not be sent. Please try again in a moment.`,
  sso_account_use_provider: msg`This account signs in with single sign-on. Use your organization's sign-in button below.`,
  two_factor_method_mismatch: msg`Your sign-in has expired. Please sign in again.`,
  unauthorized: msg`Your session has ended. Please sign in again.`,
  validation_failed: msg`Please check the highlighted fields.`,
};

const isWaitCode = (code: MachineErrorCode): code is WaitCode => code in waitWords;

/** Translates a descriptor with values (ids are not literals here). */
function render(i18n: I18n, descriptor: MessageDescriptor, values: Record<string, string> = {}): string {
  const translate = i18n._.bind(i18n);
  return translate(descriptor.id, values, { message: descriptor.message });
}

/** The account screens' text of an error a machine keeps; null when there is none. */
export function accountErrorText(i18n: I18n, error: Pick<MachineError, 'code' | 'retryAfter' | 'fields'> | null): string | null {
  if (!error) return null;
  // a refusal by field (the password given to disable 2FA, a code too long): that field's words
  const [field, codes] = Object.entries(error.fields ?? {})[0] ?? [];
  if (error.code === 'validation_failed' && field && codes?.[0]) return fieldErrorMessage(i18n, codes[0], field) ?? null;
  const wait = isWaitCode(error.code) ? waitWords[error.code] : undefined;
  if (wait) return error.retryAfter ? render(i18n, wait.time, { time: formatDuration(i18n, error.retryAfter) }) : render(i18n, wait.later);
  return render(i18n, ACCOUNT_ERROR_WORDS[error.code] ?? GENERIC);
}

/** The text for anything a mutation threw (an ApiError from call(), or anything else), in the same words. */
export function apiErrorMessage(i18n: I18n, error: unknown): string {
  return accountErrorText(i18n, toMachineError(error)) ?? '';
}
