import type { I18n, MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { LOGGED_ERROR_CODES, type OidcErrorCode } from '../../../../../contract/admin/log-codes';
import type { ErrorCode } from '../../../../../contract/error-codes';

/** The codes answered only with 503 are never logged (log-codes.ts: UNLOGGED_CODES). */
type LoggedErrorCode = Exclude<ErrorCode | OidcErrorCode, 'service_unavailable' | 'database_unavailable' | 'redis_unavailable' | 'shutting_down'>;

/**
 * Every code the error log can hold (contract/admin/log-codes.ts) in a few words, for the dashboard's code filter and
 * for the log rows of codes the product has no sentence for (the provider's OAuth codes): a code missing here fails
 * tsc. The code itself stays the filter's value and the URL's `e_code` (issue 29: no raw snake_case in the list).
 */
const CODE_LABELS: Record<LoggedErrorCode, MessageDescriptor> = {
  account_inactive: msg`Account inactive`,
  account_locked: msg`Account locked`,
  admin_not_found: msg`Admin not found`,
  already_verified: msg`Already verified`,
  api_key_not_allowed: msg`API key not allowed`,
  avatar_invalid_type: msg`Avatar of a wrong file type`,
  avatar_not_found: msg`Avatar not found`,
  avatar_too_large: msg`Avatar file too large`,
  avatar_too_large_dimensions: msg`Avatar dimensions too large`,
  bad_request: msg`Unreadable request`,
  cannot_delete_self: msg`Deleting one's own account`,
  conflict: msg`Edit conflict`,
  current_password_invalid: msg`Wrong current password`,
  email_not_found: msg`E-mail address not found`,
  email_taken: msg`E-mail address already in use`,
  encryption_key_mismatch: msg`Encryption key mismatch`,
  forbidden: msg`Not allowed`,
  import_job_not_found: msg`Import not found`,
  interaction_expired: msg`Sign-in expired`,
  interaction_foreign_browser: msg`Sign-in from another browser`,
  interaction_invalid: msg`Sign-in request of another page`,
  internal_error: msg`Server error`,
  invalid_credentials: msg`Wrong password`,
  invalid_link: msg`Invalid or expired link`,
  invalid_token: msg`Invalid or expired token`,
  invitation_not_applicable: msg`Invitation not applicable`,
  invitation_resend_limited: msg`Invitation resent too often`,
  last_super_admin: msg`Last super admin`,
  lock_forbidden: msg`Clearing a lock not allowed`,
  lock_not_found: msg`Lock not found`,
  session_not_found: msg`Session not found`,
  name_taken: msg`Name already taken`,
  not_found: msg`Not found`,
  not_technical: msg`Not a technical user`,
  otp_invalid: msg`Wrong one-time password`,
  otp_required: msg`One-time password missing`,
  passkey_already_registered: msg`Passkey already registered`,
  passkey_challenge_invalid: msg`Passkey challenge expired, reused or from another sign-in`,
  passkey_invalid: msg`Passkey not verified`,
  passkey_limit_reached: msg`Too many passkeys`,
  passkey_not_found: msg`Passkey not found`,
  passkey_unknown: msg`Unknown or removed passkey`,
  payload_too_large: msg`Request too large`,
  phone_required: msg`Phone number missing`,
  recovery_code_invalid: msg`Wrong recovery code`,
  role_in_use: msg`Role still in use`,
  role_not_found: msg`Role not found`,
  route_not_found: msg`Unknown API route`,
  service_app_not_found: msg`Service app not found`,
  setup_done: msg`Already set up`,
  sms_send_failed: msg`SMS not sent`,
  sso_account_use_provider: msg`Password sign-in of a single sign-on account`,
  sso_email_missing: msg`Single sign-on without an e-mail address`,
  sso_email_unverified: msg`Single sign-on with an unverified e-mail address`,
  sso_failed: msg`Single sign-on failed`,
  sso_provider_unknown: msg`Unknown single sign-on provider`,
  subscription_not_found: msg`Subscription not found`,
  too_many_requests: msg`Rate limit reached`,
  two_factor_already_enabled: msg`Two-factor already enabled`,
  two_factor_method_mismatch: msg`Wrong second factor`,
  two_factor_not_started: msg`Two-factor setup not started`,
  unauthorized: msg`Not signed in`,
  unsupported_media_type: msg`Unsupported file type`,
  uri_too_long: msg`Address too long`,
  user_not_found: msg`User not found`,
  users_import_failed: msg`User import failed`,
  validation_failed: msg`Invalid fields`,
  access_denied: msg`Access denied`,
  consent_required: msg`Consent required`,
  insufficient_scope: msg`Insufficient scope`,
  interaction_required: msg`Interaction required`,
  invalid_client: msg`Unknown or unauthenticated app`,
  invalid_client_metadata: msg`Invalid app metadata`,
  invalid_dpop_proof: msg`Invalid DPoP proof`,
  invalid_grant: msg`Invalid or expired grant`,
  invalid_redirect_uri: msg`Invalid redirect URI`,
  invalid_request: msg`Invalid request`,
  invalid_request_object: msg`Invalid request object`,
  invalid_scope: msg`Invalid scope`,
  invalid_target: msg`Invalid resource`,
  login_required: msg`Sign-in required`,
  registration_not_supported: msg`App registration not supported`,
  request_not_supported: msg`Request parameter not supported`,
  request_uri_not_supported: msg`Request URI not supported`,
  server_error: msg`Sign-in provider error`,
  unauthorized_client: msg`App not authorized`,
  unmet_authentication_requirements: msg`Two-factor sign-in required by an app`,
  unsupported_grant_type: msg`Unsupported grant type`,
  unsupported_response_mode: msg`Unsupported response mode`,
  unsupported_response_type: msg`Unsupported response type`,
  unsupported_token_type: msg`Unsupported token type`,
};

function isLoggedCode(code: string): code is LoggedErrorCode {
  return Object.prototype.hasOwnProperty.call(CODE_LABELS, code);
}

/** The words for a logged error code, or null for a code this release does not know. */
export function errorCodeLabel(i18n: I18n, code: string): string | null {
  if (!isLoggedCode(code)) return null;
  const descriptor = CODE_LABELS[code];
  return i18n._(descriptor.id, {}, { message: descriptor.message });
}

/**
 * The code filter's options: every logged code by its words in the admin's language, sorted by those words with the
 * language's collation (so 'Échec …' sorts with the E's in French); the value is the code.
 */
export function errorCodeOptions(i18n: I18n): { value: string; label: string }[] {
  const collator = new Intl.Collator(i18n.locale, { sensitivity: 'base' });
  return LOGGED_ERROR_CODES.map((code) => ({ value: code, label: errorCodeLabel(i18n, code) ?? code })).sort((a, b) => collator.compare(a.label, b.label));
}
