import { expect, it } from 'vitest';
import { describeEachDb, type TestApp } from '../../helpers/app';
import { createAccount, signIn, type Tokens } from '../../helpers/auth';
import { recordFailure, throttleKeys } from '../../../server/services/throttle';

/**
 * Issue 28 finding 3: a manager listed and cleared a super_admin's lockout (and IP locks), unaudited, so they could
 * guess a super_admin's password online without limit. Managers see and clear only the locks of users; super_admins
 * all; every clear is an audit entry.
 */
const PASSWORD = 'Str0ng!Passw0rd#';
let n = 0;
const email = (p: string) => `${p}-${++n}-${Date.now()}@example.test`;

async function adminSession(t: TestApp, role: 'super_admin' | 'manager') {
  const acc = await createAccount(t, { type: 'admin', email: email(role), password: PASSWORD, admin_role: role });
  const tokens: Tokens = await signIn(t, { email: acc.email, password: PASSWORD, client: 'admin-console' });
  return { acc, auth: `Bearer ${tokens.accessToken}` };
}

async function lock(t: TestApp, key: string) {
  for (let i = 0; i < 5; i++) await recordFailure(t.app, [key]);
}

const listAs = async (t: TestApp, auth: string, query = '') =>
  (await t.app.inject({ method: 'GET', url: `/api/admin/locks${query}`, headers: { authorization: auth } })).json<{ data: { key: string }[] }>().data.map((l) => l.key);
const clearAs = (t: TestApp, auth: string, key: string) => t.app.inject({ method: 'DELETE', url: `/api/admin/locks/${encodeURIComponent(key)}`, headers: { authorization: auth, 'accept-language': 'de' } });
const auditOf = (t: TestApp, key: string) => t.db.kysely.selectFrom('audit_log').selectAll().where('action', '=', 'lock.cleared').where('target_id', '=', key).execute();

describeEachDb('lock administration', (get) => {
  it("a manager neither sees nor clears a super_admin's locks or an IP lock (403 lock_forbidden, the lock stays, nothing audited)", async () => {
    const t = get();
    const manager = await adminSession(t, 'manager');
    const boss = await createAccount(t, { type: 'admin', email: email('boss'), password: PASSWORD, admin_role: 'super_admin' });
    const ip = '198.51.100.23';
    const forbidden = [throttleKeys.account(boss.id), throttleKeys.email('admin', boss.email), throttleKeys.otp(boss.id), throttleKeys.ip(ip), `account:unknown:admin:${email('ghost')}`];
    for (const key of forbidden) await lock(t, key);
    // an IP lock needs its own count (IAM_IP_MAX_FAILURES, 50 by default)
    for (let i = 0; i < 50; i++) await recordFailure(t.app, [throttleKeys.ip(ip)]);

    const seen = await listAs(t, manager.auth);
    for (const key of forbidden) expect(seen, key).not.toContain(key);
    expect(await listAs(t, manager.auth, `?account_id=${boss.id}`)).toEqual([]);
    expect(await listAs(t, manager.auth, '?prefix=ip%3A')).toEqual([]);

    for (const key of [...forbidden, throttleKeys.account('00000000-0000-4000-8000-000000000000'), 'forgot:user:x@example.test']) {
      const res = await clearAs(t, manager.auth, key);
      expect(res.statusCode, key).toBe(403);
      expect(res.json().error.code, key).toBe('lock_forbidden');
      expect(res.json().error.message).toBe('Manager dürfen nur Sperren der von ihnen verwalteten Benutzer aufheben');
    }
    // every lock is still there, and the super_admin sees them all
    const superAdmin = await adminSession(t, 'super_admin');
    const all = await listAs(t, superAdmin.auth);
    for (const key of forbidden) expect(all, key).toContain(key);
    for (const key of forbidden) expect(await auditOf(t, key), key).toEqual([]);
  });

  it("a manager sees and clears a user's locks; a super_admin clears an admin's and an IP lock; each clear is audited (who, which key, when)", async () => {
    const t = get();
    const manager = await adminSession(t, 'manager');
    const user = await createAccount(t, { type: 'user', email: email('user'), password: PASSWORD });
    const userKeys = [throttleKeys.account(user.id), throttleKeys.email('user', user.email), throttleKeys.otp(user.id)];
    for (const key of userKeys) await lock(t, key);
    const seen = await listAs(t, manager.auth);
    for (const key of userKeys) expect(seen).toContain(key);
    expect(await listAs(t, manager.auth, `?account_id=${user.id}`)).toEqual([throttleKeys.account(user.id), throttleKeys.otp(user.id)].sort());

    const started = new Date().toISOString();
    for (const key of userKeys) expect((await clearAs(t, manager.auth, key)).statusCode, key).toBe(200);
    for (const key of userKeys) {
      const entries = await auditOf(t, key);
      expect(entries, key).toHaveLength(1);
      expect(entries[0]).toMatchObject({ actor_id: manager.acc.id, actor_email: manager.acc.email, target_type: 'lock', target_id: key });
      expect(entries[0]!.created_at >= started).toBe(true);
      expect(JSON.parse(entries[0]!.before ?? '{}')).toMatchObject({ failures: 5 });
    }
    // a second clear finds nothing and records nothing
    expect((await clearAs(t, manager.auth, userKeys[0]!)).statusCode).toBe(404);
    expect(await auditOf(t, userKeys[0]!)).toHaveLength(1);

    const superAdmin = await adminSession(t, 'super_admin');
    const boss = await createAccount(t, { type: 'admin', email: email('boss'), password: PASSWORD, admin_role: 'super_admin' });
    const ipKey = throttleKeys.ip('203.0.113.99');
    await lock(t, throttleKeys.account(boss.id));
    for (let i = 0; i < 50; i++) await recordFailure(t.app, [ipKey]);
    for (const key of [throttleKeys.account(boss.id), ipKey]) {
      expect((await clearAs(t, superAdmin.auth, key)).statusCode, key).toBe(200);
      expect(await auditOf(t, key), key).toEqual([expect.objectContaining({ actor_id: superAdmin.acc.id, target_id: key })]);
    }
    // visible in the admin audit view's API (super_admin), filtered by action
    const audit = await t.app.inject({ method: 'GET', url: '/api/admin/audit?action=lock.cleared', headers: { authorization: superAdmin.auth } });
    expect(audit.statusCode).toBe(200);
    const listed = audit.json<{ data: { target_id: string; actor_email: string }[] }>().data;
    expect(listed.map((e) => e.target_id)).toEqual(expect.arrayContaining([...userKeys, throttleKeys.account(boss.id), ipKey]));
  });
});
