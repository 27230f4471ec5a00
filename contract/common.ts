/** Shapes many endpoints share: paging, list envelopes, ids, booleans in a query string, the account view. */
import { z } from 'zod';
import { ADMIN_ROLES } from './domain/admin-roles';
import { LOCALES } from './domain/formats';
import { ACCOUNT_STATES, type AccountState } from './domain/lists';

export const idParams = z.object({ id: z.string().min(1).max(64) });

/** `true`/`false`/`1`/`0` in a query string. */
export const boolQuery = z.enum(['true', 'false', '1', '0']).transform((v) => v === 'true' || v === '1');

export const pageQuery = {
  page: z.coerce.number().int().min(1).max(1_000_000).default(1),
  size: z.coerce.number().int().min(1).max(100).default(10),
};

/** `meta` of a list answer `{ data: [...], meta }`. */
export const listMeta = z.object({
  page: z.number().int(),
  size: z.number().int(),
  total: z.number().int(),
  /** localized 'No results for given search' when a search found nothing */
  message: z.string().optional(),
});
export type ListMeta = z.infer<typeof listMeta>;

/** `{ data: T[], meta }`. */
export const listOf = <T extends z.ZodType>(item: T) => z.object({ data: z.array(item), meta: listMeta });
/** `{ data: T }`. */
export const dataOf = <T extends z.ZodType>(item: T) => z.object({ data: item });

/** `{ data: { id, deleted: true } }`. */
export const deletedAnswer = z.object({ data: z.object({ id: z.string(), deleted: z.literal(true) }) });

export const localeEnum = z.enum(LOCALES);

/** An account (end user or admin) as the API shows it; never a hash or a secret. */
/**
 * The state of an account as admins see it (docs/SPEC.md "Account status"): INACTIVE when an admin deactivated
 * it (status INACTIVE, whatever else holds); INVITED when it is active, signs in with credentials and has neither
 * set a password nor been verified (the invitation is pending and can be sent again); ACTIVE otherwise.
 */
export { ACCOUNT_STATES, type AccountState } from './domain/lists';

export function accountStateOf(a: { status: 'ACTIVE' | 'INACTIVE'; auth_type: 'CREDENTIALS' | 'SSO'; has_password: boolean; email_verified: boolean }): AccountState {
  if (a.status === 'INACTIVE') return 'INACTIVE';
  return a.auth_type === 'CREDENTIALS' && !a.has_password && !a.email_verified ? 'INVITED' : 'ACTIVE';
}

export const accountSchema = z.object({
  id: z.string(),
  type: z.enum(['user', 'admin']),
  email: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  phone: z.string().nullable(),
  locale: z.string(),
  status: z.enum(['ACTIVE', 'INACTIVE']).describe('what an admin set: INACTIVE blocks sign-in (see `state`)'),
  state: z.enum(ACCOUNT_STATES).describe('INVITED (active, credentials, no password set and not verified yet), ACTIVE or INACTIVE: what lists, filters, details and the export show'),
  auth_type: z.enum(['CREDENTIALS', 'SSO']),
  provider: z.string().nullable(),
  technical: z.boolean(),
  role: z.enum(ADMIN_ROLES).nullable(),
  avatar_url: z.string().nullable(),
  email_verified: z.boolean(),
  has_password: z.boolean(),
  two_factor: z.object({ enabled: z.boolean(), method: z.enum(['GOOGLE', 'SMS']).nullable() }),
  has_api_key: z.boolean(),
  created_by: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type AccountView = z.infer<typeof accountSchema>;
