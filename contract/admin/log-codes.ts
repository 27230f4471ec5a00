/**
 * The error codes of the dashboard's error log, without schemas: the dashboard's first load imports this module
 * (its code filter) and stays free of zod; contract/admin/logs.ts re-exports it.
 */
import { ERROR_CODES, type ErrorCode } from '../error-codes';

/** Codes answered only with 503 (a dependency or the instance is not ready): never written to the error log. */
const UNLOGGED_CODES: readonly ErrorCode[] = ['service_unavailable', 'database_unavailable', 'redis_unavailable', 'shutting_down', 'encryption_key_mismatch'];
/**
 * The OAuth error codes the OIDC provider at /oidc answers with (RFC 6749 §5.2, OIDC Core §3.1.2.6, RFC 6750 §3.1,
 * RFC 8707): recorded in the error log as they were answered (server/oidc/error-log.ts).
 */
export const OIDC_ERROR_CODES = [
  'access_denied',
  'consent_required',
  'insufficient_scope',
  'interaction_required',
  'invalid_client',
  'invalid_client_metadata',
  'invalid_dpop_proof',
  'invalid_grant',
  'invalid_redirect_uri',
  'invalid_request',
  'invalid_request_object',
  'invalid_scope',
  'invalid_target',
  'invalid_token',
  'login_required',
  'registration_not_supported',
  'request_not_supported',
  'request_uri_not_supported',
  'server_error',
  'unauthorized_client',
  'unmet_authentication_requirements',
  'unsupported_grant_type',
  'unsupported_response_mode',
  'unsupported_response_type',
  'unsupported_token_type',
] as const;
export type OidcErrorCode = (typeof OIDC_ERROR_CODES)[number];

/**
 * The codes the error log can hold (client errors sampled, server errors always), the API's and the provider's,
 * sorted: what its code filter offers.
 */
export const LOGGED_ERROR_CODES: readonly (ErrorCode | OidcErrorCode)[] = [...new Set<ErrorCode | OidcErrorCode>([...ERROR_CODES.filter((c) => !UNLOGGED_CODES.includes(c)), ...OIDC_ERROR_CODES])].sort();
