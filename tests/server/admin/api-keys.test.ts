import { afterAll, describe, expect, it } from 'vitest';
import { describeEachDb, type TestApp } from '../../helpers/app';
import { startSmtp } from '../../helpers/smtp';
import { createAccount, parseApiKey, signIn, type Tokens } from '../../helpers/auth';

/**
 * Issue 10 A: a manager must not be able to mint a backdoor into an ordinary account. `technical` is fixed at
 * creation, an API key can never manage the account's security, generation and revocation are audited, listed
 * on the account and mailed to its owner, and a key can be revoked.
 */
const smtp = await startSmtp();
afterAll(() => smtp.close());

const PASSWORD = 'Str0ng!Passw0rd#';
let n = 0;
const email = (p: string) => `${p}-${++n}-${Date.now()}@example.test`;
const auth = (tokens: Tokens | string) => ({ authorization: typeof tokens === 'string' ? tokens : tokens.authorization });

async function adminSession(t: TestApp, role: 'super_admin' | 'manager' = 'manager') {
  const acc = await createAccount(t, { type: 'admin', email: email(role), password: PASSWORD, admin_role: role });
  return signIn(t, { email: acc.email, password: PASSWORD, client: 'admin-console' });
}

async function technicalWithKey(t: TestApp, admin: Tokens) {
  const tech = await createAccount(t, { type: 'user', email: email('tech'), technical: 1, password: PASSWORD });
  const gen = await t.app.inject({ method: 'POST', url: `/api/admin/users/${tech.id}/token-generate`, headers: auth(admin) });
  expect(gen.statusCode).toBe(200);
  return { tech, key: `Bearer ${gen.json().data.api_key as string}` };
}

async function technicalWithKeyFor(t: TestApp, admin: Tokens, id: string) {
  const gen = await t.app.inject({ method: 'POST', url: `/api/admin/users/${id}/token-generate`, headers: auth(admin) });
  expect(gen.statusCode).toBe(200);
  return `Bearer ${gen.json().data.api_key as string}`;
}

describeEachDb(
  'API keys and the technical flag',
  (get) => {
    describe('technical is fixed at creation', () => {
      it('PATCH technical:true on an ordinary user is 422 technical_immutable, so no key can be minted for them', async () => {
        const t = get();
        const admin = await adminSession(t);
        const user = await createAccount(t, { type: 'user', email: email('plain'), password: PASSWORD });
        const flip = await t.app.inject({ method: 'PATCH', url: `/api/admin/users/${user.id}`, headers: { ...auth(admin), locale: 'de' }, payload: { technical: true } });
        expect(flip.statusCode).toBe(422);
        expect(flip.json().error.fields).toEqual({ technical: ['technical_immutable'] });
        expect(flip.json().error.field_messages.technical[0]).toMatch(/technisch/);
        const row = await t.db.kysely.selectFrom('accounts').select(['technical', 'updated_at']).where('id', '=', user.id).executeTakeFirstOrThrow();
        expect(row.technical).toBe(0);
        const gen = await t.app.inject({ method: 'POST', url: `/api/admin/users/${user.id}/token-generate`, headers: auth(admin) });
        expect(gen.statusCode).toBe(422);
        expect(gen.json().error.code).toBe('not_technical');
        // the same value is a no-op, other fields still update
        const same = await t.app.inject({ method: 'PATCH', url: `/api/admin/users/${user.id}`, headers: auth(admin), payload: { technical: false, first_name: 'Renamed' } });
        expect(same.statusCode).toBe(200);
        expect(same.json().data.first_name).toBe('Renamed');
      });

      it('a technical user cannot be turned ordinary (and back) to revive an old key', async () => {
        const t = get();
        const admin = await adminSession(t, 'super_admin');
        const { tech, key } = await technicalWithKey(t, admin);
        const off = await t.app.inject({ method: 'PATCH', url: `/api/admin/users/${tech.id}`, headers: auth(admin), payload: { technical: false } });
        expect(off.statusCode).toBe(422);
        expect(off.json().error.fields).toEqual({ technical: ['technical_immutable'] });
        expect((await t.app.inject({ method: 'GET', url: '/api/user', headers: auth(key) })).statusCode).toBe(200);
      });
    });

    describe('an API key never manages the account', () => {
      it('2FA enrol/disable, SMS, password change, profile, avatar and logout are 403 api_key_not_allowed; GET /api/user works', async () => {
        const t = get();
        const admin = await adminSession(t);
        const { tech, key } = await technicalWithKey(t, admin);
        const me = await t.app.inject({ method: 'GET', url: '/api/user', headers: auth(key) });
        expect(me.statusCode).toBe(200);
        expect(me.json().data.auth_user.email).toBe(tech.email);
        const refused: Array<[string, string, Record<string, unknown>?]> = [
          ['POST', '/api/2fa/google/secret'],
          ['POST', '/api/2fa/google/enable', { one_time_password: '123456' }],
          ['POST', '/api/2fa/sms/send'],
          ['POST', '/api/2fa/sms/enable', { one_time_password: '123456' }],
          ['POST', '/api/2fa/sms/resend', {}],
          ['POST', '/api/2fa/disable', { password: PASSWORD }],
          ['POST', '/api/user/change-password', { current_password: PASSWORD, password: 'An0ther!Secret#9', password_confirmation: 'An0ther!Secret#9' }],
          ['PATCH', '/api/user', { first_name: 'Mallory' }],
          ['POST', '/api/user/avatar'],
          ['DELETE', '/api/user/avatar'],
          ['POST', '/api/logout'],
        ];
        for (const [method, url, payload] of refused) {
          const res = await t.app.inject({ method: method as 'POST', url, headers: { ...auth(key), locale: 'fr' }, ...(payload ? { payload } : {}) });
          expect({ url, status: res.statusCode, code: res.json().error?.code }).toEqual({ url, status: 403, code: 'api_key_not_allowed' });
          expect(res.json().error.message).toMatch(/clé API/);
        }
        const row = await t.db.kysely.selectFrom('accounts').selectAll().where('id', '=', tech.id).executeTakeFirstOrThrow();
        expect(row.two_factor_secret).toBeNull();
        expect(row.first_name).not.toBe('Mallory');
        // the account's own session still manages it
        const session = await signIn(t, { email: tech.email, password: PASSWORD });
        expect((await t.app.inject({ method: 'POST', url: '/api/2fa/google/secret', headers: auth(session) })).statusCode).toBe(200);
      });
    });

    describe('generation and revocation', () => {
      it('DELETE /api/admin/users/{id}/token revokes the key at once; both steps are audited, listed on the account and mailed to its owner', async () => {
        const t = get();
        const admin = await adminSession(t);
        const { tech, key } = await technicalWithKey(t, admin);
        const generatedMail = await smtp.waitFor(tech.email, { subject: /API key/ });
        const { prefix } = parseApiKey(key.slice('Bearer '.length));
        expect(generatedMail.text).toContain(`iam_${prefix}_`);
        expect(generatedMail.text).not.toContain(key.slice('Bearer '.length));

        const detail = await t.app.inject({ method: 'GET', url: `/api/admin/users/${tech.id}?with=api_key_events`, headers: auth(admin) });
        expect(detail.json().data.api_key).toEqual({ prefix, created_at: expect.any(String) });
        expect(detail.json().data.api_key_events).toEqual([expect.objectContaining({ event: 'generated', key_prefix: prefix, actor_email: expect.stringContaining('manager') })]);

        const del = await t.app.inject({ method: 'DELETE', url: `/api/admin/users/${tech.id}/token`, headers: auth(admin) });
        expect(del.statusCode).toBe(200);
        expect(del.json().data).toEqual({ id: tech.id, revoked: true });
        expect(del.headers['cache-control']).toBe('no-store');
        expect((await t.app.inject({ method: 'GET', url: '/api/user', headers: auth(key) })).statusCode).toBe(401);
        const row = await t.db.kysely.selectFrom('accounts').select(['api_key_hash', 'api_key_prefix']).where('id', '=', tech.id).executeTakeFirstOrThrow();
        expect(row).toEqual({ api_key_hash: null, api_key_prefix: null });
        const revokedMail = await smtp.waitFor(tech.email, { subject: /revoked/ });
        expect(revokedMail.text).toContain(`iam_${prefix}_`);

        const audit = await t.db.kysely.selectFrom('audit_log').selectAll().where('target_id', '=', tech.id).orderBy('created_at').execute();
        expect(audit.map((a) => a.action)).toEqual(['user.api_key_generated', 'user.api_key_revoked']);
        expect(JSON.parse(audit[1]?.before ?? '{}')).toEqual({ key_prefix: prefix });
        const after = await t.app.inject({ method: 'GET', url: `/api/admin/users/${tech.id}?with=api_key_events`, headers: auth(admin) });
        expect(after.json().data.api_key).toBeNull();
        expect(after.json().data.has_api_key).toBe(false);
        expect(after.json().data.api_key_events.map((e: { event: string }) => e.event)).toEqual(['revoked', 'generated']);

        // nothing left to revoke: no second audit entry, no mail
        const again = await t.app.inject({ method: 'DELETE', url: `/api/admin/users/${tech.id}/token`, headers: auth(admin) });
        expect(again.json().data).toEqual({ id: tech.id, revoked: false });
        expect(await t.db.kysely.selectFrom('audit_log').select('id').where('target_id', '=', tech.id).execute()).toHaveLength(2);
      });

      it('deactivation revokes the key for good (issue 28.5b): it stays refused after reactivation, audited, and a new key works', async () => {
        const t = get();
        const admin = await adminSession(t);
        const { tech, key } = await technicalWithKey(t, admin);
        const prefix = parseApiKey(key.slice('Bearer '.length)).prefix;
        expect((await t.app.inject({ method: 'GET', url: '/api/user', headers: { authorization: key } })).statusCode).toBe(200);
        for (const action of ['deactivate', 'activate'] as const) {
          const res = await t.app.inject({ method: 'PATCH', url: `/api/admin/users/${tech.id}`, headers: auth(admin), payload: { status: action === 'deactivate' ? 'INACTIVE' : 'ACTIVE' } });
          expect(res.statusCode, action).toBe(200);
          expect(res.json().data.status, action).toBe(action === 'deactivate' ? 'INACTIVE' : 'ACTIVE');
        }
        // active again, but the old key is gone, not merely paused
        expect((await t.app.inject({ method: 'GET', url: '/api/user', headers: { authorization: key } })).statusCode).toBe(401);
        const row = await t.db.kysely.selectFrom('accounts').select(['api_key_hash', 'api_key_prefix']).where('id', '=', tech.id).executeTakeFirstOrThrow();
        expect(row).toEqual({ api_key_hash: null, api_key_prefix: null });
        const audit = await t.db.kysely.selectFrom('audit_log').select(['action', 'before', 'after']).where('target_id', '=', tech.id).where('action', '=', 'user.api_key_revoked').execute();
        expect(audit.map((a) => [JSON.parse(a.before ?? '{}'), JSON.parse(a.after ?? '{}')])).toEqual([[{ key_prefix: prefix }, { reason: 'deactivated' }]]);
        const fresh = await technicalWithKeyFor(t, admin, tech.id);
        expect((await t.app.inject({ method: 'GET', url: '/api/user', headers: { authorization: fresh } })).statusCode).toBe(200);
      });

      it('revocation: 404 for unknown ids and admins, 401 anonymous, 403 for users and API keys', async () => {
        const t = get();
        const admin = await adminSession(t);
        const { tech, key } = await technicalWithKey(t, admin);
        const otherAdmin = await createAccount(t, { type: 'admin', email: email('adm') });
        expect((await t.app.inject({ method: 'DELETE', url: '/api/admin/users/unknown/token', headers: auth(admin) })).statusCode).toBe(404);
        expect((await t.app.inject({ method: 'DELETE', url: `/api/admin/users/${otherAdmin.id}/token`, headers: auth(admin) })).statusCode).toBe(404);
        expect((await t.app.inject({ method: 'DELETE', url: `/api/admin/users/${tech.id}/token` })).statusCode).toBe(401);
        expect((await t.app.inject({ method: 'DELETE', url: `/api/admin/users/${tech.id}/token`, headers: auth(key) })).statusCode).toBe(403);
        const user = await createAccount(t, { type: 'user', email: email('u'), password: PASSWORD });
        const session = await signIn(t, { email: user.email, password: PASSWORD });
        expect((await t.app.inject({ method: 'DELETE', url: `/api/admin/users/${tech.id}/token`, headers: auth(session) })).statusCode).toBe(403);
        expect((await t.app.inject({ method: 'GET', url: '/api/user', headers: auth(key) })).statusCode).toBe(200);
      });

      it('the OpenAPI document describes the revocation route', async () => {
        const t = get();
        const doc = (await t.app.inject({ method: 'GET', url: '/api/openapi.json' })).json();
        const op = doc.paths['/api/admin/users/{id}/token']?.delete;
        expect(op).toBeDefined();
        expect(Object.keys(op.responses)).toEqual(expect.arrayContaining(['200', '401', '403', '404']));
      });
    });
  },
  { SMTP_URL: smtp.url },
);
