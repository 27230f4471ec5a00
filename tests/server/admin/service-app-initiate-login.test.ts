import { randomBytes } from 'node:crypto';
import { beforeAll, expect, it } from 'vitest';
import { describeEachDb } from '../../helpers/app';
import { createAccount, signIn } from '../../helpers/auth';
import { actor, type Actor } from './fixtures';

/**
 * A service app's `initiate_login_uri` (OpenID Connect Core 1.0 §4): set, changed and cleared through the admin API with
 * the rules of an app endpoint URI (localized 422 with field codes, nothing written), and where the portal's home page
 * (GET /api/user's subscriptions) opens the app: there with `iss`, else at the app's url — never at its redirect URI.
 */
const PW = 'Correct-Horse1!x';

describeEachDb('service apps: initiate_login_uri (where the home page opens an app)', (get) => {
  let admin: Actor;
  const inject = (method: 'GET' | 'POST' | 'PATCH', url: string, payload?: object, lang = 'en') =>
    get().app.inject({ method, url, headers: { ...admin.headers, 'accept-language': lang }, ...(payload ? { payload } : {}) });
  beforeAll(async () => {
    admin = await actor(get(), 'super_admin');
  });

  it('is stored, shown, changed and cleared; bad values are 422 with a field code and change nothing', async () => {
    const name = `il-${randomBytes(3).toString('hex')}`;
    const created = await inject('POST', '/api/admin/service-apps', { name, display_name: 'Launch', redirect_uris: ['https://launch.example.com/auth/callback'], initiate_login_uri: 'https://launch.example.com/login' });
    expect(created.statusCode).toBe(201);
    const id = created.json<{ data: { id: string; initiate_login_uri: string | null } }>().data.id;
    expect(created.json().data.initiate_login_uri).toBe('https://launch.example.com/login');

    for (const [value, code] of [
      ['http://launch.example.com/login', 'https_required'],
      ['https://launch.example.com/login#start', 'invalid'],
      ['javascript:alert(1)', 'invalid'],
      ['https://user:pw@launch.example.com/login', 'invalid'],
    ] as const) {
      const res = await inject('PATCH', `/api/admin/service-apps/${id}`, { initiate_login_uri: value }, 'de');
      expect(res.statusCode, value).toBe(422);
      expect(res.json().error, value).toMatchObject({ code: 'validation_failed', fields: { initiate_login_uri: [code] } });
    }
    const tooLong = await inject('PATCH', `/api/admin/service-apps/${id}`, { initiate_login_uri: `https://launch.example.com/${'a'.repeat(2100)}` });
    expect(tooLong.statusCode).toBe(422);
    expect((await inject('GET', `/api/admin/service-apps/${id}`)).json().data.initiate_login_uri).toBe('https://launch.example.com/login');

    const loopback = await inject('PATCH', `/api/admin/service-apps/${id}`, { initiate_login_uri: 'http://127.0.0.1:8080/login' });
    expect(loopback.json().data.initiate_login_uri).toBe('http://127.0.0.1:8080/login');
    const cleared = await inject('PATCH', `/api/admin/service-apps/${id}`, { initiate_login_uri: null });
    expect(cleared.json().data.initiate_login_uri).toBeNull();
  });

  it("the home page's links: initiate_login_uri with iss, else the app's url, for a signed-in member", async () => {
    const t = get();
    const email = `il-${randomBytes(4).toString('hex')}@example.com`;
    const user = await createAccount(t, { type: 'user', email, password: PW });
    const roleRes = await inject('POST', '/api/admin/roles', { name: `IL_${randomBytes(3).toString('hex').toUpperCase()}`, description: '' });
    const roleId = roleRes.json<{ data: { id: string } }>().data.id;
    const subRes = await inject('POST', '/api/admin/subscriptions', { name: `IL_SUB_${randomBytes(3).toString('hex').toUpperCase()}`, description: '', role_ids: [roleId] });
    expect(subRes.statusCode).toBe(201);
    const subId = subRes.json<{ data: { id: string } }>().data.id;
    const mk = async (suffix: string, extra: object) => {
      const res = await inject('POST', '/api/admin/service-apps', { name: `il-${suffix}-${randomBytes(2).toString('hex')}`, display_name: suffix, role_ids: [roleId], ...extra });
      expect(res.statusCode).toBe(201);
      return res.json<{ data: { name: string } }>().data.name;
    };
    const started = await mk('started', { redirect_uris: ['https://a.example.com/auth/callback'], initiate_login_uri: 'https://a.example.com/login' });
    const plain = await mk('plain', { redirect_uris: ['https://b.example.com/oidc/cb'] });
    await t.db.kysely.insertInto('role_subscriptions').values({ account_id: user.id, role_id: roleId, subscription_id: subId, created_at: new Date().toISOString() }).execute();
    const tokens = await signIn(t, { email, password: PW });
    const me = await t.app.inject({ method: 'GET', url: '/api/user?with=subscriptions', headers: { authorization: tokens.authorization } });
    const apps = me.json<{ data: { auth_user: { subscriptions: { service_apps: { name: string; launch_url: string }[] }[] } } }>().data.auth_user.subscriptions.flatMap((s) => s.service_apps);
    const launch = new Map(apps.map((a) => [a.name, a.launch_url]));
    expect(launch.get(started)).toBe(`https://a.example.com/login?iss=${encodeURIComponent(t.config.issuer)}`);
    expect(launch.get(plain)).toBe('https://b.example.com/');
  });
});
