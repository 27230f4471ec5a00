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

export async function up(db: Kysely<any>): Promise<void> {
  if (!(await isPostgres(db))) return;
  for (const c of FILTERS) {
    const others = FILTERS.filter((o) => o !== c);
    await sql`drop index if exists ${sql.id(name(c))}`.execute(db);
    await sql`create index ${sql.id(name(c))} on accounts (type, ${sql.id(c)}, created_at, id) include (${sql.join(others.map((o) => sql.id(o)))})`.execute(db);
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  if (!(await isPostgres(db))) return;
  for (const c of FILTERS) {
    await sql`drop index if exists ${sql.id(name(c))}`.execute(db);
    await db.schema.createIndex(name(c)).on('accounts').columns(['type', c, 'created_at', 'id']).execute();
  }
}
