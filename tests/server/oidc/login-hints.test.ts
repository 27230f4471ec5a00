/**
 * The authorization request's hints reach the sign-in page (issue 29): `ui_locales` picks its language and
 * `login_hint` fills its e-mail field. The provider passes both, cleaned, to the SPA's interaction page.
 */
import { describe, expect, it } from 'vitest';
import { describeEachDb } from '../../helpers/app';
import { startAuthorize } from '../../helpers/auth';
import { cleanLoginHint, cleanUiLocales, loginHintParams } from '../../../server/oidc/login-hints';

describe('login hints', () => {
  it('keeps language tags and an address-like hint, drops the rest', () => {
    expect(cleanUiLocales('de-CH  fr')).toBe('de-CH fr');
    expect(cleanUiLocales('<script> it')).toBe('it');
    expect(cleanUiLocales(42)).toBeUndefined();
    expect(cleanLoginHint(' ada@example.com ')).toBe('ada@example.com');
    expect(cleanLoginHint('two words')).toBeUndefined();
    expect(cleanLoginHint('a\u0000b@example.com')).toBeUndefined();
    expect(cleanLoginHint(`${'a'.repeat(250)}@x.io`)).toBeUndefined();
    expect(loginHintParams({ ui_locales: 'it', login_hint: 'ada@example.com', prompt: 'login' })).toEqual({ ui_locales: 'it', login_hint: 'ada@example.com' });
    expect(loginHintParams({})).toEqual({});
  });
});

describeEachDb('the interaction page gets the hints', (get) => {
  it('ui_locales and login_hint of the authorization request are on the sign-in page URL (user and admin)', async () => {
    const t = get();
    const user = await startAuthorize(t, { extra: { ui_locales: 'de-CH de', login_hint: 'ada@example.com' } });
    const page = new URL(user.location);
    expect(page.pathname).toBe('/login');
    expect(page.searchParams.get('interaction')).toBe(user.interaction);
    expect(page.searchParams.get('ui_locales')).toBe('de-CH de');
    expect(page.searchParams.get('login_hint')).toBe('ada@example.com');
    const admin = new URL((await startAuthorize(t, { client: 'admin-console', extra: { ui_locales: 'fr' } })).location);
    expect(admin.pathname).toBe('/admin/login');
    expect(admin.searchParams.get('ui_locales')).toBe('fr');
    expect(admin.searchParams.has('login_hint')).toBe(false);
  });

  it('without hints the page URL has the interaction only; junk hints are dropped', async () => {
    const t = get();
    expect([...new URL((await startAuthorize(t)).location).searchParams.keys()]).toEqual(['interaction']);
    const junk = new URL((await startAuthorize(t, { extra: { ui_locales: '<x>', login_hint: 'not an address at all' } })).location);
    expect([...junk.searchParams.keys()]).toEqual(['interaction']);
  });
});
