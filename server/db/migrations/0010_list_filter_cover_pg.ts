import { type Kysely, PostgresAdapter, sql } from 'kysely';

/**
 * Admin user list with several filters (issue 15), PostgreSQL: as 0009 did for SQLite, the index of each filter
 * column (type, column, created_at, id) carries the other filter columns, here as INCLUDE columns, so a filter
 * combination is an index-only scan (no heap page per entry once the visibility map is set by (auto)vacuum).
 * role + locale=de + SSO at 1 M: 33 010 heap fetches by primary key (3.2 s, 45 000 buffers read) → an index-only
 * scan of the SSO entries and a hash semi-join with the role's holders (0.34 s). SQLite: nothing (0009).
 */
/* eslint-disable @typescript-eslint/no-explicit-any -- migrations are frozen in time and must not depend on current types */
const FILTERS = ['status', 'locale', 'auth_type', 'technical'] as const;

async function isPostgres(db: Kysely<any>): Promise<boolean> {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

const name = (c: (typeof FILTERS)[number]) => (c === 'auth_type' ? 'accounts_type_auth_created_idx' : `accounts_type_${c}_created_idx`);

/**
 * Superseded by 0011, whose indexes (the same plus search_text) are built online and replace these: a database that
 * has not applied 0010 yet skips this rebuild (inside the migrations' transaction, dropping an index holds an ACCESS
 * EXCLUSIVE lock on accounts until the commit: ~50 s at 1 M rows with no account read or written) and gets the final
 * indexes from 0011, the same as a database that applied 0010 earlier.
 */
export async function up(_db: Kysely<any>): Promise<void> {}

export async function down(db: Kysely<any>): Promise<void> {
  if (!(await isPostgres(db))) return;
  for (const c of FILTERS) {
    await sql`drop index if exists ${sql.id(name(c))}`.execute(db);
    await db.schema.createIndex(name(c)).on('accounts').columns(['type', c, 'created_at', 'id']).execute();
  }
}
