import { beforeAll, expect, it } from 'vitest';
import { describeEachDb } from '../../helpers/app';
import { createAccount } from '../../helpers/auth';
import { actors, type Actors } from './fixtures';

/** The account state (contract/common.ts accountStateOf): list, filter, detail and export agree. */
describeEachDb('admin users: invited / active / inactive', (get) => {
  let who: Actors;
  const ids: Record<'invited' | 'active' | 'inactiveInvited' | 'inactive' | 'sso', string> = { invited: '', active: '', inactiveInvited: '', inactive: '', sso: '' };
  const inject = (method: 'GET' | 'PATCH', url: string, payload?: object) =>
    get().app.inject({ method, url, headers: who.superAdmin.headers, ...(payload ? { payload } : {}) });
  const listed = async (query: string) => {
    const res = await inject('GET', `/api/admin/users?search=state.test&size=100${query}`);
    expect(res.statusCode).toBe(200);
    return (res.json().data as { id: string; state: string }[]).map((u) => u.id).sort();
  };

  beforeAll(async () => {
    who = await actors(get());
    const t = get();
    ids.invited = (await createAccount(t, { type: 'user', email: 'invited@state.test', email_verified_at: null })).id;
    ids.active = (await createAccount(t, { type: 'user', email: 'active@state.test', password: 'Corr3ct-Horse!Battery' })).id;
    // never set a password, then deactivated by an admin: inactive, not invited
    ids.inactiveInvited = (await createAccount(t, { type: 'user', email: 'gone-before-start@state.test', email_verified_at: null, status: 'INACTIVE' })).id;
    ids.inactive = (await createAccount(t, { type: 'user', email: 'inactive@state.test', password: 'Corr3ct-Horse!Battery', status: 'INACTIVE' })).id;
    ids.sso = (await createAccount(t, { type: 'user', email: 'sso@state.test', auth_type: 'SSO', provider: 'corp', email_verified_at: null })).id;
  });

  it('answers one state per account in the list and the detail', async () => {
    const res = await inject('GET', '/api/admin/users?search=state.test&size=100');
    const state = Object.fromEntries((res.json().data as { id: string; state: string }[]).map((u) => [u.id, u.state]));
    expect(state).toEqual({ [ids.invited]: 'INVITED', [ids.active]: 'ACTIVE', [ids.inactiveInvited]: 'INACTIVE', [ids.inactive]: 'INACTIVE', [ids.sso]: 'ACTIVE' });
    for (const [key, expected] of [['invited', 'INVITED'], ['inactiveInvited', 'INACTIVE'], ['sso', 'ACTIVE']] as const) {
      expect((await inject('GET', `/api/admin/users/${ids[key]}`)).json().data.state).toBe(expected);
    }
  });

  it('filters by state: the Inactive filter finds deactivated users who never set a password, Active excludes invited ones', async () => {
    expect(await listed('&status=INACTIVE')).toEqual([ids.inactiveInvited, ids.inactive].sort());
    expect(await listed('&status=INVITED')).toEqual([ids.invited]);
    expect(await listed('&status=ACTIVE')).toEqual([ids.active, ids.sso].sort());
  });

  it('exports the same state in the status column, with the same filter', async () => {
    const res = await inject('GET', '/api/admin/users/export?search=state.test');
    expect(res.statusCode).toBe(200);
    const lines = res.body.replace(/^\ufeff/, '').trim().split(/\r?\n/);
    const header = lines[0]!.split(',').map((h) => h.replace(/"/g, ''));
    const statusAt = header.indexOf('status');
    const emailAt = header.indexOf('email');
    const byEmail = Object.fromEntries(lines.slice(1).map((l) => l.split(',').map((c) => c.replace(/"/g, ''))).map((c) => [c[emailAt], c[statusAt]]));
    expect(byEmail).toEqual({ 'invited@state.test': 'INVITED', 'active@state.test': 'ACTIVE', 'gone-before-start@state.test': 'INACTIVE', 'inactive@state.test': 'INACTIVE', 'sso@state.test': 'ACTIVE' });
    const inactive = await inject('GET', '/api/admin/users/export?search=state.test&status=INACTIVE');
    expect(inactive.body.trim().split(/\r?\n/)).toHaveLength(3);
  });

  it('deactivating an invited user moves it from Invited to Inactive', async () => {
    const extra = await createAccount(get(), { type: 'user', email: 'later@state.test', email_verified_at: null });
    expect(await listed('&status=INVITED')).toContain(extra.id);
    expect((await inject('PATCH', `/api/admin/users/${extra.id}`, { status: 'INACTIVE' })).statusCode).toBe(200);
    expect(await listed('&status=INVITED')).not.toContain(extra.id);
    expect(await listed('&status=INACTIVE')).toContain(extra.id);
  });
}, { IAM_RATE_LIMIT_PER_MINUTE: '100000' });
