/**
 * `npm run i18n:check`: extracts the messages (unless --no-extract), then
 * fails listing every message that a de/fr/it catalog lacks or leaves empty.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SOURCE_LOCALE, TRANSLATED_LOCALES } from '../contract/locales';

const ROOT = new URL('..', import.meta.url).pathname;
const LOCALES_DIR = join(ROOT, 'locales');
const SOURCE = SOURCE_LOCALE;
const TARGETS = TRANSLATED_LOCALES;

interface PoEntry {
  id: string;
  context: string | undefined;
  translations: string[];
  obsolete: boolean;
}

function unquote(line: string): string {
  const match = /^"(.*)"$/.exec(line.trim());
  if (!match) return '';
  return JSON.parse(`"${match[1]}"`) as string;
}

/** Minimal gettext .po parser (msgctxt, msgid, msgstr, msgstr[n], continuation lines). */
export function parsePo(text: string): PoEntry[] {
  const entries: PoEntry[] = [];
  for (const block of text.split(/\r?\n\s*\r?\n/)) {
    const lines = block.split(/\r?\n/);
    let id: string | undefined;
    let context: string | undefined;
    const translations: string[] = [];
    let obsolete = false;
    let current: { kind: 'id' | 'ctx' | 'str'; index: number } | undefined;
    for (const raw of lines) {
      let line = raw;
      if (line.startsWith('#~')) {
        obsolete = true;
        line = line.slice(2).trim();
      } else if (line.startsWith('#')) continue;
      const keyword = /^(msgctxt|msgid|msgid_plural|msgstr(?:\[(\d+)\])?)\s+(".*")$/.exec(line.trim());
      if (keyword) {
        const value = unquote(keyword[3] ?? '');
        if (keyword[1] === 'msgid') {
          id = value;
          current = { kind: 'id', index: 0 };
        } else if (keyword[1] === 'msgctxt') {
          context = value;
          current = { kind: 'ctx', index: 0 };
        } else if (keyword[1] === 'msgid_plural') {
          current = undefined;
        } else {
          const index = keyword[2] ? Number(keyword[2]) : 0;
          translations[index] = value;
          current = { kind: 'str', index };
        }
      } else if (line.trim().startsWith('"') && current) {
        const value = unquote(line);
        if (current.kind === 'id') id = (id ?? '') + value;
        else if (current.kind === 'ctx') context = (context ?? '') + value;
        else translations[current.index] = (translations[current.index] ?? '') + value;
      }
    }
    if (id !== undefined && id !== '') entries.push({ id, context, translations, obsolete });
  }
  return entries;
}

const key = (entry: PoEntry) => `${entry.context ?? ''}\u0004${entry.id}`;

function catalogNames(): string[] {
  const dir = join(LOCALES_DIR, SOURCE);
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((file) => file.endsWith('.po'))
    .map((file) => file.slice(0, -3))
    .sort();
}

function main(): number {
  if (!process.argv.includes('--no-extract')) {
    execFileSync(process.platform === 'win32' ? 'npx.cmd' : 'npx', ['lingui', 'extract', '--clean'], { cwd: ROOT, stdio: 'ignore' });
  }
  const problems: string[] = [];
  const catalogs = catalogNames();
  if (catalogs.length === 0) problems.push(`no source catalogs in locales/${SOURCE}/`);
  for (const catalog of catalogs) {
    const source = parsePo(readFileSync(join(LOCALES_DIR, SOURCE, `${catalog}.po`), 'utf8')).filter((entry) => !entry.obsolete);
    for (const locale of TARGETS) {
      const file = join(LOCALES_DIR, locale, `${catalog}.po`);
      if (!existsSync(file)) {
        problems.push(`locales/${locale}/${catalog}.po: file missing (${source.length} messages)`);
        continue;
      }
      const translated = new Map(parsePo(readFileSync(file, 'utf8')).filter((entry) => !entry.obsolete).map((entry) => [key(entry), entry]));
      for (const entry of source) {
        const target = translated.get(key(entry));
        if (!target) problems.push(`locales/${locale}/${catalog}.po: missing ${JSON.stringify(entry.id)}`);
        else if (target.translations.length === 0 || target.translations.some((text) => text === undefined || text.trim() === '')) {
          problems.push(`locales/${locale}/${catalog}.po: empty translation for ${JSON.stringify(entry.id)}`);
        }
      }
    }
  }
  if (problems.length > 0) {
    console.error(`i18n check failed: ${problems.length} problem(s)`);
    for (const problem of problems) console.error(`  ${problem}`);
    return 1;
  }
  console.log(`i18n check passed: ${catalogs.join(', ')} complete in ${TARGETS.join(', ')}`);
  return 0;
}

process.exitCode = main();
