import { beforeAll, expect, it } from 'vitest';
import { describeEachDb } from '../../helpers/app';
import { createAccount } from '../../helpers/auth';
import { actors, type Actors } from './fixtures';

interface Row {
  id: string;
  email: string;
  first_name: string;
  last_name: string;
  created_at: string;
  state: string;
}

describeEachDb('admin users: server-side sorting', (get) => {
  let who: Actors;
  const list = async (query: string): Promise<{ rows: Row[]; total: number }> => {
    const res = await get().app.inject({ method: 'GET', url: `/api/admin/users?search=sort.test${query}`, headers: who.superAdmin.headers });
    expect(res.statusCode).toBe(200);
    return { rows: res.json().data as Row[], total: res.json().meta.total as number };
  };

  beforeAll(async () => {
    who = await actors(get());
    // 23 users; some share a last name and a creation time so the id tie-breaker matters
    const lastNames = ['Meier', 'Abt', 'Zulauf', 'Keller', 'Meier', 'Brun', 'Abt'];
    for (let i = 0; i < 23; i++) {
      const a = await createAccount(get(), {
        type: 'user',
        email: `u${String((i * 7) % 23).padStart(2, '0')}@sort.test`,
        first_name: `F${String((i * 5) % 23).padStart(2, '0')}`,
        last_name: lastNames[i % lastNames.length] ?? 'X',
      });
      await get().db.kysely.updateTable('accounts').set({ created_at: new Date(Date.UTC(2026, 0, 1 + (i % 9))).toISOString() }).where('id', '=', a.id).execute();
    }
  });

  const key: Record<string, (r: Row) => string> = {
    email: (r) => r.email.toLowerCase(),
    name: (r) => `${r.last_name}\u0000${r.first_name}`,
    created_at: (r) => r.created_at,
  };

  for (const sort of ['email', '-email', 'name', '-name', 'created_at', '-created_at']) {
    it(`sorts by ${sort} and pages without repeating or skipping a row`, async () => {
      const all = await list(`&size=100&sort=${sort}`);
      expect(all.total).toBe(23);
      const k = key[sort.replace('-', '')]!;
      const keys = all.rows.map(k);
      const sorted = [...keys].sort();
      expect(keys).toEqual(sort.startsWith('-') ? sorted.reverse() : sorted);
      const paged: string[] = [];
      for (let page = 1; page <= 5; page++) paged.push(...(await list(`&size=5&page=${page}&sort=${sort}`)).rows.map((r) => r.id));
      expect(paged).toEqual(all.rows.map((r) => r.id));
    });
  }

  it('refuses an unknown sort with 422', async () => {
    const res = await get().app.inject({ method: 'GET', url: '/api/admin/users?sort=password_hash', headers: who.superAdmin.headers });
    expect(res.statusCode).toBe(422);
  });
}, { IAM_RATE_LIMIT_PER_MINUTE: '100000' });

describeEachDb('admin users: bulk actions', (get) => {
  let who: Actors;
  const bulk = (payload: object, headers = who.superAdmin.headers) => get().app.inject({ method: 'POST', url: '/api/admin/users/bulk', headers, payload });
  const make = async (email: string, extra: Record<string, unknown> = {}) => (await createAccount(get(), { type: 'user', email, ...extra })).id;

  beforeAll(async () => {
    who = await actors(get());
  });

  it('invite: per-row results, an already verified user and an unknown id fail alone', async () => {
    const pending = await make('pending@bulk.test', { email_verified_at: null });
    const verified = await make('verified@bulk.test', { password: 'Corr3ct-Horse!Battery' });
    const res = await bulk({ action: 'invite', ids: [pending, verified, 'no-such-user'] }, who.manager.headers);
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toEqual({
      results: [
        { id: pending, ok: true, code: null },
        { id: verified, ok: false, code: 'already_verified' },
        { id: 'no-such-user', ok: false, code: 'user_not_found' },
      ],
      succeeded: 1,
      failed: 2,
    });
  });

  it('deactivate and delete apply to each row that exists', async () => {
    const a = await make('a@bulk.test');
    const b = await make('b@bulk.test');
    const off = await bulk({ action: 'deactivate', ids: [a, b] });
    expect(off.json().data).toMatchObject({ succeeded: 2, failed: 0 });
    const states = (await get().db.kysely.selectFrom('accounts').select(['id', 'status']).where('id', 'in', [a, b]).execute()).map((r) => r.status);
    expect(states).toEqual(['INACTIVE', 'INACTIVE']);
    const del = await bulk({ action: 'delete', ids: [a, 'gone', b] });
    expect(del.json().data.results.map((r: { ok: boolean }) => r.ok)).toEqual([true, false, true]);
    expect(await get().db.kysely.selectFrom('accounts').select('id').where('id', 'in', [a, b]).execute()).toEqual([]);
  });

  it('assign_subscription: gives the roles, keeps other subscriptions, and a bad request changes nobody', async () => {
    const inject = (method: 'POST', url: string, payload: object) => get().app.inject({ method, url, headers: who.superAdmin.headers, payload });
    const r1 = (await inject('POST', '/api/admin/roles', { name: 'BULK_READ' })).json().data;
    const r2 = (await inject('POST', '/api/admin/roles', { name: 'BULK_OTHER' })).json().data;
    const sub = (await inject('POST', '/api/admin/subscriptions', { name: 'BULK_PLAN', role_ids: [r1.id] })).json().data;
    const other = (await inject('POST', '/api/admin/subscriptions', { name: 'OTHER_PLAN', role_ids: [r2.id] })).json().data;
    const u1 = await make('s1@bulk.test');
    const u2 = await make('s2@bulk.test');
    await get().db.kysely.insertInto('role_subscriptions').values({ account_id: u2, subscription_id: other.id, role_id: r2.id, created_at: new Date().toISOString() }).execute();

    const foreign = await bulk({ action: 'assign_subscription', ids: [u1, u2], subscription_id: sub.id, role_ids: [r1.id, r2.id] });
    expect(foreign.statusCode).toBe(422);
    expect(foreign.json().error.fields).toEqual({ 'role_ids.1': ['role_not_in_subscription'] });
    const missing = await bulk({ action: 'assign_subscription', ids: [u1] });
    expect(missing.json().error.fields).toEqual({ subscription_id: ['required'], role_ids: ['required'] });
    expect(await get().db.kysely.selectFrom('role_subscriptions').select('account_id').where('subscription_id', '=', sub.id).execute()).toEqual([]);

    const ok = await bulk({ action: 'assign_subscription', ids: [u1, u2], subscription_id: sub.id, role_ids: [r1.id] });
    expect(ok.json().data).toMatchObject({ succeeded: 2, failed: 0 });
    const held = await get().db.kysely.selectFrom('role_subscriptions').select(['account_id', 'subscription_id']).where('account_id', 'in', [u1, u2]).orderBy('account_id').execute();
    expect(held).toHaveLength(3);
    expect(held.filter((h) => h.account_id === u2).map((h) => h.subscription_id).sort()).toEqual([sub.id, other.id].sort());
  });

  it('refuses more than 100 ids and an unknown action (422, nothing applied)', async () => {
    expect((await bulk({ action: 'delete', ids: Array.from({ length: 101 }, (_, i) => `x${i}`) })).statusCode).toBe(422);
    expect((await bulk({ action: 'promote', ids: ['x'] })).statusCode).toBe(422);
    expect((await get().app.inject({ method: 'POST', url: '/api/admin/users/bulk', payload: { action: 'delete', ids: ['x'] } })).statusCode).toBe(401);
  });

  it('deactivates 100 users in one request (throughput printed)', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 100; i++) ids.push(await make(`many${i}@bulk.test`));
    const started = performance.now();
    const res = await bulk({ action: 'deactivate', ids });
    const ms = performance.now() - started;
    expect(res.json().data).toMatchObject({ succeeded: 100, failed: 0 });
    console.log(`[bulk ${get().kind}] deactivate 100 users: ${ms.toFixed(0)} ms`);
  });
}, { IAM_RATE_LIMIT_PER_MINUTE: '100000' });
