import { randomBytes } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { beforeAll, expect, it } from 'vitest';
import { describeEachDb, type TestApp } from '../../helpers/app';
import { createAccount, followToCode, startAuthorize } from '../../helpers/auth';
import { seedServiceApp, type SeededServiceApp } from '../../helpers/service-app';
import { migrateToLatest, migrationFolder } from '../../../server/db/index';
import { rollbackTo } from '../../../server/db/migrate';
import { actor, type Actor } from '../admin/fixtures';

/**
 * Migration 0016_expand_redirect_uris (issue 31.2): an app created before it keeps working with its one URI (url +
 * path) — at the provider and in the admin API, where it now shows as lists —, a row the previous release writes
 * beside this one (url + path only, the lists null) works the same, a change the previous release makes to url + path
 * replaces the first redirect URI, and down() gives the previous release its schema back.
 */
const MIGRATION = '0016_expand_redirect_uris';
const names = readdirSync(migrationFolder)
  .filter((f) => /^\d{4}_.+\.ts$/.test(f))
  .map((f) => f.replace(/\.ts$/, ''))
  .sort();
const before = names[names.indexOf(MIGRATION) - 1] as string;
const PW = 'Correct-Horse1!x';

describeEachDb(`${MIGRATION}: apps from before it keep their redirect URI`, (get) => {
  let admin: Actor;
  let email: string;
  let memberId: string;
  let old: SeededServiceApp;

  const columns = async (t: TestApp) => (await t.db.kysely.introspection.getTables()).find((tb) => tb.name === 'service_apps')?.columns.map((c) => c.name) ?? [];
  const adminView = async (t: TestApp, id: string) => (await t.app.inject({ method: 'GET', url: `/api/admin/service-apps/${id}`, headers: admin.headers })).json().data;
  async function signInThrough(t: TestApp, client: string, redirectUri: string) {
    const start = await startAuthorize(t, { client, redirectUri, scope: 'openid' });
    const login = await t.app.inject({ method: 'POST', url: '/api/login', headers: { cookie: start.jar.header() }, payload: { email, password: PW, interaction: start.interaction } });
    expect(login.statusCode).toBe(200);
    const { code, location } = await followToCode(t, start, login.json().data.redirect_to);
    expect(code, redirectUri).toBeTruthy();
    expect(location.startsWith(`${redirectUri}?`)).toBe(true);
  }

  beforeAll(async () => {
    const t = get();
    admin = await actor(t, 'super_admin');
    email = `mig16-${t.kind}-${randomBytes(3).toString('hex')}@example.com`;
    memberId = (await createAccount(t, { type: 'user', email, password: PW })).id;
    // back to the schema of the release before: the app is created there, as that release stores it
    expect(await rollbackTo(t.db, before)).toContain(MIGRATION);
    expect(await columns(t)).not.toContain('redirect_uris');
    old = await seedServiceApp(t, { members: [memberId], url: 'https://old.example.com/', path: '/sso/callback' });
    expect(await migrateToLatest(t.db)).toContain(MIGRATION);
  });

  it('backfills the lists from url + path: the one redirect URI and the post-logout URIs the app had', async () => {
    const t = get();
    const row = await t.db.kysely.selectFrom('service_apps').select(['url', 'path', 'redirect_uris', 'post_logout_redirect_uris']).where('id', '=', old.id).executeTakeFirstOrThrow();
    expect(row).toEqual({
      url: 'https://old.example.com/',
      path: '/sso/callback',
      redirect_uris: JSON.stringify(['https://old.example.com/sso/callback']),
      post_logout_redirect_uris: JSON.stringify(['https://old.example.com/', 'https://old.example.com', 'https://old.example.com/sso/callback']),
    });
    expect(await adminView(t, old.id)).toMatchObject({
      url: 'https://old.example.com/',
      path: '/sso/callback',
      redirect_uris: ['https://old.example.com/sso/callback'],
      oidc: { redirect_uri: 'https://old.example.com/sso/callback' },
    });
  });

  it('the app signs in with its URI and signs out to its url as before; variants stay refused', async () => {
    const t = get();
    await signInThrough(t, old.name, 'https://old.example.com/sso/callback');
    for (const uri of ['https://old.example.com/sso/callback/', 'https://old.example.com//sso/callback', 'https://old.example.com/']) {
      const q = new URLSearchParams({ client_id: old.name, redirect_uri: uri, response_type: 'code', scope: 'openid', state: 'S'.repeat(40), code_challenge: 'c'.repeat(43), code_challenge_method: 'S256' });
      expect((await t.app.inject({ method: 'GET', url: `/oidc/auth?${q}` })).statusCode, uri).toBe(400);
    }
    for (const uri of ['https://old.example.com/', 'https://old.example.com', 'https://old.example.com/sso/callback']) {
      expect((await t.app.inject({ method: 'GET', url: `/oidc/session/end?${new URLSearchParams({ client_id: old.name, post_logout_redirect_uri: uri })}` })).statusCode, uri).toBe(200);
    }
    expect((await t.app.inject({ method: 'GET', url: `/oidc/session/end?${new URLSearchParams({ client_id: old.name, post_logout_redirect_uri: 'https://old.example.com/other' })}` })).statusCode).toBe(400);
  });

  it('beside the previous release: a row it writes (lists null) works, and its change of url + path replaces the first redirect URI', async () => {
    const t = get();
    // written by the previous release after the migration: url + path only
    const fresh = await seedServiceApp(t, { members: [memberId], url: 'https://prev.example.com', path: '/cb' });
    const view = await adminView(t, fresh.id);
    expect(view).toMatchObject({ redirect_uris: ['https://prev.example.com/cb'], post_logout_redirect_uris: ['https://prev.example.com/', 'https://prev.example.com', 'https://prev.example.com/cb'] });
    await signInThrough(t, fresh.name, 'https://prev.example.com/cb');

    // this release adds a second URI; the previous release then edits url + path (all it knows)
    const patched = await t.app.inject({ method: 'PATCH', url: `/api/admin/service-apps/${fresh.id}`, headers: admin.headers, payload: { redirect_uris: ['https://prev.example.com/cb', 'https://prev.example.com/second'] } });
    expect(patched.statusCode).toBe(200);
    await t.db.kysely.updateTable('service_apps').set({ path: '/moved' }).where('id', '=', fresh.id).execute();
    expect((await adminView(t, fresh.id)).redirect_uris).toEqual(['https://prev.example.com/moved', 'https://prev.example.com/second']);
    await signInThrough(t, fresh.name, 'https://prev.example.com/moved');
    await signInThrough(t, fresh.name, 'https://prev.example.com/second');
  });

  it("down() gives the previous release its schema back (url + path kept), and up() again restores the lists", async () => {
    const t = get();
    expect(await rollbackTo(t.db, before)).toContain(MIGRATION);
    const cols = await columns(t);
    expect(cols).not.toContain('redirect_uris');
    expect(cols).not.toContain('post_logout_redirect_uris');
    expect(await t.db.kysely.selectFrom('service_apps').select(['url', 'path']).where('id', '=', old.id).executeTakeFirst()).toEqual({ url: 'https://old.example.com/', path: '/sso/callback' });
    expect(await migrateToLatest(t.db)).toContain(MIGRATION);
    expect((await adminView(t, old.id)).redirect_uris).toEqual(['https://old.example.com/sso/callback']);
  });
});
