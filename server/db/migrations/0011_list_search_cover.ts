import { type Kysely, PostgresAdapter, sql } from 'kysely';

/**
 * Admin user list, a 1–2 character search with filters (issue 15): the index of each filter column (0009 SQLite, 0010
 * PostgreSQL) also carries search_text, so the LIKE of a short term (no trigram index can serve it) is checked on
 * the index entry. "ro" + status=INACTIVE + locale=it at 1 M: the bounded count read search_text of all ~12 400
 * filtered rows from the table (PostgreSQL: ~12 000 heap pages; SQLite: a row read each); now an index-only walk.
 * Same leading columns: every plan that used the old indexes uses the new ones.
 *
 * - SQLite: the four indexes are rebuilt under their names in the migration (SQLite has no online build; 46–81 s at
 *   1 M rows on a loaded 2-core machine).
 * - PostgreSQL: four new indexes (`accounts_type_*_cover_idx`) are built after the migrations' transaction
 *   (`onlineIndexes`, server/db/index.ts buildOnlineIndexes: CONCURRENTLY on a big table), then the old ones
 *   (`accounts_type_*_created_idx`) are dropped CONCURRENTLY (`retiredIndexes`). Dropping and rebuilding them inside
 *   the transaction held an ACCESS EXCLUSIVE lock on accounts for the whole rebuild (77–94 s at 1 M): no instance could
 *   read or write an account meanwhile. Those names are retired on PostgreSQL: no later migration may reuse them.
 */
/* eslint-disable @typescript-eslint/no-explicit-any -- migrations are frozen in time and must not depend on current types */
const FILTERS = ['status', 'locale', 'auth_type', 'technical'] as const;
type Filter = (typeof FILTERS)[number];

async function isPostgres(db: Kysely<any>): Promise<boolean> {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

const short = (c: Filter) => (c === 'auth_type' ? 'auth' : c);
const oldName = (c: Filter) => `accounts_type_${short(c)}_created_idx`;
const coverName = (c: Filter) => `accounts_type_${short(c)}_cover_idx`;
const carried = (c: Filter, withSearch: boolean) => [...FILTERS.filter((o) => o !== c), ...(withSearch ? ['search_text'] : [])];

export const onlineIndexes = FILTERS.map((c) => ({
  name: coverName(c),
  table: 'accounts',
  using: `(type, ${c}, created_at, id) include (${carried(c, true).join(', ')})`,
}));
export const retiredIndexes = FILTERS.map(oldName);

/** SQLite: the filter column's index under its name, rebuilt with (or without) search_text as its last column. */
async function rebuildSqlite(db: Kysely<any>, c: Filter, withSearch: boolean): Promise<void> {
  await sql`drop index if exists ${sql.id(oldName(c))}`.execute(db);
  await db.schema
    .createIndex(oldName(c))
    .on('accounts')
    .columns(['type', c, 'created_at', 'id', ...carried(c, withSearch)])
    .execute();
}

export async function up(db: Kysely<any>): Promise<void> {
  // PostgreSQL: see onlineIndexes and retiredIndexes
  if (await isPostgres(db)) return;
  for (const c of FILTERS) await rebuildSqlite(db, c, true);
}

export async function down(db: Kysely<any>): Promise<void> {
  const pg = await isPostgres(db);
  for (const c of FILTERS) {
    if (pg) {
      await sql`drop index if exists ${sql.id(coverName(c))}`.execute(db);
      await sql`drop index if exists ${sql.id(oldName(c))}`.execute(db);
      await sql`create index ${sql.id(oldName(c))} on accounts (type, ${sql.id(c)}, created_at, id) include (${sql.join(carried(c, false).map((o) => sql.id(o)))})`.execute(db);
    } else {
      await rebuildSqlite(db, c, false);
    }
  }
}
