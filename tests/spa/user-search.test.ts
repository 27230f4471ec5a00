import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ACCOUNT_STATES, USER_SORTS } from '../../contract/domain/lists';
import { LOCALES } from '../../contract/locales';
import { userSearchSchema } from '../../src/features/admin/users/search';

/** The zod schema /admin/user-management validated its search with before it left the entry chunk (zod-free now). */
const zodSchema = z.object({
  page: z.number().int().min(1).optional().catch(undefined),
  size: z.number().int().min(1).max(100).optional().catch(undefined),
  search: z.string().max(200).optional().catch(undefined),
  status: z.enum(ACCOUNT_STATES).optional().catch(undefined),
  technical: z.boolean().optional().catch(undefined),
  auth_type: z.enum(['CREDENTIALS', 'SSO']).optional().catch(undefined),
  role: z.string().max(64).optional().catch(undefined),
  locale: z.enum(LOCALES).optional().catch(undefined),
  sort: z.enum(USER_SORTS).optional().catch(undefined),
  cursor: z.string().max(300).optional().catch(undefined),
  count: z.literal('exact').optional().catch(undefined),
});

const values: unknown[] = [undefined, null, 0, 1, 2, 100, 101, -1, 1.5, Number.NaN, Infinity, 2 ** 60, '', '1', 'x', 'x'.repeat(64), 'x'.repeat(65),
  'x'.repeat(200), 'x'.repeat(201), 'x'.repeat(300), 'x'.repeat(301), true, false, 'true', [], {}, 'ACTIVE', 'INVITED', 'active', 'SSO', 'CREDENTIALS',
  'de', 'xx', 'email', '-name', 'exact', 'EXACT'];
const keys = ['page', 'size', 'search', 'status', 'technical', 'auth_type', 'role', 'locale', 'sort', 'cursor', 'count'];

describe('user list search (validateSearch of /admin/user-management)', () => {
  it('answers as the zod schema for every key and value, present or absent', () => {
    expect(userSearchSchema({})).toStrictEqual(zodSchema.parse({}));
    for (const key of keys) {
      for (const value of values) {
        const input = { [key]: value };
        expect(userSearchSchema(input), `${key}=${String(value)}`).toStrictEqual(zodSchema.parse(input));
      }
    }
  });

  it('keeps valid values, drops invalid ones and unknown keys', () => {
    const input = { page: 2, size: 50, search: 'ann', status: 'ACTIVE', technical: false, auth_type: 'SSO', role: 'R', locale: 'de', sort: '-email', cursor: 'c', count: 'exact', other: 1 };
    expect(userSearchSchema(input)).toStrictEqual(zodSchema.parse(input));
    expect(userSearchSchema({ page: 0, size: 500, sort: 'x', other: 1 })).toStrictEqual({ page: undefined, size: undefined, sort: undefined });
  });
});
