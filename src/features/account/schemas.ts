/**
 * zod schemas for the account forms. Issue messages are field error codes
 * (src/lib/field-errors.ts) so the same mapping renders client and server errors.
 */
import { z } from 'zod';
import { passwordSchema } from '../../../contract/domain/password-policy';
import { isPhoneOrEmpty, normalizePhone } from '../../lib/phone';

const EMAIL_RE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export const emailField = z
  .string()
  .trim()
  .min(1, 'required')
  .max(254, 'too_long:255')
  .refine((v) => EMAIL_RE.test(v), 'email');

export const requiredString = (max = 100) => z.string().trim().min(1, 'required').max(max, `too_long:${max + 1}`);

/** Optional phone: written with spaces or hyphens is fine, it is sent in E.164 (src/lib/phone.ts). */
export const phoneField = z.string().refine(isPhoneOrEmpty, 'invalid').transform(normalizePhone);

/** password + confirmation with the policy and the match rule. */
export const newPasswordFields = {
  password: passwordSchema,
  password_confirmation: z.string().min(1, 'required'),
};

export function withPasswordMatch<S extends z.ZodObject<{ password: z.ZodType<string>; password_confirmation: z.ZodType<string> }>>(schema: S): S {
  return schema.superRefine((v, ctx) => {
    if (v.password_confirmation && v.password !== v.password_confirmation) {
      ctx.addIssue({ code: 'custom', path: ['password_confirmation'], message: 'password_mismatch' });
    }
  });
}

export const newPasswordSchema = withPasswordMatch(z.object(newPasswordFields));
export type NewPasswordValues = z.infer<typeof newPasswordSchema>;
