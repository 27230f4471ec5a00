/**
 * The Lingui catalogs of the SPA (locales/<lang>/*.po) read for the screens suite: find a control by its
 * translated name, and tell an English message shown on a de/fr/it page from a word that is the same in both.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export const LANGS = ['en', 'de', 'fr', 'it'] as const;
export type ScreenLang = (typeof LANGS)[number];

function unquote(raw: string): string {
  return JSON.parse(raw) as string;
}

/** msgid → msgstr of one language (all catalogs: common, account, admin). */
function readCatalog(lang: ScreenLang): Map<string, string> {
  const dir = join('locales', lang);
  const messages = new Map<string, string>();
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.po'))) {
    const lines = readFileSync(join(dir, file), 'utf8').split('\n');
    let id: string | null = null;
    let str: string | null = null;
    let target: 'id' | 'str' | null = null;
    const flush = () => {
      if (id) messages.set(id, str || id);
      id = null;
      str = null;
      target = null;
    };
    for (const line of lines) {
      if (line.startsWith('msgid ')) {
        flush();
        id = unquote(line.slice(6));
        target = 'id';
      } else if (line.startsWith('msgstr ')) {
        str = unquote(line.slice(7));
        target = 'str';
      } else if (line.startsWith('"') && target) {
        if (target === 'id') id = (id ?? '') + unquote(line);
        else str = (str ?? '') + unquote(line);
      } else if (line.trim() === '') {
        flush();
      }
    }
    flush();
  }
  return messages;
}

const catalogs = new Map<ScreenLang, Map<string, string>>(LANGS.map((lang) => [lang, readCatalog(lang)]));

/** The translation of an English source message (the message itself when it is missing). */
export function tr(lang: ScreenLang, source: string): string {
  return catalogs.get(lang)?.get(source) ?? source;
}

/** A pattern for a message with `{placeholders}`; ICU plurals and `<0>` tags are left out (rendered in parts). */
function patternOf(message: string): RegExp | null {
  if (/<\/?\d+>|\{\w+,\s*(plural|select)/.test(message)) return null;
  const parts = message.split(/\{\w+\}/);
  if (parts.length === 1) return null;
  const escaped = parts.map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  // a placeholder stands for a value, at least one character
  return new RegExp(`^${escaped.join('.+')}$`);
}

interface EnglishMessage {
  source: string;
  pattern: RegExp | null;
}

const english: EnglishMessage[] = [...(catalogs.get('en')?.keys() ?? [])].filter((m) => m.trim() !== '').map((source) => ({ source, pattern: patternOf(source) }));
const exact = new Map(english.filter((m) => !m.pattern).map((m) => [m.source, m]));

/**
 * The English message `text` is, when the `lang` translation of that message is different (so English text on
 * a `lang` page means it was not translated); null when the text is no message, or one spelled the same in `lang`.
 */
export function untranslatedMessage(lang: ScreenLang, text: string): string | null {
  if (lang === 'en') return null;
  const direct = exact.get(text);
  if (direct) return tr(lang, direct.source) !== direct.source ? direct.source : null;
  for (const m of english) {
    if (!m.pattern || !m.pattern.test(text)) continue;
    const translated = tr(lang, m.source);
    // the translation keeps the same wording around the placeholders: not evidence of a missing translation
    if (patternOf(translated)?.test(text)) continue;
    return m.source;
  }
  return null;
}

/** Whether `text` is any English message of the catalogs (exactly or by its placeholders). */
export function isEnglishMessage(text: string): boolean {
  return exact.has(text) || english.some((m) => m.pattern?.test(text) === true);
}
