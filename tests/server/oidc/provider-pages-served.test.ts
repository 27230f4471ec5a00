import { expect, it } from 'vitest';
import { describeEachDb } from '../../helpers/app';
import { createAccount, followToCode, startAuthorize } from '../../helpers/auth';

/**
 * Issue 14 ("give the provider's own pages the product's look and language"): the pages oidc-provider itself answers
 * at /oidc — its error page and the logout confirmation — are the product's (its stylesheet, the visitor's language),
 * not the provider's unstyled English defaults. tests/server/oidc/pages.test.ts checks the page functions; this checks
 * that the provider really serves them.
 */
describeEachDb("the provider's own pages are served in the product's look and the visitor's language", (get) => {
  it('an authorization request from an unknown application: a French error page with the product stylesheet', async () => {
    const t = get();
    const q = new URLSearchParams({ client_id: 'no-such-app', redirect_uri: 'https://app.example/cb', response_type: 'code', scope: 'openid' });
    const res = await t.app.inject({ method: 'GET', url: `/oidc/auth?${q.toString()}`, headers: { accept: 'text/html', 'accept-language': 'fr-CH,fr;q=0.9' } });
    expect(res.statusCode).toBe(400);
    expect(res.headers['content-type']).toMatch(/text\/html/);
    expect(res.body).toContain('<html lang="fr">');
    expect(res.body).toContain('La connexion ne peut pas continuer');
    expect(res.body).toContain('n’est pas connue de ce serveur');
    expect(res.body).toContain('<link rel="stylesheet" href="/api/oidc-pages/pages.css">');
    // the provider's default page says "oops! something went wrong" / shows the bare code as its heading
    expect(res.body).not.toMatch(/oops!/i);
  });

  it('the logout confirmation (end_session without an id_token_hint) asks in German, with the product stylesheet', async () => {
    const t = get();
    // a signed-in browser (the provider asks only when there is a session to end)
    const password = 'Str0ng!Passw0rd#';
    const acc = await createAccount(t, { type: 'user', email: `pages-${Date.now()}@example.test`, password });
    const start = await startAuthorize(t);
    const login = await t.app.inject({ method: 'POST', url: '/api/login', headers: { cookie: start.jar.header() }, payload: { email: acc.email, password, interaction: start.interaction } });
    expect((await followToCode(t, start, login.json().data.redirect_to as string)).code).toBeTruthy();
    const res = await t.app.inject({ method: 'GET', url: '/oidc/session/end', headers: { accept: 'text/html', 'accept-language': 'de', cookie: start.jar.header() } });
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('<html lang="de">');
    expect(res.body).toContain('Möchten Sie sich von');
    expect(res.body).toContain('Ja, abmelden');
    expect(res.body).toContain('<link rel="stylesheet" href="/api/oidc-pages/pages.css">');
    // the provider's own confirmation form is kept (it carries the xsrf token), inside the product's page
    expect(res.body).toContain('/oidc/session/end/confirm');
  });

  it('the stylesheet those pages link is served', async () => {
    const res = await get().app.inject({ method: 'GET', url: '/api/oidc-pages/pages.css' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/text\/css/);
  });
});
