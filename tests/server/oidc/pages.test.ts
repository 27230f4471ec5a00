import { describe, expect, it } from 'vitest';
import { errorPage, logoutPage, postLogoutPage } from '../../../server/oidc/pages';
import { loadMessages } from '../../../server/i18n/index';

await loadMessages();

describe('provider pages', () => {
  it('confirm a logout by themselves only when the client sent a valid id_token_hint', () => {
    const form = '<form id="op.logoutForm" method="post" action="/oidc/session/end/confirm"><input type="hidden" name="xsrf" value="x"/></form>';
    expect(logoutPage('en', form, 'localhost', true)).toContain('<script src="/api/oidc-pages/logout.js"></script>');
    expect(logoutPage('en', form, 'localhost', false)).not.toContain('<script');
  });
  it('are localized and escape what they show', () => {
    expect(logoutPage('de', '', 'ex<ample>', false)).toContain('Möchten Sie sich von ex&#60;ample&#62; abmelden?');
    expect(postLogoutPage('it', 'http://x')).toContain('Sei uscito');
    expect(errorPage('fr', { error: '<b>' }, { appUrl: 'http://x' })).toContain('&#60;b&#62;');
  });
  it('explain an error in the visitor\'s language and fold the technical details away', () => {
    const html = errorPage('de', { error: 'invalid_client', error_description: 'client is invalid' }, { appUrl: 'http://localhost:3000' });
    expect(html).toContain('Die Anwendung, die Sie hierher geschickt hat, ist diesem Server nicht bekannt.');
    expect(html).toContain('<details><summary>Technische Details</summary>');
    expect(html).toContain('href="http:&#47;&#47;localhost:3000/login"');
    expect(html).toContain('<link rel="stylesheet" href="/api/oidc-pages/pages.css">');
    expect(html).not.toMatch(/style=|<style/);
    for (const lang of ['en', 'de', 'fr', 'it'] as const) {
      const page = errorPage(lang, { error: 'whatever' }, { appUrl: 'http://localhost:3000' });
      expect(page).toContain(`<html lang="${lang}">`);
      expect(page).not.toMatch(/oidc\.error/);
    }
  });
  it('name APP_URL when the app was opened under another address', () => {
    const html = errorPage('en', { error: 'invalid_redirect_uri' }, { appUrl: 'http://localhost:3205', redirectOrigin: 'http://127.0.0.1:3205' });
    expect(html).toContain('This page was opened at http:&#47;&#47;127.0.0.1:3205, an address this server does not accept for signing in.');
    expect(html).toContain('Open http:&#47;&#47;localhost:3205 and sign in there.');
    const registeredElsewhere = errorPage('en', { error: 'invalid_redirect_uri' }, { appUrl: 'http://localhost:3205', redirectOrigin: 'http://localhost:3205' });
    expect(registeredElsewhere).toContain('The application asked to return to an address that is not registered for it.');
  });
  it('in development, names the dev server (not APP_URL, which serves no SPA then) and the IAM_DEV_PORT that would accept the address used (issue 29)', () => {
    const raw = errorPage('en', { error: 'invalid_redirect_uri' }, { appUrl: 'http://localhost:3001', redirectOrigin: 'http://localhost:5174', devOrigins: ['http://localhost:5173', 'http://127.0.0.1:5173'] });
    const html = raw.replace(/&#(\d+);/g, (_, n: string) => String.fromCharCode(Number(n)));
    expect(html).toContain('This page was opened at http://localhost:5174');
    expect(html).toContain('In development, open the dev server at http://localhost:5173 and sign in there. To use this address instead, start npm run dev:api with IAM_DEV_PORT=5174.');
    expect(html).not.toContain('Open http://localhost:3001');
    expect(html).toContain('id="error-sign-in" href="http://localhost:5173/login"');
    for (const lang of ['de', 'fr', 'it'] as const) {
      expect(errorPage(lang, { error: 'invalid_redirect_uri' }, { appUrl: 'http://localhost:3001', redirectOrigin: 'http://localhost:5174', devOrigins: ['http://localhost:5173'] }).replace(/&#(\d+);/g, (_, n: string) => String.fromCharCode(Number(n)))).toContain('IAM_DEV_PORT=5174');
    }
  });
});
