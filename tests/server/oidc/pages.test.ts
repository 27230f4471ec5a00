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
    expect(errorPage('fr', { error: '<b>' })).toContain('&#60;b&#62;');
  });
});
