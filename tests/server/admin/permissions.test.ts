import { beforeAll, describe, expect, it } from 'vitest';
import { describeEachDb } from '../../helpers/app';
import { actors, type Actors } from './fixtures';

type Access = 'any_admin' | 'super_admin' | 'user' | 'admin_self';
/** Every route of this issue and who may call it. */
const ROUTES: { method: 'GET' | 'POST' | 'PATCH' | 'DELETE'; url: string; access: Access; body?: unknown }[] = [
  { method: 'GET', url: '/api/admin/users', access: 'any_admin' },
  { method: 'GET', url: '/api/admin/users/00000000-0000-0000-0000-000000000000', access: 'any_admin' },
  { method: 'POST', url: '/api/admin/users', access: 'any_admin', body: {} },
  { method: 'PATCH', url: '/api/admin/users/00000000-0000-0000-0000-000000000000', access: 'any_admin', body: {} },
  { method: 'DELETE', url: '/api/admin/users/00000000-0000-0000-0000-000000000000', access: 'any_admin' },
  { method: 'POST', url: '/api/admin/users/00000000-0000-0000-0000-000000000000/invite', access: 'any_admin' },
  { method: 'POST', url: '/api/admin/users/import', access: 'any_admin' },
  { method: 'GET', url: '/api/admin/users/import/00000000-0000-0000-0000-000000000000', access: 'any_admin' },
  { method: 'GET', url: '/api/admin/users/export', access: 'any_admin' },
  { method: 'GET', url: '/api/admin/logs/activities', access: 'any_admin' },
  { method: 'GET', url: '/api/admin/logs/activities/daily', access: 'any_admin' },
  { method: 'GET', url: '/api/admin/logs/errors', access: 'any_admin' },
  { method: 'GET', url: '/api/admin/audit', access: 'super_admin' },
  { method: 'GET', url: '/api/admin/admins', access: 'super_admin' },
  { method: 'GET', url: '/api/admin/admins/00000000-0000-0000-0000-000000000000', access: 'super_admin' },
  { method: 'POST', url: '/api/admin/admins', access: 'super_admin', body: {} },
  { method: 'PATCH', url: '/api/admin/admins/00000000-0000-0000-0000-000000000000', access: 'super_admin', body: { role: 'manager' } },
  { method: 'DELETE', url: '/api/admin/admins/00000000-0000-0000-0000-000000000000', access: 'super_admin' },
  { method: 'POST', url: '/api/admin/admins/00000000-0000-0000-0000-000000000000/invite', access: 'super_admin' },
  { method: 'GET', url: '/api/admin/roles', access: 'super_admin' },
  { method: 'GET', url: '/api/admin/roles/00000000-0000-0000-0000-000000000000', access: 'super_admin' },
  { method: 'POST', url: '/api/admin/roles', access: 'super_admin', body: {} },
  { method: 'PATCH', url: '/api/admin/roles/00000000-0000-0000-0000-000000000000', access: 'super_admin', body: {} },
  { method: 'DELETE', url: '/api/admin/roles/00000000-0000-0000-0000-000000000000', access: 'super_admin' },
  { method: 'GET', url: '/api/admin/subscriptions', access: 'super_admin' },
  { method: 'GET', url: '/api/admin/subscriptions/00000000-0000-0000-0000-000000000000', access: 'super_admin' },
  { method: 'POST', url: '/api/admin/subscriptions', access: 'super_admin', body: {} },
  { method: 'PATCH', url: '/api/admin/subscriptions/00000000-0000-0000-0000-000000000000', access: 'super_admin', body: {} },
  { method: 'DELETE', url: '/api/admin/subscriptions/00000000-0000-0000-0000-000000000000', access: 'super_admin' },
  { method: 'GET', url: '/api/admin/service-apps', access: 'super_admin' },
  { method: 'GET', url: '/api/admin/service-apps/00000000-0000-0000-0000-000000000000', access: 'super_admin' },
  { method: 'POST', url: '/api/admin/service-apps', access: 'super_admin', body: {} },
  { method: 'PATCH', url: '/api/admin/service-apps/00000000-0000-0000-0000-000000000000', access: 'super_admin', body: {} },
  { method: 'DELETE', url: '/api/admin/service-apps/00000000-0000-0000-0000-000000000000', access: 'super_admin' },
  { method: 'PATCH', url: '/api/user', access: 'user', body: {} },
  { method: 'POST', url: '/api/user/avatar', access: 'user' },
  { method: 'DELETE', url: '/api/user/avatar', access: 'user' },
  { method: 'PATCH', url: '/api/admin', access: 'admin_self', body: {} },
  { method: 'POST', url: '/api/admin/avatar', access: 'admin_self' },
  { method: 'DELETE', url: '/api/admin/avatar', access: 'admin_self' },
];

const allowed = (access: Access, role: 'super_admin' | 'manager' | 'user') =>
  access === 'user' ? role === 'user' : access === 'super_admin' ? role === 'super_admin' : role !== 'user';

describeEachDb('permissions: every route × role', (get) => {
  let who: Actors;
  beforeAll(async () => {
    who = await actors(get());
  });

  for (const r of ROUTES) {
    describe(`${r.method} ${r.url}`, () => {
      it('anonymous → 401', async () => {
        const res = await get().app.inject({ method: r.method, url: r.url, ...(r.body ? { payload: r.body as object } : {}) });
        expect(res.statusCode).toBe(401);
      });
      for (const role of ['super_admin', 'manager', 'user'] as const) {
        it(`${role} → ${allowed(r.access, role) ? 'allowed' : '403'}`, async () => {
          const a = role === 'super_admin' ? who.superAdmin : role === 'manager' ? who.manager : who.user;
          const res = await get().app.inject({ method: r.method, url: r.url, headers: a.headers, ...(r.body ? { payload: r.body as object } : {}) });
          if (allowed(r.access, role)) {
            expect([401, 403]).not.toContain(res.statusCode);
            expect(res.statusCode).toBeLessThan(500);
          } else {
            expect(res.statusCode).toBe(403);
            expect(res.json().error.code).toBe('forbidden');
          }
        });
      }
    });
  }
}, { IAM_RATE_LIMIT_PER_MINUTE: '100000' });
