import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Migrator, sql, type Migration, type MigrationProvider } from 'kysely';
import type { Db } from './index';
import { buildOnlineIndexes, dropRetiredIndexes, type OnlineIndex } from './online-indexes';

/**
 * Migrations: running them (migrateToLatest, kysely's Migrator) and the bookkeeping beside it: which migrations a
 * database has, which this release knows, whether the two can work together (docs/OPERATIONS.md "Upgrade, rollback and
 * compatibility"), and rolling back to a named migration. `npm run db:migrate | db:rollback | db:status` (server/cli/db.ts) and the start-up (server/app.ts) use it.
 *
 * Compatibility rule: release N and N+1 run side by side during a rolling upgrade. Every migration from 0015 on says
 * in its name what it does to the previous release:
 *  - `NNNN_expand_<what>`: adds (a table, a nullable or defaulted column, an index); the previous release keeps working
 *    on the new schema, so it starts and serves against a database that has it although it does not know it;
 *  - `NNNN_contract_<what>`: removes, renames or tightens something; it ships one release after the code stopped using
 *    it. A release that does not know a contract migration refuses to start on a database that has it.
 * Migrations up to 0014 predate the rule ("legacy"): every release that has this module knows them.
 */

export const migrationFolder = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');

/**
 * A migration module: kysely's up/down, the indexes it leaves to be built outside its transaction, and the indexes
 * they replace (`retiredIndexes`: dropped CONCURRENTLY once every online index is built, so the table is never without
 * an index its queries use and writes never wait on the drop).
 */
export type MigrationModule = Migration & { onlineIndexes?: readonly OnlineIndex[]; retiredIndexes?: readonly string[] };

const MIGRATION_FILE = /^\d{4}_.+\.(ts|js)$/;

/** Every `NNNN_name.ts` (or compiled `.js`) in migrations/, by name. (Our own import() so TS files load under tsx and vitest.) */
export async function migrationModules(): Promise<Record<string, MigrationModule>> {
  const out: Record<string, MigrationModule> = {};
  for (const file of readdirSync(migrationFolder).filter((f) => MIGRATION_FILE.test(f) && !f.endsWith('.d.ts')).sort()) {
    out[file.replace(/\.(ts|js)$/, '')] = (await import(path.join(migrationFolder, file))) as MigrationModule;
  }
  return out;
}

export type MigrationKind = 'expand' | 'contract' | 'legacy';

/** The newest migration from before the expand/contract naming. */
export const LAST_LEGACY_MIGRATION = 14;

/** What a migration is, from its name; undefined for a name that follows neither the rule nor the legacy numbering. */
export function migrationKind(name: string): MigrationKind | undefined {
  const m = /^(\d{4})_(expand|contract)_[a-z0-9_]+$/.exec(name);
  if (m) return m[2] as 'expand' | 'contract';
  return /^\d{4}_/.test(name) && Number(name.slice(0, 4)) <= LAST_LEGACY_MIGRATION ? 'legacy' : undefined;
}

export interface AppliedMigration {
  name: string;
  /** when it ran (ISO time, kysely_migration.timestamp) */
  appliedAt: string;
  kind: MigrationKind | undefined;
  /** false: applied by a newer release, not part of this one */
  known: boolean;
}

export interface MigrationState {
  /** this release's migrations, in order */
  known: string[];
  /** the database's, in the order they ran */
  applied: AppliedMigration[];
  /** this release's migrations the database does not have yet */
  pending: string[];
  /** applied migrations this release does not know (a newer release ran them) */
  unknown: AppliedMigration[];
}

/** The database schema does not fit this release (behind, or ahead by a migration it cannot run beside). One line. */
export class SchemaMismatchError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SchemaMismatchError';
  }
}

async function migrationTableExists(db: Db): Promise<boolean> {
  const found =
    db.dialect === 'postgres'
      ? await sql<{ ok: boolean }>`select to_regclass('kysely_migration') is not null as ok`.execute(db.kysely)
      : await sql<{ ok: number }>`select count(*) as ok from sqlite_master where type = 'table' and name = 'kysely_migration'`.execute(db.kysely);
  return Boolean(found.rows[0]?.ok);
}

/** What the database has and what this release knows. Reads only; a database never migrated has nothing applied. */
export async function readMigrationState(db: Db, modules?: Record<string, MigrationModule>): Promise<MigrationState> {
  const known = Object.keys(modules ?? (await migrationModules())).sort();
  const rows = (await migrationTableExists(db)) ? (await sql<{ name: string; timestamp: string }>`select name, timestamp from kysely_migration`.execute(db.kysely)).rows : [];
  // kysely's order: by time, then by name
  rows.sort((a, b) => new Date(a.timestamp).getTime() - new Date(b.timestamp).getTime() || a.name.localeCompare(b.name));
  const knownSet = new Set(known);
  const applied = rows.map((r) => ({ name: r.name, appliedAt: new Date(r.timestamp).toISOString(), kind: migrationKind(r.name), known: knownSet.has(r.name) }));
  const appliedSet = new Set(applied.map((m) => m.name));
  return { known, applied, pending: known.filter((n) => !appliedSet.has(n)), unknown: applied.filter((m) => !m.known) };
}

const DOCS = 'docs/OPERATIONS.md "Upgrade, rollback and compatibility"';

/** The newest of this release's migrations the database has (where a rollback by a newer release should stop). */
function newestKnownApplied(state: MigrationState): string | undefined {
  return state.applied.filter((m) => m.known).at(-1)?.name;
}

/**
 * Throws SchemaMismatchError when the database has migrations this release does not know and cannot run beside:
 * anything but an `expand` migration, or one that sorts before a migration of this release (so it was not made after
 * this release).
 */
export function assertCompatible(state: MigrationState): void {
  const lastKnown = state.known.at(-1) ?? '';
  const bad = state.unknown.filter((m) => m.kind !== 'expand' || m.name < lastKnown);
  if (!bad.length) return;
  const target = newestKnownApplied(state);
  const what = bad.map((m) => `${m.name} (${m.kind ?? 'unclassified'})`).join(', ');
  throw new SchemaMismatchError(
    `database schema is ahead of this release by ${what}, which this release cannot run beside; run the release that applied ${bad.length > 1 ? 'them' : 'it'}, or roll back with that release first${target ? ` (npm run db:rollback -- --to ${target})` : ''}; see ${DOCS}`,
  );
}

/**
 * For a start without migrating (IAM_MIGRATE=off): throws SchemaMismatchError when a migration of this release is
 * pending or the database is ahead by one it cannot run beside. Returns the compatible newer migrations the database has.
 */
export async function assertSchemaReady(db: Db): Promise<{ ahead: string[] }> {
  const state = await readMigrationState(db);
  if (state.pending.length) {
    const n = state.pending.length;
    throw new SchemaMismatchError(
      `database schema is behind this release: ${n} migration${n > 1 ? 's' : ''} pending (${state.pending.join(', ')}); run "npm run db:migrate" first (IAM_MIGRATE=off: this process does not migrate); see ${DOCS}`,
    );
  }
  assertCompatible(state);
  return { ahead: state.unknown.map((m) => m.name) };
}

/**
 * kysely's Migrator refuses a database with migrations its provider does not list ("corrupted migrations: previously
 * executed migration … is missing"). The compatible newer ones (assertCompatible) are listed as stand-ins that are never
 * run up; their down refuses (only the release that has their code can undo them).
 */
export function providerWith(modules: Record<string, MigrationModule>, unknown: readonly AppliedMigration[]): MigrationProvider {
  const standIn = (name: string): Migration => ({
    up: () => Promise.reject(new SchemaMismatchError(`migration ${name} is not part of this release`)),
    down: () => Promise.reject(new SchemaMismatchError(`migration ${name} is not part of this release: roll it back with the release that applied it`)),
  });
  const all: Record<string, Migration> = { ...modules };
  for (const m of unknown) all[m.name] = standIn(m.name);
  return { getMigrations: () => Promise.resolve(all) };
}

/** kysely's advisory lock id for migrations on PostgreSQL (postgres-adapter.js): a rollback and a migration never overlap. */
const KYSELY_MIGRATION_LOCK_ID = '3853314791062309107';

/** A migration named by its full name or its number (`0014` or `0014_avatar_images`). */
export function resolveMigrationName(known: readonly string[], applied: readonly AppliedMigration[], wanted: string): string {
  const names = [...new Set([...known, ...applied.map((m) => m.name)])];
  if (names.includes(wanted)) return wanted;
  const byNumber = /^\d{4}$/.test(wanted) ? names.filter((n) => n.startsWith(`${wanted}_`)) : [];
  if (byNumber.length === 1) return byNumber[0] as string;
  throw new SchemaMismatchError(`no migration named "${wanted}" (npm run db:status lists them)`);
}

/**
 * Rolls the database back to `target` (it stays applied): down() of every newer migration, newest first, each in its
 * own transaction with the removal of its kysely_migration row (PostgreSQL and SQLite both have transactional DDL), so
 * a failing down() leaves the database at the last migration that rolled back cleanly. PostgreSQL: under kysely's
 * migration lock. Refuses when a newer migration is not part of this release. Returns the migrations rolled back.
 */
export async function rollbackTo(db: Db, wanted: string): Promise<string[]> {
  const modules = await migrationModules();
  const state = await readMigrationState(db, modules);
  const target = resolveMigrationName(state.known, state.applied, wanted);
  const at = state.applied.findIndex((m) => m.name === target);
  if (at < 0) throw new SchemaMismatchError(`migration ${target} is not applied to this database: nothing to roll back to (npm run db:status)`);
  const undo = state.applied.slice(at + 1).reverse();
  const foreign = undo.filter((m) => !modules[m.name]);
  if (foreign.length) {
    throw new SchemaMismatchError(`cannot roll back ${foreign.map((m) => m.name).join(', ')}: not part of this release; roll back with the release that applied ${foreign.length > 1 ? 'them' : 'it'}`);
  }
  if (!undo.length) return [];
  return db.kysely.connection().execute(async (conn) => {
    const pg = db.dialect === 'postgres';
    if (pg) await sql`select pg_advisory_lock(${sql.lit(KYSELY_MIGRATION_LOCK_ID)}::bigint)`.execute(conn);
    const done: string[] = [];
    try {
      for (const m of undo) {
        const mod = modules[m.name] as MigrationModule;
        if (!mod.down) throw new SchemaMismatchError(`migration ${m.name} has no down(): it cannot be rolled back`);
        await conn.transaction().execute(async (trx) => {
          await mod.down?.(trx);
          await sql`delete from kysely_migration where name = ${m.name}`.execute(trx);
        });
        done.push(m.name);
      }
    } catch (err) {
      const reason = err instanceof Error ? err.message : String(err);
      throw new SchemaMismatchError(`rollback stopped at ${undo[done.length]?.name ?? '?'} (${reason}); rolled back: ${done.length ? done.join(', ') : 'none'}`);
    } finally {
      if (pg) await sql`select pg_advisory_unlock(${sql.lit(KYSELY_MIGRATION_LOCK_ID)}::bigint)`.execute(conn);
    }
    return done;
  });
}

/** The SQLite file of a data directory, refusing a missing one (status, rollback and backup do not create a database). */
export function existingSqliteFile(file: string): string {
  if (!existsSync(file)) throw new SchemaMismatchError(`no database at ${file} (set IAM_DATA_DIR, or DATABASE_URL for PostgreSQL)`);
  return file;
}

/**
 * Runs the pending migrations (kysely's Migrator: on PostgreSQL all of them in one transaction under its advisory
 * lock), then builds the online indexes of every migration that are not there yet (buildOnlineIndexes) and drops the
 * indexes they replace (dropRetiredIndexes). Returns the migrations run.
 *
 * A database ahead of this release (a newer release migrated it) is accepted when every migration this release does
 * not know is an `expand` one (server/db/migrate.ts); otherwise it throws SchemaMismatchError, one line naming them.
 * `onAhead` hears the names of those compatible newer migrations.
 */
export async function migrateToLatest(db: Db, opts: { concurrentlyFromRows?: number; onAhead?: (names: string[]) => void } = {}): Promise<string[]> {
  const modules = await migrationModules();
  const state = await readMigrationState(db, modules);
  assertCompatible(state);
  if (state.unknown.length) opts.onAhead?.(state.unknown.map((m) => m.name));
  const migrator = new Migrator({
    db: db.kysely,
    provider: providerWith(modules, state.unknown),
    ...(db.schema ? { migrationTableSchema: db.schema } : {}),
  });
  const { error, results } = await migrator.migrateToLatest();
  if (error) {
    // a newer release migrated between our read and the migrator's (its lock): say so instead of kysely's "corrupted migrations"
    if (error instanceof Error && /^corrupted migrations/.test(error.message)) {
      throw new SchemaMismatchError(`the database's migrations changed while this release migrated (another release migrating at the same time?): ${error.message.replace(/^corrupted migrations: /, '')}`);
    }
    throw error instanceof Error ? error : new Error(String(error));
  }
  if (db.dialect === 'postgres') {
    const online = Object.values(modules);
    await buildOnlineIndexes(db, online.flatMap((m) => m.onlineIndexes ?? []), opts);
    await dropRetiredIndexes(db, online.flatMap((m) => m.retiredIndexes ?? []));
  }
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
