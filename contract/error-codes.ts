/**
 * Every error code the API answers with, in one list. The body of an error is always
 * `{ error: { code, message, fields?, request_id? } }` (see errorBody): `code` is one of ERROR_CODES and stays
 * stable across releases; `message` is localized by the server (server/i18n/messages); `fields` maps a field name
 * to FIELD_ERROR_CODES, which the SPA shows beside the field in the reader's language (src/lib/field-errors.ts).
 *
 * tests/contract/errors.test.ts checks that every code the server can throw is listed here and translated;
 * tests/contract/field-errors.test.ts does the same for the field codes (and their server texts `validation.<code>`).
 *
 * This module has no zod (the body's schema, errorBody, is in errors.ts, which re-exports it): the SPA's eagerly
 * loaded code imports these lists and stays free of zod.
 */

export const ERROR_CODES = [
  'account_inactive',
  'account_locked',
  'admin_not_found',
  'already_verified',
  'api_key_not_allowed',
  'avatar_invalid_type',
  'avatar_not_found',
  'avatar_too_large',
  'avatar_too_large_dimensions',
  'bad_request',
  'cannot_delete_self',
  'conflict',
  'current_password_invalid',
  'database_unavailable',
  'email_not_found',
  'email_taken',
  'encryption_key_mismatch',
  'forbidden',
  'import_job_not_found',
  'interaction_expired',
  'interaction_foreign_browser',
  'interaction_invalid',
  'internal_error',
  'invalid_credentials',
  'invalid_dpop_proof',
  'invalid_link',
  'invalid_token',
  'invitation_not_applicable',
  'invitation_resend_limited',
  'last_super_admin',
  'lock_forbidden',
  'lock_not_found',
  'session_not_found',
  'name_taken',
  'not_found',
  'not_technical',
  'otp_invalid',
  'otp_required',
  'passkey_already_registered',
  'passkey_challenge_invalid',
  'passkey_invalid',
  'passkey_limit_reached',
  'passkey_not_found',
  'passkey_unknown',
  'payload_too_large',
  'phone_required',
  'recovery_code_invalid',
  'redis_unavailable',
  'role_in_use',
  'role_not_found',
  'route_not_found',
  'service_app_not_found',
  'service_unavailable',
  'setup_done',
  'shutting_down',
  'sms_send_failed',
  'sso_account_use_provider',
  'sso_email_missing',
  'sso_email_unverified',
  'sso_failed',
  'sso_provider_unknown',
  'subscription_not_found',
  'too_many_requests',
  'two_factor_already_enabled',
  'two_factor_method_mismatch',
  'two_factor_not_started',
  'unauthorized',
  'unsupported_media_type',
  'uri_too_long',
  'user_not_found',
  'users_import_failed',
  'validation_failed',
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

/** Codes of a field error (`fields: { email: ['email_taken'] }`); password rules add their own (PASSWORD_RULES). */
export const FIELD_ERROR_CODES = [
  'required',
  'invalid',
  'too_short',
  'too_long',
  'exact_length',
  'email',
  'too_small',
  'too_big',
  'unknown_field',
  'password_mismatch',
  'password_same_as_current',
  'password_common',
  'current_password_invalid',
  'otp_required',
  'otp_invalid',
  'phone_required',
  'email_taken',
  'name_taken',
  /** service apps: portal and admin-console are the product's own clients */
  'name_reserved',
  /** roles, subscriptions, service apps: `role_ids.N` names no role */
  'role_unknown',
  /** service apps: PKCE off, client_credentials or a secret method asked for on a public app */
  'confidential_only',
  /** service apps: a back-channel logout, redirect or post-logout URI with http:// on a host other than loopback */
  'https_required',
  /** service apps: a redirect or post-logout URI with a fragment (#) */
  'uri_fragment',
  /** service apps: a redirect or post-logout URI with a wildcard (*); only exact URIs are registered */
  'uri_wildcard',
  /** service apps: the same URI twice in one list */
  'uri_duplicate',
  /** service apps: url + path (older clients) given beside redirect_uris and different from its first entry */
  'uri_conflict',
  /** change password, disable 2FA with the password: the password given is not the account's */
  'given_password_invalid',
  /** own profile: a new e-mail address needs the current password */
  'current_password_required',
  /** avatar upload: not exactly one JPG or PNG image */
  'avatar_invalid_type',
  /** avatar upload: more than 1200 x 600 pixels */
  'avatar_too_large_dimensions',
  /** users CSV import: the request carries no file */
  'file_required',
  /** users CSV import: the file cannot be read as CSV */
  'csv_invalid',
  /** users CSV import: a row (the header first) has more than CSV_MAX_COLUMNS cells (params.size) */
  'csv_too_many_columns',
  /** users CSV import: a cell is longer than CSV_MAX_CELL_LENGTH characters (params.size) */
  'csv_cell_too_long',
  /** users (and import rows): an SSO account needs a provider */
  'provider_required',
  /** users (and import rows): the provider is not one of the configured SSO providers */
  'provider_unknown',
  /** users: the technical flag is fixed when the user is created */
  'technical_immutable',
  /** users: `subscriptions.N.subscription_id` names no subscription */
  'subscription_unknown',
  /** users: `subscriptions.N.role_ids.M` is not a role of that subscription */
  'role_not_in_subscription',
  /** sign-in with a recovery code: the code is wrong or used */
  'recovery_code_invalid',
] as const;
export type FieldErrorCode = (typeof FIELD_ERROR_CODES)[number];

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && (ERROR_CODES as readonly string[]).includes(value);
}
