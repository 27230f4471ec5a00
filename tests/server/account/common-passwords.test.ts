import { describe, expect, it } from 'vitest';
import { describeEachDb, createTestApp, type TestApp } from '../../helpers/app';
import { createAccount, signIn } from '../../helpers/auth';
import { commonPasswordCandidates, commonPasswordCount, isCommonPassword } from '../../../server/services/common-passwords';
import { passwordViolations } from '../../../contract/domain/password-policy';
import { bootstrapFirstAdmin } from '../../../server/services/bootstrap';

/**
 * Issue 10 G (ASVS 5.0 V6.2.4): no path that sets a password accepts a common or breached one. Each password
 * below satisfies every composition rule, so only the list refuses it.
 */
const COMMON = ['Password123!', 'P@ssw0rd1234', 'Welcome2024!!', 'Qwerty123456!', 'Summer2024-!'];
const PASSWORD = 'Str0ng!Passw0rd#';
const FRESH = 'Gl4cier#Tundra-Owl';
let n = 0;
const email = (p: string) => `${p}-${++n}-${Date.now()}@example.test`;

describe('the common-password list', () => {
  it('holds far more than the ASVS minimum of 3 000 and refuses composition-compliant variants of listed passwords', () => {
    expect(commonPasswordCount()).toBeGreaterThan(30_000);
    for (const p of COMMON) {
      expect({ p, violations: passwordViolations(p) }).toEqual({ p, violations: [] });
      expect({ p, common: isCommonPassword(p) }).toEqual({ p, common: true });
    }
    // the list as typed, case-insensitively
    expect(isCommonPassword('PASSWORD')).toBe(true);
    expect(isCommonPassword('Trustno1')).toBe(true);
    expect(commonPasswordCandidates('P@ssw0rd1234')).toContain('password');
  });

  it('accepts strong passwords, including the fixtures used by the tests, seed and e2e', () => {
    for (const p of [PASSWORD, FRESH, 'An0ther!Secret#9', 'Boss-Password-123', 'Xq7#vLm2!pRt9$wZ', 'Ab#8473625190']) {
      expect({ p, common: isCommonPassword(p) }).toEqual({ p, common: false });
    }
  });

  it('IAM_ADMIN_PASSWORD on the list stops the first start with a configuration error', async () => {
    const t = await createTestApp('sqlite', { IAM_ADMIN_EMAIL: 'boss@example.com', IAM_ADMIN_PASSWORD: 'Password123!' });
    try {
      await expect(bootstrapFirstAdmin(t.app)).rejects.toThrow(/password_common/);
      expect(await t.db.kysely.selectFrom('accounts').select('id').execute()).toEqual([]);
    } finally {
      await t.close();
    }
  });
});

function expectCommon(res: { statusCode: number; json(): { error: { code: string; fields?: Record<string, string[]>; field_messages?: Record<string, string[]> } } }, lang: 'en' | 'de' = 'en') {
  expect(res.statusCode).toBe(422);
  expect(res.json().error.fields?.password).toEqual(['password_common']);
  expect(res.json().error.field_messages?.password?.[0]).toMatch(lang === 'de' ? /kompromittierter Passwörter/ : /breached password lists/);
}

describeEachDb('every path that sets a password refuses common passwords', (get) => {
  const session = async (t: TestApp, type: 'user' | 'admin') => {
    const acc = await createAccount(t, { type, email: email(type), password: PASSWORD });
    return { acc, tokens: await signIn(t, { email: acc.email, password: PASSWORD, ...(type === 'admin' ? { client: 'admin-console' as const } : {}) }) };
  };

  it('1-2. change-password (user and admin): refused, then a strong one is accepted', async () => {
    const t = get();
    for (const type of ['user', 'admin'] as const) {
      const { tokens } = await session(t, type);
      for (const p of COMMON) {
        const res = await t.app.inject({ method: 'POST', url: `/api/${type}/change-password`, headers: { authorization: tokens.authorization, locale: 'de' }, payload: { current_password: PASSWORD, password: p, password_confirmation: p } });
        expectCommon(res, 'de');
      }
      const ok = await t.app.inject({ method: 'POST', url: `/api/${type}/change-password`, headers: { authorization: tokens.authorization }, payload: { current_password: PASSWORD, password: FRESH, password_confirmation: FRESH } });
      expect(ok.statusCode).toBe(200);
    }
  });

  it("3. an admin setting a user's password", async () => {
    const t = get();
    const { tokens } = await session(t, 'admin');
    const user = await createAccount(t, { type: 'user', email: email('target'), password: PASSWORD });
    const url = '/api/admin/user/change-password';
    expectCommon(await t.app.inject({ method: 'POST', url, headers: { authorization: tokens.authorization }, payload: { uuid: user.id, password: 'Password123!', password_confirmation: 'Password123!' } }));
    const ok = await t.app.inject({ method: 'POST', url, headers: { authorization: tokens.authorization }, payload: { uuid: user.id, password: FRESH, password_confirmation: FRESH } });
    expect(ok.statusCode).toBe(200);
  });

  // the public paths validate the body before the link: a strong password with the same dead link gets past
  // validation to the link check (403), which shows that only the list refused the common one
  const publicPaths: Array<[string, string, Record<string, string>]> = [
    ['4. reset link (user)', '/api/reset-password', { url: 'http://localhost:3000/api/reset-password-link?token=x&expires=1&signature=y' }],
    ['4. reset link (admin)', '/api/admin/reset-password', { url: 'http://localhost:3000/api/admin/reset-password-link?token=x&expires=1&signature=y' }],
    ['5. expired password (reset_token)', '/api/reset-password', { reset_token: 'a'.repeat(43) }],
    ['6. invitation (user)', '/api/user/verify', { url: 'http://localhost:3000/api/user/verify-link?token=x&expires=1&signature=y' }],
    ['6. invitation (admin)', '/api/admin/verify', { url: 'http://localhost:3000/api/admin/verify-link?token=x&expires=1&signature=y' }],
    ['7. first-admin setup', '/api/setup', { token: 'no-such-token', email: 'root@example.com', first_name: 'Root', last_name: 'Admin' }],
  ];
  for (const [name, url, extra] of publicPaths) {
    it(name, async () => {
      const t = get();
      for (const p of COMMON) expectCommon(await t.app.inject({ method: 'POST', url, payload: { ...extra, password: p, password_confirmation: p } }));
      const strong = await t.app.inject({ method: 'POST', url, payload: { ...extra, password: FRESH, password_confirmation: FRESH } });
      expect(strong.statusCode).toBe(403);
      expect(strong.json().error.code).toBe('invalid_link');
    });
  }
});
