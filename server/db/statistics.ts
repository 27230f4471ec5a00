import { sql } from 'kysely';
import type { Db, DbLogger } from './index';

/**
 * The query planner's statistics of the tables the admin list plans depend on (issue 15). Right after a bulk load
 * they are stale or missing: PostgreSQL's autovacuum analyzes a table only once 10 % of it changed (and may be off),
 * SQLite never analyzes by itself. Without them PostgreSQL drove role + filters from the role's holders with a
 * primary-key lookup each (1.3–2 s instead of 0.1 s at 1 M) and SQLite picks its indexes by rule of thumb. So the app
 * refreshes them itself: after an import job that created many rows, and at start when a table of some size has
 * none. Off the request path (background, one refresh at a time per database), bounded: PostgreSQL's ANALYZE reads a
 * fixed sample (300 × default_statistics_target rows per table) under a statement timeout of its own; SQLite's reads
 * at most `SQLITE_ANALYSIS_LIMIT` rows per index (PRAGMA analysis_limit).
 */

/** Tables whose statistics the list's plans read. */
export const PLANNED_TABLES = ['accounts', 'role_subscriptions'] as const;
export type PlannedTable = (typeof PLANNED_TABLES)[number];

/** An import job that created at least this many rows refreshes the statistics of `accounts` when it ends. */
export const ANALYZE_AFTER_ROWS = 1000;
/** At start, a table with at least this many rows and no statistics gets them. */
export const ANALYZE_MISSING_MIN_ROWS = 1000;
/** PostgreSQL: the statement timeout of one ANALYZE (the app's own is a request's, 5 s by default). */
const PG_ANALYZE_TIMEOUT_MS = 5 * 60_000;
/** SQLite: rows read per index by ANALYZE (0 would be all of them). */
export const SQLITE_ANALYSIS_LIMIT = 10_000;

/** Per database: the refresh running now, and the one queued behind it (which gathers the tables asked meanwhile). */
const current = new WeakMap<Db, Promise<void>>();
const queued = new WeakMap<Db, { tables: Set<PlannedTable>; run: Promise<void> }>();

/** Runs ANALYZE on `tables` now (throws on failure). */
export async function analyzeTables(db: Db, tables: readonly PlannedTable[]): Promise<void> {
  if (!tables.length) return;
  if (db.dialect === 'postgres') {
    await db.kysely.transaction().execute(async (trx) => {
      await sql`select set_config('statement_timeout', ${String(PG_ANALYZE_TIMEOUT_MS)}, true)`.execute(trx);
      await sql`analyze ${sql.join(tables.map((t) => sql.id(t)))}`.execute(trx);
    });
    return;
  }
  // one connection: the limit is set and reset around the statements, which run one after another
  await sql.raw(`pragma analysis_limit = ${SQLITE_ANALYSIS_LIMIT}`).execute(db.kysely);
  try {
    for (const t of tables) await sql`analyze ${sql.id(t)}`.execute(db.kysely);
  } finally {
    await sql.raw('pragma analysis_limit = 0').execute(db.kysely);
  }
}

/**
 * Refreshes the statistics of `tables` in the background of the caller: one refresh at a time per database; calls
 * while one runs are gathered into a single next one. Failures are logged, never thrown. `reason` goes to the log.
 */
export function refreshStatistics(db: Db, tables: readonly PlannedTable[], log: DbLogger, reason: string): Promise<void> {
  const waiting = queued.get(db);
  if (waiting) {
    for (const t of tables) waiting.tables.add(t);
    return waiting.run;
  }
  const next = { tables: new Set(tables), run: Promise.resolve() };
  const run = (current.get(db) ?? Promise.resolve()).then(async () => {
    queued.delete(db);
    const list = [...next.tables];
    const t0 = performance.now();
    try {
      await analyzeTables(db, list);
      log.info({ tables: list, reason, ms: Math.round(performance.now() - t0) }, 'planner statistics refreshed');
    } catch (err) {
      log.warn({ tables: list, reason, err: err instanceof Error ? err.message : String(err) }, 'planner statistics refresh failed');
    }
  });
  next.run = run;
  queued.set(db, next);
  current.set(db, run);
  void run.finally(() => {
    if (current.get(db) === run) current.delete(db);
  });
  return run;
}

/** SQLite: whether any ANALYZE ever ran (it creates sqlite_stat1). */
async function hasSqliteStat1(db: Db): Promise<boolean> {
  const r = await sql<{ one: number }>`select 1 as one from sqlite_master where type = 'table' and name = 'sqlite_stat1'`.execute(db.kysely);
  return r.rows.length > 0;
}

/**
 * After `created` rows were added to `table` in bulk (an import job): refreshes its statistics when that is many rows.
 * PostgreSQL: from ANALYZE_AFTER_ROWS rows (its ANALYZE reads a sample: about a second at 1 M rows). SQLite: its
 * ANALYZE reads every index of the table on the event loop (10–40 s at 1 M rows on a busy 2-core machine, even with
 * analysis_limit), so only when the table has no statistics yet or grew by a tenth or more since they were taken
 * (autovacuum's own rule).
 */
export async function refreshAfterBulkInsert(db: Db, table: PlannedTable, created: number, log: DbLogger): Promise<void> {
  if (created < ANALYZE_AFTER_ROWS) return;
  if (db.dialect === 'sqlite') {
    if (await hasSqliteStat1(db)) {
      const r = await sql<{ stat: string }>`select stat from sqlite_stat1 where tbl = ${table} limit 1`.execute(db.kysely);
      const rows = Number(r.rows[0]?.stat.split(' ')[0] ?? 0);
      if (rows > 0 && created * 10 < rows) return;
    }
  }
  await refreshStatistics(db, [table], log, 'bulk insert');
}

/** The tables among `tables` that hold at least `minRows` rows and have no statistics at all. */
export async function tablesWithoutStatistics(db: Db, tables: readonly PlannedTable[] = PLANNED_TABLES, minRows = ANALYZE_MISSING_MIN_ROWS): Promise<PlannedTable[]> {
  const out: PlannedTable[] = [];
  const hasStats = async (t: PlannedTable): Promise<boolean> => {
    if (db.dialect === 'postgres') {
      const r = await sql<{ one: number }>`select 1 as one from pg_stats where schemaname = current_schema() and tablename = ${t} limit 1`.execute(db.kysely);
      return r.rows.length > 0;
    }
    if (!(await hasSqliteStat1(db))) return false;
    const r = await sql<{ one: number }>`select 1 as one from sqlite_stat1 where tbl = ${t} limit 1`.execute(db.kysely);
    return r.rows.length > 0;
  };
  for (const t of tables) {
    if (await hasStats(t)) continue;
    const n = await sql<{ n: number | string }>`select count(*) as n from (select 1 from ${sql.id(t)} limit ${minRows}) s`.execute(db.kysely);
    if (Number(n.rows[0]?.n ?? 0) >= minRows) out.push(t);
  }
  return out;
}
