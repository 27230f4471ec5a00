import { describe, expect, it } from 'vitest';
import { FIELD_ERROR_CODES } from '../../contract/errors';
import { passwordViolations } from '../../contract/domain/password-policy';
import { i18n } from '../../src/lib/i18n';
import { fieldErrorMessage } from '../../src/lib/field-errors';

/** What a code without a message of its own reads like. */
const fallback = (field: string) => fieldErrorMessage(i18n, 'no_such_code', field);

describe('field error messages', () => {
  it.each(FIELD_ERROR_CODES.filter((code) => code !== 'invalid'))('the contract code %s has a message of its own', (code) => {
    const message = fieldErrorMessage(i18n, code, 'Name');
    expect(message).toBeTruthy();
    expect(message).not.toBe(fallback('Name'));
  });

  it('password rules have their messages too', () => {
    for (const rule of passwordViolations('a')) expect(fieldErrorMessage(i18n, rule, 'Password')).not.toBe(fallback('Password'));
  });

  it('shows the server codes of the account area in words', () => {
    expect(fieldErrorMessage(i18n, 'given_password_invalid', 'Current password')).toBe('Given password is invalid');
    expect(fieldErrorMessage(i18n, 'current_password_required', 'Current password')).toBe('Current password is required');
    expect(fieldErrorMessage(i18n, 'name_taken', 'Name')).toBe('This name is already taken');
  });

  it('shows the server codes of users, the CSV import and sign-in in the words of the server', () => {
    expect(fieldErrorMessage(i18n, 'file_required', 'file')).toBe('A CSV file is required');
    expect(fieldErrorMessage(i18n, 'csv_invalid', 'file')).toBe('The CSV file cannot be read');
    expect(fieldErrorMessage(i18n, 'provider_required', 'provider')).toBe('A single sign-on provider is required');
    expect(fieldErrorMessage(i18n, 'provider_unknown', 'provider')).toBe('Unknown single sign-on provider');
    expect(fieldErrorMessage(i18n, 'technical_immutable', 'technical')).toBe('The technical flag is fixed when the user is created');
    expect(fieldErrorMessage(i18n, 'subscription_unknown', 'Subscription')).toBe('Unknown subscription');
    expect(fieldErrorMessage(i18n, 'role_not_in_subscription', 'Role')).toBe('The role does not belong to this subscription');
    expect(fieldErrorMessage(i18n, 'recovery_code_invalid', 'Recovery code')).toBe('Recovery code is invalid');
  });
});
