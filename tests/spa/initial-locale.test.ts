/**
 * The sign-in page speaks the visitor's language (issue 29): an app's ui_locales first, then the stored choice, then
 * the browser's languages on a first visit, then en.
 */
import { describe, expect, it } from 'vitest';
import { firstSupported, initialLocale, pickLocale } from '../../src/lib/i18n';
import { readStorage, STORAGE_KEYS } from '../../src/lib/storage';

describe('the language a page opens in', () => {
  it("ui_locales first (its first supported tag), then the stored choice, then the browser's languages, then en", () => {
    expect(pickLocale({ uiLocales: 'de-CH fr', stored: 'it', browser: ['fr-FR'] })).toEqual({ locale: 'de', from: 'ui_locales' });
    expect(pickLocale({ uiLocales: 'ja es-ES it', stored: 'fr' })).toEqual({ locale: 'it', from: 'ui_locales' });
    expect(pickLocale({ uiLocales: 'ja', stored: 'fr', browser: ['de'] })).toEqual({ locale: 'fr', from: 'stored' });
    expect(pickLocale({ stored: null, browser: ['ja-JP', 'fr-FR', 'en'] })).toEqual({ locale: 'fr', from: 'browser' });
    expect(pickLocale({ stored: 'xx', browser: ['ja'] })).toEqual({ locale: 'en', from: 'default' });
    expect(firstSupported(['pt-BR', 'IT'])).toBe('it');
  });

  it('reads the page URL, storage and navigator.languages; an app-given language is kept for the visit', () => {
    window.history.replaceState(null, '', '/login?interaction=x&ui_locales=it');
    expect(initialLocale()).toBe('it');
    expect(readStorage(STORAGE_KEYS.locale)).toBe('it');
    window.history.replaceState(null, '', '/login');
    window.localStorage.clear();
    const languages = Object.getOwnPropertyDescriptor(Navigator.prototype, 'languages');
    Object.defineProperty(navigator, 'languages', { value: ['fr-FR', 'fr'], configurable: true });
    try {
      expect(initialLocale()).toBe('fr');
      // a browser's language is not stored: only the person's choice is
      expect(readStorage(STORAGE_KEYS.locale)).toBeNull();
    } finally {
      delete (navigator as { languages?: unknown }).languages;
      if (languages) expect(navigator.languages).toBeDefined();
    }
  });
});
