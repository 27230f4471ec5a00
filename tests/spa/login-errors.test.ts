/**
 * Issue 14: every error code the sign-in screens can get from the server has its own localized message (en, de, fr,
 * it), and "try again" is said only where trying again can help.
 */
import { describe, expect, it } from 'vitest';
import * as account from '../../contract/account';
import * as auth from '../../contract/auth';
import { toMachineError } from '../../machines/errors';
import { CallFailureError } from '../../machines/testing/failure';
import { loginErrorMessage } from '../../src/features/account/login/login-errors';
import { activateLocale, i18n } from '../../src/lib/i18n';

type Errors = Partial<Record<number, readonly string[]>>;
/** The endpoints of each sign-in step and the codes they answer with (the signed-in-only codes of resend aside). */
type LoginStep = 'credentials' | 'otp' | 'recovery' | 'resend' | 'newPassword';
const steps: Array<[LoginStep, 'credentials' | 'code' | 'recovery' | 'page', Errors[]]> = [
  ['credentials', 'credentials', [auth.login.errors, auth.adminLogin.errors]],
  ['otp', 'code', [auth.validateOtp.errors, auth.adminValidateOtp.errors, auth.verifySms.errors]],
  ['recovery', 'recovery', [auth.validateRecoveryCode.errors]],
  ['resend', 'code', [{ ...auth.resendSms.errors, 401: [], 403: [] }]],
  ['newPassword', 'page', [account.resetUserPassword.errors, account.resetAdminPassword.errors]],
];
/** Codes after which trying the same again can help (a pause, the network, the SMS gateway, the server). */
const RETRY_HELPS = new Set(['too_many_requests', 'account_locked', 'sms_send_failed', 'service_unavailable']);

const cases = steps.flatMap(([step, where, endpoints]) =>
  endpoints.flatMap((errors) => Object.entries(errors).flatMap(([status, codes]) => (codes ?? []).map((code) => ({ step, where, status: Number(status), code })))),
);

describe.each(['en', 'de', 'fr', 'it'])('sign-in error messages (%s)', (locale) => {
  it.each(cases)('$step: $status $code has its own message', async ({ where, status, code }) => {
    await activateLocale(locale);
    const info = toMachineError(new CallFailureError({ kind: 'http', status, code, message: code, retryAfter: status === 429 ? 120 : undefined, fields: code === 'validation_failed' ? { email: ['email'] } : undefined }));
    const message = loginErrorMessage(i18n, info, where);
    expect(message).not.toBeNull();
    const generic = loginErrorMessage(i18n, { code: 'unexpected', retryable: true })!.text;
    expect(message!.text, `${code} must not fall back to the generic error`).not.toBe(generic);
    expect(info.code, 'the machine keeps the code as sent').toBe(code);
    // "try again" only where it helps
    const tryAgain = { en: /try again/i, de: /erneut|noch einmal/i, fr: /réessay/i, it: /riprova/i }[locale]!;
    if (!RETRY_HELPS.has(code)) expect(message!.text, `${code}: ${message!.text}`).not.toMatch(tryAgain);
    await activateLocale('en');
  });

  it('distinct server codes of one step read differently (the lock and the network-wide throttle too)', async () => {
    await activateLocale(locale);
    const text = (status: number, code: string) => loginErrorMessage(i18n, toMachineError(new CallFailureError({ kind: 'http', status, code, message: code, retryAfter: 60 })), 'credentials')!.text;
    const texts = [text(401, 'invalid_credentials'), text(422, 'phone_required'), text(429, 'too_many_requests'), text(429, 'account_locked'), text(502, 'sms_send_failed'), text(503, 'service_unavailable'), text(400, 'interaction_expired'), text(403, 'account_inactive')];
    expect(new Set(texts).size).toBe(texts.length);
    await activateLocale('en');
  });
});
