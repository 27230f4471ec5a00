import { mkdirSync } from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, SqliteDialect, sql } from 'kysely';
import type { Database } from './schema';
import { CurrentSchemaPostgresDialect } from './introspection';
import { DependencyUnavailableError, databaseFailureOf } from '../errors';
import { guardedPool } from './pool';
import { cachedStatements } from './statement-cache';
import { writeWatch, type WatchedTable } from './write-watch';

/**
 * The database handle: createDb opens SQLite (better-sqlite3, statements cached: statement-cache.ts) or PostgreSQL
 * (a guarded pool: pool.ts), both behind kysely with the write-watch (write-watch.ts). Migrations are in migrate.ts,
 * the indexes built outside a migration's transaction in online-indexes.ts; this module re-exports what callers use.
 */
export type Dialect = 'sqlite' | 'postgres';
export interface Db {
  kysely: Kysely<Database>;
  dialect: Dialect;
  /** PostgreSQL schema when not the default one */
  schema?: string;
  /** PostgreSQL: false while the database is known unreachable (requests fail fast, a probe watches for its return). */
  available(): boolean;
  /**
   * Calls `listener` around every statement through `kysely` that may change a row of a watched table: UPDATE,
   * DELETE and INSERT … ON CONFLICT of `accounts`; DELETE of `oidc_models` (ending grants); INSERT into
   * `revoked_access_tokens` (revoking an access token). Once before the
   * statement runs and once after it ran (in a transaction, before the commit). For in-process caches of those
   * rows (server/oidc/auth-cache.ts). Returns the unsubscribe function.
   */
  onWrite(listener: (table: WatchedTable) => void): () => void;
  close(): Promise<void>;
}

export interface DbLogger {
  warn(obj: object, msg: string): void;
  info(obj: object, msg: string): void;
}

export interface DbOptions {
  databaseUrl?: string | undefined;
  /** SQLite file; ':memory:' allowed in tests */
  sqliteFile?: string;
  /** PostgreSQL schema to use (tests run each in their own) */
  pgSchema?: string;
  poolSize?: number;
  /** Getting a connection (from the pool or a new one) gives up after this (IAM_DB_CONNECT_TIMEOUT_MS, default 3000). */
  connectTimeoutMs?: number;
  /** Statement timeout on PostgreSQL, busy timeout on SQLite (IAM_DB_QUERY_TIMEOUT_MS, default 5000). */
  queryTimeoutMs?: number;
  /** Pauses between availability probes while the database is down (default 1000). */
  probeIntervalMs?: number;
  log?: DbLogger;
}

export function createDb(opts: DbOptions): Db {
  if (opts.databaseUrl) {
    const schema = opts.pgSchema;
    const guarded = guardedPool({ ...opts, databaseUrl: opts.databaseUrl });
    const watch = writeWatch();
    const kysely = new Kysely<Database>({ dialect: new CurrentSchemaPostgresDialect({ pool: guarded.pool }), plugins: [watch.plugin] });
    return {
      kysely,
      dialect: 'postgres',
      schema,
      available: guarded.available,
      onWrite: watch.onWrite,
      close: async () => {
        await guarded.end();
        await kysely.destroy();
      },
    };
  }
  const file = opts.sqliteFile ?? ':memory:';
  if (file !== ':memory:') mkdirSync(path.dirname(file), { recursive: true });
  const sqlite = new SQLite(file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma(`busy_timeout = ${opts.queryTimeoutMs ?? 5000}`);
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('cache_size = -65536'); // 64 MiB page cache: list, search and import stay in memory
  const watch = writeWatch();
  const kysely = new Kysely<Database>({ dialect: new SqliteDialect({ database: cachedStatements(sqlite) }), plugins: [watch.plugin] });
  return { kysely, dialect: 'sqlite', available: () => true, onWrite: watch.onWrite, close: () => kysely.destroy() };
}

export { migrateToLatest, migrationFolder, migrationModules, type MigrationModule } from './migrate';
export { buildOnlineIndexes, dropRetiredIndexes, ONLINE_INDEX_FROM_ROWS, type OnlineIndex } from './online-indexes';
export { cachedStatements } from './statement-cache';
export type { WatchedTable } from './write-watch';

export async function pingDb(db: Db): Promise<void> {
  await sql`select 1`.execute(db.kysely);
}

/** pingDb with a deadline: rejects with DependencyUnavailableError when the database does not answer in time. */
export async function pingDbWithin(db: Db, ms: number): Promise<void> {
  if (!db.available()) throw new DependencyUnavailableError('database', 'circuit_open');
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      pingDb(db),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new DependencyUnavailableError('database', 'unreachable')), ms);
      }),
    ]);
  } catch (err) {
    if (databaseFailureOf(err)) throw err instanceof DependencyUnavailableError ? err : new DependencyUnavailableError('database', databaseFailureOf(err) ?? 'unreachable', err);
    throw err;
  } finally {
    clearTimeout(timer);
  }
}

/** Current time as the ISO string stored in timestamp columns. */
export const nowIso = (): string => new Date().toISOString();
