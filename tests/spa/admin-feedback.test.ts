import { setupI18n } from '@lingui/core';
import { describe, expect, it } from 'vitest';
import { ERROR_CODES } from '../../contract/errors';
import { isRetryableCode } from '../../machines/errors';
import { ApiError } from '../../src/api/errors';
import { adminErrorText, errorCodeMessage, errorText } from '../../src/features/admin/components/feedback';

/** Issue 14: every server error code the admin SPA can get reads as its own message; "try again" only where it can help. */
const i18n = setupI18n({ locale: 'en', messages: { en: {} } });

describe('admin feedback: error codes', () => {
  it('every contract code has a message of its own (no two codes share one, none falls back to the generic text)', () => {
    const texts = ERROR_CODES.map((code) => errorCodeMessage(i18n, code, 30));
    const generic = errorCodeMessage(i18n, 'no_such_code');
    expect(generic).toBe('An error occurred, please try again');
    ERROR_CODES.forEach((code, i) => {
      if (code !== 'internal_error') expect(texts[i], code).not.toBe(generic);
    });
    const shared = texts.filter((text, i) => texts.indexOf(text) !== i);
    expect(shared).toEqual([]);
  });

  it("says 'try again' only for codes where trying again can help", () => {
    for (const code of [...ERROR_CODES, 'network', 'import_interrupted', 'import_cancelled']) {
      const text = errorCodeMessage(i18n, code, 30);
      const retryable = isRetryableCode(code) || code === 'network';
      expect(/try again|Try again/.test(text), `${code}: ${text}`).toBe(retryable);
    }
  });

  it('an ApiError reads by its code; field problems the form could not place are listed, each field named once', () => {
    expect(errorText(i18n, new ApiError({ kind: 'http', status: 409, code: 'last_super_admin', message: 'server words' }))).toBe('The last super admin cannot be removed or demoted');
    expect(errorText(i18n, new ApiError({ kind: 'network', message: 'fetch failed' }))).toBe('The server cannot be reached; check the connection and try again');
    expect(errorText(i18n, new ApiError({ kind: 'http', status: 429, code: 'too_many_requests', message: 'x', retryAfter: 12 }))).toBe('Too many requests; please try again in 12 seconds');
    // issue 28.5c: the resend limit of one invitee, with the wait the server's Retry-After gave
    expect(errorText(i18n, new ApiError({ kind: 'http', status: 429, code: 'invitation_resend_limited', message: 'x', retryAfter: 3540 }))).toBe('This invitation was sent again too often; you can send it again in 3540 seconds');
    expect(adminErrorText(i18n, { code: 'validation_failed', retryable: false, fields: { 'subscriptions.0.role_ids.1': ['role_not_in_subscription'], locale: ['invalid'] } })).toBe(
      'Some fields are invalid: subscriptions.0.role_ids.1: The role does not belong to this subscription; locale is invalid',
    );
  });
});
