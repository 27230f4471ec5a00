import { setImmediate as tick } from 'node:timers/promises';
import { beforeAll, describe, expect, it } from 'vitest';
import { CSV_EXCERPT_LENGTH, CSV_MAX_CELL_LENGTH, CSV_MAX_COLUMNS } from '../../../contract/domain/csv-limits';
import { CsvRefused, excerpt, parseCsv } from '../../../server/services/admin/csv';
import { describeEachDb } from '../../helpers/app';
import { actors, multipart, type Actors } from '../admin/fixtures';

/**
 * Issue 28.4 (outside audit, low): a CSV header of a million columns stalled the whole server for 4.3 s and the report
 * echoed a 5 MB e-mail cell in full. Now a row of more than CSV_MAX_COLUMNS cells or a cell longer than
 * CSV_MAX_CELL_LENGTH characters is refused at once with a field error, a report echoes at most an excerpt of a cell,
 * and parsing gives the event loop turns. (How long the refusal takes: `npm run bench:csv-caps`, BENCHMARKS.md.)
 */
const HEADER = ['email', 'first_name', 'last_name', 'locale', 'auth_type'];
const header = (columns: number) => [...HEADER, ...Array.from({ length: columns - HEADER.length }, (_, i) => `extra_${i}`)].join(',');

describe('parseCsv caps', () => {
  it('refuses a header of more than CSV_MAX_COLUMNS columns and takes one of exactly that many', async () => {
    await expect(parseCsv(Buffer.from(`${header(CSV_MAX_COLUMNS + 1)}\r\na@x.test,A,B,en,CREDENTIALS\r\n`))).rejects.toMatchObject({ code: 'csv_too_many_columns', size: CSV_MAX_COLUMNS });
    const parsed = await parseCsv(Buffer.from(`${header(CSV_MAX_COLUMNS)}\r\na@x.test,A,B,en,CREDENTIALS\r\n`));
    expect(parsed.header).toHaveLength(CSV_MAX_COLUMNS);
    expect(parsed.records).toHaveLength(1);
  });

  it('refuses a header of a million columns (7.7 MB) after reading its first hundred', async () => {
    const huge = Buffer.from(`${header(1_000_000)}\r\n`);
    expect(huge.length).toBeGreaterThan(7_000_000);
    const refused = await parseCsv(huge).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(CsvRefused);
    expect(refused).toMatchObject({ code: 'csv_too_many_columns', row: 1 });
  });

  it('refuses a data row of more cells than the cap, also when the header is short (csv-parse relaxes column counts)', async () => {
    const row = ['a@x.test', 'A', 'B', 'en', 'CREDENTIALS', ...Array.from({ length: CSV_MAX_COLUMNS }, () => 'x')].join(',');
    await expect(parseCsv(Buffer.from(`${header(5)}\r\nb@x.test,A,B,en,CREDENTIALS\r\n${row}\r\n`))).rejects.toMatchObject({ code: 'csv_too_many_columns', row: 3 });
  });

  it('refuses a cell longer than CSV_MAX_CELL_LENGTH, in the header, in a data row and inside quotes; takes one of exactly that length', async () => {
    const long = 'x'.repeat(CSV_MAX_CELL_LENGTH + 1);
    await expect(parseCsv(Buffer.from(`${header(5)},${long}\r\n`))).rejects.toMatchObject({ code: 'csv_cell_too_long', size: CSV_MAX_CELL_LENGTH });
    await expect(parseCsv(Buffer.from(`${header(5)}\r\na@x.test,${long},B,en,CREDENTIALS\r\n`))).rejects.toMatchObject({ code: 'csv_cell_too_long', row: 2 });
    await expect(parseCsv(Buffer.from(`${header(5)}\r\na@x.test,"${long}",B,en,CREDENTIALS\r\n`))).rejects.toMatchObject({ code: 'csv_cell_too_long' });
    const exact = await parseCsv(Buffer.from(`${header(5)}\r\na@x.test,${'y'.repeat(CSV_MAX_CELL_LENGTH)},B,en,CREDENTIALS\r\n`));
    expect(exact.records[0]?.values.first_name).toHaveLength(CSV_MAX_CELL_LENGTH);
  });

  it('refuses a 5 MB cell (no separator, no line break) without buffering it whole', async () => {
    const big = Buffer.from(`${header(5)}\r\n${'m'.repeat(5 * 1024 * 1024)}@x.test,A,B,en,CREDENTIALS\r\n`);
    await expect(parseCsv(big)).rejects.toMatchObject({ code: 'csv_cell_too_long' });
  });

  it('gives the event loop turns while it parses a large file', async () => {
    const rows = Array.from({ length: 40_000 }, (_, i) => `p${i}@turns.test,First${i},Last${i},en,CREDENTIALS`);
    const file = Buffer.from(`${header(5)}\r\n${rows.join('\r\n')}\r\n`);
    expect(file.length).toBeGreaterThan(1_500_000);
    let turns = 0;
    let parsing = true;
    const counter = (async () => {
      while (parsing) {
        await tick();
        turns++;
      }
    })();
    const parsed = await parseCsv(file);
    parsing = false;
    await counter;
    expect(parsed.records).toHaveLength(40_000);
    // one turn per 64 KiB of input at least: ~25 for this file
    expect(turns).toBeGreaterThanOrEqual(Math.floor(file.length / 65536) - 1);
  });

  it('excerpt keeps short values whole and cuts long ones to CSV_EXCERPT_LENGTH code points ending in …', () => {
    expect(excerpt('a@x.test')).toBe('a@x.test');
    const exact = 'e'.repeat(CSV_EXCERPT_LENGTH);
    expect(excerpt(exact)).toBe(exact);
    const cut = excerpt('z'.repeat(5_000_000));
    expect([...cut]).toHaveLength(CSV_EXCERPT_LENGTH);
    expect(cut.endsWith('…')).toBe(true);
    // astral characters count as one and are never split
    const emoji = excerpt('😀'.repeat(CSV_EXCERPT_LENGTH + 5));
    expect([...emoji]).toHaveLength(CSV_EXCERPT_LENGTH);
    expect(emoji).not.toMatch(/[\ud800-\udbff](?![\udc00-\udfff])/);
  });
});

describeEachDb('users import: caps over HTTP', (get) => {
  let who: Actors;
  beforeAll(async () => {
    who = await actors(get());
  });
  const upload = (content: Buffer | string, lang = 'en') => {
    const m = multipart('file', 'users.csv', content, 'text/csv');
    return get().app.inject({ method: 'POST', url: '/api/admin/users/import', headers: { ...who.superAdmin.headers, ...m.headers, 'accept-language': lang }, payload: m.payload });
  };
  const countUsers = async (domain: string) => {
    const res = await get().app.inject({ method: 'GET', url: `/api/admin/users?search=${domain}&size=10`, headers: who.superAdmin.headers });
    return (res.json() as { data: unknown[] }).data.length;
  };

  it('a million-column header: 422 with the field error in the admin language, nothing created', async () => {
    const res = await upload(`${header(1_000_000)}\r\nmillion@caps.test,A,B,en,CREDENTIALS\r\n`, 'de');
    expect(res.statusCode).toBe(422);
    const body = res.json() as { error: { code: string; fields: Record<string, string[]>; field_messages: Record<string, string[]> } };
    expect(body.error.code).toBe('users_import_failed');
    expect(body.error.fields).toEqual({ file: ['csv_too_many_columns'] });
    expect(body.error.field_messages.file).toEqual([`Die CSV-Datei hat mehr als ${CSV_MAX_COLUMNS} Spalten`]);
    expect(await countUsers('caps.test')).toBe(0);
  });

  it('a 5 MB e-mail cell: 422 csv_cell_too_long and the answer does not echo it', async () => {
    const res = await upload(`${header(5)}\r\n${'q'.repeat(5 * 1024 * 1024)}@caps.test,A,B,en,CREDENTIALS\r\n`, 'fr');
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({ error: { code: 'users_import_failed', fields: { file: ['csv_cell_too_long'] }, field_messages: { file: [`Une cellule du fichier CSV dépasse ${CSV_MAX_CELL_LENGTH} caractères`] } } });
    expect(res.body.length).toBeLessThan(2048);
  });

  it('a long but allowed e-mail cell: the failed row echoes an excerpt of it, not the cell', async () => {
    const email = `${'w'.repeat(CSV_MAX_CELL_LENGTH - 20)}@caps.test`;
    const res = await upload(`${header(5)}\r\n${email},A,B,en,CREDENTIALS\r\nok@caps.test,A,B,en,CREDENTIALS\r\n`);
    expect(res.statusCode).toBe(200);
    const report = (res.json() as { data: { created: number; failed: { row: number; email: string; fields: Record<string, string[]> }[] } }).data;
    expect(report.created).toBe(1);
    expect(report.failed).toHaveLength(1);
    expect(report.failed[0]?.row).toBe(2);
    expect([...(report.failed[0]?.email ?? '')]).toHaveLength(CSV_EXCERPT_LENGTH);
    expect(report.failed[0]?.email.endsWith('…')).toBe(true);
    expect(res.body.length).toBeLessThan(2048);
  });
});
