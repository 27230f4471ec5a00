/**
 * Where the sign-in screens show each error the login machine keeps (the contract's code as sent, machines/errors.ts):
 * above the form, or on the field it belongs to. The words are the account screens' (../error-words.ts); the sign-in
 * adds only what differs there: field errors named by their field, an empty recovery code, and a missing phone the
 * person cannot add while signed out. Codes that end the sign-in (expired interaction, deactivated account) have
 * their own screens.
 */
import type { I18n } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import type { MachineError, MachineErrorCode } from '../../../../machines/errors';
import { fieldErrorMessage } from '../../../lib/field-errors';
import { accountErrorText } from '../error-words';

/** Where a message is shown: above the form, or on one of its fields. */
export type LoginErrorPlace = 'form' | 'email' | 'password' | 'code' | 'recovery';

export interface LoginErrorText {
  text: string;
  place: LoginErrorPlace;
}

/** Codes shown on the code field (one-time password) or the recovery-code field rather than above the form. */
const onField: Partial<Record<MachineErrorCode, LoginErrorPlace>> = { otp_invalid: 'code', otp_required: 'code', recovery_code_invalid: 'recovery' };

/** The localized message of a sign-in error and where it goes; null when there is no error. */
export function loginErrorMessage(i18n: I18n, error: MachineError | null, where: 'credentials' | 'code' | 'recovery' | 'page' = 'page'): LoginErrorText | null {
  if (!error) return null;
  const form = (text: string): LoginErrorText => ({ text, place: 'form' });
  if (error.code === 'otp_required' && where === 'recovery') return { text: i18n._(msg`Please enter a recovery code`), place: 'recovery' };
  if (error.code === 'phone_required') return form(i18n._(msg`No phone number is saved for your SMS codes. Please contact your administrator.`));
  if (error.code === 'validation_failed') {
    const fields = Object.keys(error.fields ?? {});
    const fieldText = (name: 'email' | 'password', label: string) => fieldErrorMessage(i18n, error.fields?.[name]?.[0], label) ?? '';
    if (where === 'credentials' && fields.includes('email')) return { text: fieldText('email', i18n._(msg`E-mail`)), place: 'email' };
    if (where === 'credentials' && fields.includes('password')) return { text: fieldText('password', i18n._(msg`Password`)), place: 'password' };
    if (where === 'code' || where === 'recovery') return loginErrorMessage(i18n, { ...error, code: where === 'code' ? 'otp_invalid' : 'recovery_code_invalid', fields: {} }, where);
  }
  const text = accountErrorText(i18n, error.code === 'validation_failed' ? { code: error.code } : error) ?? '';
  return { text, place: onField[error.code] ?? 'form' };
}
