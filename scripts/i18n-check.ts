/**
 * `npm run i18n:check`: extracts the messages from the code in memory (Lingui's own extractor and catalog reader, as
 * `lingui extract` uses them) and fails listing every message that a de/fr/it catalog lacks or leaves empty, or that
 * the en (source) catalog lacks. It writes nothing: `lingui extract` rewrites the catalogs' `#:` source references
 * whenever a line moves, which left CI's checkout dirty. `npm run i18n:extract` is what updates the catalogs.
 *
 * --no-extract: check the committed catalogs against the en catalog's messages instead of the code's.
 */
import { existsSync } from 'node:fs';
import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { getCatalogs, type CatalogType } from '@lingui/cli/api';
import { getConfig } from '@lingui/conf';
import { SOURCE_LOCALE, TRANSLATED_LOCALES } from '../contract/locales';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const SOURCE = SOURCE_LOCALE;
const TARGETS = TRANSLATED_LOCALES;

const isEmpty = (text: string | undefined) => text === undefined || text.trim() === '';

async function check(extract: boolean): Promise<{ problems: string[]; names: string[] }> {
  const config = getConfig({ cwd: ROOT, configPath: `${ROOT}lingui.config.ts` });
  const catalogs = await getCatalogs(config);
  const problems: string[] = [];
  const names: string[] = [];
  if (catalogs.length === 0) problems.push('no catalogs in lingui.config.ts');
  for (const catalog of catalogs) {
    const file = (locale: string) => relative(ROOT, catalog.getFilename(locale));
    names.push(file(SOURCE).replace(/^.*\/|\.po$/g, ''));
    const committed: Record<string, CatalogType | undefined> = {};
    for (const locale of [SOURCE, ...TARGETS]) {
      if (existsSync(catalog.getFilename(locale))) committed[locale] = await catalog.read(locale);
    }
    // the messages the catalogs must hold: the code's (what `lingui extract --clean` would keep), or the en catalog's
    const extracted = extract
      ? await catalog.collect()
      : Object.fromEntries(Object.entries(committed[SOURCE] ?? {}).filter(([, message]) => !message.obsolete));
    if (!extracted) {
      problems.push(`${file(SOURCE)}: extracting its messages from the code failed (run npm run i18n:extract to see why)`);
      continue;
    }
    const count = Object.keys(extracted).length;
    for (const locale of [SOURCE, ...TARGETS]) {
      const messages = committed[locale];
      if (!messages) {
        problems.push(`${file(locale)}: file missing (${count} messages)`);
        continue;
      }
      for (const [id, { message }] of Object.entries(extracted)) {
        const text = JSON.stringify(message ?? id);
        const entry = messages[id];
        if (!entry) problems.push(`${file(locale)}: missing ${text} (run npm run i18n:extract)`);
        else if (locale !== SOURCE && isEmpty(entry.translation)) problems.push(`${file(locale)}: empty translation for ${text}`);
      }
    }
  }
  return { problems, names: names.sort() };
}

async function main(): Promise<number> {
  const { problems, names } = await check(!process.argv.includes('--no-extract'));
  if (problems.length > 0) {
    console.error(`i18n check failed: ${problems.length} problem(s)`);
    for (const problem of problems) console.error(`  ${problem}`);
    return 1;
  }
  console.log(`i18n check passed: ${names.join(', ')} complete in ${TARGETS.join(', ')}`);
  return 0;
}

process.exitCode = await main();
