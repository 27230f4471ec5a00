/**
 * `npm run i18n:check` (scripts/i18n-check.ts) is a check, not a writer: run by `.ci/run` on a clean checkout it must
 * leave every tracked file as it was (it used to run `lingui extract`, which rewrote the catalogs' `#:` source
 * references and left CI's checkout dirty), and it must still fail on a message the code has and a de/fr/it catalog
 * lacks or leaves empty. The failing cases run on a temporary copy of what extraction reads; the real catalogs are
 * never edited.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../..');
const TSX = path.join(ROOT, 'node_modules/.bin/tsx');
const TIMEOUT = 300_000;

function runCheck(cwd: string): { status: number | null; stdout: string; stderr: string } {
  const result = spawnSync(TSX, ['scripts/i18n-check.ts'], { cwd, encoding: 'utf8', timeout: TIMEOUT - 10_000 });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** Every .po file under locales/, path -> content. */
function catalogs(root: string): Map<string, string> {
  const files = new Map<string, string>();
  const dir = path.join(root, 'locales');
  for (const locale of readdirSync(dir)) {
    for (const file of readdirSync(path.join(dir, locale)).filter((name) => name.endsWith('.po'))) {
      files.set(`locales/${locale}/${file}`, readFileSync(path.join(dir, locale, file), 'utf8'));
    }
  }
  return files;
}

const digest = (files: Map<string, string>) =>
  [...files].map(([file, text]) => `${file} ${createHash('sha256').update(text).digest('hex')}`).sort();

describe('npm run i18n:check on this checkout', () => {
  it(
    'passes and changes no tracked file (git status and every catalog byte for byte)',
    () => {
      const gitStatus = () => execFileSync('git', ['status', '--porcelain'], { cwd: ROOT, encoding: 'utf8' });
      const statusBefore = gitStatus();
      const before = catalogs(ROOT);
      let result: ReturnType<typeof runCheck> | undefined;
      try {
        result = runCheck(ROOT);
        expect(gitStatus()).toBe(statusBefore);
        expect(digest(catalogs(ROOT))).toEqual(digest(before));
      } finally {
        // a check that wrote anyway must not leave the checkout dirty for whoever runs next
        for (const [file, text] of before) {
          if (readFileSync(path.join(ROOT, file), 'utf8') !== text) writeFileSync(path.join(ROOT, file), text);
        }
      }
      expect(result.stderr).toBe('');
      expect(result.status).toBe(0);
      expect(result.stdout).toMatch(/i18n check passed/);
    },
    TIMEOUT,
  );
});

describe('npm run i18n:check on a copy with a missing translation', () => {
  let copy = '';

  beforeAll(() => {
    copy = mkdtempSync(path.join(tmpdir(), 'iam-i18n-check-'));
    for (const entry of ['lingui.config.ts', 'package.json', 'tsconfig.json', 'contract', 'scripts', 'src', 'locales']) {
      cpSync(path.join(ROOT, entry), path.join(copy, entry), { recursive: true, filter: (source) => !/locales\/.+\.ts$/.test(source) });
    }
    symlinkSync(path.join(ROOT, 'node_modules'), path.join(copy, 'node_modules'), 'dir');
  });

  afterAll(() => {
    if (copy) rmSync(copy, { recursive: true, force: true });
  });

  /** Replaces `from` (which must occur once) with `to` in the copy's file. */
  function edit(file: string, from: string, to: string): void {
    const text = readFileSync(path.join(copy, file), 'utf8');
    expect(text.split(from), `${file} holds ${JSON.stringify(from)} once`).toHaveLength(2);
    writeFileSync(path.join(copy, file), text.replace(from, to));
  }

  it(
    'fails listing a message emptied in de, one removed from fr and one the code has but no catalog, writing nothing',
    () => {
      // an emptied German translation and a French entry taken out (from the real catalogs' text, in the copy)
      edit('locales/de/common.po', 'msgid "Items per page"\nmsgstr "Einträge pro Seite"', 'msgid "Items per page"\nmsgstr ""');
      const fr = readFileSync(path.join(copy, 'locales/fr/common.po'), 'utf8');
      const entry = /\n\n(?:#[^\n]*\n)*msgid "Copy it now: it is shown only once\."\nmsgstr "[^"\n]+"\n/.exec(fr);
      expect(entry, 'fr/common.po has the entry').not.toBeNull();
      writeFileSync(path.join(copy, 'locales/fr/common.po'), fr.replace(entry?.[0] ?? '', '\n'));
      // a message the code gains without `npm run i18n:extract`
      writeFileSync(
        path.join(copy, 'src/components/i18n-check-probe.tsx'),
        "import { Trans } from '@lingui/react/macro';\n\nexport const Probe = () => <Trans>A message no catalog has yet</Trans>;\n",
      );
      const before = digest(catalogs(copy));

      const result = runCheck(copy);

      expect(result.status).toBe(1);
      expect(result.stderr).toMatch(/i18n check failed/);
      expect(result.stderr).toMatch(/locales\/de\/common\.po: .*"Items per page"/);
      expect(result.stderr).toMatch(/locales\/fr\/common\.po: .*"Copy it now: it is shown only once\."/);
      for (const locale of ['de', 'fr', 'it']) {
        expect(result.stderr).toMatch(new RegExp(`locales/${locale}/common\\.po: .*"A message no catalog has yet"`));
      }
      // the messages left alone are not reported
      expect(result.stderr).not.toMatch(/locales\/(?:fr|it)\/common\.po: .*"Items per page"/);
      expect(digest(catalogs(copy))).toEqual(before);
    },
    TIMEOUT,
  );
});
