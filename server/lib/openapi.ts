import { z } from 'zod';

export { errorBody } from '../../contract/errors';
import { errorBody } from '../../contract/errors';

/** `response` entries for the given error statuses, for route schemas. */
export function errorResponses(...statuses: number[]): Record<number, typeof errorBody> {
  return Object.fromEntries(statuses.map((s) => [s, errorBody]));
}

/** List envelope `{ data: [...], meta: { page, size, total } }`. */
export const pageMeta = z.object({ page: z.number().int(), size: z.number().int(), total: z.number().int() });
