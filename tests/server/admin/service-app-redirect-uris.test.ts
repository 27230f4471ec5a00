import { randomUUID } from 'node:crypto';
import { beforeAll, expect, it } from 'vitest';
import { describeEachDb } from '../../helpers/app';
import { nowIso } from '../../../server/db/index';
import { actor, type Actor } from './fixtures';

/**
 * Issue 31.2 in the admin API: a service app registers `redirect_uris` (1–10) and `post_logout_redirect_uris` (0–10);
 * each entry is checked on its own (`redirect_uris.N: code`, localized); `url` + `path` (older clients, a fixed point of
 * docs/DESIGN.md) stay accepted as the first redirect URI and stay in the answer.
 */
describeEachDb('service apps: redirect_uris and post_logout_redirect_uris (admin API)', (get) => {
  let admin: Actor;
  let n = 0;
  const name = () => `uris-${++n}-${randomUUID().slice(0, 6)}`;
  const inject = (method: 'GET' | 'POST' | 'PATCH', url: string, payload?: object, lang = 'en') =>
    get().app.inject({ method, url, headers: { ...admin.headers, 'accept-language': lang }, ...(payload ? { payload } : {}) });
  const create = (body: object, lang?: string) => inject('POST', '/api/admin/service-apps', { name: name(), display_name: 'Uris', ...body }, lang);
  const exists = async (clientId: string) => (await get().db.kysely.selectFrom('service_apps').select('id').where('name', '=', clientId).executeTakeFirst()) !== undefined;

  beforeAll(async () => {
    admin = await actor(get(), 'super_admin');
  });

  it('create with the lists: the answer names them, url + path are the first redirect URI, the oidc block lists them', async () => {
    const redirect_uris = ['https://app.example.com/auth/callback', 'https://app.example.com:8443/second?x=1', 'http://localhost:5173/cb'];
    const post_logout_redirect_uris = ['https://app.example.com/', 'http://localhost:5173/'];
    const res = await create({ redirect_uris, post_logout_redirect_uris });
    expect(res.statusCode).toBe(201);
    const app = res.json().data;
    expect(app).toMatchObject({ redirect_uris, post_logout_redirect_uris, url: 'https://app.example.com', path: '/auth/callback' });
    expect(app.oidc).toMatchObject({ redirect_uri: redirect_uris[0], redirect_uris, post_logout_redirect_uris });
    expect((await inject('GET', `/api/admin/service-apps/${app.id}`)).json().data).toMatchObject({ redirect_uris, post_logout_redirect_uris });
    // no post-logout URIs is allowed; a list of one redirect URI without a path is kept as typed
    const bare = (await create({ redirect_uris: ['https://bare.example.com'] })).json().data;
    expect(bare).toMatchObject({ redirect_uris: ['https://bare.example.com'], post_logout_redirect_uris: [], url: 'https://bare.example.com', path: '' });
  });

  it('each entry is checked on its own: a field code per index, nothing stored', async () => {
    const clientId = name();
    const res = await inject('POST', '/api/admin/service-apps', {
      name: clientId,
      display_name: 'Bad',
      redirect_uris: [
        'https://ok.example.com/cb',
        'http://intranet.example.com/cb', // plain http on a network host
        'https://ok.example.com/cb#frag',
        'https://*.example.com/cb',
        'https://ok.example.com/cb', // the first again
        'not a url',
        'ftp://files.example.com/cb',
        '   ',
        'https:///cb', // no host
        'javascript://ok.example.com/%0aalert(1)',
      ],
      post_logout_redirect_uris: ['https://ok.example.com/', 'https://ok.example.com/', 'http://192.168.1.4/', 'https://user:secret@ok.example.com/'],
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().error.fields).toEqual({
      'redirect_uris.1': ['https_required'],
      'redirect_uris.2': ['uri_fragment'],
      'redirect_uris.3': ['uri_wildcard'],
      'redirect_uris.4': ['uri_duplicate'],
      'redirect_uris.5': ['invalid'],
      'redirect_uris.6': ['invalid'],
      'redirect_uris.7': ['required'],
      'redirect_uris.8': ['invalid'],
      'redirect_uris.9': ['invalid'],
      'post_logout_redirect_uris.1': ['uri_duplicate'],
      'post_logout_redirect_uris.2': ['https_required'],
      'post_logout_redirect_uris.3': ['invalid'], // user info
    });
    expect(await exists(clientId)).toBe(false);
  });

  it('the list sizes and the length of an entry: 1–10 redirect URIs, 0–10 post-logout URIs, 2000 characters', async () => {
    const many = (k: number) => Array.from({ length: k }, (_, i) => `https://many.example.com/cb${i}`);
    expect((await create({ redirect_uris: many(10), post_logout_redirect_uris: many(10) })).statusCode).toBe(201);
    const tooMany = await create({ redirect_uris: many(11), post_logout_redirect_uris: many(11) });
    expect(tooMany.statusCode).toBe(422);
    expect(tooMany.json().error.fields).toEqual({ redirect_uris: ['too_big'], post_logout_redirect_uris: ['too_big'] });
    const none = await create({ redirect_uris: [] });
    expect(none.json().error.fields).toEqual({ redirect_uris: ['required'] });
    // neither the list nor url + path
    expect((await create({})).json().error.fields).toEqual({ redirect_uris: ['required'] });
    const long = `https://long.example.com/${'a'.repeat(2000 - 'https://long.example.com/'.length)}`;
    expect(long).toHaveLength(2000);
    expect((await create({ redirect_uris: [long] })).statusCode).toBe(201);
    const tooLong = await create({ redirect_uris: ['https://ok.example.com/cb', `${long}b`] });
    expect(tooLong.json().error.fields).toEqual({ 'redirect_uris.1': ['too_long'] });
    expect(tooLong.json().error.field_messages['redirect_uris.1']).toEqual(['must be less than 2001 characters long']);
  });

  it('plain http only on loopback hosts: localhost, 127.0.0.0/8, [::1] (the rule of the back-channel logout URI too)', async () => {
    const loopback = ['http://localhost/cb', 'http://localhost:8080/cb', 'http://127.0.0.1:9000/cb', 'http://127.0.0.2/cb', 'http://127.1/cb', 'http://[::1]:7000/cb'];
    expect((await create({ redirect_uris: loopback, post_logout_redirect_uris: ['http://localhost:8080/'] })).statusCode).toBe(201);
    for (const uri of ['http://localhost.example.com/cb', 'http://app.localhost/cb', 'http://128.0.0.1/cb', 'http://10.0.0.1/cb', 'http://[::2]/cb', 'http://example.com:80/cb']) {
      const res = await create({ redirect_uris: [uri] });
      expect(res.json().error.fields, uri).toEqual({ 'redirect_uris.0': ['https_required'] });
    }
  });

  it.each([
    ['en', 'Use an https:// address (http:// only for localhost, 127.0.0.1 or ::1)', 'must not contain a wildcard (*): redirect URIs are compared exactly'],
    ['de', 'Verwenden Sie eine https://-Adresse (http:// nur für localhost, 127.0.0.1 oder ::1)', 'darf keinen Platzhalter (*) enthalten: Weiterleitungs-URIs werden exakt verglichen'],
    ['fr', 'Utilisez une adresse https:// (http:// uniquement pour localhost, 127.0.0.1 ou ::1)', 'ne doit pas contenir de caractère générique (*) : les URI de redirection sont comparées exactement'],
    ['it', 'Usa un indirizzo https:// (http:// solo per localhost, 127.0.0.1 o ::1)', 'non deve contenere caratteri jolly (*): gli URI di reindirizzamento sono confrontati esattamente'],
  ])('field messages in %s', async (lang, insecure, wildcard) => {
    const res = await create({ redirect_uris: ['https://ok.example.com/cb', 'http://net.example.com/cb', 'https://ok.example.com/*'] }, lang);
    expect(res.json().error.field_messages).toEqual({ 'redirect_uris.1': [insecure], 'redirect_uris.2': [wildcard] });
  });

  it('older clients: url + path make the first redirect URI (with the post-logout URIs such apps had); setting them replaces the first entry', async () => {
    const created = await create({ url: 'https://legacy.example.com/', path: '/oauth/cb' });
    expect(created.statusCode).toBe(201);
    const app = created.json().data;
    expect(app).toMatchObject({
      url: 'https://legacy.example.com/',
      path: '/oauth/cb',
      redirect_uris: ['https://legacy.example.com/oauth/cb'],
      post_logout_redirect_uris: ['https://legacy.example.com/', 'https://legacy.example.com', 'https://legacy.example.com/oauth/cb'],
      oidc: { redirect_uri: 'https://legacy.example.com/oauth/cb' },
    });
    // a second URI added by a newer client, then the older client changes its path: the first entry only
    const added = await inject('PATCH', `/api/admin/service-apps/${app.id}`, { redirect_uris: ['https://legacy.example.com/oauth/cb', 'https://legacy.example.com/other'] });
    expect(added.json().data).toMatchObject({ url: 'https://legacy.example.com/', path: '/oauth/cb' });
    const moved = (await inject('PATCH', `/api/admin/service-apps/${app.id}`, { path: '/oauth/callback' })).json().data;
    expect(moved).toMatchObject({
      url: 'https://legacy.example.com/',
      path: '/oauth/callback',
      redirect_uris: ['https://legacy.example.com/oauth/callback', 'https://legacy.example.com/other'],
      // nobody set the post-logout list: it follows url + path as it did before the lists
      post_logout_redirect_uris: ['https://legacy.example.com/', 'https://legacy.example.com', 'https://legacy.example.com/oauth/callback'],
    });
    // once the list is set, url + path no longer change it
    await inject('PATCH', `/api/admin/service-apps/${app.id}`, { post_logout_redirect_uris: ['https://legacy.example.com/bye'] });
    const rehomed = (await inject('PATCH', `/api/admin/service-apps/${app.id}`, { url: 'https://new.example.com' })).json().data;
    expect(rehomed).toMatchObject({ url: 'https://new.example.com', redirect_uris: ['https://new.example.com/oauth/callback', 'https://legacy.example.com/other'], post_logout_redirect_uris: ['https://legacy.example.com/bye'] });
    // the new rules apply to url + path too, reported on the field the client sent
    const insecure = await inject('PATCH', `/api/admin/service-apps/${app.id}`, { url: 'http://intranet.example.com' });
    expect(insecure.json().error.fields).toEqual({ url: ['https_required'] });
    const star = await inject('PATCH', `/api/admin/service-apps/${app.id}`, { path: '/cb*' });
    expect(star.json().error.fields).toEqual({ path: ['uri_wildcard'] });
    // the old shape rules stay: path starts with /, url is http(s)
    expect((await create({ url: 'https://p.example.com', path: 'cb' })).json().error.fields).toEqual({ path: ['invalid'] });
    expect((await create({ url: 'https://p.example.com' })).json().error.fields).toEqual({ path: ['required'] });
  });

  it('url + path beside redirect_uris must be its first entry', async () => {
    const same = await create({ url: 'https://both.example.com', path: '/cb', redirect_uris: ['https://both.example.com/cb', 'https://both.example.com/two'] });
    expect(same.statusCode).toBe(201);
    expect(same.json().data.redirect_uris).toEqual(['https://both.example.com/cb', 'https://both.example.com/two']);
    const other = await create({ url: 'https://both.example.com', path: '/other', redirect_uris: ['https://both.example.com/cb'] });
    expect(other.statusCode).toBe(422);
    expect(other.json().error.fields).toEqual({ url: ['uri_conflict'] });
  });

  it('update: the lists are replaced as given, untouched when absent; a refused update changes nothing', async () => {
    const app = (await create({ redirect_uris: ['https://u.example.com/a', 'https://u.example.com/b'], post_logout_redirect_uris: ['https://u.example.com/'] })).json().data;
    const renamed = (await inject('PATCH', `/api/admin/service-apps/${app.id}`, { display_name: 'Renamed' })).json().data;
    expect(renamed).toMatchObject({ display_name: 'Renamed', redirect_uris: ['https://u.example.com/a', 'https://u.example.com/b'], post_logout_redirect_uris: ['https://u.example.com/'] });
    const swapped = (await inject('PATCH', `/api/admin/service-apps/${app.id}`, { redirect_uris: ['https://v.example.com:9443/b'], post_logout_redirect_uris: [] })).json().data;
    expect(swapped).toMatchObject({ url: 'https://v.example.com:9443', path: '/b', redirect_uris: ['https://v.example.com:9443/b'], post_logout_redirect_uris: [] });
    const refused = await inject('PATCH', `/api/admin/service-apps/${app.id}`, { display_name: 'Never', redirect_uris: ['https://v.example.com/ok', 'https://v.example.com/#x'] });
    expect(refused.json().error.fields).toEqual({ 'redirect_uris.1': ['uri_fragment'] });
    expect((await inject('GET', `/api/admin/service-apps/${app.id}`)).json().data).toMatchObject({ display_name: 'Renamed', redirect_uris: ['https://v.example.com:9443/b'] });
  });

  it('an app registered before the rules keeps its URIs through edits; a new URI must follow them', async () => {
    const t = get();
    const id = randomUUID();
    const now = nowIso();
    // as an older release stored it: plain http on a network host, url + path only
    await t.db.kysely
      .insertInto('service_apps')
      .values({ id, name: name(), display_name: 'Old', url: 'http://intranet.example.com', path: '/cb', client_type: 'public', client_secret: null, created_at: now, updated_at: now })
      .execute();
    const old = (await inject('GET', `/api/admin/service-apps/${id}`)).json().data;
    expect(old).toMatchObject({ redirect_uris: ['http://intranet.example.com/cb'], post_logout_redirect_uris: ['http://intranet.example.com/', 'http://intranet.example.com', 'http://intranet.example.com/cb'] });
    expect((await inject('PATCH', `/api/admin/service-apps/${id}`, { display_name: 'Old, renamed' })).statusCode).toBe(200);
    // the form sends the lists back as they are, plus a new entry
    const kept = await inject('PATCH', `/api/admin/service-apps/${id}`, { redirect_uris: [...old.redirect_uris, 'https://new.example.com/cb'], post_logout_redirect_uris: old.post_logout_redirect_uris });
    expect(kept.statusCode).toBe(200);
    expect(kept.json().data.redirect_uris).toEqual(['http://intranet.example.com/cb', 'https://new.example.com/cb']);
    const refused = await inject('PATCH', `/api/admin/service-apps/${id}`, { redirect_uris: ['http://intranet.example.com/cb', 'http://intranet.example.com/other'] });
    expect(refused.json().error.fields).toEqual({ 'redirect_uris.1': ['https_required'] });
  });
});
