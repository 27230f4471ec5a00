import { expect, it } from 'vitest';
import { describeEachDb } from '../../helpers/app';

describeEachDb('admin API in OpenAPI', (get) => {
  it('documents every admin and profile route, with the CSV columns of the import', async () => {
    const res = await get().app.inject({ method: 'GET', url: '/api/openapi.json' });
    expect(res.statusCode).toBe(200);
    const paths = res.json().paths as Record<string, Record<string, { description?: string }>>;
    for (const p of [
      '/api/admin/users', '/api/admin/users/{id}', '/api/admin/users/{id}/invite', '/api/admin/users/import', '/api/admin/users/import/{id}',
      '/api/admin/users/export', '/api/admin/admins', '/api/admin/admins/{id}', '/api/admin/roles', '/api/admin/roles/{id}',
      '/api/admin/subscriptions', '/api/admin/subscriptions/{id}', '/api/admin/service-apps', '/api/admin/service-apps/{id}',
      '/api/admin/logs/activities', '/api/admin/logs/activities/daily', '/api/admin/logs/errors', '/api/admin/audit',
      '/api/user/avatar', '/api/admin/avatar', '/api/avatars/{file}',
    ]) expect(paths[p], p).toBeDefined();
    expect(paths['/api/user']?.patch).toBeDefined();
    expect(paths['/api/admin']?.patch).toBeDefined();
    const desc = paths['/api/admin/users/import']?.post?.description ?? '';
    for (const c of ['email', 'first_name', 'last_name', 'locale', 'auth_type', 'provider', 'technical', 'phone']) expect(desc).toContain(`\`${c}\``);
  });
});
