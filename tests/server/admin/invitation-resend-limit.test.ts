import { afterAll, expect, it } from 'vitest';
import { describeEachDb, type TestApp } from '../../helpers/app';
import { startSmtp } from '../../helpers/smtp';
import { createAccount, signIn } from '../../helpers/auth';

/**
 * Issue 28 finding 5c: invitation resend had no per-recipient limit, so one admin (or a stolen admin session) could
 * mail-bomb an invitee. At most 3 resends an hour per recipient, whoever sends them; then 429
 * `invitation_resend_limited`, localized, with Retry-After; other recipients are not affected.
 */
const smtp = await startSmtp();
afterAll(() => smtp.close());
const PASSWORD = 'Str0ng!Passw0rd#';
let n = 0;
const email = (p: string) => `${p}-${++n}-${Date.now()}@example.test`;

async function admin(t: TestApp, role: 'super_admin' | 'manager') {
  const acc = await createAccount(t, { type: 'admin', email: email(role), password: PASSWORD, admin_role: role });
  return `Bearer ${(await signIn(t, { email: acc.email, password: PASSWORD, client: 'admin-console' })).accessToken}`;
}

describeEachDb(
  'invitation resend limit',
  (get) => {
    it('3 resends an hour per recipient across admins, then 429 invitation_resend_limited with Retry-After (de); another invitee is unaffected', async () => {
      const t = get();
      const [a, b] = [await admin(t, 'manager'), await admin(t, 'super_admin')];
      const invitee = await createAccount(t, { type: 'user', email: email('invitee'), password: null, email_verified_at: null });
      const other = await createAccount(t, { type: 'user', email: email('other'), password: null, email_verified_at: null });
      const resend = (auth: string, id: string) => t.app.inject({ method: 'POST', url: `/api/admin/users/${id}/invite`, headers: { authorization: auth, 'accept-language': 'de' } });
      const statuses: number[] = [];
      for (const auth of [a, b, a]) statuses.push((await resend(auth, invitee.id)).statusCode);
      expect(statuses).toEqual([200, 200, 200]);
      for (const auth of [b, a]) {
        const refused = await resend(auth, invitee.id);
        expect(refused.statusCode).toBe(429);
        expect(refused.json().error.code).toBe('invitation_resend_limited');
        expect(refused.json().error.message).toMatch(/^Diese Einladung wurde zu oft erneut gesendet; bitte in \d+ Sekunden erneut versuchen$/);
        expect(Number(refused.headers['retry-after'])).toBeGreaterThan(3000);
      }
      expect((await resend(a, other.id)).statusCode).toBe(200);
      // the admin path shares the rule
      const invitedAdmin = await createAccount(t, { type: 'admin', email: email('new-admin'), password: null, email_verified_at: null, admin_role: 'manager' });
      const adminStatuses: number[] = [];
      for (let i = 0; i < 4; i++) adminStatuses.push((await t.app.inject({ method: 'POST', url: `/api/admin/admins/${invitedAdmin.id}/invite`, headers: { authorization: b } })).statusCode);
      expect(adminStatuses).toEqual([200, 200, 200, 429]);
    });
  },
  { SMTP_URL: smtp.url },
);
