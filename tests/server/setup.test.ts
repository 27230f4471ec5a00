import { expect, it } from 'vitest';
import { describeEachDb } from '../helpers/app';
import { bootstrapFirstAdmin } from '../../server/services/bootstrap';

describeEachDb('first start', (get) => {
  it('prints a one-time setup link that creates the first super_admin once', async () => {
    const { app, db } = get();
    const log = console.log;
    console.log = () => {};
    const { setupLink } = await bootstrapFirstAdmin(app).finally(() => (console.log = log));
    expect(setupLink).toMatch(/\/admin\/setup\?token=/);
    const token = new URL(setupLink!).searchParams.get('token')!;
    expect((await app.inject({ method: 'GET', url: `/api/setup/${token}` })).statusCode).toBe(200);
    expect((await app.inject({ method: 'GET', url: `/api/setup/${token}x` })).statusCode).toBe(403);

    const weak = await app.inject({ method: 'POST', url: '/api/setup', payload: { token, email: 'root@example.com', first_name: 'R', last_name: 'T', password: 'short', password_confirmation: 'short' } });
    expect(weak.statusCode).toBe(422);
    expect(weak.json().error.fields.password).toContain('password_too_short');

    const body = { token, email: 'root@example.com', first_name: 'Root', last_name: 'Admin', password: 'Very-Secure-Pass1', password_confirmation: 'Very-Secure-Pass1' };
    const [a, b] = await Promise.all([app.inject({ method: 'POST', url: '/api/setup', payload: body }), app.inject({ method: 'POST', url: '/api/setup', payload: body })]);
    expect([a.statusCode, b.statusCode].sort()).toEqual([201, 403]);
    const admins = await db.kysely.selectFrom('accounts').select(['email', 'admin_role']).where('type', '=', 'admin').execute();
    expect(admins).toEqual([{ email: 'root@example.com', admin_role: 'super_admin' }]);
    // once an admin exists, a new start neither creates nor prints anything
    expect(await bootstrapFirstAdmin(app)).toEqual({});
  });
});

describeEachDb(
  'first start with IAM_ADMIN_EMAIL',
  (get) => {
    it('creates the super_admin from the environment, once', async () => {
      const { app, db } = get();
      expect(await bootstrapFirstAdmin(app)).toEqual({ created: 'boss@example.com' });
      expect(await bootstrapFirstAdmin(app)).toEqual({});
      const rows = await db.kysely.selectFrom('accounts').select(['email', 'admin_role', 'password_hash']).execute();
      expect(rows).toHaveLength(1);
      expect(rows[0]!.admin_role).toBe('super_admin');
      expect(rows[0]!.password_hash).toMatch(/^\$argon2id\$v=19\$m=19456,p=1,t=2\$/);
    });
  },
  { IAM_ADMIN_EMAIL: 'boss@example.com', IAM_ADMIN_PASSWORD: 'Boss-Password-123' },
);
