import { readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { isLocale, LOCALES, SOURCE_LOCALE, type Locale } from '../../contract/locales';

/** The product's languages (contract/locales.ts). */
export const LANGUAGES = LOCALES;
export type Language = Locale;
export const FALLBACK_LANGUAGE: Language = SOURCE_LOCALE;

export type Catalog = Record<string, string>;
export type DomainMessages = Record<Language, Catalog>;

const catalogs = Object.fromEntries(LANGUAGES.map((lang) => [lang, {}])) as Record<Language, Catalog>;
let loaded = false;

/** Merges every `messages/<domain>.ts` file. Each exports `default` of type DomainMessages. */
export async function loadMessages(): Promise<void> {
  if (loaded) return;
  const dir = path.join(path.dirname(fileURLToPath(import.meta.url)), 'messages');
  const files = readdirSync(dir).filter((f) => /\.(ts|js)$/.test(f) && !f.endsWith('.d.ts')).sort();
  for (const file of files) {
    const mod = (await import(path.join(dir, file))) as { default: DomainMessages };
    for (const lang of LANGUAGES) Object.assign(catalogs[lang], mod.default[lang]);
  }
  loaded = true;
}

export const isLanguage: (value: unknown) => value is Language = isLocale;

/** Picks the language from the `locale` header, else Accept-Language (with q-values), else en. */
export function negotiateLanguage(localeHeader: string | undefined, acceptLanguage: string | undefined): Language {
  const fromLocale = localeHeader?.trim().toLowerCase().slice(0, 2);
  if (isLanguage(fromLocale)) return fromLocale;
  if (acceptLanguage) {
    const ranked = acceptLanguage
      .split(',')
      .map((part) => {
        const [tag, ...params] = part.trim().split(';');
        const q = params.find((p) => p.trim().startsWith('q='));
        return { lang: (tag ?? '').trim().toLowerCase().slice(0, 2), q: q ? Number(q.trim().slice(2)) || 0 : 1 };
      })
      .sort((a, b) => b.q - a.q);
    for (const { lang } of ranked) if (isLanguage(lang)) return lang;
  }
  return FALLBACK_LANGUAGE;
}

/** Localized text for a code; `{name}` placeholders are filled from params. Unknown codes fall back to en, then the code. */
export function translate(lang: Language, code: string, params: Record<string, string | number> = {}): string {
  const template = catalogs[lang][code] ?? catalogs[FALLBACK_LANGUAGE][code] ?? code;
  return template.replace(/\{(\w+)\}/g, (_, key: string) => {
    const v = params[key];
    if (v === undefined) return `{${key}}`;
    // field names are codes too: translate them when a catalog has `field.<name>`
    if (key === 'field') return catalogs[lang][`field.${v}`] ?? catalogs[FALLBACK_LANGUAGE][`field.${v}`] ?? String(v);
    return String(v);
  });
}

export function allMessageCodes(lang: Language): string[] {
  return Object.keys(catalogs[lang]);
}
