import { ACCOUNT_STATES, USER_SORTS, type AccountState, type UserSort } from '../../../../contract/domain/lists';
import { LOCALES, type Locale } from '../../../../contract/locales';
import { booleanParam, intParam, oneOfParam, searchValidator, stringParam } from '../../../lib/search-params';
import type { UserFilters } from '../api/users';

/** URL search params of /admin/user-management (page, size, search and filters live in the URL). */
export interface UserSearch {
  page?: number | undefined;
  size?: number | undefined;
  search?: string | undefined;
  status?: AccountState | undefined;
  technical?: boolean | undefined;
  auth_type?: 'CREDENTIALS' | 'SSO' | undefined;
  role?: string | undefined;
  locale?: Locale | undefined;
  /** server-side sort (USER_SORTS); absent = newest first */
  sort?: UserSort | undefined;
  /** keyset cursor of the page (from the previous page's next/prev cursor); absent = by page number */
  cursor?: string | undefined;
  /** 'exact' after "Count exactly": the total of a large list counted to the last row */
  count?: 'exact' | undefined;
}

/**
 * The route's validateSearch, without zod (it runs in the entry chunk): known keys only, each invalid value becomes
 * undefined (never throws). tests/spa/user-search.test.ts checks it against the zod schema it replaces.
 */
export const userSearchSchema: (input: Record<string, unknown>) => UserSearch = searchValidator({
  page: intParam(1),
  size: intParam(1, 100),
  search: stringParam(200),
  status: oneOfParam(ACCOUNT_STATES),
  technical: booleanParam,
  auth_type: oneOfParam(['CREDENTIALS', 'SSO']),
  role: stringParam(64),
  locale: oneOfParam(LOCALES),
  sort: oneOfParam(USER_SORTS),
  cursor: stringParam(300),
  count: oneOfParam(['exact']),
});

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
