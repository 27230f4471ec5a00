import { randomBytes } from 'node:crypto';
import { expect, it } from 'vitest';
import { describeEachDb, type TestApp } from '../../helpers/app';
import { createAccount, followToCode, pathOf, startAuthorize, type AuthorizeStart } from '../../helpers/auth';
import { seedServiceApp } from '../../helpers/service-app';

const PW = 'Correct-Horse1!x';
const unescape = (s: string) => s.replace(/&#(\d+);/g, (_, c: string) => String.fromCharCode(Number(c)));

/** Opens the "no access" page the way the browser would and returns its links. */
async function deniedPage(t: TestApp, start: AuthorizeStart, url: string, lang = 'en') {
  const res = await t.app.inject({ method: 'GET', url: pathOf(url), headers: { cookie: start.jar.header(), 'accept-language': lang } });
  expect(res.statusCode).toBe(403);
  expect(res.headers['content-type']).toContain('text/html');
  const link = (id: string) => unescape(String(new RegExp(`id="${id}" href="([^"]+)"`).exec(res.body)?.[1]));
  return { html: res.body, continueUrl: new URL(link('denied-continue'), t.config.appUrl).href, homeUrl: link('denied-home') };
}

describeEachDb("a refused sign-in shows the product's own 'no access' page, then the app gets access_denied", (get) => {
  it('fresh sign-in: localized page naming the app, Continue delivers access_denied to the app, Back to home to the portal', async () => {
    const t = get();
    const email = `denied-${randomBytes(3).toString('hex')}@example.com`;
    await createAccount(t, { type: 'user', email, password: PW });
    const sa = await seedServiceApp(t); // the person holds none of its roles
    const start = await startAuthorize(t, { client: sa.name, redirectUri: sa.redirectUri, scope: 'openid' });
    const login = await t.app.inject({ method: 'POST', url: '/api/login', headers: { cookie: start.jar.header() }, payload: { email, password: PW, interaction: start.interaction } });
    expect(login.statusCode).toBe(200);
    const to: string = login.json().data.redirect_to;
    expect(to).toBe(`${t.config.appUrl}/api/oidc-pages/denied/${start.interaction}`);

    const de = await deniedPage(t, start, to, 'de');
    const display = (await t.db.kysely.selectFrom('service_apps').select('display_name').where('id', '=', sa.id).executeTakeFirstOrThrow()).display_name;
    expect(de.html).toContain(`Sie haben keinen Zugriff auf ${display}`);
    expect(de.html).toContain(`Weiter zu ${display}`);
    expect(de.html).toContain('<html lang="de">');
    expect(de.homeUrl).toBe(`${t.config.appUrl}/`);
    const en = await deniedPage(t, start, to, 'en');
    expect(en.html).toContain(`You have no access to ${display}`);
    expect(en.continueUrl).toBe(`${t.config.appUrl}/oidc/auth/${start.interaction}`);

    const r = await followToCode(t, start, en.continueUrl);
    expect(r.code).toBeUndefined();
    expect(r.error).toBe('access_denied');
  });

  it('already signed in (another app): the authorization asks the consent step, which shows the page too', async () => {
    const t = get();
    const email = `denied2-${randomBytes(3).toString('hex')}@example.com`;
    const acct = await createAccount(t, { type: 'user', email, password: PW });
    const allowed = await seedServiceApp(t, { members: [acct.id] });
    const refused = await seedServiceApp(t, { url: 'https://other.example' });
    const first = await startAuthorize(t, { client: allowed.name, redirectUri: allowed.redirectUri, scope: 'openid' });
    const login = await t.app.inject({ method: 'POST', url: '/api/login', headers: { cookie: first.jar.header() }, payload: { email, password: PW, interaction: first.interaction } });
    expect((await followToCode(t, first, login.json().data.redirect_to)).code).toBeTruthy();

    // same browser (cookie jar), the refused app: no sign-in page, the consent step refuses
    const second = await startAuthorize(t, { client: refused.name, redirectUri: refused.redirectUri, scope: 'openid', jar: first.jar });
    expect(second.location).toContain('/api/oidc-pages/consent/');
    const consent = await t.app.inject({ method: 'GET', url: pathOf(second.location), headers: { cookie: second.jar.header() } });
    expect(consent.statusCode).toBe(303);
    const to = String(consent.headers.location);
    expect(to).toContain('/api/oidc-pages/denied/');
    const page = await deniedPage(t, second, to);
    const r = await followToCode(t, second, page.continueUrl);
    expect(r.error).toBe('access_denied');
  });

  it('the page exists only for refused interactions', async () => {
    const t = get();
    expect((await t.app.inject({ method: 'GET', url: '/api/oidc-pages/denied/unknown-uid' })).statusCode).toBe(404);
    const start = await startAuthorize(t, { scope: 'openid' });
    expect((await t.app.inject({ method: 'GET', url: `/api/oidc-pages/denied/${start.interaction}` })).statusCode).toBe(404);
  });
});
