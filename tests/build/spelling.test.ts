/**
 * Words people read: the generic error once said "Error ocurred" on every screen, in the server's messages and in the
 * QA test cases (machines/*.qa.ts). This scans everything a person or a tester reads for that misspelling (and its
 * sister forms), so it cannot come back through a copy-paste.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../..');
const DIRS = ['src', 'server', 'machines', 'contract', 'docs', 'e2e', 'locales'];
const MISSPELLINGS = /\b(ocurr\w*|occured|occurence)\b/i;

function files(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) out.push(...files(full));
    // compiled catalogs (locales/**/*.ts) are build artefacts: their .po sources are scanned
    else if (/\.(tsx?|po|md)$/.test(name) && !(full.includes(`${path.sep}locales${path.sep}`) && name.endsWith('.ts'))) out.push(full);
  }
  return out;
}

describe('spelling of user-visible and QA texts', () => {
  it('no "ocurred" (or "occured") in the SPA, the server, the QA words, the catalogs or the docs', () => {
    const hits: string[] = [];
    for (const file of DIRS.flatMap((dir) => files(path.join(ROOT, dir)))) {
      readFileSync(file, 'utf8').split('\n').forEach((line, index) => {
        if (MISSPELLINGS.test(line) && !line.includes('MISSPELLINGS')) hits.push(`${path.relative(ROOT, file)}:${index + 1}`);
      });
    }
    expect(hits).toEqual([]);
  });
});
