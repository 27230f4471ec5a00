import { sql, type Kysely } from 'kysely';
import type { Database } from './schema';
import type { Db } from './index';

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
