import type { ZodError } from 'zod';
import type { FieldErrors } from '../errors';
import type { Language } from '../i18n/index';
import { translate } from '../i18n/index';

/**
 * Maps zod issues to stable field error codes. Domain rules raise custom issues with
 * `params: { code: 'provider_required' }` (etc.), which pass through as their code (contract/errors.ts FIELD_ERROR_CODES;
 * tests/contract/field-errors.test.ts checks every code the server writes is listed there).
 */
export interface FieldIssue {
  field: string;
  code: string;
  params: Record<string, string | number>;
}

interface IssueLike {
  code: string;
  path: PropertyKey[];
  message?: string;
  [k: string]: unknown;
}

export function issueToFieldIssues(issue: IssueLike): FieldIssue[] {
  const field = issue.path.map(String).join('.') || '_';
  const origin = issue.origin as string | undefined;
  switch (issue.code) {
    case 'invalid_type':
      return [{ field, code: issue.input === undefined || /received undefined/.test(issue.message ?? '') ? 'required' : 'invalid', params: {} }];
    case 'too_small': {
      const min = Number(issue.minimum);
      if (origin === 'string') {
        if (min <= 1) return [{ field, code: 'required', params: {} }];
        if (issue.exact) return [{ field, code: 'exact_length', params: { size: min } }];
        return [{ field, code: 'too_short', params: { size: min } }];
      }
      return [{ field, code: 'too_small', params: { size: min } }];
    }
    case 'too_big': {
      const max = Number(issue.maximum);
      if (origin === 'string') {
        if (issue.exact) return [{ field, code: 'exact_length', params: { size: max } }];
        // the spec phrases limits as "less than N": an inclusive max of 49 reads "less than 50"
        return [{ field, code: 'too_long', params: { size: issue.inclusive === false ? max : max + 1 } }];
      }
      return [{ field, code: 'too_big', params: { size: max } }];
    }
    case 'invalid_format':
      return [{ field, code: issue.format === 'email' ? 'email' : 'invalid', params: {} }];
    case 'unrecognized_keys':
      return ((issue.keys as string[] | undefined) ?? []).map((k) => ({
        field: [...issue.path.map(String), k].join('.'),
        code: 'unknown_field',
        params: {},
      }));
    case 'custom': {
      const p = (issue.params ?? {}) as Record<string, string | number>;
      return [{ field, code: typeof p.code === 'string' ? p.code : 'invalid', params: p }];
    }
    default:
      return [{ field, code: 'invalid', params: {} }];
  }
}

export function collectFieldErrors(issues: FieldIssue[], lang: Language): { fields: FieldErrors; field_messages: Record<string, string[]> } {
  const fields: FieldErrors = {};
  const field_messages: Record<string, string[]> = {};
  for (const i of issues) {
    const codes = (fields[i.field] ??= []);
    if (!codes.includes(i.code)) codes.push(i.code);
    // the field's own name, not an index: `redirect_uris.2` reads "redirect_uris is invalid"
    const leaf = i.field.split('.').filter((part) => !/^\d+$/.test(part)).pop() ?? i.field;
    (field_messages[i.field] ??= []).push(translate(lang, `validation.${i.code}`, { field: leaf, ...i.params }));
  }
  return { fields, field_messages };
}

export function zodErrorToFieldIssues(error: ZodError): FieldIssue[] {
  return error.issues.flatMap((i) => issueToFieldIssues(i as unknown as IssueLike));
}
