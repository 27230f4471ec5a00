/**
 * Every error code the API answers with, in one list. The body of an error is always
 * `{ error: { code, message, fields?, request_id? } }` (see errorBody): `code` is one of ERROR_CODES and stays
 * stable across releases; `message` is localized by the server (server/i18n/messages); `fields` maps a field name
 * to FIELD_ERROR_CODES, which the SPA shows beside the field in the reader's language (src/lib/field-errors.ts).
 *
 * tests/contract/errors.test.ts checks that every code the server can throw is listed here and translated;
 * tests/contract/field-errors.test.ts does the same for the field codes (and their server texts `validation.<code>`).
 */
import { z } from 'zod';

export * from './error-codes';

export const errorBody = z
  .object({
    error: z.object({
      code: z.string(),
      message: z.string(),
      fields: z.record(z.string(), z.array(z.string())).optional(),
      field_messages: z.record(z.string(), z.array(z.string())).optional(),
      request_id: z.string().optional(),
    }),
  })
  .describe('Error');
export type ErrorBody = z.infer<typeof errorBody>;
