import { beforeAll, expect, it } from 'vitest';
import { describeEachDb } from '../../helpers/app';
import { actor, actors, type Actors } from './fixtures';
import { getClientSecret } from '../../../server/services/admin/service-apps';

describeEachDb('admin catalog: roles, subscriptions, service apps, admins, logs, audit', (get) => {
  let who: Actors;
  const h = () => who.superAdmin.headers;
  const inject = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: object, headers: Record<string, string> = h()) =>
    get().app.inject({ method, url, headers, ...(payload ? { payload } : {}) });
  beforeAll(async () => {
    who = await actors(get());
  });

  it('roles: format, unique names, update, delete, role_in_use with where it is used', async () => {
    const bad = await inject('POST', '/api/admin/roles', { name: 'lower_case' });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().error.fields.name).toEqual(['invalid']);
    expect((await inject('POST', '/api/admin/roles', { name: 'SINGLE' })).statusCode).toBe(422);
    const r = await inject('POST', '/api/admin/roles', { name: 'APP_USER_X', description: 'Users' });
    expect(r.statusCode).toBe(201);
    const role = r.json().data;
    const dup = await inject('POST', '/api/admin/roles', { name: 'APP_USER_X' });
    expect(dup.statusCode).toBe(409);
    expect(dup.json().error).toMatchObject({ code: 'name_taken', fields: { name: ['name_taken'] } });
    const upd = await inject('PATCH', `/api/admin/roles/${role.id}`, { description: 'All users' });
    expect(upd.json().data).toMatchObject({ name: 'APP_USER_X', description: 'All users' });
    const other = (await inject('POST', '/api/admin/roles', { name: 'OTHER_ROLE' })).json().data;
    expect((await inject('PATCH', `/api/admin/roles/${other.id}`, { name: 'APP_USER_X' })).statusCode).toBe(409);
    const list = await inject('GET', '/api/admin/roles');
    expect(list.json().data.map((x: { name: string }) => x.name)).toEqual(['APP_USER_X', 'OTHER_ROLE']);

    const sub = (await inject('POST', '/api/admin/subscriptions', { name: 'BASIC_PLAN', role_ids: [role.id] })).json().data;
    const app = (await inject('POST', '/api/admin/service-apps', { name: 'wiki', display_name: 'Wiki', url: 'https://wiki.example', path: '/cb', role_ids: [role.id] })).json().data;
    const inUse = await inject('DELETE', `/api/admin/roles/${role.id}`);
    expect(inUse.statusCode).toBe(409);
    expect(inUse.json().error.code).toBe('role_in_use');
    expect(inUse.json().error.message).toContain('BASIC_PLAN');
    expect(inUse.json().error.message).toContain('wiki');
    const usage = await inject('GET', `/api/admin/roles/${role.id}`);
    expect(usage.json().data.usage).toMatchObject({ subscriptions: [{ id: sub.id, name: 'BASIC_PLAN' }], service_apps: [{ id: app.id, name: 'wiki' }], users: 0 });
    expect((await inject('DELETE', `/api/admin/roles/${other.id}`)).statusCode).toBe(200);
    expect((await inject('DELETE', `/api/admin/roles/${other.id}`)).statusCode).toBe(404);
  });

  it('subscriptions: format, roles + counts, removing a role removes it from users, delete reports cascades', async () => {
    const r1 = (await inject('POST', '/api/admin/roles', { name: 'SUB_ROLE_A' })).json().data;
    const r2 = (await inject('POST', '/api/admin/roles', { name: 'SUB_ROLE_B' })).json().data;
    expect((await inject('POST', '/api/admin/subscriptions', { name: 'A_B_C_D', role_ids: [] })).statusCode).toBe(422);
    const unknown = await inject('POST', '/api/admin/subscriptions', { name: 'PRO_PLAN', role_ids: ['nope'] });
    expect(unknown.json().error.fields['role_ids.0']).toEqual(['role_unknown']);
    const created = await inject('POST', '/api/admin/subscriptions', { name: 'PRO_PLAN', description: 'Pro', role_ids: [r1.id, r2.id] });
    expect(created.statusCode).toBe(201);
    const sub = created.json().data;
    expect(sub).toMatchObject({ role_count: 2, user_count: 0 });
    expect((await inject('POST', '/api/admin/subscriptions', { name: 'PRO_PLAN' })).statusCode).toBe(409);
    const user = (await inject('POST', '/api/admin/users', { email: 'sub@example.com', first_name: 'S', last_name: 'U', locale: 'en', auth_type: 'CREDENTIALS' })).json().data;
    await inject('PATCH', `/api/admin/users/${user.id}`, { subscriptions: [{ subscription_id: sub.id, role_ids: [r1.id, r2.id] }] });
    expect((await inject('GET', `/api/admin/subscriptions/${sub.id}`)).json().data.user_count).toBe(1);
    const upd = await inject('PATCH', `/api/admin/subscriptions/${sub.id}`, { role_ids: [r1.id] });
    expect(upd.json().data).toMatchObject({ role_count: 1, removed_assignments: 1 });
    const detail = await inject('GET', `/api/admin/users/${user.id}?with=role_subscriptions`);
    expect(detail.json().data.role_subscriptions[0].roles.map((x: { name: string }) => x.name)).toEqual(['SUB_ROLE_A']);
    const del = await inject('DELETE', `/api/admin/subscriptions/${sub.id}`);
    expect(del.json().data).toEqual({ id: sub.id, deleted: true, removed_assignments: 1 });
    expect((await inject('GET', `/api/admin/users/${user.id}?with=role_subscriptions`)).json().data.role_subscriptions).toEqual([]);
  });

  it('service apps: client_id rules, url/path, confidential secret returned once and stored encrypted', async () => {
    const cases: [object, string][] = [
      [{ name: 'portal', display_name: 'P', url: 'https://p.example', path: '/' }, 'name'],
      [{ name: 'Bad_Name', display_name: 'P', url: 'https://p.example', path: '/' }, 'name'],
      [{ name: 'ok-app', display_name: 'P', url: 'javascript:alert(1)', path: '/' }, 'url'],
      [{ name: 'ok-app', display_name: 'P', url: 'ftp://p.example', path: '/' }, 'url'],
      [{ name: 'ok-app', display_name: 'P', url: 'https://p.example', path: 'cb' }, 'path'],
    ];
    for (const [body, field] of cases) {
      const res = await inject('POST', '/api/admin/service-apps', body);
      expect(res.statusCode).toBe(422);
      expect(Object.keys(res.json().error.fields)).toContain(field);
    }
    const res = await inject('POST', '/api/admin/service-apps', { name: 'crm-app', display_name: 'CRM', url: 'https://crm.example', path: '/callback', client_type: 'confidential' });
    expect(res.statusCode).toBe(201);
    const created = res.json().data;
    expect(created.client_secret).toMatch(/^[\w-]{40,}$/);
    const row = await get().db.kysely.selectFrom('service_apps').selectAll().where('id', '=', created.id).executeTakeFirstOrThrow();
    expect(row.client_secret).not.toContain(created.client_secret);
    expect(await getClientSecret(get().app, row)).toBe(created.client_secret);
    const shown = await inject('GET', `/api/admin/service-apps/${created.id}`);
    expect(JSON.stringify(shown.json())).not.toContain(created.client_secret);
    expect((await inject('POST', '/api/admin/service-apps', { name: 'crm-app', display_name: 'CRM', url: 'https://crm.example', path: '/callback' })).statusCode).toBe(409);
    const rotated = await inject('PATCH', `/api/admin/service-apps/${created.id}`, { regenerate_secret: true, display_name: 'CRM 2' });
    expect(rotated.json().data.client_secret).not.toBe(created.client_secret);
    const pub = await inject('PATCH', `/api/admin/service-apps/${created.id}`, { client_type: 'public' });
    expect(pub.json().data).toMatchObject({ client_type: 'public', client_secret: null });
    const audit = await inject('GET', `/api/admin/audit?target_type=service_app`);
    expect(JSON.stringify(audit.json())).not.toMatch(/client_secret|enc:v1/);
    expect((await inject('DELETE', `/api/admin/service-apps/${created.id}`)).statusCode).toBe(200);
    expect((await inject('GET', '/api/admin/service-apps')).json().data.map((a: { id: string }) => a.id)).not.toContain(created.id);
  });

  it("admins: create invites, role change, self-delete refused ('You cannot delete your own admin account'), last super_admin kept", async () => {
    const res = await inject('POST', '/api/admin/admins', { email: 'new.admin@example.com', first_name: 'New', last_name: 'Admin', role: 'manager' });
    expect(res.statusCode).toBe(201);
    expect(res.json().data).toMatchObject({ type: 'admin', role: 'manager', invitation_sent: true });
    expect((await inject('POST', '/api/admin/admins', { email: 'NEW.admin@example.com', first_name: 'N', last_name: 'A', role: 'manager' })).statusCode).toBe(409);
    expect((await inject('POST', '/api/admin/admins', { email: 'x@example.com', first_name: 'N', last_name: 'A', role: 'root' })).statusCode).toBe(422);
    const list = await inject('GET', '/api/admin/admins?search=new.admin');
    expect(list.json().meta.total).toBe(1);
    const self = await get().app.inject({ method: 'DELETE', url: `/api/admin/admins/${who.superAdmin.account.id}`, headers: h() });
    expect(self.statusCode).toBe(403);
    expect(self.json().error).toMatchObject({ code: 'cannot_delete_self', message: 'You cannot delete your own admin account' });
    const selfDe = await get().app.inject({ method: 'DELETE', url: `/api/admin/admins/${who.superAdmin.account.id}`, headers: { ...h(), locale: 'de' } });
    expect(selfDe.json().error.message).toBe('Sie können Ihr eigenes Administratorkonto nicht löschen');
    // the only super_admin cannot be demoted
    const demote = await inject('PATCH', `/api/admin/admins/${who.superAdmin.account.id}`, { role: 'manager' });
    expect(demote.statusCode).toBe(409);
    expect(demote.json().error.code).toBe('last_super_admin');
    const second = await actor(get(), 'super_admin');
    const demoteOther = await inject('PATCH', `/api/admin/admins/${second.account.id}`, { role: 'manager' }, second.headers);
    expect(demoteOther.statusCode).toBe(200);
    expect(demoteOther.json().data.role).toBe('manager');
    // second is now a manager: admin management is closed to it
    expect((await inject('GET', '/api/admin/admins', undefined, second.headers)).statusCode).toBe(403);
    expect((await inject('DELETE', `/api/admin/admins/${second.account.id}`)).statusCode).toBe(200);
    expect((await inject('GET', `/api/admin/admins/${second.account.id}`)).statusCode).toBe(404);
    // a user id is not an admin
    expect((await inject('DELETE', `/api/admin/admins/${who.user.account.id}`)).statusCode).toBe(404);
  });

  it('logs: activities with e-mail, daily counts, errors; audit filters', async () => {
    const db = get().db.kysely;
    const now = new Date().toISOString();
    await db.insertInto('auth_activities').values({ id: 'log-1', account_id: who.user.account.id, client_id: 'portal', session_ref: null, logged_in_at: now, logged_out_at: null, ip_address: '10.1.1.1', origin: 'http://localhost:3000', user_agent: null }).execute();
    await db.insertInto('error_logs').values({ id: 'err-1', error_code: 'internal_error', status: 500, method: 'GET', url: '/api/x', message: 'Boom', user_email: 'who@example.com', created_at: now }).execute();
    const acts = await inject('GET', `/api/admin/logs/activities?user=${encodeURIComponent(who.user.account.email)}`, undefined, who.manager.headers);
    expect(acts.statusCode).toBe(200);
    expect(acts.json().data.find((a: { id: string }) => a.id === 'log-1')).toMatchObject({ email: who.user.account.email, ip_address: '10.1.1.1' });
    expect((await inject('GET', '/api/admin/logs/activities?from=2000-01-01&to=2000-01-02')).json().meta.total).toBe(0);
    expect((await inject('GET', '/api/admin/logs/activities?from=yesterday')).statusCode).toBe(422);
    const daily = await inject('GET', '/api/admin/logs/activities/daily?days=7', undefined, who.manager.headers);
    const after = new Date().toISOString();
    const days = daily.json().data as { day: string; count: number }[];
    expect(days).toHaveLength(7);
    // the last entry is the server's today: the day of `now`, or the next one when UTC midnight passed in between
    expect([now.slice(0, 10), after.slice(0, 10)]).toContain(days[6]?.day);
    expect(days.find((d) => d.day === now.slice(0, 10))?.count).toBeGreaterThanOrEqual(1);
    const errs = await inject('GET', '/api/admin/logs/errors?code=internal_error&user=who@example.com', undefined, who.manager.headers);
    expect(errs.json().data).toEqual([{ id: 'err-1', error_code: 'internal_error', status: 500, method: 'GET', url: '/api/x', message: 'Boom', user_email: 'who@example.com', created_at: now }]);
    const audit = await inject('GET', `/api/admin/audit?actor=${encodeURIComponent(who.superAdmin.account.email)}&size=100`);
    expect(audit.json().meta.total).toBeGreaterThan(5);
    const actions = new Set(audit.json().data.map((a: { action: string }) => a.action));
    for (const a of ['role.create', 'subscription.update', 'service_app.create', 'admin.create', 'admin.delete', 'user.update']) expect(actions).toContain(a);
  });
}, { IAM_RATE_LIMIT_PER_MINUTE: '100000' });
