import { mkdirSync } from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import {
  Kysely,
  Migrator,
  SqliteDialect,
  sql,
  type KyselyPlugin,
  type OperationNode,
  type PostgresPool,
  type PostgresPoolClient,
  type SqliteDatabase,
} from 'kysely';
import type pg from 'pg';
import type { Database } from './schema';
import { CurrentSchemaPostgresDialect } from './introspection';
import { DependencyUnavailableError, databaseFailureOf } from '../errors';
import { dbErrors, poolAcquire, watchPool } from '../lib/metrics';
import { loadPg } from '../lib/optional-packages';
import { assertCompatible, migrationModules, providerWith, readMigrationState, SchemaMismatchError } from './migrate';

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

export type WatchedTable = 'accounts' | 'oidc_models' | 'revoked_access_tokens';

const tableName = (node: OperationNode | undefined): string | undefined => {
  if (!node) return undefined;
  if (node.kind === 'TableNode') return (node as unknown as { table: { identifier: { name: string } } }).table.identifier.name;
  if (node.kind === 'AliasNode') return tableName((node as unknown as { node: OperationNode }).node);
  return undefined;
};

/** The watched table a statement may change, if any (see Db.onWrite). */
function writtenTable(node: OperationNode): WatchedTable | undefined {
  if (node.kind === 'UpdateQueryNode') {
    const t = tableName((node as unknown as { table?: OperationNode }).table);
    return t === 'accounts' ? t : undefined;
  }
  if (node.kind === 'DeleteQueryNode') {
    for (const f of (node as unknown as { from: { froms: readonly OperationNode[] } }).from.froms) {
      const t = tableName(f);
      if (t === 'accounts' || t === 'oidc_models') return t;
    }
    return undefined;
  }
  if (node.kind === 'InsertQueryNode') {
    const n = node as unknown as { into?: OperationNode; onConflict?: unknown };
    const t = tableName(n.into);
    if (t === 'revoked_access_tokens') return t;
    return n.onConflict && t === 'accounts' ? 'accounts' : undefined;
  }
  return undefined;
}

/** The kysely plugin behind Db.onWrite. */
function writeWatch(): { plugin: KyselyPlugin; onWrite: Db['onWrite'] } {
  const listeners = new Set<(table: WatchedTable) => void>();
  const pending = new WeakMap<object, WatchedTable>();
  const tell = (table: WatchedTable) => {
    for (const l of listeners) l(table);
  };
  return {
    plugin: {
      transformQuery({ node, queryId }) {
        if (listeners.size) {
          const table = writtenTable(node);
          if (table) {
            pending.set(queryId, table);
            tell(table);
          }
        }
        return node;
      },
      async transformResult({ result, queryId }) {
        const table = pending.get(queryId);
        if (table) tell(table);
        return result;
      },
    },
    onWrite(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

/**
 * better-sqlite3 behind kysely with its prepared statements kept (kysely prepares every query anew; preparing is
 * most of a small query's cost): one statement per distinct SQL text, the `max` most recently used (LRU). kysely's
 * SqliteDriver runs one statement at a time on the single connection, inside transactions too (BEGIN/COMMIT are
 * statements like the others), and picks `all` or `run` by the statement's `reader` flag, which a cached statement
 * keeps. A statement still iterating (a streamed query) is busy: a second use of the same SQL meanwhile gets a
 * statement of its own. A statement whose run failed stays usable (better-sqlite3 resets it); SQL that fails to
 * prepare is never cached.
 */
export function cachedStatements(db: SQLite.Database, max = 500): SqliteDatabase & { readonly size: number } {
  const cache = new Map<string, SQLite.Statement>();
  return {
    close: () => db.close(),
    get size() {
      return cache.size;
    },
    prepare(text: string) {
      const hit = cache.get(text);
      if (hit) {
        if (hit.busy) return db.prepare(text);
        // most recently used last: Map keeps insertion order
        cache.delete(text);
        cache.set(text, hit);
        return hit;
      }
      const stmt = db.prepare(text);
      if (cache.size >= max) cache.delete(cache.keys().next().value as string);
      cache.set(text, stmt);
      return stmt;
    },
  };
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

const consoleLog: DbLogger = {
  warn: (obj, msg) => console.warn(msg, JSON.stringify(obj)),
  info: (obj, msg) => console.info(msg, JSON.stringify(obj)),
};

const errText = (err: unknown): string => (err instanceof Error ? [(err as { code?: string }).code, err.message].filter(Boolean).join(' ') : String(err));

/**
 * PostgreSQL pool that never takes the process down and never hangs:
 *  - every client has an `error` listener (a terminated backend emits one even while checked out);
 *  - connects and pool waits give up after `connectTimeoutMs`; statements after `queryTimeoutMs` on the server
 *    (statement_timeout) and, as a backstop when the server does not answer at all, 1 s later on the client;
 *  - a client that saw a connection-level error or a read timeout is destroyed on release, not reused;
 *  - when the database is unreachable (refused, connect timeout, no answer) the pool fails fast with
 *    `DependencyUnavailableError(circuit_open)` and a separate probe connection checks every second until it answers.
 * Connection-level errors come out as `DependencyUnavailableError`, which the error handler answers with 503.
 */
function guardedPool(opts: DbOptions & { databaseUrl: string }): { pool: PostgresPool; available: () => boolean; end: () => Promise<void> } {
  const log = opts.log ?? consoleLog;
  const connectTimeoutMs = opts.connectTimeoutMs ?? 3000;
  const queryTimeoutMs = opts.queryTimeoutMs ?? 5000;
  const probeIntervalMs = opts.probeIntervalMs ?? 1000;
  const options = [
    opts.pgSchema ? `-c search_path=${opts.pgSchema}` : '',
    `-c statement_timeout=${queryTimeoutMs}`,
    `-c idle_in_transaction_session_timeout=${Math.max(queryTimeoutMs * 2, 10_000)}`,
  ].filter(Boolean).join(' ');
  const clientConfig = {
    connectionString: opts.databaseUrl,
    options,
    connectionTimeoutMillis: connectTimeoutMs,
    query_timeout: queryTimeoutMs + 1000,
    keepAlive: true,
  };
  const max = opts.poolSize ?? 10;
  const { Pool, Client } = loadPg();
  const pool = new Pool({ ...clientConfig, max });
  pool.on('error', (err) => {
    // an idle client lost its connection (backend terminated, server restarted): the pool drops it
    dbErrors.inc({ kind: 'idle_client' });
    log.warn({ err: errText(err) }, 'database connection lost (idle); it will be replaced');
  });
  pool.on('connect', (client) => {
    // checked-out clients emit `error` too; without a listener that would end the process
    client.on('error', (err) => {
      dbErrors.inc({ kind: 'client' });
      log.warn({ err: errText(err) }, 'database connection lost');
    });
  });
  const unwatch = watchPool(() => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount, max }));

  let down = false;
  let downSince = 0;
  let ended = false;
  let probeTimer: NodeJS.Timeout | undefined;
  const probe = async (): Promise<void> => {
    const c = new Client({ ...clientConfig, query_timeout: connectTimeoutMs });
    c.on('error', () => {});
    try {
      await c.connect();
      await c.query('select 1');
      down = false;
      log.info({ downMs: Date.now() - downSince }, 'database reachable again');
    } catch {
      /* still down */
    } finally {
      await c.end().catch(() => {});
    }
  };
  const scheduleProbe = () => {
    if (ended || probeTimer) return;
    probeTimer = setTimeout(() => {
      probe().finally(() => {
        probeTimer = undefined;
        if (down) scheduleProbe();
      });
    }, probeIntervalMs);
    probeTimer.unref();
  };
  const trip = (err: unknown) => {
    if (down || ended) return;
    down = true;
    downSince = Date.now();
    log.warn({ err: errText(err) }, 'database unreachable; answering 503 at once until it is back');
    scheduleProbe();
  };
  const fail = (err: unknown): never => {
    const kind = databaseFailureOf(err);
    if (!kind) throw err;
    dbErrors.inc({ kind });
    if (kind === 'unreachable') trip(err);
    throw new DependencyUnavailableError('database', kind, err);
  };

  const wrappers = new WeakMap<pg.PoolClient, PostgresPoolClient>();
  const broken = new WeakSet<pg.PoolClient>();
  const wrap = (client: pg.PoolClient): PostgresPoolClient => {
    let w = wrappers.get(client);
    if (w) return w;
    const query = ((text: unknown, params?: readonly unknown[]) => {
      if (typeof text !== 'string') return client.query(text as pg.Submittable); // cursor (streaming)
      if (broken.has(client)) return Promise.reject(new DependencyUnavailableError('database', 'terminated'));
      return client.query(text, params as unknown[]).catch((err: unknown) => {
        if (databaseFailureOf(err) && databaseFailureOf(err) !== 'busy') broken.add(client);
        return fail(err);
      });
    }) as PostgresPoolClient['query'];
    w = { query, release: () => client.release(broken.has(client) ? true : undefined) };
    wrappers.set(client, w);
    return w;
  };

  return {
    available: () => !down,
    pool: {
      async connect() {
        if (down) {
          poolAcquire.observe({ result: 'unavailable' }, 0);
          throw new DependencyUnavailableError('database', 'circuit_open');
        }
        const t0 = performance.now();
        try {
          const client = await pool.connect();
          poolAcquire.observe({ result: 'ok' }, (performance.now() - t0) / 1000);
          return wrap(client);
        } catch (err) {
          poolAcquire.observe({ result: databaseFailureOf(err) === 'busy' ? 'timeout' : 'error' }, (performance.now() - t0) / 1000);
          return fail(err);
        }
      },
      end: () => pool.end(),
    },
    async end() {
      ended = true;
      if (probeTimer) clearTimeout(probeTimer);
      unwatch();
    },
  };
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

export { migrationFolder, migrationModules, type MigrationModule } from './migrate';

/**
 * An index a migration leaves to be built after its transaction (PostgreSQL only): `create index <name> on <table>
 * <using>` — CONCURRENTLY on a table of ONLINE_INDEX_FROM_ROWS rows or more, so writes to the table go on while it
 * builds (a plain CREATE INDEX holds a SHARE lock: every INSERT, UPDATE and DELETE waits until it commits).
 */
export interface OnlineIndex {
  name: string;
  table: string;
  /** the rest of the statement after the table, e.g. `using gin (f(col))` */
  using: string;
}
/** From this many rows the table's online indexes are built CONCURRENTLY (below it a plain build takes milliseconds). */
export const ONLINE_INDEX_FROM_ROWS = 10_000;

/**
 * Runs `fn` on one connection under the advisory lock of this schema's online index work (instances starting together
 * wait for each other: each index is built or dropped once).
 */
async function underOnlineIndexLock<T>(db: Db, fn: (c: Kysely<Database>) => Promise<T>): Promise<T> {
  return db.kysely.connection().execute(async (c) => {
    await sql`select pg_advisory_lock(hashtext(current_schema() || '.online_indexes'))`.execute(c);
    try {
      return await fn(c);
    } finally {
      await sql`select pg_advisory_unlock(hashtext(current_schema() || '.online_indexes'))`.execute(c);
    }
  });
}

/** The index `name` of the current schema: whether it is valid, or undefined when there is none. */
async function indexValidity(c: Kysely<Database>, name: string): Promise<boolean | undefined> {
  const found = await sql<{ valid: boolean }>`select i.indisvalid as valid from pg_index i join pg_class x on x.oid = i.indexrelid join pg_namespace n on n.oid = x.relnamespace where n.nspname = current_schema() and x.relname = ${name}`.execute(c);
  return found.rows[0]?.valid;
}

/**
 * Builds the online indexes that are missing or invalid (a CONCURRENTLY build that was interrupted leaves an invalid
 * index: it is dropped and built again), each on its own, outside any transaction, under an advisory lock per schema
 * (instances starting together build each index once; the others wait for it). PostgreSQL only.
 */
export async function buildOnlineIndexes(db: Db, indexes: readonly OnlineIndex[], opts: { concurrentlyFromRows?: number } = {}): Promise<string[]> {
  if (db.dialect !== 'postgres' || !indexes.length) return [];
  const from = opts.concurrentlyFromRows ?? ONLINE_INDEX_FROM_ROWS;
  return underOnlineIndexLock(db, async (c) => {
    const built: string[] = [];
    for (const ix of indexes) {
      const valid = await indexValidity(c, ix.name);
      if (valid) continue;
      if (valid === false) await sql`drop index concurrently if exists ${sql.id(ix.name)}`.execute(c);
      const rows = await sql<{ n: number | string }>`select count(*) as n from (select 1 from ${sql.id(ix.table)} limit ${Math.max(from, 1)}) s`.execute(c);
      const concurrently = from === 0 || Number(rows.rows[0]?.n ?? 0) >= from;
      await sql`create index ${sql.raw(concurrently ? 'concurrently ' : '')}${sql.id(ix.name)} on ${sql.id(ix.table)} ${sql.raw(ix.using)}`.execute(c);
      built.push(ix.name);
    }
    return built;
  });
}

/**
 * Drops indexes replaced by online ones (PostgreSQL only), CONCURRENTLY: a plain DROP INDEX takes an ACCESS EXCLUSIVE
 * lock on the table (no read nor write until it commits, and it queues behind every running query). Same advisory lock
 * as buildOnlineIndexes. Returns the indexes dropped.
 */
export async function dropRetiredIndexes(db: Db, names: readonly string[]): Promise<string[]> {
  if (db.dialect !== 'postgres' || !names.length) return [];
  return underOnlineIndexLock(db, async (c) => {
    const dropped: string[] = [];
    for (const name of names) {
      if ((await indexValidity(c, name)) === undefined) continue;
      await sql`drop index concurrently if exists ${sql.id(name)}`.execute(c);
      dropped.push(name);
    }
    return dropped;
  });
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
