import { ACCOUNT_STATES, USER_SORTS, type AccountState, type UserSort } from '../../../../contract/domain/lists';
import { LOCALES, type Locale } from '../../../../contract/locales';
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

const int = (min: number, max: number) => (v: unknown) => (typeof v === 'number' && Number.isInteger(v) && v >= min && v <= max ? v : undefined);
const str = (max: number) => (v: unknown) => (typeof v === 'string' && v.length <= max ? v : undefined);
const oneOf = <T extends string>(values: readonly T[]) => (v: unknown) => ((values as readonly unknown[]).includes(v) ? (v as T) : undefined);

const fields: { [K in keyof UserSearch]-?: (v: unknown) => UserSearch[K] } = {
  page: int(1, Number.MAX_SAFE_INTEGER),
  size: int(1, 100),
  search: str(200),
  status: oneOf(ACCOUNT_STATES),
  technical: (v) => (typeof v === 'boolean' ? v : undefined),
  auth_type: oneOf(['CREDENTIALS', 'SSO'] as const),
  role: str(64),
  locale: oneOf(LOCALES),
  sort: oneOf(USER_SORTS),
  cursor: str(300),
  count: oneOf(['exact'] as const),
};

/**
 * The route's validateSearch, without zod (it runs in the entry chunk): known keys only, each invalid value becomes
 * undefined (never throws). tests/spa/user-search.test.ts checks it against the zod schema it replaces.
 */
export function userSearchSchema(input: Record<string, unknown>): UserSearch {
  const out: Record<string, unknown> = {};
  for (const [key, parse] of Object.entries(fields) as Array<[keyof UserSearch, (v: unknown) => unknown]>) {
    if (key in input) out[key] = parse(input[key]);
  }
  return out as UserSearch;
}

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
