import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { dashboardSearchSchema } from '../../src/features/admin/dashboard/search';
import { adminSearchSchema } from '../../src/features/admin/admins/search';
import { loginSearchSchema } from '../../src/features/account/login/login-search';
import { adminSetupSearch, linkUrlSearch, adminTypeSearch } from '../../src/lib/route-searches';

/**
 * The routes' validateSearch left zod (route definitions are in the entry chunk): each must answer as the zod schema
 * it replaces, for every key, present or absent, with valid and invalid values.
 */
const page = z.number().int().min(1).optional().catch(undefined);
const size = z.number().int().min(1).max(100).optional().catch(undefined);
const day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/).optional().catch(undefined);
const text254 = z.string().max(254).optional().catch(undefined);
const loginStr = z.preprocess((v) => (v === undefined || v === null ? undefined : String(v)), z.string().max(4096).optional()).catch(undefined);

const former = {
  dashboard: [dashboardSearchSchema, z.object({ a_page: page, a_size: size, a_from: day, a_to: day, a_user: text254, e_page: page, e_size: size, e_from: day, e_to: day, e_code: text254, e_user: text254 })],
  admins: [adminSearchSchema, z.object({ page, size, search: z.string().max(200).optional().catch(undefined) })],
  login: [loginSearchSchema, z.object({ interaction: loginStr, code: loginStr, state: loginStr, error: loginStr, error_description: loginStr, type: loginStr, provider: loginStr, origin: loginStr, token_reset: loginStr })],
  setup: [adminSetupSearch, z.object({ token: z.preprocess((v) => (v == null ? undefined : String(v)), z.string().max(512).optional()).catch(undefined) })],
  resetPassword: [linkUrlSearch, z.object({ url: z.string().max(4096).optional().catch(undefined) })],
  forgotPassword: [adminTypeSearch, z.object({ type: z.enum(['admin']).optional().catch(undefined) })],
} as const;

const values: unknown[] = [undefined, null, 0, 1, 2, 100, 101, -1, 1.5, Number.NaN, Infinity, 2 ** 60, 123456, '', '1', 'x', 'admin', 'ADMIN',
  '2026-01-02', '2026-1-2', 'x2026-01-02', 'x'.repeat(200), 'x'.repeat(201), 'x'.repeat(254), 'x'.repeat(255), 'x'.repeat(512), 'x'.repeat(513),
  'x'.repeat(4096), 'x'.repeat(4097), true, false, [], ['a'], {}, { a: 1 }];

describe('routes validateSearch without zod', () => {
  for (const [name, [validator, schema]] of Object.entries(former)) {
    it(`${name} answers as its former zod schema`, () => {
      const parse = validator as (input: Record<string, unknown>) => unknown;
      expect(parse({ other: 1 })).toStrictEqual(schema.parse({ other: 1 }));
      for (const key of Object.keys(schema.shape)) {
        for (const value of values) {
          const input = { [key]: value, other: 'x' };
          expect(parse(input), `${key}=${JSON.stringify(value)}`).toStrictEqual(schema.parse(input));
        }
      }
    });
  }
});
