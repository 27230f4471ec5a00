import { z } from 'zod';

/** Search params arrive parsed as JSON (a numeric code is a number); keep strings. */
const str = z.preprocess((v) => (v === undefined || v === null ? undefined : String(v)), z.string().max(4096).optional()).catch(undefined);

/** `/login` and `/admin/login` search (docs/DESIGN.md §6; docs/SPEC.md §2 origin / type=sso / token_reset). */
export const loginSearchSchema = z.object({
  interaction: str,
  code: str,
  state: str,
  error: str,
  error_description: str,
  type: str,
  provider: str,
  origin: str,
  token_reset: str,
});
export type LoginSearch = z.infer<typeof loginSearchSchema>;
