import type { I18n, MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { useLingui } from '@lingui/react';
import type { ErrorCode } from '../../../../contract/errors';
import { toMachineError, type MachineError } from '../../../../machines/errors';
import { isApiError } from '../../../api/errors';
import { fieldErrorMessage } from '../../../lib/field-errors';

/**
 * Every error code of the contract (contract/errors.ts) in the admin's words: a code missing here fails tsc.
 * "Try again" is said only where trying again can help (no answer, the server busy or failing, a rate limit);
 * a refusal says why instead.
 */
const codeMessages: Record<ErrorCode, MessageDescriptor> = {
  account_inactive: msg`This account is inactive`,
  account_locked: msg`Too many failed attempts: the account is locked for {seconds} seconds`,
  admin_not_found: msg`This admin no longer exists`,
  already_verified: msg`This account is already verified`,
  api_key_not_allowed: msg`An API key cannot be used for this; sign in instead`,
  avatar_invalid_type: msg`Choose a .jpg, .jpeg or .png image.`,
  avatar_not_found: msg`There is no avatar to remove`,
  avatar_too_large: msg`The image file is too large`,
  avatar_too_large_dimensions: msg`The image must be at most 1200 × 600 pixels.`,
  bad_request: msg`The server could not read the request`,
  cannot_delete_self: msg`You cannot delete your own admin account`,
  conflict: msg`Someone changed this in the meantime; reload the page to see the current state`,
  current_password_invalid: msg`The current password is invalid`,
  database_unavailable: msg`The database is unavailable at the moment; please try again shortly`,
  email_not_found: msg`No account has this e-mail address`,
  email_taken: msg`This e-mail address is already in use`,
  forbidden: msg`You are not allowed to do this`,
  import_job_not_found: msg`This import no longer exists`,
  interaction_expired: msg`The sign-in request has expired, please start again`,
  interaction_foreign_browser: msg`This sign-in was started in another browser. Start the sign-in again in this browser`,
  interaction_invalid: msg`This sign-in request belongs to another login page`,
  internal_error: msg`An error occurred, please try again`,
  invalid_credentials: msg`Given password is invalid`,
  invalid_dpop_proof: msg`The proof of possession (DPoP) sent with the access token is invalid`,
  invalid_link: msg`This link is invalid or has expired`,
  invalid_token: msg`Your session has expired, please sign in again`,
  invitation_not_applicable: msg`Single sign-on accounts are not invited by e-mail`,
  invitation_resend_limited: msg`This invitation was sent again too often; you can send it again in {seconds} seconds`,
  last_super_admin: msg`The last super admin cannot be removed or demoted`,
  lock_forbidden: msg`Managers may clear only the locks of the users they manage`,
  lock_not_found: msg`This lock no longer exists`,
  session_not_found: msg`This session has ended already`,
  name_taken: msg`This name is already taken`,
  not_found: msg`This no longer exists; reload the page`,
  not_technical: msg`API keys can only be generated for technical users`,
  otp_invalid: msg`One time password is invalid`,
  otp_required: msg`Please enter one time password`,
  passkey_already_registered: msg`This passkey is already registered`,
  passkey_challenge_invalid: msg`This passkey request has expired or was already used, please start again`,
  passkey_invalid: msg`The passkey could not be verified`,
  passkey_limit_reached: msg`You have registered the maximum number of passkeys; remove one first`,
  passkey_not_found: msg`Passkey not found`,
  passkey_unknown: msg`This passkey is not registered (any more). Sign in another way, or remove it from your device`,
  payload_too_large: msg`The file is too large`,
  phone_required: msg`Add a phone number to your profile first`,
  recovery_code_invalid: msg`Recovery code is invalid`,
  redis_unavailable: msg`The cache is unavailable at the moment; please try again shortly`,
  role_in_use: msg`This role is still in use`,
  role_not_found: msg`This role no longer exists`,
  route_not_found: msg`This server does not offer this function`,
  service_app_not_found: msg`This service app no longer exists`,
  service_unavailable: msg`The service is busy; please try again shortly`,
  setup_done: msg`The product is already set up`,
  shutting_down: msg`The server is restarting; please try again shortly`,
  encryption_key_mismatch: msg`The server's encryption key is wrong`,
  sms_send_failed: msg`The SMS could not be sent, please try again`,
  sso_failed: msg`Single sign-on failed, please try again`,
  sso_provider_unknown: msg`Unknown single sign-on provider`,
  sso_account_use_provider: msg`This address signs in through single sign-on: use its button instead of a password`,
  sso_email_missing: msg`The single sign-on provider sent no e-mail address`,
  sso_email_unverified: msg`The single sign-on provider did not confirm the e-mail address`,
  subscription_not_found: msg`This subscription no longer exists`,
  too_many_requests: msg`Too many requests; please try again in {seconds} seconds`,
  two_factor_already_enabled: msg`Two-factor authentication is already enabled`,
  two_factor_method_mismatch: msg`This second factor is not the one enabled for the account`,
  two_factor_not_started: msg`Start the two-factor setup first`,
  unauthorized: msg`Your session has ended; please sign in again`,
  unsupported_media_type: msg`The server does not accept this kind of file`,
  uri_too_long: msg`The search is too long; shorten it`,
  user_not_found: msg`This user no longer exists`,
  users_import_failed: msg`The file cannot be imported`,
  validation_failed: msg`Some fields are invalid`,
};

/** Codes the machines and jobs add to the contract's (no answer, a job's end). */
const otherMessages: Record<string, MessageDescriptor> = {
  network: msg`The server cannot be reached; check the connection and try again`,
  import_interrupted: msg`The import was interrupted (a server restarted). Try again: rows already imported are skipped.`,
  import_cancelled: msg`The import was cancelled`,
};

export const GENERIC_ERROR = msg`An error occurred, please try again`;

function isContractCode(code: string): code is ErrorCode {
  return Object.prototype.hasOwnProperty.call(codeMessages, code);
}

/** Translates a descriptor with values (ids are not literals here). */
function render(i18n: I18n, descriptor: MessageDescriptor, values: Record<string, string | number> = {}): string {
  const translate = i18n._.bind(i18n);
  return translate(descriptor.id, values, { message: descriptor.message });
}

/** The text of one error code (`seconds` for the rate limits). */
export function errorCodeMessage(i18n: I18n, code: string, seconds?: number): string {
  const descriptor = isContractCode(code) ? codeMessages[code] : otherMessages[code];
  if (!descriptor) return render(i18n, GENERIC_ERROR);
  return render(i18n, descriptor, { seconds: seconds ?? 60 });
}

/** The admin-log text of a recorded error code (without values), or null for a code the product has no words for (e.g. the provider's OAuth codes). */
export function loggedErrorText(i18n: I18n, code: string): string | null {
  const descriptor = loggedMessages[code] ?? (isContractCode(code) ? codeMessages[code] : otherMessages[code]);
  return descriptor ? render(i18n, descriptor) : null;
}

/** Codes whose message to the person counts down (`{seconds}`): in a log, what happened without the wait. */
const loggedMessages: Record<string, MessageDescriptor> = {
  account_locked: msg`Too many failed attempts: the account was locked`,
  too_many_requests: msg`Too many requests: the rate limit refused the request`,
  invitation_resend_limited: msg`An invitation was sent again too often: the resend limit refused it`,
};

/** "email: must be a valid email" / "Locale is invalid": a field's code, its name said once. */
export function fieldProblem(i18n: I18n, field: string, code: string): string {
  const marker = '\u0000';
  const probe = fieldErrorMessage(i18n, code, marker) ?? '';
  return probe.includes(marker) ? (fieldErrorMessage(i18n, code, field) ?? '') : `${field}: ${probe}`;
}

/** The whole text of an admin error: its code's message, and the field problems a form could not place. */
export function adminErrorText(i18n: I18n, error: MachineError): string {
  const base = errorCodeMessage(i18n, error.code, error.retryAfter);
  const fields = Object.entries(error.fields ?? {}).flatMap(([field, codes]) => (codes[0] ? [fieldProblem(i18n, field, codes[0])] : []));
  return fields.length ? `${base}: ${fields.join('; ')}` : base;
}

/** The localized text for any failure (an ApiError from call(), or anything else): its code's own words. */
export function errorText(i18n: I18n, error: unknown): string {
  if (isApiError(error) && error.code === 'role_in_use' && error.message) return error.message; // the server names where it is used
  return adminErrorText(i18n, toMachineError(error));
}

export function useErrorText() {
  const { i18n } = useLingui();
  return (error: unknown): string => errorText(i18n, error);
}
