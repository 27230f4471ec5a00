import { PHONE_RE } from '../../contract/domain/formats';

/** The example number shown in hints and errors: E.164, + and the country code, no spaces (docs/SPEC.md §5). */
export const PHONE_EXAMPLE = '+33612345678';

/**
 * A phone number as people write it ("+33 6 12 34 56 78", "+1 (555) 010-0199") in the stored E.164 form: spaces,
 * dots, hyphens and brackets dropped. Whatever is left must match PHONE_RE; nothing else is guessed (a number without
 * its country code stays invalid, and its error says how to write it).
 */
export function normalizePhone(value: string): string {
  return value.trim().replace(/[\s().\-\u00a0]/g, '');
}

/** Empty, or a valid number once normalized. */
export function isPhoneOrEmpty(value: string): boolean {
  const phone = normalizePhone(value);
  return phone === '' || PHONE_RE.test(phone);
}
