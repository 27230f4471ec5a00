/**
 * What the sign-in screens say for each error the login machine keeps (machines/login.machine.ts `loginError`):
 * every server code the sign-in endpoints answer with has its own localized text, field errors name their field,
 * and "try again" is said only where trying again can help (network, server trouble, an SMS that was not sent, a
 * lock that ends). Codes that end the sign-in (expired interaction, deactivated account) have their own screens.
 */
import type { I18n } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import type { ErrorInfo } from '../../../../machines/shared';
import { fieldErrorMessage } from '../../../lib/field-errors';
import { formatDuration } from '../form-kit';

/** Where a message is shown: above the form, or on one of its fields. */
export type LoginErrorPlace = 'form' | 'email' | 'password' | 'code' | 'recovery';

export interface LoginErrorText {
  text: string;
  place: LoginErrorPlace;
}

function lockText(i18n: I18n, error: ErrorInfo): string {
  const time = error.retryAfter ? formatDuration(i18n, error.retryAfter) : null;
  if (error.serverCode === 'too_many_requests') {
    return time
      ? i18n._(msg`Too many attempts from your network. Please wait ${time}, then try again.`)
      : i18n._(msg`Too many attempts from your network. Please wait a moment, then try again.`);
  }
  return time
    ? i18n._(msg`Too many failed attempts. Your account is locked, try again in ${time}.`)
    : i18n._(msg`Too many failed attempts. Please try again later.`);
}

/** The localized message of a sign-in error and where it goes; null when there is no error. */
export function loginErrorMessage(i18n: I18n, error: ErrorInfo | null, where: 'credentials' | 'code' | 'recovery' | 'page' = 'page'): LoginErrorText | null {
  if (!error) return null;
  const form = (text: string): LoginErrorText => ({ text, place: 'form' });
  switch (error.code) {
    case 'invalid_credentials':
      return form(i18n._(msg`Given password is invalid`));
    case 'sso_account_use_provider':
      return form(i18n._(msg`This account signs in with single sign-on. Use your organization's sign-in button below.`));
    case 'invalid_otp':
      return { text: i18n._(msg`One time password is invalid`), place: 'code' };
    case 'otp_required':
      return where === 'recovery' ? { text: i18n._(msg`Please enter a recovery code`), place: 'recovery' } : { text: i18n._(msg`Please enter one time password`), place: 'code' };
    case 'invalid_recovery_code':
      return { text: i18n._(msg`Recovery code is invalid`), place: 'recovery' };
    case 'too_many_attempts':
      return form(lockText(i18n, error));
    case 'phone_required':
      return form(i18n._(msg`No phone number is saved for your SMS codes. Please contact your administrator.`));
    case 'sms_send_failed':
      return form(i18n._(msg`The SMS with your code could not be sent. Please try again in a moment.`));
    case 'account_inactive':
      return form(i18n._(msg`Your account is deactivated. Please contact your administrator.`));
    case 'foreign_browser':
      return form(i18n._(msg`This sign-in was started in another browser. Start the sign-in again in this browser.`));
    case 'sign_in_expired':
      return form(i18n._(msg`Your sign-in has expired. Please sign in again.`));
    case 'validation_failed': {
      const fields = Object.keys(error.fields ?? {});
      const fieldText = (name: 'email' | 'password', label: string) => fieldErrorMessage(i18n, error.fields?.[name]?.[0], label) ?? '';
      if (where === 'credentials' && fields.includes('email')) return { text: fieldText('email', i18n._(msg`E-mail`)), place: 'email' };
      if (where === 'credentials' && fields.includes('password')) return { text: fieldText('password', i18n._(msg`Password`)), place: 'password' };
      if (where === 'code') return { text: i18n._(msg`One time password is invalid`), place: 'code' };
      if (where === 'recovery') return { text: i18n._(msg`Recovery code is invalid`), place: 'recovery' };
      return form(i18n._(msg`Please check the highlighted fields.`));
    }
    case 'network':
      return form(i18n._(msg`The server cannot be reached. Check your connection and try again.`));
    case 'link_invalid':
      return form(i18n._(msg`This link is invalid or has expired`));
    default:
      // the sign-in admission gate refused at once (503 service_unavailable + Retry-After): busy, not broken
      if (error.serverCode === 'service_unavailable') return form(i18n._(msg`Many people are signing in right now. Please try again in a few seconds.`));
      return form(i18n._(msg`An error occurred, please try again`));
  }
}
