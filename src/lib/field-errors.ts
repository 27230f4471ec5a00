/**
 * Field error codes → localized messages (docs/SPEC.md §5), shared by every form.
 *
 * Codes come from two places and use the same vocabulary:
 * - the server's 422 `{error:{fields:{name:[code…]}}}` (server/lib/validation.ts), one of the contract's
 *   FIELD_ERROR_CODES (contract/errors.ts),
 * - client zod schemas, whose issue `message` is the code (`'required'`,
 *   `'email'`, `'password_too_short'`…). A size may be appended as
 *   `code:size` (e.g. `'too_short:3'`); password rules know their own size.
 *
 * Usage with react-hook-form:
 *   const message = fieldErrorMessage(i18n, errors.email?.message, t`E-mail`);
 *   if (!applyServerFieldErrors(error, form.setError, ['email'])) toast(...)
 */
import type { I18n, MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { useLingui } from '@lingui/react';
import type { FieldError, FieldValues, Path, UseFormSetError } from 'react-hook-form';
import type { FieldErrorCode } from '../../contract/errors';
import { PASSWORD_MAX_LENGTH_EXCLUSIVE, PASSWORD_MIN_LENGTH, type PasswordRule } from '../../contract/domain/password-rules';
import { isApiError } from '../api/errors';
import { CSV_MAX_CELL_LENGTH, CSV_MAX_COLUMNS } from '../../contract/domain/csv-limits';

/**
 * The codes with a message of their own: every field error code of the contract and the password rules (a contract
 * code without a message here fails tsc; tests/spa/field-errors.test.ts checks each reads its own words).
 */
type ShownCode = FieldErrorCode | PasswordRule;

const messages: Record<ShownCode, MessageDescriptor> = {
  required: msg`{field} is required`,
  invalid: msg`{field} is invalid`,
  too_short: msg`must be at least {size} characters long`,
  too_long: msg`must be less than {size} characters long`,
  exact_length: msg`{field} must be {size} characters long`,
  email: msg`must be a valid email`,
  too_small: msg`must be at least {size}`,
  too_big: msg`must be at most {size}`,
  unknown_field: msg`{field} is not allowed`,
  password_mismatch: msg`Passwords do not match`,
  password_same_as_current: msg`The new password must differ from the current one`,
  password_common: msg`is too common or appears in breached password lists; choose another one`,
  current_password_invalid: msg`Given password is invalid`,
  otp_required: msg`Please enter one time password`,
  otp_invalid: msg`One time password is invalid`,
  phone_required: msg`Add a phone number to your profile first`,
  email_taken: msg`This e-mail address is already in use`,
  name_taken: msg`This name is already taken`,
  name_reserved: msg`This name is reserved`,
  role_unknown: msg`Unknown role`,
  confidential_only: msg`Only confidential service apps (with a client secret) can use this setting`,
  https_required: msg`Use an https:// address (http:// only for localhost, 127.0.0.1 or ::1)`,
  uri_fragment: msg`must not contain a fragment (#)`,
  uri_wildcard: msg`must not contain a wildcard (*): redirect URIs are compared exactly`,
  uri_duplicate: msg`is listed twice`,
  uri_conflict: msg`URL + Path differ from the first redirect URI`,
  given_password_invalid: msg`Given password is invalid`,
  current_password_required: msg`{field} is required`,
  avatar_invalid_type: msg`Choose a .jpg, .jpeg or .png image.`,
  avatar_too_large_dimensions: msg`The image must be at most 1200 × 600 pixels.`,
  file_required: msg`A CSV file is required`,
  csv_invalid: msg`The CSV file cannot be read`,
  csv_too_many_columns: msg`The CSV file has more than {size} columns`,
  csv_cell_too_long: msg`A cell of the CSV file is longer than {size} characters`,
  provider_required: msg`A single sign-on provider is required`,
  provider_unknown: msg`Unknown single sign-on provider`,
  technical_immutable: msg`The technical flag is fixed when the user is created`,
  subscription_unknown: msg`Unknown subscription`,
  role_not_in_subscription: msg`The role does not belong to this subscription`,
  recovery_code_invalid: msg`Recovery code is invalid`,
  password_too_short: msg`must be at least {size} characters long`,
  password_too_long: msg`must be less than {size} characters long`,
  password_uppercase: msg`must contain an upper-case letter`,
  password_lowercase: msg`must contain a lower-case letter`,
  password_digit: msg`must contain a digit`,
  password_special: msg`must contain a special character (@ % + / ' ! # $ ^ ? : . ( ) { } [ ] ~ \` - _)`,
  password_invalid_character: msg`may only contain letters, digits and @ % + / ' ! # $ ^ ? : . ( ) { } [ ] ~ \` - _`,
  password_repeated: msg`must not contain the same character more than 3 times in a row`,
};

/** Short labels for the live password checklist (rule holds / does not hold yet). */
export const passwordRuleLabels: Record<PasswordRule, MessageDescriptor> = {
  password_too_short: msg`At least {size} characters`,
  password_too_long: msg`Fewer than {size} characters`,
  password_uppercase: msg`An upper-case letter`,
  password_lowercase: msg`A lower-case letter`,
  password_digit: msg`A digit`,
  password_special: msg`A special character such as @ ! # $ ? - _`,
  password_invalid_character: msg`Only letters, digits and the allowed special characters`,
  password_repeated: msg`No character more than 3 times in a row`,
};

const defaultSizes: Partial<Record<ShownCode, number>> = {
  password_too_short: PASSWORD_MIN_LENGTH,
  password_too_long: PASSWORD_MAX_LENGTH_EXCLUSIVE,
  csv_too_many_columns: CSV_MAX_COLUMNS,
  csv_cell_too_long: CSV_MAX_CELL_LENGTH,
};

/** Translates a descriptor with values (kept out of the extractor's way: ids are not literals here). */
function render(i18n: I18n, descriptor: MessageDescriptor, values: Record<string, string | number>): string {
  const translate = i18n._.bind(i18n);
  return translate(descriptor.id, values, { message: descriptor.message });
}

export function passwordRuleLabel(i18n: I18n, rule: PasswordRule): string {
  return render(i18n, passwordRuleLabels[rule], { size: defaultSizes[rule] ?? '' });
}

function isKnownCode(code: string): code is ShownCode {
  return Object.prototype.hasOwnProperty.call(messages, code);
}

/**
 * Localized message for a field error code (`code` or `code:size`).
 * Unknown codes read '{field} is invalid'. Returns undefined for no code.
 */
export function fieldErrorMessage(i18n: I18n, code: string | undefined, field: string, size?: number): string | undefined {
  if (!code) return undefined;
  const [raw, sizePart] = code.split(':');
  const name = raw ?? '';
  const key: ShownCode = isKnownCode(name) ? name : 'invalid';
  const resolvedSize = size ?? (sizePart && /^\d+$/.test(sizePart) ? Number(sizePart) : defaultSizes[key]);
  return render(i18n, messages[key], { field, size: resolvedSize ?? '' });
}

/** For react-hook-form fields: the localized text of a field's error (its message is the code), or undefined. */
export function useFieldError(): (error: FieldError | undefined, field: string) => string | undefined {
  const { i18n } = useLingui();
  return (error, field) => sentenceStart(fieldErrorMessage(i18n, error?.message, field), i18n.locale);
}

/**
 * A message shown on its own beside a field starts with a capital letter: the rule texts are worded to follow a
 * field name ('must not contain…', docs/SPEC.md §5), so alone they read 'Must not contain…' (issue 14).
 */
export function sentenceStart(message: string | undefined, locale: string): string | undefined {
  if (!message) return message;
  const first = String.fromCodePoint(message.codePointAt(0) ?? 0);
  return first.toLocaleUpperCase(locale) + message.slice(first.length);
}

/**
 * Puts a server 422 `fields` map onto react-hook-form fields. Only fields in
 * `known` are set (others are ignored); the first code of each wins.
 * Returns true when at least one field error was applied.
 */
export function applyServerFieldErrors<T extends FieldValues>(
  error: unknown,
  setError: UseFormSetError<T>,
  known: readonly Path<T>[],
  rename: Partial<Record<string, Path<T>>> = {},
): boolean {
  if (!isApiError(error) || !error.fields) return false;
  let applied = false;
  let first = true;
  for (const [name, codes] of Object.entries(error.fields)) {
    const target = rename[name] ?? (known as readonly string[]).find((k) => k === name);
    const code = codes[0];
    if (!target || !code) continue;
    setError(target as Path<T>, { type: 'server', message: code }, { shouldFocus: first });
    first = false;
    applied = true;
  }
  return applied;
}
