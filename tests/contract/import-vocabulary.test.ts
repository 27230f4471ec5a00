/**
 * Issue 32.4: the CSV vocabulary is written once, in contract/admin/import.ts (columns, skip reasons, job error codes);
 * docs/IMPORT.md says the same: its column table, the export's column line, each skip reason and each job code.
 * A column added to the contract fails here until the docs list it (and fails tsc in the parser and the export).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { EXPORT_COLUMNS, IMPORT_COLUMNS, IMPORT_JOB_ERROR_CODES, IMPORT_SKIP_REASONS, REQUIRED_IMPORT_COLUMNS } from '../../contract/admin/import';

const doc = readFileSync(new URL('../../docs/IMPORT.md', import.meta.url), 'utf8');

/** The rows of the import's column table: `| \`name\` | yes/no | values |`. */
function columnTable(): Array<{ name: string; required: boolean; values: string }> {
  const start = doc.indexOf('| column | required | values |');
  expect(start, 'docs/IMPORT.md has the column table').toBeGreaterThan(-1);
  const rows = doc.slice(start).split('\n').slice(2);
  const table = rows.slice(0, rows.findIndex((line) => !line.startsWith('|')));
  return table.map((line) => {
    const [name = '', required = '', values = ''] = line.split(/(?<!\\)\|/).slice(1, -1).map((cell) => cell.trim());
    return { name: name.replace(/`/g, ''), required: required === 'yes', values };
  });
}

describe('docs/IMPORT.md says what contract/admin/import.ts defines', () => {
  it('the column table: every column, in order, required or not, its values', () => {
    expect(columnTable()).toEqual(IMPORT_COLUMNS.map((c) => ({ name: c.name, required: c.required, values: c.values })));
    expect(REQUIRED_IMPORT_COLUMNS).toEqual(['email', 'first_name', 'last_name', 'locale', 'auth_type']);
  });

  it("the example's header and the export's column line", () => {
    expect(doc).toContain(`\n${IMPORT_COLUMNS.map((c) => c.name).join(';')}\n`);
    expect(doc).toContain(`Columns: \`${EXPORT_COLUMNS.join(',')}\``);
  });

  it('each skip reason and each job error code', () => {
    for (const reason of IMPORT_SKIP_REASONS) expect(doc, reason).toContain(`\`${reason}\``);
    for (const code of IMPORT_JOB_ERROR_CODES) expect(doc, code).toMatch(new RegExp(`\`(error\\.code: )?${code}\``));
  });
});
