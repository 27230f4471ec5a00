import { i18n, type Messages } from '@lingui/core';
import { LOCALES, SOURCE_LOCALE } from '../../contract/locales';
import { ALL_CATALOGS, catalogsForPath, type OnDemandCatalog } from './catalog-areas';
import { readStorage, STORAGE_KEYS, writeStorage } from './storage';

export { SOURCE_LOCALE };
/** Used when `GET /api/languages` fails: the product's languages (contract/locales.ts). */
export const FALLBACK_LANGUAGES: readonly string[] = LOCALES;

type CatalogModule = { messages: Messages };

// Compiled catalogs (`lingui compile --typescript`): locales/<locale>/<catalog>.ts.
// Each becomes its own lazily loaded chunk.
const catalogLoaders = import.meta.glob<CatalogModule>(['../../locales/*/*.ts', '!../../locales/**/*.d.ts']);

// The catalogs activateLocale loads: every one unless told otherwise (tests); src/main.tsx starts with the catalogs
// of the page being opened (catalogsForPath), and the root route's beforeLoad adds a page's when the SPA goes there.
let catalogsInUse: ReadonlySet<string> = new Set(ALL_CATALOGS);

/** At start-up: the catalogs the first page shows (src/lib/catalog-areas.ts). */
export function setCatalogs(names: readonly string[]): void {
  catalogsInUse = new Set(names);
}

function catalogName(path: string, prefix: string): string {
  return path.slice(prefix.length).replace(/\.ts$/, '');
}

/** The loaders of the named catalogs of one locale. */
function loadersFor(locale: string, names: ReadonlySet<string>): Array<() => Promise<CatalogModule>> {
  const prefix = `../../locales/${locale}/`;
  return Object.entries(catalogLoaders)
    .filter(([path]) => path.startsWith(prefix) && names.has(catalogName(path, prefix)))
    .map(([, load]) => load);
}

/** Loads and merges the catalogs of one locale: those in use (all unless setCatalogs was called), or the named ones. */
export async function loadMessages(locale: string, { catalogs = catalogsInUse }: { catalogs?: ReadonlySet<string> } = {}): Promise<Messages> {
  const loaders = loadersFor(locale, catalogs);
  if (loaders.length === 0) throw new Error(`No catalogs for locale "${locale}"`);
  const modules = await Promise.all(loaders.map((load) => load()));
  return Object.assign({}, ...modules.map((module) => module.messages)) as Messages;
}

/**
 * Every change of i18n's locale or messages runs here, one at a time and in the order asked: a page's catalogs and a
 * locale switch never interleave. Issue 29: the saved account language (applied at sign-in) and the first page's
 * catalogs (the root route, for home) raced: home's catalog was merged into English while Italian was being loaded
 * without it, and the page showed raw message ids until a reload.
 */
let queue: Promise<unknown> = Promise.resolve();
function serialized<T>(task: () => Promise<T>): Promise<T> {
  const run = queue.then(task, task);
  queue = run.catch(() => undefined);
  return run;
}

/**
 * Adds the catalogs a page needs that are not loaded yet (the SPA started on a page that did not need them, then went
 * there): the root route awaits it before the page renders. It runs after any locale switch asked for before it
 * (activateLocale), so the page renders in that locale with its messages: no flash of the previous language, no raw
 * ids. Later locale changes load them too.
 */
export function loadCatalogsFor(pathname: string): Promise<void> {
  return addCatalogs(catalogsForPath(pathname));
}

/**
 * Adds catalogs a part of a page needs when it first shows (ON_DEMAND_CATALOGS), in turn with locale switches as
 * loadCatalogsFor does; from then on a locale switch loads them too. Resolves once their messages are in i18n.
 */
export function loadCatalogs(names: readonly OnDemandCatalog[]): Promise<void> {
  return addCatalogs(names);
}

function addCatalogs(names: readonly string[]): Promise<void> {
  return serialized(async () => {
    const missing = new Set(names.filter((name) => !catalogsInUse.has(name)));
    if (missing.size === 0) return;
    const locale = i18n.locale || SOURCE_LOCALE;
    const modules = await Promise.all(loadersFor(locale, missing).map((load) => load()));
    catalogsInUse = new Set([...catalogsInUse, ...missing]);
    // merged into the active locale's messages; i18n emits "change", so what is on screen re-renders
    i18n.load(locale, Object.assign({}, ...modules.map((module) => module.messages)) as Messages);
  });
}

/** Maps 'de-CH' or 'DE' to a supported locale, or undefined. */
export function normalizeLocale(candidate: string | null | undefined, supported: readonly string[] = FALLBACK_LANGUAGES): string | undefined {
  if (!candidate) return undefined;
  const lower = candidate.toLowerCase();
  if (supported.includes(lower)) return lower;
  const base = lower.split(/[-_]/)[0];
  return base && supported.includes(base) ? base : undefined;
}

/** The first of a list of language tags (`ui_locales`, navigator.languages) the product speaks. */
export function firstSupported(tags: readonly string[], supported: readonly string[] = FALLBACK_LANGUAGES): string | undefined {
  for (const tag of tags) {
    const locale = normalizeLocale(tag, supported);
    if (locale) return locale;
  }
  return undefined;
}

/**
 * The language a page opens in: the app's `ui_locales` on the sign-in page (an authorization request's hint, passed
 * on by the provider: server/oidc/login-hints.ts), else the person's stored choice, else the browser's languages
 * (a first visit from a French browser is in French), else en. After sign-in the account's saved language wins
 * (session machine).
 */
export function pickLocale(sources: { uiLocales?: string | null | undefined; stored?: string | null | undefined; browser?: readonly string[] | undefined }): { locale: string; from: 'ui_locales' | 'stored' | 'browser' | 'default' } {
  const hinted = firstSupported((sources.uiLocales ?? '').split(/\s+/).filter(Boolean));
  if (hinted) return { locale: hinted, from: 'ui_locales' };
  const stored = normalizeLocale(sources.stored);
  if (stored) return { locale: stored, from: 'stored' };
  const browser = firstSupported(sources.browser ?? []);
  if (browser) return { locale: browser, from: 'browser' };
  return { locale: SOURCE_LOCALE, from: 'default' };
}

/** The language at start-up (pickLocale); an app's ui_locales is kept as the visitor's choice for the rest of the visit. */
export function initialLocale(): string {
  const search = typeof window === 'undefined' ? '' : window.location.search;
  const picked = pickLocale({
    uiLocales: new URLSearchParams(search).get('ui_locales'),
    stored: readStorage(STORAGE_KEYS.locale),
    browser: typeof navigator === 'undefined' ? [] : navigator.languages?.length ? navigator.languages : [navigator.language],
  });
  if (picked.from === 'ui_locales') writeStorage(STORAGE_KEYS.locale, picked.locale);
  return picked.locale;
}

function syncDocumentLanguage(locale: string): void {
  if (typeof document !== 'undefined') document.documentElement.lang = locale;
}

/**
 * Loads the catalogs of `locale` (every catalog in use: the pages seen so far) and only then activates it, so nothing
 * renders in a locale whose messages are not there; falls back to en when the locale is unknown or its catalogs fail
 * to load. Returns the active locale. Runs in turn with loadCatalogsFor (see `serialized`).
 */
export function activateLocale(locale: string): Promise<string> {
  const target = normalizeLocale(locale) ?? SOURCE_LOCALE;
  return serialized(async () => {
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
  });
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
