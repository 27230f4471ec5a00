import { queryKeys } from '../../../api/query-keys';

/** Query keys of the admin back office (defined in src/api/query-keys.ts); every list/detail lives under ['admin', <resource>]. */
export const adminKeys = queryKeys.admin;

/** Drops undefined/empty values so the query string and the cache key stay minimal. */
export function compactQuery<T extends object>(filters: T): Record<string, string | number> {
  const out: Record<string, string | number> = {};
  for (const [key, value] of Object.entries(filters)) {
    if (value === undefined || value === null || value === '') continue;
    out[key] = typeof value === 'number' ? value : String(value);
  }
  return out;
}
