import { afterAll, expect, it } from 'vitest';
import { describeEachDb, type TestApp } from '../../helpers/app';
import { apiLinkOf, startSmtp } from '../../helpers/smtp';
import { createAccount, signIn } from '../../helpers/auth';
import { issueToken } from '../../../server/services/signed-links';
import { sendInvitation } from '../../../server/services/invitations';

/**
 * Issue 10 D: `accounts.email_verified_at` is the truthful "e-mail verified" flag (the OIDC email_verified claim
 * and the admin views read it): set only when someone showed control of the address — an invitation link or a
 * reset link from the mailbox, an upstream SSO provider that vouches (tests/server/oidc/sso.test.ts), an admin's
 * manual verification — and cleared when the address changes.
 */
const smtp = await startSmtp();
afterAll(() => smtp.close());

const PASSWORD = 'Str0ng!Passw0rd#';
const NEW_PASSWORD = 'An0ther!Secret#9';
let n = 0;
const email = (p: string) => `${p}-${++n}-${Date.now()}@example.test`;

const verifiedAt = async (t: TestApp, id: string) => (await t.db.kysely.selectFrom('accounts').select('email_verified_at').where('id', '=', id).executeTakeFirstOrThrow()).email_verified_at;

describeEachDb(
  'email_verified_at is truthful',
  (get) => {
    it('a reset link from the mailbox verifies the address; the expired-password token (no mail) does not', async () => {
      const t = get();
      const acc = await createAccount(t, { type: 'user', email: email('reset'), password: PASSWORD, email_verified_at: null });
      const { token } = await issueToken(t.db.kysely, acc.id, 'expired_password', 600_000);
      const viaToken = await t.app.inject({ method: 'POST', url: '/api/reset-password', payload: { reset_token: token, password: NEW_PASSWORD, password_confirmation: NEW_PASSWORD } });
      expect(viaToken.statusCode).toBe(200);
      expect(await verifiedAt(t, acc.id)).toBeNull();

      expect((await t.app.inject({ method: 'POST', url: '/api/forgot-password', payload: { email: acc.email }, remoteAddress: '10.77.0.1' })).statusCode).toBe(200);
      const api = apiLinkOf(await smtp.waitFor(acc.email), '/reset-password');
      const viaMail = await t.app.inject({ method: 'POST', url: '/api/reset-password', payload: { url: api, password: PASSWORD, password_confirmation: PASSWORD } });
      expect(viaMail.statusCode).toBe(200);
      expect(await verifiedAt(t, acc.id)).toEqual(expect.any(String));
    });

    it('an invitation link verifies the address', async () => {
      const t = get();
      const acc = await createAccount(t, { type: 'user', email: email('invite'), password: null, email_verified_at: null });
      await sendInvitation(t.app, acc);
      const api = apiLinkOf(await smtp.waitFor(acc.email), '/verify/user');
      const res = await t.app.inject({ method: 'POST', url: '/api/user/verify', payload: { url: api, password: PASSWORD, password_confirmation: PASSWORD } });
      expect(res.statusCode).toBe(200);
      expect(await verifiedAt(t, acc.id)).toEqual(expect.any(String));
    });

    it('changing the e-mail address in the profile clears the flag (nobody has shown control of the new one)', async () => {
      const t = get();
      const acc = await createAccount(t, { type: 'user', email: email('change'), password: PASSWORD });
      expect(await verifiedAt(t, acc.id)).toEqual(expect.any(String));
      const tokens = await signIn(t, { email: acc.email, password: PASSWORD });
      const same = await t.app.inject({ method: 'PATCH', url: '/api/user', headers: { authorization: tokens.authorization }, payload: { first_name: 'Renamed' } });
      expect(same.statusCode).toBe(200);
      expect(await verifiedAt(t, acc.id)).toEqual(expect.any(String));
      const changed = await t.app.inject({ method: 'PATCH', url: '/api/user', headers: { authorization: tokens.authorization }, payload: { email: email('new'), current_password: PASSWORD } });
      expect(changed.statusCode).toBe(200);
      expect(changed.json().data.email_verified).toBe(false);
      expect(await verifiedAt(t, acc.id)).toBeNull();
    });
  },
  { SMTP_URL: smtp.url },
);
