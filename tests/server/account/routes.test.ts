import { afterAll, describe, expect, it } from 'vitest';
import { readFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import { createHash } from 'node:crypto';
import { TOTP, Secret } from 'otpauth';
import { describeEachDb, type TestApp } from '../../helpers/app';
import { startSmtp } from '../../helpers/smtp';
import { createAccount, notATotpCode, parseApiKey, signIn, type Tokens } from '../../helpers/auth';
import { recordFailure, throttleKeys } from '../../../server/services/throttle';
import { verifyPassword } from '../../../server/services/passwords';

const smtp = await startSmtp();
afterAll(() => smtp.close());

const PASSWORD = 'Str0ng!Passw0rd#';
const NEW_PASSWORD = 'An0ther!Secret#9';
let n = 0;
const email = (p: string) => `${p}-${++n}-${Date.now()}@example.test`;

const post = (t: TestApp, url: string, tokens: Tokens | null, payload?: Record<string, unknown>) =>
  t.app.inject({ method: 'POST', url, ...(payload ? { payload } : {}), headers: tokens ? { authorization: tokens.authorization } : {} });
const getUser = (t: TestApp, auth: string, url = '/api/user') => t.app.inject({ method: 'GET', url, headers: { authorization: auth } });

async function userSession(t: TestApp, extra: Record<string, unknown> = {}) {
  const acc = await createAccount(t, { type: 'user', email: email('u'), password: PASSWORD, ...extra });
  return { acc, tokens: await signIn(t, { email: acc.email, password: PASSWORD }) };
}
async function adminSession(t: TestApp, role: 'super_admin' | 'manager' = 'super_admin') {
  const acc = await createAccount(t, { type: 'admin', email: email(role), password: PASSWORD, admin_role: role });
  return { acc, tokens: await signIn(t, { email: acc.email, password: PASSWORD, client: 'admin-console' }) };
}

function smsCodes(t: TestApp, to: string): string[] {
  const file = path.join(t.dataDir, 'outbox', 'sms.log');
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as { to: string; body: string; at: string })
    .filter((m) => m.to === to)
    .map((m) => /\b(\d{6})\b/.exec(m.body)?.[1] ?? '');
}

describeEachDb(
  'account security routes',
  (get) => {
    describe('change password', () => {
      it('checks the current password, refuses the same one, ends the other sessions only, mails a notice', async () => {
        const t = get();
        const { acc, tokens } = await userSession(t);
        const other = await signIn(t, { email: acc.email, password: PASSWORD });
        const wrong = await post(t, '/api/user/change-password', tokens, { current_password: 'Wr0ng!Password#', password: NEW_PASSWORD, password_confirmation: NEW_PASSWORD });
        expect(wrong.statusCode).toBe(422);
        expect(wrong.json().error.fields).toEqual({ current_password: ['given_password_invalid'] });
        expect(wrong.json().error.field_messages.current_password).toEqual(['Given password is invalid']);
        const same = await post(t, '/api/user/change-password', tokens, { current_password: PASSWORD, password: PASSWORD, password_confirmation: PASSWORD });
        expect(same.json().error.fields).toEqual({ password: ['password_same_as_current'] });
        const ok = await post(t, '/api/user/change-password', tokens, { current_password: PASSWORD, password: NEW_PASSWORD, password_confirmation: NEW_PASSWORD });
        expect(ok.statusCode).toBe(200);
        expect((await getUser(t, tokens.authorization)).statusCode).toBe(200);
        expect((await getUser(t, other.authorization)).statusCode).toBe(401);
        const mail = await smtp.waitFor(acc.email);
        expect(mail.subject.length).toBeGreaterThan(0);
        await signIn(t, { email: acc.email, password: NEW_PASSWORD });
      });

      it('guessing the current password locks the account after 5 tries', async () => {
        const t = get();
        const { tokens } = await userSession(t);
        const body = { current_password: 'Wr0ng!Password#', password: NEW_PASSWORD, password_confirmation: NEW_PASSWORD };
        for (let i = 0; i < 5; i++) expect((await post(t, '/api/user/change-password', tokens, body)).statusCode).toBe(422);
        const locked = await post(t, '/api/user/change-password', tokens, { ...body, current_password: PASSWORD });
        expect(locked.statusCode).toBe(429);
        expect(locked.json().error.code).toBe('account_locked');
      });

      it('admins change theirs on /api/admin/change-password; the user endpoint refuses admins', async () => {
        const t = get();
        const { tokens } = await adminSession(t);
        const body = { current_password: PASSWORD, password: NEW_PASSWORD, password_confirmation: NEW_PASSWORD };
        expect((await post(t, '/api/user/change-password', tokens, body)).statusCode).toBe(403);
        expect((await post(t, '/api/admin/change-password', tokens, body)).statusCode).toBe(200);
        expect((await post(t, '/api/admin/change-password', null, body)).statusCode).toBe(401);
      });

      it("admin sets a user's password (ends the user's sessions); 404 for unknown or admin ids; users get 403", async () => {
        const t = get();
        const { tokens } = await adminSession(t, 'manager');
        const user = await userSession(t);
        const body = { uuid: user.acc.id, password: NEW_PASSWORD, password_confirmation: NEW_PASSWORD };
        expect((await post(t, '/api/admin/user/change-password', user.tokens, body)).statusCode).toBe(403);
        const ok = await post(t, '/api/admin/user/change-password', tokens, body);
        expect(ok.statusCode).toBe(200);
        expect((await getUser(t, user.tokens.authorization)).statusCode).toBe(401);
        const row = await t.db.kysely.selectFrom('accounts').select('password_hash').where('id', '=', user.acc.id).executeTakeFirstOrThrow();
        expect(await verifyPassword(row.password_hash ?? '', NEW_PASSWORD)).toBe(true);
        expect((await post(t, '/api/admin/user/change-password', tokens, { ...body, uuid: 'nope' })).statusCode).toBe(404);
        const admin = await createAccount(t, { type: 'admin', email: email('adm'), password: PASSWORD });
        expect((await post(t, '/api/admin/user/change-password', tokens, { ...body, uuid: admin.id })).statusCode).toBe(404);
      });

      it('verify manually sets email_verified_at; 404 unknown', async () => {
        const t = get();
        const { tokens } = await adminSession(t);
        const u = await createAccount(t, { type: 'user', email: email('unverified'), email_verified_at: null });
        const res = await post(t, '/api/admin/user/verify-manually', tokens, { uuid: u.id });
        expect(res.statusCode).toBe(200);
        expect(res.json().data.email_verified_at).toBeTruthy();
        expect((await post(t, '/api/admin/user/verify-manually', tokens, { uuid: 'missing' })).statusCode).toBe(404);
      });
    });

    it('the password policy holds on every path that sets a password', async () => {
      const t = get();
      const admin = await adminSession(t);
      const user = await userSession(t);
      const paths: [string, Tokens | null, Record<string, unknown>][] = [
        ['/api/user/verify', null, { url: 'http://x/y' }],
        ['/api/admin/verify', null, { url: 'http://x/y' }],
        ['/api/reset-password', null, { url: 'http://x/y' }],
        ['/api/admin/reset-password', null, { reset_token: 'abc' }],
        ['/api/user/change-password', user.tokens, { current_password: PASSWORD }],
        ['/api/admin/change-password', admin.tokens, { current_password: PASSWORD }],
        ['/api/admin/user/change-password', admin.tokens, { uuid: user.acc.id }],
      ];
      const cases: [string, string][] = [
        ['Sh0rt!pass', 'password_too_short'],
        ['A1!' + 'abcdefghij'.repeat(5), 'password_too_long'],
        ['n0upper!password', 'password_uppercase'],
        ['N0LOWER!PASSWORD', 'password_lowercase'],
        ['NoDigits!Password', 'password_digit'],
        ['N0Special1Password', 'password_special'],
        ['Inval1d!Password<', 'password_invalid_character'],
        ['Repeeeeat1!Pass', 'password_repeated'],
      ];
      for (const [url, tokens, extra] of paths) {
        for (const [pw, code] of cases) {
          const res = await post(t, url, tokens, { ...extra, password: pw, password_confirmation: pw });
          expect(res.statusCode, `${url} ${pw}`).toBe(422);
          expect(res.json().error.fields.password, `${url} ${pw}`).toContain(code);
        }
        const mismatch = await post(t, url, tokens, { ...extra, password: NEW_PASSWORD, password_confirmation: 'other' });
        expect(mismatch.json().error.fields.password_confirmation, url).toEqual(['password_mismatch']);
        const de = await t.app.inject({ method: 'POST', url, payload: { ...extra, password: 'x', password_confirmation: 'y' }, headers: { locale: 'de', ...(tokens ? { authorization: tokens.authorization } : {}) } });
        expect(de.json().error.field_messages.password_confirmation).toEqual(['Die Passwörter stimmen nicht überein']);
      }
    });

    describe('two-factor enrollment', () => {
      it('authenticator: secret (pending), enable with a code (otp_required / otp_invalid), recovery codes, disable needs proof', async () => {
        const t = get();
        const { acc, tokens } = await userSession(t);
        const secretRes = await post(t, '/api/2fa/google/secret', tokens);
        expect(secretRes.statusCode).toBe(200);
        const { secret, otpauth_url } = secretRes.json().data as { secret: string; otpauth_url: string };
        expect(otpauth_url).toContain(`secret=${secret}`);
        const pending = await t.db.kysely.selectFrom('accounts').selectAll().where('id', '=', acc.id).executeTakeFirstOrThrow();
        expect(pending.two_factor_confirmed_at).toBeNull();
        // one code for a code left empty or wrong, as at sign-in (issue 32): otp_required / otp_invalid with the field
        expect((await post(t, '/api/2fa/google/enable', tokens, {})).json().error).toMatchObject({ code: 'otp_required', fields: { one_time_password: ['otp_required'] } });
        const bad = await post(t, '/api/2fa/google/enable', tokens, { one_time_password: notATotpCode((timestamp) => TOTP.generate({ secret: Secret.fromBase32(secret), timestamp })) });
        expect(bad.json().error).toMatchObject({ code: 'otp_invalid', fields: { one_time_password: ['otp_invalid'] } });
        expect(bad.json().error.field_messages.one_time_password).toEqual(['One time password is invalid']);
        const code = TOTP.generate({ secret: Secret.fromBase32(secret) });
        const ok = await post(t, '/api/2fa/google/enable', tokens, { one_time_password: code });
        expect(ok.statusCode).toBe(200);
        expect(ok.json().data.recovery_codes).toHaveLength(10);
        // the secret never comes back
        const me = await getUser(t, tokens.authorization, '/api/user?with=subscriptions');
        expect(me.body).not.toContain(secret);
        expect((await post(t, '/api/2fa/google/secret', tokens)).statusCode).toBe(409);

        expect((await post(t, '/api/2fa/disable', tokens)).json().error).toMatchObject({ code: 'otp_required', fields: { one_time_password: ['otp_required'] } });
        // the enabling code is spent (replay)
        expect((await post(t, '/api/2fa/disable', tokens, { one_time_password: code })).json().error).toMatchObject({ code: 'otp_invalid', fields: { one_time_password: ['otp_invalid'] } });
        expect((await post(t, '/api/2fa/disable', tokens, { password: 'Wr0ng!Password#' })).statusCode).toBe(422);
        const next = TOTP.generate({ secret: Secret.fromBase32(secret), timestamp: Date.now() + 30_000 });
        const off = await post(t, '/api/2fa/disable', tokens, { one_time_password: next });
        expect(off.statusCode).toBe(200);
        const row = await t.db.kysely.selectFrom('accounts').selectAll().where('id', '=', acc.id).executeTakeFirstOrThrow();
        expect([row.two_factor_method, row.two_factor_secret, row.two_factor_confirmed_at]).toEqual([null, null, null]);
        expect(await t.db.kysely.selectFrom('recovery_codes').selectAll().where('account_id', '=', acc.id).execute()).toEqual([]);
      });

      it('wrong codes on disable lock the second factor after 5 tries', async () => {
        const t = get();
        const { tokens } = await userSession(t);
        const { secret } = (await post(t, '/api/2fa/google/secret', tokens)).json().data as { secret: string };
        await post(t, '/api/2fa/google/enable', tokens, { one_time_password: TOTP.generate({ secret: Secret.fromBase32(secret) }) });
        for (let i = 0; i < 5; i++) await post(t, '/api/2fa/disable', tokens, { one_time_password: '12345' });
        const res = await post(t, '/api/2fa/disable', tokens, { password: PASSWORD });
        expect(res.statusCode).toBe(429);
      });

      it('SMS: needs a phone; send writes the outbox log; enable with the code; disable with a fresh SMS code', async () => {
        const t = get();
        const noPhone = await userSession(t);
        const np = await post(t, '/api/2fa/sms/send', noPhone.tokens);
        expect(np.statusCode).toBe(422);
        expect(np.json().error.code).toBe('phone_required');

        const phone = `+4179${String(Date.now()).slice(-7)}`;
        const { acc, tokens } = await userSession(t, { phone });
        expect((await post(t, '/api/2fa/sms/send', tokens)).json()).toEqual({ data: { status: 'sent' } });
        expect((await post(t, '/api/2fa/sms/send', tokens)).statusCode).toBe(429);
        const [code] = smsCodes(t, phone);
        expect(code).toMatch(/^\d{6}$/);
        expect((await post(t, '/api/2fa/sms/enable', tokens, { one_time_password: '12' })).json().error).toMatchObject({ code: 'otp_invalid', fields: { one_time_password: ['otp_invalid'] } });
        const ok = await post(t, '/api/2fa/sms/enable', tokens, { one_time_password: code });
        expect(ok.statusCode).toBe(200);
        expect(ok.json().data.recovery_codes).toHaveLength(10);
        expect((await t.db.kysely.selectFrom('accounts').select('two_factor_method').where('id', '=', acc.id).executeTakeFirstOrThrow()).two_factor_method).toBe('SMS');
        // the enabling code is single use and is not a disable code
        expect((await post(t, '/api/2fa/disable', tokens, { one_time_password: code })).statusCode).toBe(422);
        await t.db.kysely.deleteFrom('rate_counters').where('key', 'like', `rate:sms30:%:${acc.id}`).execute();
        expect((await post(t, '/api/2fa/sms/send', tokens)).statusCode).toBe(200);
        const disableCode = smsCodes(t, phone).at(-1);
        const off = await post(t, '/api/2fa/disable', tokens, { one_time_password: disableCode });
        expect(off.statusCode).toBe(200);
      });

      it('SMS resend while signed in sends the code that confirms disabling when SMS 2FA is on', async () => {
        const t = get();
        const phone = `+4178${String(Date.now()).slice(-7)}`;
        const { acc, tokens } = await userSession(t, { phone });
        await post(t, '/api/2fa/sms/send', tokens);
        const [code] = smsCodes(t, phone);
        expect((await post(t, '/api/2fa/sms/enable', tokens, { one_time_password: code })).statusCode).toBe(200);
        await t.db.kysely.deleteFrom('rate_counters').where('key', 'like', `rate:sms%:${acc.id}`).execute();
        expect((await post(t, '/api/2fa/sms/resend', tokens)).json()).toEqual({ data: { status: 'sent' } });
        // a second SMS (not compared with the first code: two random 6-digit codes are equal one time in a million)
        const sms = smsCodes(t, phone);
        expect(sms).toHaveLength(2);
        const resent = sms.at(-1);
        expect((await post(t, '/api/2fa/disable', tokens, { one_time_password: resent })).statusCode).toBe(200);
      });
    });

    describe('API keys', () => {
      it('shown once, stored as a hash, works as a bearer for that user, a new key revokes the old', async () => {
        const t = get();
        const { tokens } = await adminSession(t, 'manager');
        const tech = await createAccount(t, { type: 'user', email: email('tech'), technical: 1, password: null });
        const gen = await post(t, `/api/admin/users/${tech.id}/token-generate`, tokens);
        expect(gen.statusCode).toBe(200);
        const key = gen.json().data.api_key as string;
        const { prefix, secret } = parseApiKey(key);
        const row = await t.db.kysely.selectFrom('accounts').selectAll().where('id', '=', tech.id).executeTakeFirstOrThrow();
        // only the SHA-256 of the whole key and the public prefix are stored (secrets with '_': api-key-secret.test.ts)
        expect(JSON.stringify(row)).not.toContain(secret);
        expect(row.api_key_hash).toBe(createHash('sha256').update(key).digest('hex'));
        expect(row.api_key_prefix).toBe(prefix);
        const me = await getUser(t, `Bearer ${key}`);
        expect(me.statusCode).toBe(200);
        expect(me.body).toContain(tech.email);

        const gen2 = await post(t, `/api/admin/users/${tech.id}/token-generate`, tokens);
        const key2 = gen2.json().data.api_key as string;
        expect(key2).not.toBe(key);
        expect((await getUser(t, `Bearer ${key}`)).statusCode).toBe(401);
        expect((await getUser(t, `Bearer ${key2}`)).statusCode).toBe(200);
        expect((await getUser(t, `Bearer ${key2.slice(0, -1)}${key2.endsWith('A') ? 'B' : 'A'}`)).statusCode).toBe(401);
        expect((await getUser(t, 'Bearer iam_junk')).statusCode).toBe(401);
        // a user that is no longer technical loses API access
        await t.db.kysely.updateTable('accounts').set({ technical: 0 }).where('id', '=', tech.id).execute();
        expect((await getUser(t, `Bearer ${key2}`)).statusCode).toBe(401);
        await t.db.kysely.updateTable('accounts').set({ technical: 1 }).where('id', '=', tech.id).execute();
        // an API key is not an admin session
        expect((await post(t, `/api/admin/users/${tech.id}/token-generate`, { ...tokens, authorization: `Bearer ${key2}` })).statusCode).toBe(403);
      });

      it('only for technical users: 422 not_technical, 404 unknown, 403 for users', async () => {
        const t = get();
        const { tokens } = await adminSession(t);
        const plain = await userSession(t);
        const r1 = await post(t, `/api/admin/users/${plain.acc.id}/token-generate`, tokens);
        expect(r1.statusCode).toBe(422);
        expect(r1.json().error.code).toBe('not_technical');
        const admin = await createAccount(t, { type: 'admin', email: email('a'), technical: 1 });
        expect((await post(t, `/api/admin/users/${admin.id}/token-generate`, tokens)).json().error.code).toBe('not_technical');
        expect((await post(t, '/api/admin/users/unknown-id/token-generate', tokens)).statusCode).toBe(404);
        expect((await post(t, `/api/admin/users/${plain.acc.id}/token-generate`, plain.tokens)).statusCode).toBe(403);
      });
    });

    describe('locks', () => {
      it('admins see an account lock and clear it', async () => {
        const t = get();
        const { tokens } = await adminSession(t, 'manager');
        const user = await createAccount(t, { type: 'user', email: email('locked'), password: PASSWORD });
        for (let i = 0; i < 5; i++) await recordFailure(t.app, [throttleKeys.account(user.id)]);
        const list = await t.app.inject({ method: 'GET', url: `/api/admin/locks?account_id=${user.id}`, headers: { authorization: tokens.authorization } });
        expect(list.statusCode).toBe(200);
        expect(list.json().data).toEqual([expect.objectContaining({ key: `account:${user.id}`, failures: 5 })]);
        const del = await t.app.inject({ method: 'DELETE', url: `/api/admin/locks/${encodeURIComponent(`account:${user.id}`)}`, headers: { authorization: tokens.authorization } });
        expect(del.statusCode).toBe(200);
        const after = await t.app.inject({ method: 'GET', url: `/api/admin/locks?account_id=${user.id}`, headers: { authorization: tokens.authorization } });
        expect(after.json().data).toEqual([]);
        expect((await t.app.inject({ method: 'DELETE', url: `/api/admin/locks/${encodeURIComponent(`account:${user.id}`)}`, headers: { authorization: tokens.authorization } })).statusCode).toBe(404);
        await signIn(t, { email: user.email, password: PASSWORD });
        const u = await userSession(t);
        expect((await t.app.inject({ method: 'GET', url: '/api/admin/locks', headers: { authorization: u.tokens.authorization } })).statusCode).toBe(403);
      });
    });
  },
  { SMTP_URL: smtp.url },
);
