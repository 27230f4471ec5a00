import { mkdirSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import SQLite from 'better-sqlite3';
import { Kysely, Migrator, PostgresDialect, SqliteDialect, sql, type Migration, type MigrationProvider } from 'kysely';
import pg from 'pg';
import type { Database } from './schema';

export type Dialect = 'sqlite' | 'postgres';
export interface Db {
  kysely: Kysely<Database>;
  dialect: Dialect;
  /** PostgreSQL schema when not the default one */
  schema?: string;
  close(): Promise<void>;
}

// int8 (bigint) columns hold epoch values well inside Number's safe range
pg.types.setTypeParser(20, (v: string) => Number(v));

export interface DbOptions {
  databaseUrl?: string | undefined;
  /** SQLite file; ':memory:' allowed in tests */
  sqliteFile?: string;
  /** PostgreSQL schema to use (tests run each in their own) */
  pgSchema?: string;
  poolSize?: number;
}

export function createDb(opts: DbOptions): Db {
  if (opts.databaseUrl) {
    const schema = opts.pgSchema;
    const pool = new pg.Pool({
      connectionString: opts.databaseUrl,
      max: opts.poolSize ?? 10,
      ...(schema ? { options: `-c search_path=${schema}` } : {}),
    });
    const kysely = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    return { kysely, dialect: 'postgres', schema, close: () => kysely.destroy() };
  }
  const file = opts.sqliteFile ?? ':memory:';
  if (file !== ':memory:') mkdirSync(path.dirname(file), { recursive: true });
  const sqlite = new SQLite(file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('cache_size = -65536'); // 64 MiB page cache: list, search and import stay in memory
  const kysely = new Kysely<Database>({ dialect: new SqliteDialect({ database: sqlite }) });
  return { kysely, dialect: 'sqlite', close: () => kysely.destroy() };
}

export const migrationFolder = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');

/** Every `NNNN_name.ts` in migrations/, by name. (Our own import() so TS files load under tsx and vitest.) */
const folderMigrations: MigrationProvider = {
  async getMigrations() {
    const out: Record<string, Migration> = {};
    for (const file of readdirSync(migrationFolder).filter((f) => /^\d{4}_.+\.(ts|js)$/.test(f) && !f.endsWith('.d.ts')).sort()) {
      out[file.replace(/\.(ts|js)$/, '')] = (await import(path.join(migrationFolder, file))) as Migration;
    }
    return out;
  },
};

export async function migrateToLatest(db: Db): Promise<string[]> {
  const migrator = new Migrator({
    db: db.kysely,
    provider: folderMigrations,
    ...(db.schema ? { migrationTableSchema: db.schema } : {}),
  });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}

export async function pingDb(db: Db): Promise<void> {
  await sql`select 1`.execute(db.kysely);
}

/** Current time as the ISO string stored in timestamp columns. */
export const nowIso = (): string => new Date().toISOString();
