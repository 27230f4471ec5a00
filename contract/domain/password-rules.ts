/**
 * docs/SPEC.md §5/§9: the password policy's rules, written once and used by the SPA and the server. No zod here: the
 * SPA's first load (field errors, the live checklist) imports this module; the schemas are in password-policy.ts.
 */
export const PASSWORD_MIN_LENGTH = 12;
/** Passwords must be shorter than this ("fewer than 50 characters"). */
export const PASSWORD_MAX_LENGTH_EXCLUSIVE = 50;
export const MAX_IDENTICAL_RUN = 3;
export const ALLOWED_SPECIALS = "@%+/'!#$^?:.(){}[]~`-_";

/**
 * One more rule is checked by the server only, so that its ~49 000-entry list stays out of the SPA bundle:
 * `password_common` (a common or breached password, server/services/common-passwords.ts). The SPA shows it
 * as the server's field error on `password`.
 */
export const SERVER_ONLY_PASSWORD_RULES = ['password_common'] as const;

export type PasswordRule =
  | 'password_too_short'
  | 'password_too_long'
  | 'password_uppercase'
  | 'password_lowercase'
  | 'password_digit'
  | 'password_special'
  | 'password_invalid_character'
  | 'password_repeated';

const isAllowedChar = (c: string) => /[A-Za-z0-9]/.test(c) || ALLOWED_SPECIALS.includes(c);

/** Every rule with whether it holds: drives the live checklist in the SPA. */
export function passwordChecklist(password: string): { rule: PasswordRule; ok: boolean }[] {
  const chars = [...password];
  let longestRun = 0;
  let run = 0;
  for (let i = 0; i < chars.length; i++) {
    run = i > 0 && chars[i] === chars[i - 1] ? run + 1 : 1;
    longestRun = Math.max(longestRun, run);
  }
  return [
    { rule: 'password_too_short', ok: chars.length >= PASSWORD_MIN_LENGTH },
    { rule: 'password_too_long', ok: chars.length < PASSWORD_MAX_LENGTH_EXCLUSIVE },
    { rule: 'password_uppercase', ok: /[A-Z]/.test(password) },
    { rule: 'password_lowercase', ok: /[a-z]/.test(password) },
    { rule: 'password_digit', ok: /[0-9]/.test(password) },
    { rule: 'password_special', ok: chars.some((c) => ALLOWED_SPECIALS.includes(c)) },
    { rule: 'password_invalid_character', ok: chars.every(isAllowedChar) },
    { rule: 'password_repeated', ok: longestRun <= MAX_IDENTICAL_RUN },
  ];
}

export function passwordViolations(password: string): PasswordRule[] {
  return passwordChecklist(password)
    .filter((r) => !r.ok)
    .map((r) => r.rule);
}
