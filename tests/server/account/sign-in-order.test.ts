import { afterAll, expect, it } from 'vitest';
import { TOTP } from 'otpauth';
import { describeEachDb, type TestApp } from '../../helpers/app';
import { createAccount, notATotpCode, startAuthorize, type AuthorizeStart } from '../../helpers/auth';
import { startSmtp } from '../../helpers/smtp';
import { createTotpSecret, enableTotp } from '../../../server/services/two-factor';
import type { Account } from '../../../server/db/schema';

/**
 * Issue 10 items 3 and 4: what the password step may reveal.
 * - an expired password is handed its reset token only after the second factor;
 * - an inactive account is no oracle: without 2FA its right password gets the wrong-password answer (and a mail
 *   to the owner), with 2FA the inactive message comes only after the second factor.
 */
const PW = 'Correct-Horse-1!';
const WRONG = 'Wrong-Horse-1!xx';
let n = 0;
const email = (p: string) => `${p}-${++n}-${Date.now()}@example.test`;
let ipSeq = 0;
const freshIp = () => `203.0.113.${(++ipSeq % 250) + 1}`;

const smtp = await startSmtp();
afterAll(() => smtp.close());

async function withTotp(t: TestApp, acc: Account): Promise<{ next: () => string; wrong: () => string }> {
  const { secret } = await createTotpSecret(t.app, acc);
  const totp = new TOTP({ secret, digits: 6, period: 30 });
  expect(await enableTotp(t.app, acc, totp.generate())).toBeTruthy();
  // the enrollment code's step is spent: the next step's code is valid (±1) and not a replay
  return { next: () => totp.generate({ timestamp: Date.now() + 30_000 }), wrong: () => notATotpCode((timestamp) => totp.generate({ timestamp })) };
}

/** Steps of the sign-in `s` started, sent from its browser (the jar holds the interaction's binding cookie). */
const login = (t: TestApp, s: AuthorizeStart, mail: string, password: string, ip: string) =>
  t.app.inject({ method: 'POST', url: '/api/login', headers: { cookie: s.jar.header() }, payload: { email: mail, password, interaction: s.interaction ?? '' }, remoteAddress: ip });
const otp = (t: TestApp, s: AuthorizeStart, code: string, ip: string) =>
  t.app.inject({ method: 'POST', url: '/api/2fa/google/validate-otp', headers: { cookie: s.jar.header() }, payload: { one_time_password: code, interaction: s.interaction ?? '' }, remoteAddress: ip });

describeEachDb(
  'sign-in order: expired password and inactive accounts',
  (get) => {
    it('an old password with TOTP on: the password alone gets two_factor_required, the reset token only after the code', async () => {
      const t = get();
      const ip = freshIp();
      const acc = await createAccount(t, { type: 'user', email: email('old'), password: PW });
      const code = await withTotp(t, acc);
      await t.db.kysely.updateTable('accounts').set({ password_changed_at: new Date(Date.now() - 40 * 86_400_000).toISOString() }).where('id', '=', acc.id).execute();
      const s = await startAuthorize(t);
      const first = await login(t, s, acc.email, PW, ip);
      expect(first.statusCode).toBe(200);
      expect(first.json().data).toEqual({ status: 'two_factor_required', method: 'GOOGLE' });
      expect(await t.db.kysely.selectFrom('one_time_tokens').select('id').where('account_id', '=', acc.id).where('purpose', '=', 'expired_password').execute()).toEqual([]);
      const second = await otp(t, s, code.next(), ip);
      expect(second.statusCode).toBe(200);
      expect(second.json().data.status).toBe('password_expired');
      const token = second.json().data.reset_token as string;
      expect(token).toMatch(/^[A-Za-z0-9_-]{20,}$/);
      // the token sets the new password
      const NEW = 'Brand-New-Horse-2!';
      const reset = await t.app.inject({ method: 'POST', url: '/api/reset-password', payload: { reset_token: token, password: NEW, password_confirmation: NEW } });
      expect(reset.statusCode).toBe(200);
    });

    it('an old password without 2FA still answers password_expired at the password step', async () => {
      const t = get();
      const acc = await createAccount(t, { type: 'user', email: email('old1'), password: PW });
      await t.db.kysely.updateTable('accounts').set({ password_changed_at: new Date(Date.now() - 40 * 86_400_000).toISOString() }).where('id', '=', acc.id).execute();
      const s = await startAuthorize(t);
      const res = await login(t, s, acc.email, PW, freshIp());
      expect(res.json().data.status).toBe('password_expired');
    });

    it('an inactive account without 2FA: the right password gets the wrong-password answer, counts as a failure, and mails the owner', async () => {
      const t = get();
      const ip = freshIp();
      const acc = await createAccount(t, { type: 'user', email: email('inactive'), password: PW, status: 'INACTIVE' });
      const s = await startAuthorize(t);
      const wrong = await login(t, s, acc.email, WRONG, ip);
      const right = await login(t, s, acc.email, PW, ip);
      expect(wrong.statusCode).toBe(401);
      expect(right.statusCode).toBe(401);
      expect(right.body).toBe(wrong.body);
      const mail = await smtp.waitFor(acc.email, { subject: /inactive/i });
      expect(mail.text).toContain('inactive');
      // right and wrong both count: three more attempts lock the account, whatever the password
      for (const password of [PW, WRONG, PW]) expect((await login(t, s, acc.email, password, ip)).statusCode).toBe(401);
      const lockedRight = await login(t, s, acc.email, PW, ip);
      const lockedWrong = await login(t, s, acc.email, WRONG, ip);
      expect(lockedRight.statusCode).toBe(429);
      expect(lockedRight.json().error.code).toBe('account_locked');
      expect(lockedRight.body.replace(/\d+/g, '#')).toBe(lockedWrong.body.replace(/\d+/g, '#'));
      // at most one such mail an hour
      await new Promise((r) => setTimeout(r, 200));
      expect(smtp.mails.filter((m) => m.to.includes(acc.email.toLowerCase())).length).toBe(1);
    });

    it('an inactive account with TOTP: two_factor_required like an active one, account_inactive only after the right code', async () => {
      const t = get();
      const ip = freshIp();
      const acc = await createAccount(t, { type: 'user', email: email('inactive2fa'), password: PW });
      const code = await withTotp(t, acc);
      await t.db.kysely.updateTable('accounts').set({ status: 'INACTIVE' }).where('id', '=', acc.id).execute();
      const s = await startAuthorize(t);
      expect((await login(t, s, acc.email, WRONG, ip)).statusCode).toBe(401);
      const first = await login(t, s, acc.email, PW, ip);
      expect(first.json().data).toEqual({ status: 'two_factor_required', method: 'GOOGLE' });
      const good = code.next();
      const bad = await otp(t, s, code.wrong(), ip);
      expect(bad.statusCode).toBe(422);
      expect(bad.json().error.code).toBe('otp_invalid');
      const inactive = await otp(t, s, good, ip);
      expect(inactive.statusCode).toBe(403);
      expect(inactive.json().error.code).toBe('account_inactive');
    });
  },
  { SMTP_URL: smtp.url, IAM_PASSWORD_MAX_AGE_DAYS: '30' },
);
