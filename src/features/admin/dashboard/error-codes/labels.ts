import type { I18n, MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { LOGGED_ERROR_CODES, type OidcErrorCode } from '../../../../../contract/admin/log-codes';
import type { ErrorCode } from '../../../../../contract/error-codes';

/** The provider's OAuth codes that are no code of the API (invalid_token and invalid_dpop_proof are both). */
type ProviderOnlyCode = Exclude<OidcErrorCode, ErrorCode>;

/**
 * The words of the error log's codes (contract/admin/log-codes.ts) for its code filter and its rows: a code of the API
 * reads as the console's sentence for it (../../components/feedback.ts loggedErrorText, the one table of the
 * console's words per code, checked complete by tsc there; the dashboard passes it in, so this lazy chunk does not
 * depend on the console's); the provider's OAuth codes, for which the product has no sentence, read as the few words
 * below (a code missing here fails tsc). The code itself stays the filter's value and the URL's `e_code` (issue 29:
 * no raw snake_case in the list).
 */
const PROVIDER_CODE_LABELS: Record<ProviderOnlyCode, MessageDescriptor> = {
  access_denied: msg`Access denied`,
  consent_required: msg`Consent required`,
  insufficient_scope: msg`Insufficient scope`,
  interaction_required: msg`Interaction required`,
  invalid_client: msg`Unknown or unauthenticated app`,
  invalid_client_metadata: msg`Invalid app metadata`,
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

function isProviderOnlyCode(code: string): code is ProviderOnlyCode {
  return Object.prototype.hasOwnProperty.call(PROVIDER_CODE_LABELS, code);
}

/** The words for one of the provider's own codes, or null for any other code. */
export function providerCodeLabel(i18n: I18n, code: string): string | null {
  if (!isProviderOnlyCode(code)) return null;
  const descriptor = PROVIDER_CODE_LABELS[code];
  return i18n._(descriptor.id, {}, { message: descriptor.message });
}

/**
 * The code filter's options: every logged code by its words in the admin's language (`sentence`: the console's
 * loggedErrorText, else the provider's code's words), sorted by those words with the language's collation (so
 * 'Échec …' sorts with the E's in French); the value is the code.
 */
export function errorCodeOptions(i18n: I18n, sentence: (code: string) => string | null): { value: string; label: string }[] {
  const collator = new Intl.Collator(i18n.locale, { sensitivity: 'base' });
  return LOGGED_ERROR_CODES.map((code) => ({ value: code, label: sentence(code) ?? providerCodeLabel(i18n, code) ?? code })).sort((a, b) => collator.compare(a.label, b.label));
}
