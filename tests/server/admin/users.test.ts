import { beforeAll, expect, it } from 'vitest';
import { readdirSync, existsSync } from 'node:fs';
import path from 'node:path';
import { describeEachDb } from '../../helpers/app';
import { actor, actors, type Actors } from './fixtures';

describeEachDb('admin users API', (get) => {
  let who: Actors;
  const h = () => who.superAdmin.headers;
  const inject = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: object, headers = h()) =>
    get().app.inject({ method, url, headers, ...(payload ? { payload } : {}) });

  beforeAll(async () => {
    who = await actors(get());
  });

  it('creates a CREDENTIALS user, invites by mail, and answers 409 email_taken for a duplicate', async () => {
    const res = await inject('POST', '/api/admin/users', { email: 'Alice.Keller@Example.com', first_name: 'Alice', last_name: 'Keller', locale: 'de', auth_type: 'CREDENTIALS', phone: '+41791234567' });
    expect(res.statusCode).toBe(201);
    const u = res.json().data;
    expect(u).toMatchObject({ email: 'Alice.Keller@Example.com', locale: 'de', status: 'ACTIVE', auth_type: 'CREDENTIALS', technical: false, invitation_sent: true, created_by: who.superAdmin.account.id });
    const outbox = path.join(get().dataDir, 'outbox');
    expect(existsSync(outbox) && readdirSync(outbox).length).toBeGreaterThan(0);
    const dup = await inject('POST', '/api/admin/users', { email: 'alice.keller@example.com', first_name: 'A', last_name: 'K', locale: 'en', auth_type: 'CREDENTIALS' });
    expect(dup.statusCode).toBe(409);
    expect(dup.json().error).toMatchObject({ code: 'email_taken', fields: { email: ['email_taken'] } });
  });

  it('refuses SSO users without a configured provider (422) and bad input with field codes', async () => {
    const noProvider = await inject('POST', '/api/admin/users', { email: 'sso@example.com', first_name: 'S', last_name: 'O', locale: 'en', auth_type: 'SSO' });
    expect(noProvider.statusCode).toBe(422);
    expect(noProvider.json().error.fields.provider).toEqual(['provider_required']);
    const unknown = await inject('POST', '/api/admin/users', { email: 'sso@example.com', first_name: 'S', last_name: 'O', locale: 'en', auth_type: 'SSO', provider: 'nope' });
    expect(unknown.json().error.fields.provider).toEqual(['provider_unknown']);
    const bad = await get().app.inject({ method: 'POST', url: '/api/admin/users', headers: { ...h(), locale: 'it' }, payload: { email: 'x', first_name: '', locale: 'xx', auth_type: 'CREDENTIALS', phone: '0791' } });
    expect(bad.statusCode).toBe(422);
    const e = bad.json().error;
    expect(e.code).toBe('validation_failed');
    expect(Object.keys(e.fields).sort()).toEqual(['email', 'first_name', 'last_name', 'locale', 'phone']);
    expect(e.message).toBe('Alcuni campi non sono validi');
  });

  it('lists with paging meta, search (case-insensitive substring of e-mail/names), filters and stable order', async () => {
    for (let i = 0; i < 12; i++) {
      const r = await inject('POST', '/api/admin/users', { email: `list${i}@corp.example.org`, first_name: i % 2 ? 'Zoë' : 'Marco', last_name: `Rossi${i}`, locale: i % 3 ? 'fr' : 'it', auth_type: 'CREDENTIALS', technical: i === 5 });
      expect(r.statusCode).toBe(201);
    }
    const page1 = await inject('GET', '/api/admin/users');
    expect(page1.statusCode).toBe(200);
    expect(page1.json().meta).toMatchObject({ page: 1, size: 10 });
    const total = page1.json().meta.total;
    expect(page1.json().data).toHaveLength(10);
    const all = await inject('GET', `/api/admin/users?size=100`);
    const ids = all.json().data.map((u: { id: string }) => u.id);
    expect(ids).toHaveLength(total);
    const page2 = await inject('GET', '/api/admin/users?page=2&size=5');
    expect(page2.json().data.map((u: { id: string }) => u.id)).toEqual(ids.slice(5, 10));
    const last = await inject('GET', `/api/admin/users?page=${Math.ceil(total / 3)}&size=3`);
    expect(last.json().data.map((u: { id: string }) => u.id)).toEqual(ids.slice((Math.ceil(total / 3) - 1) * 3));
    const created = all.json().data.map((u: { created_at: string }) => u.created_at);
    expect([...created].sort().reverse()).toEqual(created);

    const search = await inject('GET', '/api/admin/users?search=ROSSI1');
    expect(search.json().meta.total).toBe(3); // Rossi1, Rossi10, Rossi11
    const byMail = await inject('GET', '/api/admin/users?search=corp.example');
    expect(byMail.json().meta.total).toBe(12);
    const short = await inject('GET', '/api/admin/users?search=zo');
    expect(short.json().meta.total).toBe(6);
    const filtered = await inject('GET', '/api/admin/users?search=rossi&locale=it&technical=false');
    expect(filtered.json().data.every((u: { locale: string; technical: boolean }) => u.locale === 'it' && !u.technical)).toBe(true);
    expect((await inject('GET', '/api/admin/users?technical=true')).json().meta.total).toBe(1);
    const none = await get().app.inject({ method: 'GET', url: '/api/admin/users?search=nobody-here', headers: { ...h(), locale: 'it' } });
    expect(none.json()).toMatchObject({ data: [], meta: { total: 0, message: 'Nessun risultato per la ricerca' } });
    const badSize = await inject('GET', '/api/admin/users?size=101');
    expect(badSize.statusCode).toBe(422);
    const badStatus = await inject('GET', '/api/admin/users?status=GONE');
    expect(badStatus.statusCode).toBe(422);
  });

  it('assigns roles per subscription atomically, refuses foreign roles, filters by role, and shows relations', async () => {
    const roleA = (await inject('POST', '/api/admin/roles', { name: 'CRM_READ' })).json().data;
    const roleB = (await inject('POST', '/api/admin/roles', { name: 'HR_EDIT' })).json().data;
    const sub = (await inject('POST', '/api/admin/subscriptions', { name: 'CRM_PLAN', role_ids: [roleA.id] })).json().data;
    const user = (await inject('POST', '/api/admin/users', { email: 'roles@example.com', first_name: 'Role', last_name: 'Holder', locale: 'en', auth_type: 'CREDENTIALS' })).json().data;

    const foreign = await inject('PATCH', `/api/admin/users/${user.id}`, { subscriptions: [{ subscription_id: sub.id, role_ids: [roleA.id, roleB.id] }] });
    expect(foreign.statusCode).toBe(422);
    expect(foreign.json().error.fields['subscriptions.0.role_ids.1']).toEqual(['role_not_in_subscription']);
    const unknownSub = await inject('PATCH', `/api/admin/users/${user.id}`, { subscriptions: [{ subscription_id: 'nope', role_ids: [] }] });
    expect(unknownSub.json().error.fields['subscriptions.0.subscription_id']).toEqual(['subscription_unknown']);

    const ok = await inject('PATCH', `/api/admin/users/${user.id}`, { first_name: 'Rolf', subscriptions: [{ subscription_id: sub.id, role_ids: [roleA.id] }] });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().data.role_subscriptions).toEqual([{ subscription: { id: sub.id, name: 'CRM_PLAN' }, roles: [{ id: roleA.id, name: 'CRM_READ' }] }]);
    const byRole = await inject('GET', `/api/admin/users?role=${roleA.id}`);
    expect(byRole.json().data.map((u: { id: string }) => u.id)).toEqual([user.id]);
    expect((await inject('GET', `/api/admin/users?role=${roleA.id}&search=rolf`)).json().meta.total).toBe(1);

    await get().db.kysely.insertInto('auth_activities').values([
      { id: 'a1', account_id: user.id, client_id: 'portal', session_ref: null, logged_in_at: '2026-01-01T10:00:00.000Z', logged_out_at: '2026-01-01T11:00:00.000Z', ip_address: '10.0.0.1', origin: 'http://localhost:3000', user_agent: null },
      { id: 'a2', account_id: user.id, client_id: 'portal', session_ref: null, logged_in_at: '2026-02-01T10:00:00.000Z', logged_out_at: null, ip_address: '10.0.0.2', origin: 'http://localhost:3000', user_agent: null },
    ]).execute();
    const detail = await inject('GET', `/api/admin/users/${user.id}?with=role_subscriptions,role,subscription,user_authentication_activities,created_by_admin`);
    expect(detail.statusCode).toBe(200);
    const d = detail.json().data;
    expect(d).toMatchObject({ id: user.id, first_name: 'Rolf', auth_type: 'CREDENTIALS', provider: null, status: 'ACTIVE', two_factor: { enabled: false } });
    expect(d.user_authentication_activities.map((a: { id: string }) => a.id)).toEqual(['a2', 'a1']);
    expect(d.latest_activity).toEqual({ logged_in_at: '2026-02-01T10:00:00.000Z', logged_out_at: null, ip_address: '10.0.0.2', origin: 'http://localhost:3000' });
    expect(d.created_by_admin).toMatchObject({ id: who.superAdmin.account.id, email: who.superAdmin.account.email });
    expect((await inject('GET', `/api/admin/users/${user.id}?with=password_hash`)).statusCode).toBe(422);
    expect((await inject('GET', '/api/admin/users/not-a-user')).statusCode).toBe(404);
    // an admin id is not a user
    expect((await inject('GET', `/api/admin/users/${who.manager.account.id}`)).statusCode).toBe(404);

    const audit = await inject('GET', `/api/admin/audit?target_id=${user.id}&action=user.update`);
    const entry = audit.json().data[0];
    expect(entry.actor_id).toBe(who.superAdmin.account.id);
    expect(entry.after.role_subscriptions[0].roles[0].name).toBe('CRM_READ');
    expect(JSON.stringify(audit.json())).not.toMatch(/password_hash|api_key_hash/);
  });

  it('deactivating ends the sessions; the manager may manage users', async () => {
    const victim = await actor(get(), 'user');
    expect((await get().app.inject({ method: 'GET', url: '/api/user', headers: victim.headers })).statusCode).toBe(200);
    const res = await inject('PATCH', `/api/admin/users/${victim.account.id}`, { status: 'INACTIVE' }, who.manager.headers);
    expect(res.statusCode).toBe(200);
    expect(res.json().data.status).toBe('INACTIVE');
    expect((await get().app.inject({ method: 'GET', url: '/api/user', headers: victim.headers })).statusCode).toBe(401);
    expect((await inject('GET', `/api/admin/users?status=INACTIVE`)).json().data.map((u: { id: string }) => u.id)).toContain(victim.account.id);
  });

  it('re-sends invitations only to unverified accounts, deletes users', async () => {
    const fresh = (await inject('POST', '/api/admin/users', { email: 'again@example.com', first_name: 'A', last_name: 'G', locale: 'fr', auth_type: 'CREDENTIALS' })).json().data;
    const again = await inject('POST', `/api/admin/users/${fresh.id}/invite`);
    expect(again.statusCode).toBe(200);
    expect(again.json().data.invitation_sent).toBe(true);
    const verified = await actor(get(), 'user');
    const refused = await get().app.inject({ method: 'POST', url: `/api/admin/users/${verified.account.id}/invite`, headers: { ...h(), locale: 'de' } });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error).toMatchObject({ code: 'already_verified', message: 'Das Konto ist bereits bestätigt' });
    expect((await inject('POST', '/api/admin/users/missing/invite')).statusCode).toBe(404);

    const del = await inject('DELETE', `/api/admin/users/${verified.account.id}`);
    expect(del.statusCode).toBe(200);
    expect((await get().app.inject({ method: 'GET', url: '/api/user', headers: verified.headers })).statusCode).toBe(401);
    expect((await inject('DELETE', `/api/admin/users/${verified.account.id}`)).statusCode).toBe(404);
    const count = (await inject('GET', '/api/admin/users')).json().meta.total;
    const counted = await get().db.kysely.selectFrom('accounts').select((eb) => eb.fn.countAll<number>().as('n')).where('type', '=', 'user').executeTakeFirstOrThrow();
    expect(count).toBe(Number(counted.n));
  });
}, { IAM_RATE_LIMIT_PER_MINUTE: '100000' });
