import { z } from 'zod';

/** The error body every route may answer with (DESIGN §7). */
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

/** `response` entries for the given error statuses, for route schemas. */
export function errorResponses(...statuses: number[]): Record<number, typeof errorBody> {
  return Object.fromEntries(statuses.map((s) => [s, errorBody]));
}

/** List envelope `{ data: [...], meta: { page, size, total } }`. */
export const pageMeta = z.object({ page: z.number().int(), size: z.number().int(), total: z.number().int() });
