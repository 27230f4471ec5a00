import { afterAll, expect, it, vi } from 'vitest';
import { createTestApp, describeEachDb, type TestApp } from '../../helpers/app';
import { apiLinkOf, startSmtp } from '../../helpers/smtp';
import { createAccount, pathOf, signIn } from '../../helpers/auth';
import { sendInvitation } from '../../../server/services/invitations';
import { issueToken, signedApiLink } from '../../../server/services/signed-links';
import { assertNotLocked, recordFailure, throttleKeys } from '../../../server/services/throttle';
import { verifyPassword } from '../../../server/services/passwords';

const smtp = await startSmtp();
afterAll(() => smtp.close());

const PASSWORD = 'Str0ng!Passw0rd#';
const NEW_PASSWORD = 'An0ther!Secret#9';
let n = 0;
const email = (p: string) => `${p}-${++n}-${Date.now()}@example.test`;


function tamper(url: string, param: 'token' | 'expires' | 'signature'): string {
  const u = new URL(url);
  const v = u.searchParams.get(param) ?? '';
  const changed = param === 'expires' ? String(Number(v) + 1) : (v[0] === 'a' ? 'b' : 'a') + v.slice(1);
  u.searchParams.set(param, changed);
  return u.href;
}

const inviteFresh = async (t: TestApp, type: 'user' | 'admin', locale = 'en') => {
  const acc = await createAccount(t, { type, email: email(`inv-${type}`), password: null, email_verified_at: null, locale });
  await sendInvitation(t.app, acc, {});
  return { acc, mail: await smtp.waitFor(acc.email) };
};

describeEachDb(
  'invitation links',
  (get) => {
    it('mails a link to /verify/user whose url is the signed API link; GET 200, verify sets the password once (sc)', async () => {
      const t = get();
      const { acc, mail } = await inviteFresh(t, 'user');
      const api = apiLinkOf(mail, '/verify/user');
      expect(new URL(api).pathname).toBe('/api/user/verify-link');
      const check = await t.app.inject({ method: 'GET', url: pathOf(api) });
      expect(check.statusCode).toBe(200);
      expect(check.json()).toEqual({ data: { valid: true, email: acc.email } });

      const bad = await t.app.inject({ method: 'POST', url: '/api/user/verify', payload: { url: api, password: 'short', password_confirmation: 'short' } });
      expect(bad.statusCode).toBe(422);
      expect(bad.json().error.fields.password).toEqual(expect.arrayContaining(['password_too_short', 'password_uppercase', 'password_digit', 'password_special']));
      const mismatch = await t.app.inject({ method: 'POST', url: '/api/user/verify', payload: { url: api, password: PASSWORD, password_confirmation: PASSWORD + 'x' } });
      expect(mismatch.statusCode).toBe(422);
      expect(mismatch.json().error.fields.password_confirmation).toEqual(['password_mismatch']);
      expect(mismatch.json().error.field_messages.password_confirmation).toEqual(['Passwords do not match']);

      const ok = await t.app.inject({ method: 'POST', url: '/api/user/verify', payload: { url: api, password: PASSWORD, password_confirmation: PASSWORD } });
      expect(ok.statusCode).toBe(200);
      expect(ok.json()).toEqual({ data: { flow: 'sc' } });
      const row = await t.db.kysely.selectFrom('accounts').selectAll().where('id', '=', acc.id).executeTakeFirstOrThrow();
      expect(row.email_verified_at).toBeTruthy();
      expect(await verifyPassword(row.password_hash ?? '', PASSWORD)).toBe(true);

      // single use
      const again = await t.app.inject({ method: 'POST', url: '/api/user/verify', payload: { url: api, password: NEW_PASSWORD, password_confirmation: NEW_PASSWORD } });
      expect(again.statusCode).toBe(403);
      expect(again.json().error.code).toBe('invalid_link');
      expect((await t.app.inject({ method: 'GET', url: pathOf(api) })).statusCode).toBe(403);
      // the invited user can sign in with the password
      await signIn(t, { email: acc.email, password: PASSWORD });
    });

    it('two parallel verifies with one link: exactly one wins', async () => {
      const t = get();
      const { mail } = await inviteFresh(t, 'user');
      const api = apiLinkOf(mail, '/verify/user');
      const res = await Promise.all(
        [PASSWORD, NEW_PASSWORD].map((p) => t.app.inject({ method: 'POST', url: '/api/user/verify', payload: { url: api, password: p, password_confirmation: p } })),
      );
      expect(res.map((r) => r.statusCode).sort()).toEqual([200, 403]);
    });

    it('admins get /verify/admin in their locale; a user link does not work on the admin endpoint and vice versa', async () => {
      const t = get();
      const { mail } = await inviteFresh(t, 'admin', 'de');
      expect(mail.subject).toMatch(/Einladung/);
      const api = apiLinkOf(mail, '/verify/admin');
      expect(new URL(api).pathname).toBe('/api/admin/verify-link');
      const asUser = await t.app.inject({ method: 'POST', url: '/api/user/verify', payload: { url: api, password: PASSWORD, password_confirmation: PASSWORD } });
      expect(asUser.statusCode).toBe(403);
      const userInvite = await inviteFresh(t, 'user');
      const userApi = apiLinkOf(userInvite.mail, '/verify/user');
      const swapped = userApi.replace('/api/user/verify-link', '/api/admin/verify-link');
      expect((await t.app.inject({ method: 'GET', url: pathOf(swapped) })).statusCode).toBe(403);
      const ok = await t.app.inject({ method: 'POST', url: '/api/admin/verify', payload: { url: api, password: PASSWORD, password_confirmation: PASSWORD } });
      expect(ok.json()).toEqual({ data: { flow: 'sc' } });
    });

    it('a changed token, expiry or signature is refused (403) on GET and POST', async () => {
      const t = get();
      const { mail } = await inviteFresh(t, 'user');
      const api = apiLinkOf(mail, '/verify/user');
      for (const p of ['token', 'expires', 'signature'] as const) {
        const bad = tamper(api, p);
        expect((await t.app.inject({ method: 'GET', url: pathOf(bad) })).statusCode, p).toBe(403);
        const post = await t.app.inject({ method: 'POST', url: '/api/user/verify', payload: { url: bad, password: PASSWORD, password_confirmation: PASSWORD } });
        expect(post.statusCode, p).toBe(403);
      }
      for (const url of ['not a url', 'http://localhost:3000/api/user/verify-link', 'javascript:alert(1)', api.replace('signature=', 'sig=')]) {
        const post = await t.app.inject({ method: 'POST', url: '/api/user/verify', payload: { url, password: PASSWORD, password_confirmation: PASSWORD } });
        expect(post.statusCode).toBe(403);
      }
      expect((await t.app.inject({ method: 'GET', url: '/api/user/verify-link' })).statusCode).toBe(403);
      // the untouched link still works
      expect((await t.app.inject({ method: 'GET', url: pathOf(api) })).statusCode).toBe(200);
    });

    it('expired links are refused: a validly signed past expiry, and a token expired in the database', async () => {
      const t = get();
      const { acc, mail } = await inviteFresh(t, 'user');
      const api = apiLinkOf(mail, '/verify/user');
      const token = new URL(api).searchParams.get('token') ?? '';
      const past = await signedApiLink(t.app, '/api/user/verify-link', token, new Date(Date.now() - 1000));
      expect((await t.app.inject({ method: 'GET', url: pathOf(past) })).statusCode).toBe(403);
      expect((await t.app.inject({ method: 'GET', url: pathOf(api) })).statusCode).toBe(200);
      await t.db.kysely.updateTable('one_time_tokens').set({ expires_at: new Date(Date.now() - 1000).toISOString() }).where('account_id', '=', acc.id).execute();
      expect((await t.app.inject({ method: 'GET', url: pathOf(api) })).statusCode).toBe(403);
      const post = await t.app.inject({ method: 'POST', url: '/api/user/verify', payload: { url: api, password: PASSWORD, password_confirmation: PASSWORD } });
      expect(post.statusCode).toBe(403);
    });

    it('sending the invitation again revokes the earlier link; the expiry follows IAM_INVITATION_TTL_HOURS (72)', async () => {
      const t = get();
      const { acc, mail } = await inviteFresh(t, 'user');
      const first = apiLinkOf(mail, '/verify/user');
      const expires = Number(new URL(first).searchParams.get('expires'));
      expect(Math.abs(expires * 1000 - (Date.now() + 72 * 3600_000))).toBeLessThan(60_000);
      smtp.mails.splice(0, smtp.mails.length);
      await sendInvitation(t.app, acc);
      const second = apiLinkOf(await smtp.waitFor(acc.email), '/verify/user');
      expect(second).not.toBe(first);
      expect((await t.app.inject({ method: 'GET', url: pathOf(first) })).statusCode).toBe(403);
      expect((await t.app.inject({ method: 'GET', url: pathOf(second) })).statusCode).toBe(200);
      const tokens = await t.db.kysely.selectFrom('one_time_tokens').selectAll().where('account_id', '=', acc.id).execute();
      const raw = new URL(second).searchParams.get('token') ?? '';
      expect(tokens.some((r) => r.token_hash === raw)).toBe(false);
    });
  },
  { SMTP_URL: smtp.url },
);

describeEachDb(
  'password reset',
  (get) => {
    const forgot = (t: TestApp, mail: string, path = '/api/forgot-password', ip = '10.9.9.9') =>
      t.app.inject({ method: 'POST', url: path, payload: { email: mail }, remoteAddress: ip });

    it('answers the same for a known and an unknown e-mail; only the known one gets a mail', async () => {
      const t = get();
      const acc = await createAccount(t, { type: 'user', email: email('known'), password: PASSWORD });
      const unknown = email('unknown');
      const a = await forgot(t, acc.email.toUpperCase(), undefined, '10.0.0.11');
      const b = await forgot(t, unknown, undefined, '10.0.0.12');
      expect(a.statusCode).toBe(200);
      expect(b.statusCode).toBe(a.statusCode);
      expect(b.body).toBe(a.body);
      await smtp.waitFor(acc.email);
      await new Promise((r) => setTimeout(r, 200));
      expect(smtp.mails.some((m) => m.to.includes(unknown))).toBe(false);
      // an admin e-mail on the user endpoint is unknown too
      const admin = await createAccount(t, { type: 'admin', email: email('adm'), password: PASSWORD });
      expect((await forgot(t, admin.email, undefined, '10.0.0.13')).body).toBe(a.body);
    });

    it('IAM_FORGOT_PASSWORD_REVEAL=true answers 404 Email not found', async () => {
      const revealing = await createTestApp(get().kind, { SMTP_URL: smtp.url, IAM_FORGOT_PASSWORD_REVEAL: 'true' });
      try {
        const res = await forgot(revealing, email('nobody'), undefined, '10.0.0.14');
        expect(res.statusCode).toBe(404);
        expect(res.json().error).toMatchObject({ code: 'email_not_found', message: 'Email not found' });
      } finally {
        await revealing.close();
      }
    });

    it('is throttled per e-mail and address (3 an hour), per e-mail (10 an hour) and per address (20 an hour), known or not', async () => {
      const t = get();
      const target = email('throttle');
      for (let i = 0; i < 3; i++) expect((await forgot(t, target, undefined, '10.1.0.1')).statusCode).toBe(200);
      const fourth = await forgot(t, target, undefined, '10.1.0.1');
      expect(fourth.statusCode).toBe(429);
      expect(Number(fourth.headers['retry-after'])).toBeGreaterThan(0);
      // the ceiling per e-mail over all addresses: 10 an hour (3 + 3 + 3 + 1 from four addresses)
      const codes: number[] = [];
      for (const ip of ['10.1.0.2', '10.1.0.3', '10.1.0.4']) for (let i = 0; i < 3; i++) codes.push((await forgot(t, target, undefined, ip)).statusCode);
      expect(codes.filter((c) => c === 200)).toHaveLength(7);
      expect((await forgot(t, target, undefined, '10.1.0.5')).statusCode).toBe(429);
      const ip = '10.2.0.1';
      const perIp: number[] = [];
      for (let i = 0; i < 21; i++) perIp.push((await forgot(t, email('ip'), undefined, ip)).statusCode);
      expect(perIp.slice(0, 20).every((c) => c === 200)).toBe(true);
      expect(perIp[20]).toBe(429);
    });

    it("a stranger's requests do not spend a person's own allowance (issue 28.5a): the person, from their address, still gets the mail", async () => {
      const t = get();
      const acc = await createAccount(t, { type: 'user', email: email('victim'), password: PASSWORD });
      const attacker = '10.5.0.66';
      const answers: number[] = [];
      for (let i = 0; i < 5; i++) answers.push((await forgot(t, acc.email, undefined, attacker)).statusCode);
      expect(answers).toEqual([200, 200, 200, 429, 429]);
      const mailsTo = () => smtp.mails.filter((m) => m.to.includes(acc.email.toLowerCase())).length;
      // the three the stranger asked for arrive; then the person's own request is answered and mailed too
      await vi.waitFor(() => expect(mailsTo()).toBe(3), { timeout: 15_000 });
      const own = await forgot(t, acc.email, undefined, '10.5.0.7');
      expect(own.statusCode).toBe(200);
      await vi.waitFor(() => expect(mailsTo()).toBe(4), { timeout: 15_000 });
    });

    it('mails a single-use link to /reset-password; token check, reset (cp) ends sessions, clears the lockout', async () => {
      const t = get();
      const acc = await createAccount(t, { type: 'user', email: email('reset'), password: PASSWORD });
      const session = await signIn(t, { email: acc.email, password: PASSWORD });
      expect((await t.app.inject({ method: 'GET', url: '/api/user', headers: { authorization: session.authorization } })).statusCode).toBe(200);
      for (let i = 0; i < 5; i++) await recordFailure(t.app, [throttleKeys.account(acc.id)]);
      await expect(assertNotLocked(t.app, [throttleKeys.account(acc.id)])).rejects.toMatchObject({ status: 429 });

      expect((await forgot(t, acc.email, undefined, '10.3.0.1')).statusCode).toBe(200);
      const mail = await smtp.waitFor(acc.email, { subject: /reset/i });
      const api = apiLinkOf(mail, '/reset-password');
      expect(new URL(api).pathname).toBe('/api/reset-password-link');
      const expires = Number(new URL(api).searchParams.get('expires'));
      expect(Math.abs(expires * 1000 - (Date.now() + 3600_000))).toBeLessThan(60_000);
      expect((await t.app.inject({ method: 'GET', url: pathOf(api) })).statusCode).toBe(200);
      const check = await t.app.inject({ method: 'POST', url: '/api/reset-password-token', payload: { url: api } });
      expect(check.statusCode).toBe(200);
      expect((await t.app.inject({ method: 'POST', url: '/api/reset-password-token', payload: { url: tamper(api, 'signature') } })).statusCode).toBe(403);

      const same = await t.app.inject({ method: 'POST', url: '/api/reset-password', payload: { url: api, password: PASSWORD, password_confirmation: PASSWORD } });
      expect(same.statusCode).toBe(422);
      expect(same.json().error.fields.password).toEqual(['password_same_as_current']);
      const weak = await t.app.inject({ method: 'POST', url: '/api/reset-password', payload: { url: api, password: 'Aaaa1!aaaaaaaaa', password_confirmation: 'Aaaa1!aaaaaaaaa' } });
      expect(weak.json().error.fields.password).toEqual(['password_repeated']);

      const ok = await t.app.inject({ method: 'POST', url: '/api/reset-password', payload: { url: api, password: NEW_PASSWORD, password_confirmation: NEW_PASSWORD } });
      expect(ok.statusCode).toBe(200);
      expect(ok.json()).toEqual({ data: { flow: 'cp' } });
      expect((await t.app.inject({ method: 'GET', url: '/api/user', headers: { authorization: session.authorization } })).statusCode).toBe(401);
      await assertNotLocked(t.app, [throttleKeys.account(acc.id)]);
      const reuse = await t.app.inject({ method: 'POST', url: '/api/reset-password', payload: { url: api, password: 'Th1rd!Password#x', password_confirmation: 'Th1rd!Password#x' } });
      expect(reuse.statusCode).toBe(403);
      await signIn(t, { email: acc.email, password: NEW_PASSWORD });
    });

    it('admins: /api/admin/forgot-password mails /admin/reset-password; user endpoints refuse an admin link', async () => {
      const t = get();
      const acc = await createAccount(t, { type: 'admin', email: email('admreset'), password: PASSWORD, locale: 'fr' });
      expect((await forgot(t, acc.email, '/api/admin/forgot-password', '10.4.0.1')).statusCode).toBe(200);
      const api = apiLinkOf(await smtp.waitFor(acc.email), '/admin/reset-password');
      expect((await t.app.inject({ method: 'POST', url: '/api/reset-password-token', payload: { url: api } })).statusCode).toBe(403);
      expect((await t.app.inject({ method: 'POST', url: '/api/admin/reset-password-token', payload: { url: api } })).statusCode).toBe(200);
      const ok = await t.app.inject({ method: 'POST', url: '/api/admin/reset-password', payload: { url: api, password: NEW_PASSWORD, password_confirmation: NEW_PASSWORD } });
      expect(ok.json()).toEqual({ data: { flow: 'cp' } });
    });

    it('an invitation link is not a reset link', async () => {
      const t = get();
      const acc = await createAccount(t, { type: 'user', email: email('invnotreset'), password: null });
      await sendInvitation(t.app, acc);
      const api = apiLinkOf(await smtp.waitFor(acc.email), '/verify/user');
      const res = await t.app.inject({ method: 'POST', url: '/api/reset-password', payload: { url: api, password: PASSWORD, password_confirmation: PASSWORD } });
      expect(res.statusCode).toBe(403);
    });

    it('the expired-password reset_token sets the password once; other tokens are refused', async () => {
      const t = get();
      const acc = await createAccount(t, { type: 'user', email: email('expired'), password: PASSWORD });
      const { token } = await issueToken(t.db.kysely, acc.id, 'expired_password', 600_000);
      const missing = await t.app.inject({ method: 'POST', url: '/api/reset-password', payload: { password: NEW_PASSWORD, password_confirmation: NEW_PASSWORD } });
      expect(missing.statusCode).toBe(422);
      const wrongType = await t.app.inject({ method: 'POST', url: '/api/admin/reset-password', payload: { reset_token: token, password: NEW_PASSWORD, password_confirmation: NEW_PASSWORD } });
      expect(wrongType.statusCode).toBe(403);
      const ok = await t.app.inject({ method: 'POST', url: '/api/reset-password', payload: { reset_token: token, password: NEW_PASSWORD, password_confirmation: NEW_PASSWORD } });
      expect(ok.json()).toEqual({ data: { flow: 'cp' } });
      const again = await t.app.inject({ method: 'POST', url: '/api/reset-password', payload: { reset_token: token, password: 'Th1rd!Password#x', password_confirmation: 'Th1rd!Password#x' } });
      expect(again.statusCode).toBe(403);
      const { token: resetToken } = await issueToken(t.db.kysely, acc.id, 'reset', 600_000);
      const wrongPurpose = await t.app.inject({ method: 'POST', url: '/api/reset-password', payload: { reset_token: resetToken, password: 'Th1rd!Password#x', password_confirmation: 'Th1rd!Password#x' } });
      expect(wrongPurpose.statusCode).toBe(403);
    });
  },
  { SMTP_URL: smtp.url },
);

