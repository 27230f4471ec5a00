/**
 * Issue 32.2: one code, one text. What the SPA says for an error code (the console's table,
 * src/features/admin/components/feedback.ts, and the account screens' table, src/features/account/error-words.ts) is
 * the server's message for that code (server/i18n/messages), in every language, except the codes listed below,
 * whose words still differ (each list may only shrink: a code listed whose words agree fails too). A new code gets
 * the same words in both places (server/i18n/messages and the SPA's table) rather than a place in these lists.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { ERROR_CODES, type ErrorCode } from '../../contract/errors';
import { LOCALES } from '../../contract/locales';
import { loadMessages, translate } from '../../server/i18n/index';
import { ACCOUNT_ERROR_WORDS, accountErrorText } from '../../src/features/account/error-words';
import { errorCodeMessage } from '../../src/features/admin/components/feedback';
import { activateLocale, i18n } from '../../src/lib/i18n';

const SECONDS = 30;

/** Console words that still differ from the server's (the console says what to do, or has no value the server names). */
const ADMIN_DIFFERENT: readonly ErrorCode[] = [
  'account_inactive', 'account_locked', 'admin_not_found', 'already_verified', 'api_key_not_allowed',
  'avatar_invalid_type', 'avatar_not_found', 'avatar_too_large', 'avatar_too_large_dimensions', 'bad_request',
  'conflict', 'database_unavailable', 'email_not_found', 'encryption_key_mismatch', 'forbidden',
  'import_job_not_found', 'invitation_resend_limited', 'lock_not_found', 'name_taken', 'not_found',
  'payload_too_large', 'redis_unavailable', 'role_in_use', 'role_not_found', 'route_not_found',
  'service_app_not_found', 'service_unavailable', 'session_not_found', 'shutting_down', 'sso_account_use_provider', 'sso_email_missing',
  'sso_email_unverified', 'subscription_not_found', 'too_many_requests', 'unauthorized', 'unsupported_media_type',
  'uri_too_long', 'user_not_found',
];
/** Account-screen words that still differ from the server's (the sign-in tells the person what to do next). */
const ACCOUNT_DIFFERENT: readonly ErrorCode[] = [
  'account_inactive', 'interaction_expired', 'interaction_foreign_browser', 'interaction_invalid',
  'service_unavailable', 'sms_send_failed', 'sso_account_use_provider', 'two_factor_method_mismatch', 'unauthorized',
  'validation_failed',
];

const tables = {
  admin: { different: ADMIN_DIFFERENT, text: (code: ErrorCode) => errorCodeMessage(i18n, code, SECONDS), codes: ERROR_CODES },
  account: { different: ACCOUNT_DIFFERENT, text: (code: ErrorCode) => accountErrorText(i18n, { code }) ?? '', codes: ERROR_CODES.filter((code) => code in ACCOUNT_ERROR_WORDS) },
};

beforeAll(async () => {
  await loadMessages();
});

describe.each(Object.entries(tables))("%s error words are the server's", (_area, table) => {
  it('in en, de, fr and it; the codes listed as differing all still differ', async () => {
    const differ = new Set<ErrorCode>();
    for (const locale of LOCALES) {
      await activateLocale(locale);
      for (const code of table.codes) if (table.text(code) !== translate(locale, code, { seconds: SECONDS })) differ.add(code);
    }
    await activateLocale('en');
    expect([...differ].sort()).toEqual([...table.different].sort());
  });
});
