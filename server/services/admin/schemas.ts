import { z } from 'zod';
import type { Account } from '../../db/schema';
import { LOCALES } from '../../../src/domain/formats';

/** Shared zod schemas (OpenAPI) and views for the admin and account API. */
export const idParams = z.object({ id: z.string().min(1).max(64) });

/** `true`/`false`/`1`/`0` in a query string. */
export const boolQuery = z
  .enum(['true', 'false', '1', '0'])
  .transform((v) => v === 'true' || v === '1');

export const pageQuery = {
  page: z.coerce.number().int().min(1).max(1_000_000).default(1),
  size: z.coerce.number().int().min(1).max(100).default(10),
};

export const listMeta = z.object({
  page: z.number().int(),
  size: z.number().int(),
  total: z.number().int(),
  /** localized 'No results for given search' when a search found nothing */
  message: z.string().optional(),
});

export const ACCOUNT_VIEW_COLUMNS = [
  'id', 'type', 'email', 'first_name', 'last_name', 'phone', 'locale', 'status', 'auth_type', 'provider', 'technical',
  'admin_role', 'avatar', 'email_verified_at', 'password_hash', 'two_factor_method', 'two_factor_confirmed_at',
  'api_key_hash', 'created_by', 'created_at', 'updated_at',
] as const;
export type AccountViewRow = Pick<Account, (typeof ACCOUNT_VIEW_COLUMNS)[number]>;

export const accountSchema = z.object({
  id: z.string(),
  type: z.enum(['user', 'admin']),
  email: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  phone: z.string().nullable(),
  locale: z.string(),
  status: z.enum(['ACTIVE', 'INACTIVE']),
  auth_type: z.enum(['CREDENTIALS', 'SSO']),
  provider: z.string().nullable(),
  technical: z.boolean(),
  role: z.enum(['super_admin', 'manager']).nullable(),
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

export function accountView(a: AccountViewRow): AccountView {
  return {
    id: a.id,
    type: a.type,
    email: a.email,
    first_name: a.first_name,
    last_name: a.last_name,
    phone: a.phone,
    locale: a.locale,
    status: a.status,
    auth_type: a.auth_type,
    provider: a.provider,
    technical: Number(a.technical) === 1,
    role: a.admin_role,
    avatar_url: a.avatar ? `/api/avatars/${a.avatar}` : null,
    email_verified: Boolean(a.email_verified_at),
    has_password: Boolean(a.password_hash),
    two_factor: { enabled: Boolean(a.two_factor_confirmed_at), method: a.two_factor_confirmed_at ? a.two_factor_method : null },
    has_api_key: Boolean(a.api_key_hash),
    created_by: a.created_by,
    created_at: a.created_at,
    updated_at: a.updated_at,
  };
}

export const localeEnum = z.enum(LOCALES);
