import { type Kysely, PostgresAdapter, sql } from 'kysely';

/**
 * Admin user list, a 1–2 character search with filters (issue 15): the index of each filter column (0009 SQLite, 0010
 * PostgreSQL) also carries search_text, so the LIKE of a short term (no trigram index can serve it) is checked on
 * the index entry. "ro" + status=INACTIVE + locale=it at 1 M: the bounded count read search_text of all ~12 400
 * filtered rows from the table (PostgreSQL: ~12 000 heap pages; SQLite: a row read each); now an index-only walk.
 * Same names, same leading columns: every plan that used them still does.
 */
/* eslint-disable @typescript-eslint/no-explicit-any -- migrations are frozen in time and must not depend on current types */
const FILTERS = ['status', 'locale', 'auth_type', 'technical'] as const;

async function isPostgres(db: Kysely<any>): Promise<boolean> {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

const name = (c: (typeof FILTERS)[number]) => (c === 'auth_type' ? 'accounts_type_auth_created_idx' : `accounts_type_${c}_created_idx`);

async function build(db: Kysely<any>, withSearch: boolean): Promise<void> {
  const pg = await isPostgres(db);
  for (const c of FILTERS) {
    const carried = [...FILTERS.filter((o) => o !== c), ...(withSearch ? ['search_text'] : [])];
    await sql`drop index if exists ${sql.id(name(c))}`.execute(db);
    if (pg) {
      await sql`create index ${sql.id(name(c))} on accounts (type, ${sql.id(c)}, created_at, id) include (${sql.join(carried.map((o) => sql.id(o)))})`.execute(db);
    } else {
      await db.schema
        .createIndex(name(c))
        .on('accounts')
        .columns(['type', c, 'created_at', 'id', ...carried])
        .execute();
    }
  }
}

export async function up(db: Kysely<any>): Promise<void> {
  await build(db, true);
}

export async function down(db: Kysely<any>): Promise<void> {
  await build(db, false);
}
