import { expect, it } from 'vitest';
import { createMeService } from '../../../server/services/me';
import { createAccount } from '../../helpers/auth';
import { describeEachDb } from '../../helpers/app';

/** "Who am I" is a service built from a database alone (no app, no request): the views of GET /api/user and /api/admin. */
describeEachDb('me service', (get) => {
  it('shows a user: technical flag as boolean, a pending authenticator enrollment as 2FA off, SSO sign-in, no subscriptions', async () => {
    const t = get();
    const me = createMeService({ db: t.db });
    const user = await createAccount(t, { type: 'user', email: 'me-sso@example.test', auth_type: 'SSO', provider: 'acme', technical: 1, two_factor_method: 'GOOGLE', avatar: 'a1.png' });
    const view = await me.currentUser(user, true);
    expect(view).toMatchObject({ '2fa': { enabled: false, method: null }, sso_login: true });
    expect(view.auth_user).toMatchObject({ id: user.id, email: 'me-sso@example.test', type: 'user', technical: true, provider: 'acme', avatar_url: '/api/avatars/a1.png', subscriptions: [] });
    expect('subscriptions' in (await me.currentUser(user, false)).auth_user).toBe(false);
  });

  it('shows an admin with role and a confirmed second factor', async () => {
    const t = get();
    const me = createMeService({ db: t.db });
    const admin = await createAccount(t, { type: 'admin', email: 'me-admin@example.test', admin_role: 'manager', two_factor_method: 'SMS', two_factor_confirmed_at: new Date().toISOString() });
    expect(me.currentAdmin(admin)).toMatchObject({ auth_user: { id: admin.id, role: 'manager', technical: false, avatar_url: null }, '2fa': { enabled: true, method: 'SMS' } });
  });
});
