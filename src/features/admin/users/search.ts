import { z } from 'zod';
import { ACCOUNT_STATES } from '../../../../contract/common';
import { USER_SORTS } from '../../../../contract/admin/users';
import { LOCALES } from '../../../../contract/domain/formats';
import type { UserFilters } from '../api/users';

/** URL search params of /admin/user-management (page, size, search and filters live in the URL). */
export const userSearchSchema = z.object({
  page: z.number().int().min(1).optional().catch(undefined),
  size: z.number().int().min(1).max(100).optional().catch(undefined),
  search: z.string().max(200).optional().catch(undefined),
  status: z.enum(ACCOUNT_STATES).optional().catch(undefined),
  technical: z.boolean().optional().catch(undefined),
  auth_type: z.enum(['CREDENTIALS', 'SSO']).optional().catch(undefined),
  role: z.string().max(64).optional().catch(undefined),
  locale: z.enum(LOCALES).optional().catch(undefined),
  /** server-side sort (USER_SORTS); absent = newest first */
  sort: z.enum(USER_SORTS).optional().catch(undefined),
  /** keyset cursor of the page (from the previous page's next/prev cursor); absent = by page number */
  cursor: z.string().max(300).optional().catch(undefined),
  /** 'exact' after "Count exactly": the total of a large list counted to the last row */
  count: z.literal('exact').optional().catch(undefined),
});

export type UserSearch = z.infer<typeof userSearchSchema>;

export const DEFAULT_PAGE_SIZE = 10;

export function toUserFilters(search: UserSearch): UserFilters {
  return {
    page: search.page ?? 1,
    size: search.size ?? DEFAULT_PAGE_SIZE,
    search: search.search?.trim() || undefined,
    status: search.status,
    technical: search.technical,
    auth_type: search.auth_type,
    role: search.role,
    locale: search.locale,
    sort: search.sort,
    cursor: search.cursor,
    count: search.count,
  };
}
