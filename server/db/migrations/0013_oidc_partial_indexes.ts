import { type Kysely, PostgresAdapter, sql } from 'kysely';

/**
 * The lookup indexes of `oidc_models` index only the rows that have the value (issue 15: CPU per sign-in). Most rows
 * the provider writes leave these columns empty — no model of a sign-in has a user code (device flow only), grants,
 * codes and refresh tokens have no uid, interactions and sessions no grant id, interactions no account — and a full
 * index still stores (and on every insert, update and delete rewrites) an entry for each NULL. Every query on these
 * columns compares them with a value (`=`, `in`), which no NULL matches, so the partial indexes serve the same
 * queries. Measured on SQLite with a sign-in's eight `oidc_models` writes: 57 → 37 WAL pages written per sign-in,
 * 374 → 298 µs of CPU (BENCHMARKS.md "CPU per sign-in").
 *
 * - SQLite: the four indexes are rebuilt under their names in the migration.
 * - PostgreSQL: new indexes (`oidc_models_*_nn_idx`) are built after the migrations' transaction (`onlineIndexes`,
 *   CONCURRENTLY on a big table), then the old ones are dropped CONCURRENTLY (`retiredIndexes`), as in 0011: a
 *   rebuild inside the transaction would hold an ACCESS EXCLUSIVE lock on the table every sign-in writes to. Those
 *   names are retired on PostgreSQL: no later migration may reuse them.
 */
/* eslint-disable @typescript-eslint/no-explicit-any -- migrations are frozen in time and must not depend on current types */
const INDEXES = [
  { old: 'oidc_models_grant_idx', name: 'oidc_models_grant_nn_idx', columns: ['grant_id'], nonNull: 'grant_id' },
  { old: 'oidc_models_uid_idx', name: 'oidc_models_uid_nn_idx', columns: ['model', 'uid'], nonNull: 'uid' },
  { old: 'oidc_models_user_code_idx', name: 'oidc_models_user_code_nn_idx', columns: ['model', 'user_code'], nonNull: 'user_code' },
  { old: 'oidc_models_account_idx', name: 'oidc_models_account_nn_idx', columns: ['account_id', 'model'], nonNull: 'account_id' },
] as const;

async function isPostgres(db: Kysely<any>): Promise<boolean> {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

export const onlineIndexes = INDEXES.map((ix) => ({
  name: ix.name,
  table: 'oidc_models',
  using: `(${ix.columns.join(', ')}) where ${ix.nonNull} is not null`,
}));
export const retiredIndexes = INDEXES.map((ix) => ix.old);

/** SQLite: the index under its old name, partial (only rows with the value) or full. */
async function rebuildSqlite(db: Kysely<any>, ix: (typeof INDEXES)[number], partial: boolean): Promise<void> {
  await sql`drop index if exists ${sql.id(ix.old)}`.execute(db);
  const create = db.schema.createIndex(ix.old).on('oidc_models').columns([...ix.columns]);
  await (partial ? create.where(sql.ref(ix.nonNull), 'is not', null) : create).execute();
}

export async function up(db: Kysely<any>): Promise<void> {
  // PostgreSQL: see onlineIndexes and retiredIndexes
  if (await isPostgres(db)) return;
  for (const ix of INDEXES) await rebuildSqlite(db, ix, true);
}

export async function down(db: Kysely<any>): Promise<void> {
  const pg = await isPostgres(db);
  for (const ix of INDEXES) {
    if (pg) {
      await sql`drop index if exists ${sql.id(ix.name)}`.execute(db);
      await sql`drop index if exists ${sql.id(ix.old)}`.execute(db);
      await sql`create index ${sql.id(ix.old)} on oidc_models (${sql.join(ix.columns.map((c) => sql.id(c)))})`.execute(db);
    } else {
      await rebuildSqlite(db, ix, false);
    }
  }
}
