/**
 * The languages of the product: the interface (Lingui catalogs in locales/<locale>/), server messages and mails
 * (server/i18n), and an account's `locale`. The one list: everything else derives from it.
 * en is the source language and the fallback.
 */
export const LOCALES = ['en', 'de', 'fr', 'it'] as const;
export type Locale = (typeof LOCALES)[number];
export const SOURCE_LOCALE: Locale = 'en';
/** The languages translated from the source. */
export const TRANSLATED_LOCALES: readonly Locale[] = LOCALES.filter((l) => l !== SOURCE_LOCALE);

export function isLocale(value: unknown): value is Locale {
  return typeof value === 'string' && (LOCALES as readonly string[]).includes(value);
}
