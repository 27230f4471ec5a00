import { I18nProvider } from '@lingui/react';
import { renderHook } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { useFieldError } from '../../src/lib/field-errors';
import { activateLocale, i18n } from '../../src/lib/i18n';

afterEach(async () => {
  await activateLocale('en');
});

const wrapper = ({ children }: { children: ReactNode }) => <I18nProvider i18n={i18n}>{children}</I18nProvider>;

/** Issue 14: a rule message shown alone beside a field read 'must not contain…' in lower case. */
describe('field error messages beside a field', () => {
  it.each([
    ['en', 'Must not contain the same character more than 3 times in a row'],
    ['de', 'Darf dasselbe Zeichen nicht mehr als 3-mal hintereinander enthalten'],
    ['fr', 'Ne doit pas contenir le même caractère plus de 3 fois de suite'],
    ['it', 'Non deve contenere lo stesso carattere più di 3 volte di seguito'],
  ])('start with a capital letter (%s)', async (lang, text) => {
    await activateLocale(lang);
    const { result } = renderHook(() => useFieldError(), { wrapper });
    expect(result.current({ type: 'custom', message: 'password_repeated' }, 'Password')).toBe(text);
  });

  it('leave messages that start with the field name as they are', () => {
    const { result } = renderHook(() => useFieldError(), { wrapper });
    expect(result.current({ type: 'custom', message: 'required' }, 'E-mail')).toBe('E-mail is required');
  });
});
