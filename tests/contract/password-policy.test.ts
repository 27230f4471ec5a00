import { describe, expect, it } from 'vitest';
import { newPasswordSchema, passwordChecklist, passwordViolations } from '../../contract/domain/password-policy';
import { PHONE_RE, ROLE_NAME_RE, SUBSCRIPTION_NAME_RE, SERVICE_PATH_RE } from '../../contract/domain/formats';

describe('password policy (docs/SPEC.md §5)', () => {
  const ok = 'Abcdefgh1!xy';
  it('accepts a password meeting every rule', () => {
    expect(passwordViolations(ok)).toEqual([]);
  });
  it.each([
    ['Abcdefg1!xy', 'password_too_short'],
    ['Aa1!' + 'x'.repeat(44) + 'yz', 'password_too_long'],
    ['abcdefgh1!xy', 'password_uppercase'],
    ['ABCDEFGH1!XY', 'password_lowercase'],
    ['Abcdefghi!xy', 'password_digit'],
    ['Abcdefgh12xy', 'password_special'],
    ['Abcdefgh1!x y', 'password_invalid_character'],
    ['Abcdefgh1!xxxx', 'password_repeated'],
  ])('%s breaks %s', (pw, rule) => {
    expect(passwordViolations(pw)).toContain(rule);
  });
  it('has 12 as the minimum and 49 as the maximum length', () => {
    expect(passwordViolations('Abcdefgh1!xy')).not.toContain('password_too_short');
    const len49 = 'Ab1!' + 'xyz'.repeat(15);
    expect(len49).toHaveLength(49);
    expect(passwordViolations(len49)).toEqual([]);
    expect(passwordViolations(len49 + 'q')).toContain('password_too_long');
  });
  it('allows three identical characters in a row, not four', () => {
    expect(passwordViolations('Abcdefgh1!xxx')).toEqual([]);
    expect(passwordViolations('Abcdefgh1!xxxx')).toContain('password_repeated');
  });
  it('accepts every allowed special character', () => {
    for (const c of "@%+/'!#$^?:.(){}[]~`-_") expect(passwordViolations(`Abcdefgh1${c}xy`)).toEqual([]);
  });
  it('reports the checklist for the live UI', () => {
    expect(passwordChecklist('').every((r) => r.rule !== 'password_too_long' || r.ok)).toBe(true);
  });
  it("flags a confirmation that doesn't match", () => {
    const r = newPasswordSchema.safeParse({ password: ok, password_confirmation: ok + 'x' });
    expect(r.success).toBe(false);
    expect(JSON.stringify(r.error?.issues)).toContain('password_mismatch');
  });
});

describe('formats (docs/SPEC.md §5)', () => {
  it('phone starts with + followed by digits only', () => {
    expect(PHONE_RE.test('+41791234567')).toBe(true);
    expect(PHONE_RE.test('0041791234567')).toBe(false);
    expect(PHONE_RE.test('+41 79 123')).toBe(false);
  });
  it('subscription names are XX_XX(X)', () => {
    expect(SUBSCRIPTION_NAME_RE.test('HR_PORTAL')).toBe(true);
    expect(SUBSCRIPTION_NAME_RE.test('HR_PORTAL_EU')).toBe(true);
    expect(SUBSCRIPTION_NAME_RE.test('hr_portal')).toBe(false);
    expect(SUBSCRIPTION_NAME_RE.test('HRPORTAL')).toBe(false);
  });
  it('role names are XX_XX(X)(_XX*)', () => {
    expect(ROLE_NAME_RE.test('APP_ADMIN')).toBe(true);
    expect(ROLE_NAME_RE.test('APP_ADMIN_EU_WEST')).toBe(true);
    expect(ROLE_NAME_RE.test('ADMIN')).toBe(false);
    expect(ROLE_NAME_RE.test('App_Admin')).toBe(false);
  });
  it("service app paths start with '/'", () => {
    expect(SERVICE_PATH_RE.test('/callback')).toBe(true);
    expect(SERVICE_PATH_RE.test('callback')).toBe(false);
  });
});
