import { expect, it } from 'vitest';
import { createMeService, launchUrl } from '../../../server/services/me';
import { seedServiceApp } from '../../helpers/service-app';
import { createAccount } from '../../helpers/auth';
import { describeEachDb } from '../../helpers/app';

/** "Who am I" is a service built from a database alone (no app, no request): the views of GET /api/user and /api/admin. */
describeEachDb('me service', (get) => {
  it('shows a user: technical flag as boolean, a pending authenticator enrollment as 2FA off, SSO sign-in, no subscriptions', async () => {
    const t = get();
    const me = createMeService({ db: t.db, config: t.config });
    const user = await createAccount(t, { type: 'user', email: 'me-sso@example.test', auth_type: 'SSO', provider: 'acme', technical: 1, two_factor_method: 'GOOGLE', avatar: 'a1.png' });
    const view = await me.currentUser(user, true);
    expect(view).toMatchObject({ '2fa': { enabled: false, method: null }, sso_login: true });
    expect(view.auth_user).toMatchObject({ id: user.id, email: 'me-sso@example.test', type: 'user', technical: true, provider: 'acme', avatar_url: '/api/avatars/a1.png', subscriptions: [] });
    expect('subscriptions' in (await me.currentUser(user, false)).auth_user).toBe(false);
  });

  it('shows an admin with role and a confirmed second factor', async () => {
    const t = get();
    const me = createMeService({ db: t.db, config: t.config });
    const admin = await createAccount(t, { type: 'admin', email: 'me-admin@example.test', admin_role: 'manager', two_factor_method: 'SMS', two_factor_confirmed_at: new Date().toISOString() });
    expect(me.currentAdmin(admin)).toMatchObject({ auth_user: { id: admin.id, role: 'manager', technical: false, avatar_url: null }, '2fa': { enabled: true, method: 'SMS' } });
  });

  it("opens an app at its initiate_login_uri with iss, else at its url: never at its redirect URI", async () => {
    const t = get();
    const me = createMeService({ db: t.db, config: t.config });
    const user = await createAccount(t, { type: 'user', email: `me-apps-${Date.now()}@example.test` });
    const plain = await seedServiceApp(t, { members: [user.id], redirectUris: ['https://plain.example.com/auth/callback'] });
    const started = await seedServiceApp(t, { members: [user.id], redirectUris: ['https://own.example.com/cb'], extra: { initiate_login_uri: 'https://own.example.com/login?from=portal' } });
    const apps = (await me.currentUser(user, true)).auth_user.subscriptions?.flatMap((s) => s.service_apps) ?? [];
    const byName = new Map(apps.map((a) => [a.name, a.launch_url]));
    expect(byName.get(plain.name)).toBe('https://plain.example.com/');
    expect(byName.get(started.name)).toBe(`https://own.example.com/login?from=portal&iss=${encodeURIComponent(t.config.issuer)}`);
  });
});

it('launchUrl: iss replaces one the URI carries, the url keeps its path', () => {
  expect(launchUrl({ url: 'https://a.example.com/app', initiate_login_uri: null }, 'https://iam/oidc')).toBe('https://a.example.com/app');
  expect(launchUrl({ url: 'https://a.example.com', initiate_login_uri: 'https://a.example.com/login?iss=evil' }, 'https://iam/oidc')).toBe('https://a.example.com/login?iss=https%3A%2F%2Fiam%2Foidc');
});
