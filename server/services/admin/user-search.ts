import { sql, type ExpressionBuilder, type Expression, type SqlBool } from 'kysely';
import type { Database } from '../../db/schema';
import type { Db } from '../../db/index';
import { AppError } from '../../errors';
import { USER_COUNT_EXACT_BELOW, type UserFilters, type UserSort } from '../../../contract/admin/users';
import type { AccountView } from '../../../contract/common';
import { ACCOUNT_VIEW_COLUMNS, accountView } from './schemas';

/**
 * The search and count planner of account lists (users and admins, contract/admin/users.ts): the filter conditions,
 * how a search term is matched (trigram index, scan, short-term index, probe), how totals are counted (exact below
 * COUNT_EXACT_BELOW, else a lower bound), cursors and pages. Read-only; the users and admins services and the CSV
 * export (csv.ts) use it.
 */

export type { UserFilters } from '../../../contract/admin/users';

type AccountsEb = ExpressionBuilder<Database, 'accounts'>;

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);
/** FTS5 phrase: the whole term as one quoted string (trigram tokenizer → substring match). */
const ftsPhrase = (s: string) => `"${s.replace(/"/g, '""')}"`;

/**
 * How a search term is matched: `index` through the trigram index (pg_trgm GIN on PostgreSQL, FTS5 trigram on
 * SQLite), `scan` as `search_text LIKE` checked row by row while a list walks its created_at index. Both find the
 * same rows (search_text is lower-case, the term is lowered). PostgreSQL's planner picks between the GIN index and
 * the walk itself; on SQLite the FTS5 table has to be named, so listAccounts chooses (terms under 3 characters
 * cannot use a trigram index at all and always scan).
 */
export type SearchVia = 'index' | 'scan' | 'short' | 'probe';

/**
 * Terms of 1–2 characters that can go through the short-term index ('short'): printable ASCII and the lower-case
 * Latin-1 letters (é, ü, ß…), characters the FTS5 trigram tokenizer's case folding leaves as they are, so that a
 * trigram starting with the term is stored under a term starting with it; other short terms walk. (A trimmed term of
 * 1–2 characters holds no space.)
 */
const SHORT_INDEXABLE = /^[\x21-\x7e\u00df-\u00f6\u00f8-\u00ff]{1,2}$/;

/** The next character after the last one of an ASCII term: the exclusive upper end of the range of its prefixes. */
const nextChar = (s: string) => String.fromCharCode(s.charCodeAt(s.length - 1) + 1);

/**
 * A short term through indexes, the exact set of rows whose search_text contains it (search_text LIKE stays as the
 * check, so the answer is LIKE's):
 * - SQLite: an occurrence of the term starts a 3-character window (an FTS5 trigram) unless it sits in the last
 *   two characters. So: FTS5 matches of the trigrams that start with the term (from the vocabulary, a range), plus
 *   rows whose last two characters hold it (expression indexes of migration 0008).
 * - PostgreSQL: the GIN index of account_short_grams(search_text) (migration 0008).
 */
function shortTermCondition(dialect: 'sqlite' | 'postgres', term: string): Expression<SqlBool> {
  const like = sql<SqlBool>`accounts.search_text like ${`%${escapeLike(term)}%`} escape '\\'`;
  if (dialect === 'postgres') return sql<SqlBool>`account_short_grams(accounts.search_text) @> array[${term}]::text[] and ${like}`;
  // the OR of the trigrams the vocabulary holds with this prefix; with none, the term itself (no trigram: no match)
  const trigrams = sql`coalesce((select group_concat('"' || replace(v.term, '"', '""') || '"', ' OR ') from accounts_fts_vocab v where v.term >= ${term} and v.term < ${term.slice(0, -1) + nextChar(term)}), ${ftsPhrase(term)})`;
  const atEnd =
    term.length === 2
      ? sql`select e.rowid from accounts e where substr(e.search_text, -2) = ${term}`
      : sql`select e.rowid from accounts e where substr(e.search_text, -2) >= ${term} and substr(e.search_text, -2) < ${nextChar(term)} union all select e.rowid from accounts e where substr(e.search_text, -1) = ${term}`;
  return sql<SqlBool>`accounts.rowid in (select rowid from accounts_fts where accounts_fts match ${trigrams} union all ${atEnd}) and ${like}`;
}

/**
 * WHERE for account lists, every condition backed by an index:
 * type + filter columns → accounts_type_*_created_idx (SQLite), accounts_type_*_cover_idx (PostgreSQL); search → trigram index or LIKE (SearchVia);
 * role → role_subscriptions_role_rowid_idx (SQLite), role_subscriptions_role_idx (PostgreSQL).
 */
export function accountWhere(dialect: 'sqlite' | 'postgres', type: 'user' | 'admin', f: UserFilters, via: SearchVia = 'index') {
  return (eb: AccountsEb): Expression<SqlBool> => {
    const conds: Expression<SqlBool>[] = [eb('accounts.type', '=', type)];
    if (f.status) {
      // the state (contract/common.ts accountStateOf): INVITED = active, credentials, no password, not verified
      const invited = eb.and([eb('accounts.auth_type', '=', 'CREDENTIALS'), eb('accounts.password_hash', 'is', null), eb('accounts.email_verified_at', 'is', null)]);
      if (f.status === 'INACTIVE') conds.push(eb('accounts.status', '=', 'INACTIVE'));
      else conds.push(eb('accounts.status', '=', 'ACTIVE'), f.status === 'INVITED' ? invited : eb.not(invited));
    }
    if (f.technical !== undefined) conds.push(eb('accounts.technical', '=', f.technical ? 1 : 0));
    if (f.auth_type) conds.push(eb('accounts.auth_type', '=', f.auth_type));
    if (f.locale) conds.push(eb('accounts.locale', '=', f.locale));
    if (f.role) {
      // EXISTS probes the role's holders while the list walks an index of accounts. SQLite: by the account's integer
      // rowid, which every index entry carries (role_subscriptions_role_rowid_idx, migration 0012; the text id costs
      // about twice as much per probe); PostgreSQL hashes the holders once (Hash Semi Join)
      const holders = eb.selectFrom('role_subscriptions').select(sql`1`.as('one')).where('role_subscriptions.role_id', '=', f.role);
      conds.push(
        eb.exists(
          dialect === 'sqlite'
            ? holders.where(sql<SqlBool>`role_subscriptions.account_rowid = accounts.rowid`)
            : holders.whereRef('role_subscriptions.account_id', '=', 'accounts.id'),
        ),
      );
    }
    const term = searchTerm(f);
    if (term) {
      if (via === 'short' && SHORT_INDEXABLE.test(term)) {
        conds.push(shortTermCondition(dialect, term));
      } else if (dialect === 'sqlite' && via === 'probe' && [...term].length >= 3) {
        // `+`: the FTS5 matches are a set the walk of a filter's index probes (SQLite checks it on the index entry's
        // rowid before reading the row), not the driver of rowid lookups
        conds.push(sql<SqlBool>`+accounts.rowid in (select rowid from accounts_fts where accounts_fts match ${ftsPhrase(term)})`);
      } else if (dialect === 'sqlite' && via === 'index' && [...term].length >= 3) {
        conds.push(sql<SqlBool>`accounts.rowid in (select rowid from accounts_fts where accounts_fts match ${ftsPhrase(term)})`);
      } else if (dialect === 'postgres' && via === 'scan') {
        // the walk: an expression no index holds, so that the planner walks the list's order (or a filter's covering
        // index, which carries search_text) instead of the trigram bitmap it would pick on its estimate
        conds.push(sql<SqlBool>`(accounts.search_text || '') like ${`%${escapeLike(term)}%`} escape '\\'`);
      } else {
        conds.push(sql<SqlBool>`accounts.search_text like ${`%${escapeLike(term)}%`} escape '\\'`);
      }
    }
    return eb.and(conds);
  };
}

const searchTerm = (f: UserFilters) => f.search?.trim().toLowerCase() || undefined;

const hasFilters = (f: UserFilters) =>
  Boolean(searchTerm(f) || f.status || f.technical !== undefined || f.auth_type || f.role || f.locale);

/**
 * Totals up to this many rows are counted exactly; above it a list answers `total: COUNT_EXACT_BELOW` with
 * `total_is_lower_bound` (the SPA shows "10 000+"), unless the caller asks for `count=exact`. Unfiltered totals
 * are always exact (account_counters).
 */
export const COUNT_EXACT_BELOW = USER_COUNT_EXACT_BELOW;

/**
 * Search plan for a term of 3+ characters: walk the created_at index checking LIKE row by row while that visits at
 * most this many rows for the page (estimated from the bounded count), else take the matches from the search index
 * (SQLite FTS5, PostgreSQL trigrams) and sort them. PostgreSQL reads the heap row of every entry it walks
 * (accounts_type_created_idx does not carry search_text), so its budget is smaller; its planner cannot make this
 * choice itself: it estimates LIKE '%term%' at about 100 rows whatever the term (24 705 for "zimmermann" at 1 M), and
 * so always took the trigram bitmap, then read and sorted every match's heap block (18 800 blocks: 73 / 88 ms).
 */
const WALK_BUDGET = { sqlite: 20_000, postgres: 2_000 } as const;

export interface CountAnswer {
  total: number;
  /** the total is at least `total` (more rows match; counting them all was not asked for) */
  lowerBound: boolean;
}

/**
 * Rows a bounded count of a short search (1–2 characters: no trigram index) reads at most, newest first. When the
 * matches among them stay under the threshold, the total is what they gave, as a lower bound ("n+"); the page
 * still walks as far as it must.
 */
export const SHORT_SEARCH_COUNT_WINDOW = 20_000;

/**
 * A short term's route, from its density among the newest SHORT_PROBE_ROWS rows of the filtered list: a term found
 * in at least 1 % of them walks (a page is near; the index would fetch and sort every match), a rarer one goes
 * through the short-term index ('short'; "qx": none at all). undefined: not a short term the index can serve.
 */
export const SHORT_PROBE_ROWS = 2000;
const SHORT_PROBE_DENSE = 20;

/**
 * How many of the newest `rows` rows of the filtered list (search left out) contain `term` (LIKE, as the list's
 * check): `seen` rows read, `n` of them matching.
 */
async function likeMatchesInNewest(handle: Db, type: 'user' | 'admin', f: UserFilters, term: string, rows: number): Promise<{ seen: number | string; n: number | string | null }> {
  return windowQuery(handle, type, f, term, rows).executeTakeFirstOrThrow();
}

/**
 * likeMatchesInNewest's statement (the tests read its plan): with filters, a walk of a filter's index that reads
 * search_text on the index entry (migration 0011), not from the row.
 */
export function windowQuery(handle: Db, type: 'user' | 'admin', f: UserFilters, term: string, rows: number) {
  const db = handle.kysely;
  const window = db
    .selectFrom('accounts')
    .select('accounts.search_text')
    .where(accountWhere(handle.dialect, type, { ...f, search: undefined }))
    .orderBy('accounts.created_at', 'desc')
    .orderBy('accounts.id', 'desc')
    .limit(rows);
  return db
    .selectFrom(window.as('w'))
    .select((eb) => [
      eb.fn.countAll<number | string>().as('seen'),
      eb.fn.sum<number | string | null>(sql`case when w.search_text like ${`%${escapeLike(term)}%`} escape '\\' then 1 else 0 end`).as('n'),
    ]);
}

export async function shortSearchVia(handle: Db, type: 'user' | 'admin', f: UserFilters): Promise<'short' | 'scan' | undefined> {
  const term = searchTerm(f);
  if (!term || [...term].length >= 3 || !SHORT_INDEXABLE.test(term)) return undefined;
  const r = await likeMatchesInNewest(handle, type, f, term, SHORT_PROBE_ROWS);
  // a list shorter than the probe is walked whole anyway
  return Number(r.n ?? 0) >= SHORT_PROBE_DENSE || Number(r.seen) < SHORT_PROBE_ROWS ? 'scan' : 'short';
}

/**
 * SQLite, a search (3+ characters) with filters: driving from the FTS5 matches costs a row lookup per match (~2–4 µs:
 * the rows are spread over the table) to check the filters; walking a filter's index (type, column, created_at, id)
 * and probing the set of matches costs ~0.2 µs per index entry and reads only the rows in the set. So the walk
 * ('probe') wins when the matches are more than about 1/PROBE_RATIO of the filter's rows. The sizes: the matches
 * counted on the FTS5 index (up to FTS_COUNT_CAP), each filter's rows counted on its index (up to FILTER_COUNT_CAP),
 * kept for a minute per database handle (a plan choice only: a stale figure never changes an answer).
 */
const PROBE_RATIO = 8;
const FTS_COUNT_CAP = 50_000;
const FILTER_COUNT_CAP = 200_000;
const FILTER_SIZE_TTL_MS = 60_000;
const FILTER_SIZE_ENTRIES = 1000;
const filterSizes = new WeakMap<Db, Map<string, { n: number; at: number }>>();

/**
 * A size kept for FILTER_SIZE_TTL_MS per database handle under `key` (at most FILTER_SIZE_ENTRIES: a minute of typing
 * new terms must not grow it without end), else counted by `count`.
 */
async function keptSize(handle: Db, key: string, count: () => Promise<number>): Promise<number> {
  const cache = filterSizes.get(handle) ?? new Map<string, { n: number; at: number }>();
  filterSizes.set(handle, cache);
  const hit = cache.get(key);
  if (hit && Date.now() - hit.at < FILTER_SIZE_TTL_MS) return hit.n;
  const n = await count();
  if (!cache.has(key) && cache.size >= FILTER_SIZE_ENTRIES) cache.delete(cache.keys().next().value as string);
  cache.set(key, { n, at: Date.now() });
  return n;
}

function filterSize(handle: Db, type: 'user' | 'admin', column: 'status' | 'locale' | 'auth_type' | 'technical', value: string | number): Promise<number> {
  return keptSize(handle, `${type}|${column}|${value}`, async () => {
    const db = handle.kysely;
    const rows = db.selectFrom('accounts').select(sql`1`.as('one')).where('accounts.type', '=', type).where(`accounts.${column}`, '=', value).limit(FILTER_COUNT_CAP);
    return Number((await db.selectFrom(rows.as('t')).select((eb) => eb.fn.countAll<number | string>().as('n')).executeTakeFirstOrThrow()).n);
  });
}

export async function ftsProbeVia(handle: Db, type: 'user' | 'admin', f: UserFilters): Promise<'probe' | undefined> {
  const term = searchTerm(f);
  if (handle.dialect !== 'sqlite' || !term || [...term].length < 3) return undefined;
  const sizes: Promise<number>[] = [];
  // the status column as stored (INVITED and ACTIVE are both status ACTIVE)
  if (f.status) sizes.push(filterSize(handle, type, 'status', f.status === 'INACTIVE' ? 'INACTIVE' : 'ACTIVE'));
  if (f.locale) sizes.push(filterSize(handle, type, 'locale', f.locale));
  if (f.auth_type) sizes.push(filterSize(handle, type, 'auth_type', f.auth_type));
  if (f.technical !== undefined) sizes.push(filterSize(handle, type, 'technical', f.technical ? 1 : 0));
  if (sizes.length === 0) return undefined;
  const smallest = Math.min(...(await Promise.all(sizes)));
  return (await ftsMatches(handle, term)) * PROBE_RATIO > smallest ? 'probe' : undefined;
}

/**
 * The FTS5 matches of a term (up to FTS_COUNT_CAP), counted on the index alone and kept like the filter sizes (a
 * plan choice: the answer's rows and total come from the statements that follow, never from this figure).
 */
function ftsMatches(handle: Db, term: string): Promise<number> {
  return keptSize(handle, `fts|${term}`, async () => {
    const db = handle.kysely;
    const fts = db.selectFrom(sql<{ rowid: number }>`accounts_fts`.as('accounts_fts')).select(sql`1`.as('one')).where(sql<SqlBool>`accounts_fts match ${ftsPhrase(term)}`).limit(FTS_COUNT_CAP);
    return Number((await db.selectFrom(fts.as('t')).select((eb) => eb.fn.countAll<number | string>().as('n')).executeTakeFirstOrThrow()).n);
  });
}

/** The total of a list, exact up to `limit` (undefined: exact however large). `via`: a short term's route. */
async function countAccounts(handle: Db, type: 'user' | 'admin', f: UserFilters, limit: number | undefined, via: SearchVia = 'index'): Promise<CountAnswer> {
  const db = handle.kysely;
  const bounded = (n: number): CountAnswer => (limit !== undefined && n > limit ? { total: limit, lowerBound: true } : { total: n, lowerBound: false });
  if (!hasFilters(f)) {
    const c = await db.selectFrom('account_counters').select('n').where('type', '=', type).executeTakeFirst();
    if (c) return { total: Number(c.n), lowerBound: false };
  }
  if (type === 'user' && f.role && !hasFilters({ ...f, role: undefined })) {
    // only users hold roles: count on role_subscriptions_role_idx (role_id, account_id) alone
    let ids = db.selectFrom('role_subscriptions').select('account_id').distinct().where('role_id', '=', f.role);
    if (limit !== undefined) ids = ids.limit(limit + 1);
    const r = await db.selectFrom(ids.as('t')).select((eb) => eb.fn.countAll<number | string>().as('n')).executeTakeFirstOrThrow();
    return bounded(Number(r.n));
  }
  const term = searchTerm(f);
  const onlySearch = term !== undefined && !hasFilters({ ...f, search: undefined });
  if (handle.dialect === 'sqlite' && onlySearch && [...term].length >= 3) {
    // the FTS5 index alone (no row lookups): its matches minus the other type's matches (admins are few, or users
    // when counting admins: then the walk below is the cheaper one anyway)
    const other = type === 'user' ? 'admin' : 'user';
    const others = Number((await db.selectFrom('account_counters').select('n').where('type', '=', other).executeTakeFirst())?.n ?? 0);
    if (others <= 1000) {
      let fts = db.selectFrom(sql<{ rowid: number }>`accounts_fts`.as('accounts_fts')).select(sql`1`.as('one')).where(sql<SqlBool>`accounts_fts match ${ftsPhrase(term)}`);
      if (limit !== undefined) fts = fts.limit(limit + others + 1);
      const all = Number((await db.selectFrom(fts.as('t')).select((eb) => eb.fn.countAll<number | string>().as('n')).executeTakeFirstOrThrow()).n);
      const otherMatches = Number(
        (
          await db
            .selectFrom('accounts')
            .select((eb) => eb.fn.countAll<number | string>().as('n'))
            .where('type', '=', other)
            .where(sql<SqlBool>`search_text like ${`%${escapeLike(term)}%`} escape '\\'`)
            .executeTakeFirstOrThrow()
        ).n,
      );
      return bounded(all - otherMatches);
    }
  }
  if (limit !== undefined && term !== undefined && [...term].length < 3 && via !== 'short') {
    // no index for the term: read a window of the newest rows of the filtered list and count the matches in it
    const r = await likeMatchesInNewest(handle, type, f, term, SHORT_SEARCH_COUNT_WINDOW);
    const n = Number(r.n ?? 0);
    if (n > limit) return { total: limit, lowerBound: true };
    // the window held the whole list: exact; else at least n
    return { total: n, lowerBound: Number(r.seen) >= SHORT_SEARCH_COUNT_WINDOW };
  }
  let rows = db.selectFrom('accounts').select(sql`1`.as('one')).where(accountWhere(handle.dialect, type, f, via));
  if (limit !== undefined) rows = rows.limit(limit + 1);
  const r = await db.selectFrom(rows.as('t')).select((eb) => eb.fn.countAll<number | string>().as('n')).executeTakeFirstOrThrow();
  return bounded(Number(r.n));
}

/**
 * Keyset cursor of the newest-first (or oldest-first) list: a row's (created_at, id) and which side of it the
 * wanted page lies on (`a`: the rows after it in list order, the next page; `b`: the rows before it, the previous
 * page). Opaque to clients (base64url).
 */
export interface ListCursor {
  side: 'a' | 'b';
  created_at: string;
  id: string;
}

export function encodeCursor(c: ListCursor): string {
  return Buffer.from(`${c.side}|${c.created_at}|${c.id}`, 'utf8').toString('base64url');
}

const invalidCursor = () => new AppError(422, 'validation_failed', { fields: { cursor: ['invalid'] } });

export function decodeCursor(s: string): ListCursor {
  const parts = Buffer.from(s, 'base64url').toString('utf8').split('|');
  const [side, createdAt, id] = parts;
  if (parts.length !== 3 || (side !== 'a' && side !== 'b') || !createdAt || !id || createdAt.length > 40 || id.length > 64 || Number.isNaN(Date.parse(createdAt))) {
    throw invalidCursor();
  }
  return { side, created_at: createdAt, id };
}

export interface ListOptions {
  page: number;
  size: number;
  sort?: UserSort | undefined;
  /** keyset cursor (from next_cursor / prev_cursor); `page` is then only echoed */
  cursor?: string | undefined;
  /** 'exact' counts every matching row; 'bounded' stops at COUNT_EXACT_BELOW */
  count?: 'bounded' | 'exact' | undefined;
}

export interface ListAnswer {
  rows: AccountView[];
  total: number;
  totalIsLowerBound: boolean;
  /** cursor of the next page (created_at sorts), null on the last page */
  nextCursor: string | null;
  /** cursor of the previous page (created_at sorts), null on the first page */
  prevCursor: string | null;
}

/**
 * One page of accounts. Newest first by default (created_at desc, id desc) or oldest first, by offset (`page`) or
 * by keyset cursor; other sorts (email, name) by offset. Deferred join: the inner query walks only the covering
 * (type[, filter], created_at, id) index to find the page's ids, the outer one fetches those rows by primary key.
 * An offset page past the middle of a list whose total is known scans from the other end, so the deepest page
 * costs what the first half does; a cursor page costs its own size wherever it is.
 */
export async function listAccounts(handle: Db, type: 'user' | 'admin', f: UserFilters, opts: ListOptions): Promise<ListAnswer> {
  const { page, size } = opts;
  const sort = opts.sort ?? '-created_at';
  const cursor = opts.cursor ? decodeCursor(opts.cursor) : undefined;
  const keyset = sort === '-created_at' || sort === 'created_at';
  if (cursor && !keyset) throw invalidCursor();
  const short = (await shortSearchVia(handle, type, f)) ?? (await ftsProbeVia(handle, type, f));
  // a short term's own route ('short' or 'scan'); 'probe' is a choice of the keyset walk only
  const shortRoute = short === 'probe' ? undefined : short;
  const offset = cursor ? 0 : (page - 1) * size;
  const limitCount = opts.count === 'exact' ? undefined : COUNT_EXACT_BELOW;
  let counted: CountAnswer | undefined;
  if (short === 'probe' && keyset && !cursor) {
    // the filtered matches in list order, from one walk that probes the FTS5 matches once: the total and the page
    const one = await probedMatches(handle, type, f, sort === '-created_at' ? 'desc' : 'asc', limitCount);
    if (one.lowerBound) counted = one;
    else return probedPage(handle, one.ids, offset, size, sort === '-created_at' ? 'desc' : 'asc');
  }
  counted ??= await countAccounts(handle, type, f, limitCount, short);
  const { total, lowerBound } = counted;
  const none: ListAnswer = { rows: [], total, totalIsLowerBound: lowerBound, nextCursor: null, prevCursor: null };
  if (!cursor && !lowerBound && offset >= total) return none;
  if (!keyset) return { ...none, rows: await sortedPage(handle, type, f, sort, size, offset, shortRoute ?? 'index'), prevCursor: null };

  const listDir: 'asc' | 'desc' = sort === '-created_at' ? 'desc' : 'asc';
  // a short term's route; else a common term walks the list, a rarer one takes FTS5 (driven or probed)
  const walked = shortRoute ?? (await searchVia(handle, type, f, { total, lowerBound }, offset + size));
  const via = walked === 'index' && short === 'probe' ? 'probe' : walked;
  // the side of the cursor to read, in the order of the walk
  const backwards = cursor?.side === 'b';
  // offset pages past the middle of a known total read from the far end
  const fromEnd = !cursor && !lowerBound && offset > total / 2;
  const flip = (d: 'asc' | 'desc'): 'asc' | 'desc' => (d === 'asc' ? 'desc' : 'asc');
  const walkDir = backwards || fromEnd ? flip(listDir) : listDir;
  const limit = fromEnd ? Math.min(size, total - offset) : size + 1;
  const off = fromEnd ? Math.max(0, total - offset - size) : offset;

  let ids = handle.kysely.selectFrom('accounts').select('accounts.id').where(accountWhere(handle.dialect, type, f, via));
  if (cursor) {
    const c = cursor;
    // rows beyond the cursor in the walk's direction; (created_at, id) is unique, so no row is seen twice or skipped
    const op = walkDir === 'desc' ? '<' : '>';
    // a row value: both databases seek the (type[, filter], created_at, id) index to it (SQLite plans the
    // equivalent OR of bound parameters as a scan of the whole index)
    ids = ids.where((eb) => eb(eb.refTuple('accounts.created_at', 'accounts.id'), op, eb.tuple(c.created_at, c.id)));
  }
  ids = ids.orderBy('accounts.created_at', walkDir).orderBy('accounts.id', walkDir).limit(limit).offset(off);
  const found = await handle.kysely
    .selectFrom('accounts')
    .select([...ACCOUNT_VIEW_COLUMNS])
    .where('id', 'in', ids)
    .orderBy('created_at', walkDir)
    .orderBy('id', walkDir)
    .execute();
  // found is in walk order; `limit` asked one row more than a page (not fromEnd) to know whether there is more
  const more = !fromEnd && found.length > size;
  const pageRows = more ? found.slice(0, size) : found;
  const rows = walkDir === listDir ? pageRows : [...pageRows].reverse();
  const first = rows[0];
  const last = rows[rows.length - 1];
  // is there a page after / before this one?
  const hasNext = backwards ? Boolean(cursor) : fromEnd ? offset + size < total : more;
  const hasPrev = backwards ? more : cursor ? true : offset > 0;
  // what the page itself shows about a lower-bound total: rows up to it exist; an offset walk that ran out of rows
  // saw them all
  let shown = { total, lowerBound };
  if (lowerBound && !cursor) {
    const reached = offset + rows.length;
    shown = !hasNext && (rows.length > 0 || offset === 0) ? { total: reached, lowerBound: false } : { total: Math.max(total, reached), lowerBound: true };
  }
  return {
    rows: rows.map(accountView),
    total: shown.total,
    totalIsLowerBound: shown.lowerBound,
    nextCursor: hasNext && last ? encodeCursor({ side: 'a', created_at: last.created_at, id: last.id }) : null,
    prevCursor: hasPrev && first ? encodeCursor({ side: 'b', created_at: first.created_at, id: first.id }) : null,
  };
}

/**
 * SQLite, a search with filters on the probe route: the ids of the matching rows in list order (up to `limit` + 1),
 * from one walk of the smallest filter's index that probes the FTS5 matches, evaluated once. When they are no more
 * than `limit`, they are the total and every page; more, and the total is a lower bound (the page is then walked on
 * its own).
 */
async function probedMatches(handle: Db, type: 'user' | 'admin', f: UserFilters, dir: 'asc' | 'desc', limit: number | undefined): Promise<CountAnswer & { ids: string[] }> {
  let q = handle.kysely.selectFrom('accounts').select('accounts.id').where(accountWhere(handle.dialect, type, f, 'probe')).orderBy('accounts.created_at', dir).orderBy('accounts.id', dir);
  if (limit !== undefined) q = q.limit(limit + 1);
  const ids = (await q.execute()).map((r) => r.id);
  if (limit !== undefined && ids.length > limit) return { total: limit, lowerBound: true, ids: [] };
  return { total: ids.length, lowerBound: false, ids };
}

/** An offset page of a list whose ids (in list order) are all known: those of the page, fetched by primary key. */
async function probedPage(handle: Db, ids: string[], offset: number, size: number, dir: 'asc' | 'desc'): Promise<ListAnswer> {
  const pageIds = ids.slice(offset, offset + size);
  const rows = pageIds.length
    ? await handle.kysely.selectFrom('accounts').select([...ACCOUNT_VIEW_COLUMNS]).where('id', 'in', pageIds).orderBy('created_at', dir).orderBy('id', dir).execute()
    : [];
  const first = rows[0];
  const last = rows[rows.length - 1];
  return {
    rows: rows.map(accountView),
    total: ids.length,
    totalIsLowerBound: false,
    nextCursor: offset + size < ids.length && last ? encodeCursor({ side: 'a', created_at: last.created_at, id: last.id }) : null,
    prevCursor: offset > 0 && first ? encodeCursor({ side: 'b', created_at: first.created_at, id: first.id }) : null,
  };
}

/**
 * Walk the created_at index with LIKE when the matches are dense enough that a page is found within WALK_BUDGET rows
 * (a common term: the search index route would fetch and sort every match), else use the search index (FTS5 on
 * SQLite, trigrams on PostgreSQL; a rare term: the walk would scan the list). The density comes from the bounded
 * count: `total` of at most the list size.
 */
export async function searchVia(handle: Db, type: 'user' | 'admin', f: UserFilters, count: CountAnswer, rowsWanted: number): Promise<SearchVia> {
  const term = searchTerm(f);
  if (!term || [...term].length < 3 || count.total === 0) return 'index';
  const c = await handle.kysely.selectFrom('account_counters').select('n').where('type', '=', type).executeTakeFirst();
  // rows the walk visits ≈ rowsWanted × (list size / matches); the matches are at least `total`
  const listSize = Math.max(count.total, Number(c?.n ?? 0));
  return (rowsWanted * listSize) / count.total <= WALK_BUDGET[handle.dialect] ? 'scan' : 'index';
}

/** The columns of a sort order (USER_SORTS), the id last as the tie-breaker so that pages are disjoint and complete. */
function sortColumns(sort: UserSort): { cols: ('created_at' | 'email_normalized' | 'last_name' | 'first_name')[]; dir: 'asc' | 'desc' } {
  const dir = sort.startsWith('-') ? 'desc' : 'asc';
  const key = sort.replace(/^-/, '');
  const cols = key === 'email' ? (['email_normalized'] as const) : key === 'name' ? (['last_name', 'first_name'] as const) : (['created_at'] as const);
  return { cols: [...cols], dir };
}

/** One page in another order than newest first: the ids walk the order's index (deferred join), then the rows. */
async function sortedPage(handle: Db, type: 'user' | 'admin', f: UserFilters, sort: UserSort, limit: number, offset: number, via: SearchVia): Promise<AccountView[]> {
  const { cols, dir } = sortColumns(sort);
  let ids = handle.kysely.selectFrom('accounts').select('accounts.id').where(accountWhere(handle.dialect, type, f, via));
  for (const c of cols) ids = ids.orderBy(`accounts.${c}`, dir);
  ids = ids.orderBy('accounts.id', dir).limit(limit).offset(offset);
  let q = handle.kysely.selectFrom('accounts').select([...ACCOUNT_VIEW_COLUMNS, 'email_normalized']).where('id', 'in', ids);
  for (const c of cols) q = q.orderBy(c, dir);
  const rows = await q.orderBy('id', dir).execute();
  return rows.map(accountView);
}

/** The ids of one page (covering-index walk). */
function pageIdsQuery(handle: Db, type: 'user' | 'admin', f: UserFilters, limit: number, offset: number, dir: 'asc' | 'desc' = 'desc', via: SearchVia = 'index') {
  return handle.kysely
    .selectFrom('accounts')
    .select('accounts.id')
    .where(accountWhere(handle.dialect, type, f, via))
    .orderBy('accounts.created_at', dir)
    .orderBy('accounts.id', dir)
    .limit(limit)
    .offset(offset);
}

/** A page's statement as listAccounts runs it by offset (the bench prints its plan). */
export function pageQuery(handle: Db, type: 'user' | 'admin', f: UserFilters, limit: number, offset: number, dir: 'asc' | 'desc' = 'desc', via: SearchVia = 'index') {
  return handle.kysely
    .selectFrom('accounts')
    .select([...ACCOUNT_VIEW_COLUMNS])
    .where('id', 'in', pageIdsQuery(handle, type, f, limit, offset, dir, via))
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc');
}

/** The bounded count's statement (the bench prints its plan). */
export function countQuery(handle: Db, type: 'user' | 'admin', f: UserFilters, limit = COUNT_EXACT_BELOW) {
  return handle.kysely
    .selectFrom(handle.kysely.selectFrom('accounts').select(sql`1`.as('one')).where(accountWhere(handle.dialect, type, f)).limit(limit + 1).as('t'))
    .select((eb) => eb.fn.countAll<number | string>().as('n'));
}
