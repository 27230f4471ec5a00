import { i18n, type Messages } from '@lingui/core';
import { LOCALES, SOURCE_LOCALE } from '../../contract/locales';
import { readStorage, STORAGE_KEYS } from './storage';

export { SOURCE_LOCALE };
/** Used when `GET /api/languages` fails: the product's languages (contract/locales.ts). */
export const FALLBACK_LANGUAGES: readonly string[] = LOCALES;

type CatalogModule = { messages: Messages };

// Compiled catalogs (`lingui compile --typescript`): locales/<locale>/<catalog>.ts.
// Each becomes its own lazily loaded chunk.
const catalogLoaders = import.meta.glob<CatalogModule>(['../../locales/*/*.ts', '!../../locales/**/*.d.ts']);

/** Catalogs only the admin console uses (/admin/…): pages outside it do not load them (bench/web.ts reads this list). */
export const ADMIN_ONLY_CATALOGS = ['admin'];

// Whether the admin catalogs are part of what activateLocale loads. All catalogs unless told otherwise (tests);
// src/main.tsx starts without them outside /admin/…, and the admin layouts' beforeLoad adds them (loadAdminCatalogs).
let withAdminCatalogs = true;

/** At start-up: load the admin catalogs only for a page of the admin console. */
export function setAdminCatalogs(enabled: boolean): void {
  withAdminCatalogs = enabled;
}

/** The catalogs of one locale, each marked whether it is admin-only. */
function catalogsOf(locale: string): Array<{ adminOnly: boolean; load: () => Promise<CatalogModule> }> {
  const prefix = `../../locales/${locale}/`;
  return Object.entries(catalogLoaders)
    .filter(([path]) => path.startsWith(prefix))
    .map(([path, load]) => ({ adminOnly: ADMIN_ONLY_CATALOGS.includes(path.slice(prefix.length).replace(/\.ts$/, '')), load }));
}

function loadersFor(locale: string, admin: boolean): Array<() => Promise<CatalogModule>> {
  return catalogsOf(locale)
    .filter((catalog) => admin || !catalog.adminOnly)
    .map((catalog) => catalog.load);
}

/** Loads and merges the catalogs (common, account and — unless `admin` is false — admin) of one locale. */
export async function loadMessages(locale: string, { admin = withAdminCatalogs }: { admin?: boolean } = {}): Promise<Messages> {
  const loaders = loadersFor(locale, admin);
  if (loaders.length === 0) throw new Error(`No catalogs for locale "${locale}"`);
  const modules = await Promise.all(loaders.map((load) => load()));
  return Object.assign({}, ...modules.map((module) => module.messages)) as Messages;
}

/**
 * Adds the admin catalogs of the active locale when they are not loaded yet (a page outside the console loaded
 * without them, then the visitor went to /admin/…): the admin layouts await it before their screens render.
 * Later locale changes load them too.
 */
export async function loadAdminCatalogs(): Promise<void> {
  if (withAdminCatalogs) return;
  const locale = i18n.locale || SOURCE_LOCALE;
  const loaders = catalogsOf(locale)
    .filter((catalog) => catalog.adminOnly)
    .map((catalog) => catalog.load);
  const modules = await Promise.all(loaders.map((load) => load()));
  withAdminCatalogs = true;
  // merged into the active locale's messages; i18n emits "change", so what is on screen re-renders
  i18n.load(locale, Object.assign({}, ...modules.map((module) => module.messages)) as Messages);
}

/** Maps 'de-CH' or 'DE' to a supported locale, or undefined. */
export function normalizeLocale(candidate: string | null | undefined, supported: readonly string[] = FALLBACK_LANGUAGES): string | undefined {
  if (!candidate) return undefined;
  const lower = candidate.toLowerCase();
  if (supported.includes(lower)) return lower;
  const base = lower.split(/[-_]/)[0];
  return base && supported.includes(base) ? base : undefined;
}

/** The stored choice, else the default (en). */
export function initialLocale(): string {
  return normalizeLocale(readStorage(STORAGE_KEYS.locale)) ?? SOURCE_LOCALE;
}

function syncDocumentLanguage(locale: string): void {
  if (typeof document !== 'undefined') document.documentElement.lang = locale;
}

/**
 * Loads the catalogs of `locale` and activates it; falls back to en when the
 * locale is unknown or its catalogs fail to load. Returns the active locale.
 */
export async function activateLocale(locale: string): Promise<string> {
  const target = normalizeLocale(locale) ?? SOURCE_LOCALE;
  try {
    const messages = await loadMessages(target);
    i18n.loadAndActivate({ locale: target, messages });
    syncDocumentLanguage(target);
    return target;
  } catch (error) {
    if (target === SOURCE_LOCALE) throw error;
    const messages = await loadMessages(SOURCE_LOCALE);
    i18n.loadAndActivate({ locale: SOURCE_LOCALE, messages });
    syncDocumentLanguage(SOURCE_LOCALE);
    return SOURCE_LOCALE;
  }
}

/** The language's own name, e.g. 'Deutsch' for de. */
export function languageName(code: string): string {
  try {
    const name = new Intl.DisplayNames([code], { type: 'language' }).of(code);
    if (!name) return code;
    return name.charAt(0).toLocaleUpperCase(code) + name.slice(1);
  } catch {
    return code;
  }
}

export { i18n };
