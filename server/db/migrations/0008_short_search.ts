import { type Kysely, PostgresAdapter, sql } from 'kysely';

/**
 * Admin search for 1–2 character terms through an index (issue 15). Trigram indexes (0003) need 3 characters, so a
 * short term that matches few rows used to walk the whole list.
 * - SQLite: the FTS5 trigram index already holds every 3-character window of search_text; an occurrence of a short
 *   term is the start of one of them unless it sits in the last two characters. Those are indexed here
 *   (expressions substr(search_text, -2) and substr(search_text, -1)); the FTS5 terms starting with the short term
 *   come from its vocabulary (fts5vocab table accounts_fts_vocab).
 * - PostgreSQL: a GIN index over the distinct 1- and 2-character grams of search_text (spaces left out: a trimmed
 *   term of 1–2 characters holds none). The function is costly per row (cost 1000: the planner takes the index rather
 *   than evaluating it on a walk) and parallel unsafe: a query that uses it stays in one process (the planner's
 *   default estimate of 5 000 rows for a rare gram chose parallel workers, whose start-up cost ~150 ms on a busy
 *   2-core machine for a result of a few rows).
 * Both are built for existing rows (an index build, no row rewrite). PostgreSQL's GIN index is not built in the
 * migration's transaction but right after it (`onlineIndexes`, server/db/index.ts buildOnlineIndexes): CONCURRENTLY on
 * a big table. Built in the transaction it held a SHARE lock on accounts for the whole build — evaluating the function
 * for every row, about 0.3–0.4 ms each: 293 s at 1 M rows during which no account could be created, updated or
 * signed in. Same index, same name and definition as before; databases that have it keep it.
 */
/* eslint-disable @typescript-eslint/no-explicit-any -- migrations are frozen in time and must not depend on current types */
export const onlineIndexes = [{ name: 'accounts_search_grams_idx', table: 'accounts', using: 'using gin (account_short_grams(search_text))' }];

async function dialectOf(db: Kysely<any>): Promise<'sqlite' | 'postgres'> {
  return db.getExecutor().adapter instanceof PostgresAdapter ? 'postgres' : 'sqlite';
}

export async function up(db: Kysely<any>): Promise<void> {
  if ((await dialectOf(db)) === 'postgres') {
    await sql`create function account_short_grams(t text) returns text[] language sql immutable strict parallel unsafe cost 1000 as $$
        select coalesce(array_agg(distinct g), '{}')
        from (select substr(t, i, n) as g from generate_series(1, length(t)) as i cross join (values (1), (2)) as v(n) where i + n - 1 <= length(t)) s
        where position(' ' in g) = 0
      $$`.execute(db);
    // accounts_search_grams_idx: see onlineIndexes
  } else {
    await sql`create index accounts_search_end2_idx on accounts (substr(search_text, -2))`.execute(db);
    await sql`create index accounts_search_end1_idx on accounts (substr(search_text, -1))`.execute(db);
    // the FTS5 index's terms (trigrams) with their document counts, read by range (no storage of its own)
    await sql`create virtual table accounts_fts_vocab using fts5vocab(accounts_fts, row)`.execute(db);
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  if ((await dialectOf(db)) === 'postgres') {
    await sql`drop index if exists accounts_search_grams_idx`.execute(db);
    await sql`drop function if exists account_short_grams(text)`.execute(db);
  } else {
    await sql`drop table if exists accounts_fts_vocab`.execute(db);
    await sql`drop index if exists accounts_search_end2_idx`.execute(db);
    await sql`drop index if exists accounts_search_end1_idx`.execute(db);
  }
}
