import { Readable } from 'node:stream';
import { parse } from 'csv-parse';
import { setImmediate as tick } from 'node:timers/promises';
import { sql, type SqlBool } from 'kysely';
import type { Db } from '../../db/index';
import { EXPORT_COLUMNS, type CsvEncoding } from '../../../contract/admin/import';
import { CSV_EXCERPT_LENGTH, CSV_MAX_CELL_LENGTH, CSV_MAX_COLUMNS } from '../../../contract/domain/csv-limits';
import { accountStateOf } from '../../../contract/common';
import { accountWhere, shortSearchVia, type SearchVia, type UserFilters } from './user-search';

/**
 * CSV/formula injection (OWASP "CSV Injection", ASVS 5.0 V1.2.10): a spreadsheet runs a cell that starts with
 * = + - @ TAB CR or NUL. Checking only the start of the value is not enough: a spreadsheet opened with another
 * locale's list separator (, ; TAB |), or a reader that splits lines naively, starts a new cell after any
 * separator or line break inside the value ("a;=1+1"), possibly after spaces or a quote. So a `'` goes before
 * every trigger character (= + - @ TAB CR NUL) that could begin a cell: at the start of the value and after any of , ; TAB | CR LF
 * (and the spaces/double quotes that may follow them). Every exported cell is also double-quoted, with embedded
 * quotes doubled (RFC 4180). A value whose cell already starts with apostrophes before a trigger gets one more, so
 * unescapeCell (one fewer) undoes exactly this on import and an exported file imports as is.
 */
export const CELL_SEPARATORS = [',', ';', '\t', '|', '\r', '\n'] as const;
// eslint-disable-next-line no-control-regex
const NEEDS_QUOTE = /(?<=^|[,;\t|\r\n])([ "]*)(?='*[=+\-@\t\r\u0000])/g;
// eslint-disable-next-line no-control-regex
const ESCAPED = /(?<=^|[,;\t|\r\n])([ "]*)'(?='*[=+\-@\t\r\u0000])/g;

export function escapeCell(value: string): string {
  return value.replace(NEEDS_QUOTE, "$1'");
}
/** Undoes escapeCell on import. */
export function unescapeCell(value: string): string {
  return value.replace(ESCAPED, '$1');
}

/** Rows per export query: one statement, one csv-stringify call and one stream chunk each. */
export const EXPORT_BATCH = 2000;

// a cell without a separator (the common case: ids, dates, names) needs the full check only when it starts with a
// trigger (after spaces, quotes or apostrophes); a superset of what NEEDS_QUOTE matches
// eslint-disable-next-line no-control-regex
const MAY_NEED_QUOTE = /^[ "']*[=+\-@\t\r\u0000]|[,;\t|\r\n]/;

/** One RFC 4180 line, every cell quoted (embedded quotes doubled), as csv-stringify's `quoted: true` writes it. */
const csvLine = (cells: readonly string[]) => `"${cells.map((c) => (c.includes('"') ? c.replace(/"/g, '""') : c)).join('","')}"\n`;

const escapeFast = (value: string) => (MAY_NEED_QUOTE.test(value) ? escapeCell(value) : value);

/**
 * Streams the filtered users as CSV, newest first: keyset batches of EXPORT_BATCH rows over the same indexes as the
 * list ((created_at, id) after the previous batch's last row, so every batch costs its own size), each stringified
 * on its own (csv-stringify, every cell quoted, formula cells escaped) and handed on as one chunk. The generator
 * runs only when the reader wants more (Readable.from pulls; a slow client holds the next query back), so memory
 * stays at about one batch whatever the size of the export, and it gives the event loop a turn between batches
 * (better-sqlite3 is synchronous: a long export must not stall other requests).
 */
export function exportUsersCsv(handle: Db, filters: UserFilters): Readable {
  const db = handle.kysely;
  async function* chunks(): AsyncGenerator<string> {
    const via = await exportSearchVia(handle, filters);
    const where = accountWhere(handle.dialect, 'user', filters, via);
    let cursor: { created_at: string; id: string } | undefined;
    let first = true;
    for (;;) {
      let q = db
        .selectFrom('accounts')
        .select([...EXPORT_COLUMNS.filter((c) => c !== 'status'), 'accounts.status', sql<number>`accounts.password_hash is not null`.as('has_password'), 'accounts.email_verified_at'])
        .where(where);
      if (cursor) {
        const c = cursor;
        // a row value seeks the index (SQLite scans the whole index for the equivalent OR of bound parameters)
        q = q.where((eb) => eb(eb.refTuple('accounts.created_at', 'accounts.id'), '<', eb.tuple(c.created_at, c.id)));
      }
      const page = await q.orderBy('accounts.created_at', 'desc').orderBy('accounts.id', 'desc').limit(EXPORT_BATCH).execute();
      // one cell per column of the contract (EXPORT_COLUMNS): a column added there fails tsc here until it has one
      const records = page.map((r) => {
        const cells: Record<(typeof EXPORT_COLUMNS)[number], string> = {
          id: escapeFast(r.id),
          email: escapeFast(r.email),
          first_name: escapeFast(r.first_name),
          last_name: escapeFast(r.last_name),
          locale: escapeFast(r.locale),
          auth_type: escapeFast(r.auth_type),
          provider: escapeFast(r.provider ?? ''),
          technical: Number(r.technical) === 1 ? 'true' : 'false',
          phone: escapeFast(r.phone ?? ''),
          // status: the state the list shows (INVITED, ACTIVE, INACTIVE)
          status: accountStateOf({ status: r.status, auth_type: r.auth_type, has_password: Boolean(Number(r.has_password)), email_verified: Boolean(r.email_verified_at) }),
          created_at: escapeFast(r.created_at),
          updated_at: escapeFast(r.updated_at),
        };
        return EXPORT_COLUMNS.map((column) => cells[column]);
      });
      // every cell quoted (OWASP): a quoted cell is text to every reader that honours RFC 4180 quoting
      yield (first ? `\ufeff${csvLine(EXPORT_COLUMNS)}` : '') + records.map(csvLine).join('');
      first = false;
      const last = page[page.length - 1];
      if (!last || page.length < EXPORT_BATCH) return;
      cursor = { created_at: last.created_at, id: last.id };
      await tick();
    }
  }
  return Readable.from(chunks(), { objectMode: false, highWaterMark: 64 * 1024 });
}

/**
 * SQLite: a search term common enough to fill a batch quickly walks the created_at index with LIKE (the FTS5 route
 * would fetch and sort every match again for each batch); a rare one goes through FTS5.
 */
async function exportSearchVia(handle: Db, filters: UserFilters): Promise<SearchVia> {
  // a rare 1–2 character term through the short-term index, a common one walks
  const short = await shortSearchVia(handle, 'user', filters);
  if (short) return short;
  const term = filters.search?.trim().toLowerCase();
  if (handle.dialect !== 'sqlite' || !term || [...term].length < 3) return 'index';
  const fts = handle.kysely
    .selectFrom(sql<{ rowid: number }>`accounts_fts`.as('accounts_fts'))
    .select(sql`1`.as('one'))
    .where(sql<SqlBool>`accounts_fts match ${`"${term.replace(/"/g, '""')}"`}`)
    .limit(EXPORT_BATCH + 1);
  const n = Number((await handle.kysely.selectFrom(fts.as('t')).select((eb) => eb.fn.countAll<number | string>().as('n')).executeTakeFirstOrThrow()).n);
  return n > EXPORT_BATCH ? 'scan' : 'index';
}

/** windows-1252 0x80–0x9F (undefined positions stay the C1 control, as the WHATWG Encoding Standard maps them). */
const CP1252_HIGH = '\u20ac\u0081\u201a\u0192\u201e\u2026\u2020\u2021\u02c6\u2030\u0160\u2039\u0152\u008d\u017d\u008f\u0090\u2018\u2019\u201c\u201d\u2022\u2013\u2014\u02dc\u2122\u0161\u203a\u0153\u009d\u017e\u0178';

/** windows-1252 by table: Node 20's TextDecoder('windows-1252') decodes 0x80–0x9F as Latin-1 controls. */
function decodeWindows1252(buf: Buffer): string {
  return buf.toString('latin1').replace(/[\u0080-\u009f]/g, (c) => CP1252_HIGH[c.charCodeAt(0) - 0x80] ?? c);
}

/**
 * Decodes an uploaded CSV: a byte-order mark decides (UTF-8, UTF-16 LE/BE); without one, UTF-16 is recognised
 * by its zero bytes, and anything that is valid UTF-8 is UTF-8. Everything else is read as windows-1252 (the
 * "ANSI" code page Excel uses for "CSV" in Western European locales; a superset of Latin-1 for printable
 * characters), so a Latin-1/ANSI file keeps its accents instead of turning into U+FFFD. The report names the
 * encoding used (docs/IMPORT.md).
 */
export function decodeCsv(buf: Buffer): { text: string; encoding: CsvEncoding } {
  if (buf.length >= 3 && buf[0] === 0xef && buf[1] === 0xbb && buf[2] === 0xbf) return { text: new TextDecoder('utf-8').decode(buf.subarray(3)), encoding: 'utf-8' };
  if (buf.length >= 2 && buf[0] === 0xff && buf[1] === 0xfe) return { text: new TextDecoder('utf-16le').decode(buf.subarray(2)), encoding: 'utf-16le' };
  if (buf.length >= 2 && buf[0] === 0xfe && buf[1] === 0xff) return { text: new TextDecoder('utf-16be').decode(buf.subarray(2)), encoding: 'utf-16be' };
  const sample = buf.subarray(0, 4096);
  let zeroEven = 0;
  let zeroOdd = 0;
  for (let i = 0; i < sample.length; i++) {
    if (sample[i] !== 0) continue;
    if (i % 2 === 0) zeroEven++;
    else zeroOdd++;
  }
  const half = sample.length / 2;
  // ASCII text in UTF-16 has a zero in every other byte
  if (half >= 2 && zeroOdd > half * 0.4 && zeroEven === 0) return { text: new TextDecoder('utf-16le').decode(buf), encoding: 'utf-16le' };
  if (half >= 2 && zeroEven > half * 0.4 && zeroOdd === 0) return { text: new TextDecoder('utf-16be').decode(buf), encoding: 'utf-16be' };
  try {
    return { text: new TextDecoder('utf-8', { fatal: true }).decode(buf), encoding: 'utf-8' };
  } catch {
    return { text: decodeWindows1252(buf), encoding: 'windows-1252' };
  }
}

export interface ParsedCsv {
  /** how the file was decoded */
  encoding: CsvEncoding;
  header: string[];
  /** [line number in the file, record] */
  records: { row: number; values: Record<string, string> }[];
}

/** A file refused for its shape: the field error `code` with its `size` ("…more than 100 columns"). */
export class CsvRefused extends Error {
  constructor(
    readonly code: 'csv_invalid' | 'csv_too_many_columns' | 'csv_cell_too_long',
    readonly size?: number,
    readonly row?: number,
  ) {
    super(code);
  }
}

/** At most CSV_EXCERPT_LENGTH characters (code points) of a cell, ending in '…' when it was cut. */
export function excerpt(value: string): string {
  if (value.length <= CSV_EXCERPT_LENGTH) return value;
  const points = [...value.slice(0, 2 * CSV_EXCERPT_LENGTH + 1)];
  if (points.length <= CSV_EXCERPT_LENGTH && value.length <= 2 * CSV_EXCERPT_LENGTH) return value;
  return `${points.slice(0, CSV_EXCERPT_LENGTH - 1).join('')}…`;
}

/**
 * Sniffs ';' or ',' from the header line (outside quotes) and checks the header's shape on the way: more than
 * CSV_MAX_COLUMNS cells or a cell longer than CSV_MAX_CELL_LENGTH is refused after reading at most
 * CSV_MAX_COLUMNS × (CSV_MAX_CELL_LENGTH + 3) characters, whatever the size of the line.
 */
function scanHeader(text: string): ',' | ';' {
  const limit = Math.min(text.length, CSV_MAX_COLUMNS * (CSV_MAX_CELL_LENGTH + 3));
  let inQuotes = false;
  let commas = 0;
  let semis = 0;
  let cell = 0;
  for (let i = 0; i < limit; i++) {
    const ch = text.charCodeAt(i);
    if (ch === 34 /* " */) inQuotes = !inQuotes;
    else if (!inQuotes && (ch === 10 || ch === 13)) break;
    else if (!inQuotes && (ch === 44 /* , */ || ch === 59) /* ; */) {
      if (ch === 44) commas++;
      else semis++;
      if (Math.max(commas, semis) + 1 > CSV_MAX_COLUMNS) throw new CsvRefused('csv_too_many_columns', CSV_MAX_COLUMNS, 1);
      cell = 0;
      continue;
    }
    if (++cell > CSV_MAX_CELL_LENGTH + 2) throw new CsvRefused('csv_cell_too_long', CSV_MAX_CELL_LENGTH, 1);
  }
  return semis > commas ? ';' : ',';
}

/**
 * Parses a CSV (encoding by decodeCsv, ',' or ';') with a header row. Streams through csv-parse in 64 KiB
 * chunks and gives the event loop a turn every 64 KiB of input, so a big file does not hold other requests. A row
 * of more than CSV_MAX_COLUMNS cells or a cell of more than CSV_MAX_CELL_LENGTH characters stops the parse with
 * CsvRefused (csv-parse's own record cap bounds what it buffers before that); malformed input is 'csv_invalid'.
 */
export async function parseCsv(buf: Buffer): Promise<ParsedCsv> {
  // a large file's header shape (and delimiter) first, from its first bytes: a hostile header is refused before the
  // whole file is decoded. The prefix ends before a UTF-8 character it would cut, so it decodes as the file does.
  let headEnd = CSV_MAX_COLUMNS * (CSV_MAX_CELL_LENGTH + 3) * 4;
  while (headEnd < buf.length && ((buf[headEnd] as number) & 0xc0) === 0x80) headEnd--;
  const headDelimiter = headEnd < buf.length ? scanHeader(decodeCsv(buf.subarray(0, headEnd)).text) : null;
  const { text, encoding } = decodeCsv(buf);
  if (text.includes('\u0000')) throw new CsvRefused('csv_invalid');
  const parser = parse({
    delimiter: headDelimiter ?? scanHeader(text),
    relax_column_count: true,
    skip_empty_lines: true,
    trim: true,
    info: true,
    // csv-parse's buffers for one record: bounded before a cell or a row of cells can grow past the caps
    max_record_size: CSV_MAX_COLUMNS * (CSV_MAX_CELL_LENGTH + 1),
  });
  const chunks: string[] = [];
  for (let i = 0; i < text.length; i += 65536) chunks.push(text.slice(i, i + 65536));
  const source = Readable.from(chunks);
  source.pipe(parser);
  let header: string[] | undefined;
  const records: ParsedCsv['records'] = [];
  let checked = 0;
  try {
    for await (const item of parser as AsyncIterable<{ record: string[]; info: { lines: number; bytes: number } }>) {
      const cells = item.record;
      const row = item.info.lines;
      if (cells.length > CSV_MAX_COLUMNS) throw new CsvRefused('csv_too_many_columns', CSV_MAX_COLUMNS, row);
      for (const cell of cells) if (cell.length > CSV_MAX_CELL_LENGTH) throw new CsvRefused('csv_cell_too_long', CSV_MAX_CELL_LENGTH, row);
      if (item.info.bytes - checked >= 65536) {
        checked = item.info.bytes;
        await tick();
      }
      if (!header) {
        header = cells.map((h) => h.trim().toLowerCase());
        continue;
      }
      const values: Record<string, string> = {};
      header.forEach((h, i) => {
        values[h] = unescapeCell((cells[i] ?? '').trim());
      });
      records.push({ row, values });
    }
  } catch (error) {
    source.destroy();
    parser.destroy();
    if (error instanceof CsvRefused) throw error;
    const code = (error as { code?: unknown }).code;
    if (code === 'CSV_MAX_RECORD_SIZE') throw new CsvRefused('csv_cell_too_long', CSV_MAX_CELL_LENGTH);
    throw new CsvRefused('csv_invalid');
  }
  return { encoding, header: header ?? [], records };
}
