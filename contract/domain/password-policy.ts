import { z } from 'zod';
import { PASSWORD_MAX_LENGTH_EXCLUSIVE, PASSWORD_MIN_LENGTH, passwordViolations, type PasswordRule } from './password-rules';

/** docs/SPEC.md §5/§9: the password policy as zod schemas; the rules themselves are in password-rules.ts (no zod). */
export * from './password-rules';

const ruleParams: Partial<Record<PasswordRule, { size: number }>> = {
  password_too_short: { size: PASSWORD_MIN_LENGTH },
  password_too_long: { size: PASSWORD_MAX_LENGTH_EXCLUSIVE },
};

/** A zod string enforcing the policy; each broken rule is a custom issue with `params.code`. */
export const passwordSchema = z.string().superRefine((value, ctx) => {
  if (value.length === 0) {
    ctx.addIssue({ code: 'custom', message: 'required', params: { code: 'required' } });
    return;
  }
  for (const rule of passwordViolations(value)) {
    ctx.addIssue({ code: 'custom', message: rule, params: { code: rule, ...ruleParams[rule] } });
  }
});

/** `{ password, password_confirmation }` with the match rule ('Passwords do not match'). */
export const newPasswordSchema = z
  .object({ password: passwordSchema, password_confirmation: z.string() })
  .superRefine((v, ctx) => {
    if (v.password !== v.password_confirmation) {
      ctx.addIssue({ code: 'custom', path: ['password_confirmation'], message: 'password_mismatch', params: { code: 'password_mismatch' } });
    }
  });
