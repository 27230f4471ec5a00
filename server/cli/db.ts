import { existsSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import SQLite from 'better-sqlite3';
import { ConfigError, loadConfig, type AppConfig } from '../config';
import { createDb, migrateToLatest, type Db } from '../db/index';
import { existingSqliteFile, migrationKind, readMigrationState, rollbackTo, SchemaMismatchError, type MigrationState } from '../db/migrate';
import { DependencyUnavailableError } from '../errors';

/**
 * Database schema commands (docs/OPERATIONS.md "Upgrade, rollback and compatibility"), on SQLite (IAM_DATA_DIR/iam.sqlite)
 * or PostgreSQL (DATABASE_URL):
 *
 *   npm run db:migrate                       every pending migration of this release (and its online indexes)
 *   npm run db:rollback -- --to <migration>  down() of every migration newer than <migration>, newest first
 *   npm run db:status                        applied and pending migrations, with names, kinds and times
 *   npm run db:backup -- <file>              SQLite: an online copy of the database into <file>
 *
 * The compiled build runs the same as `node build/server/cli/db.js <command> …`. Errors are one line on stderr, exit 1;
 * a bad configuration exits 78 as the server does.
 */

const USAGE = 'usage: db <migrate | rollback --to <migration> | status | backup <file>>';

class UsageError extends Error {}

function describeTarget(config: AppConfig): string {
  if (!config.databaseUrl) return `sqlite ${path.join(config.dataDir, 'iam.sqlite')}`;
  try {
    const u = new URL(config.databaseUrl);
    return `postgres ${u.hostname}:${u.port || 5432}${u.pathname}`;
  } catch {
    return 'postgres';
  }
}

/** the pool's own warnings stay unsaid: a failure ends the command with its one line */
const quiet = { warn: () => {}, info: () => {} };

function openDb(config: AppConfig, mustExist: boolean): Db {
  const sqliteFile = path.join(config.dataDir, 'iam.sqlite');
  if (!config.databaseUrl && mustExist) existingSqliteFile(sqliteFile);
  // migrations and rollbacks may run longer than a request's statement timeout
  return createDb({ databaseUrl: config.databaseUrl, sqliteFile, poolSize: 1, connectTimeoutMs: config.timeouts.dbConnectMs, queryTimeoutMs: 24 * 3600_000, probeIntervalMs: 60_000, log: quiet });
}

/** The status table: one line per migration, `applied`/`pending`/`ahead`, name, kind, time. */
export function statusLines(state: MigrationState): string[] {
  const rows: [string, string, string, string][] = [];
  for (const m of state.applied) rows.push([m.known ? 'applied' : 'ahead', m.name, m.kind ?? 'unclassified', m.appliedAt]);
  for (const name of state.pending) rows.push(['pending', name, migrationKind(name) ?? 'unclassified', '']);
  const width = (i: number) => Math.max(...rows.map((r) => r[i]?.length ?? 0), 0);
  const lines = rows.map((r) => [r[0].padEnd(width(0)), r[1].padEnd(width(1)), r[2].padEnd(width(2)), r[3]].join('  ').trimEnd());
  const ahead = state.unknown.length;
  const summary = state.pending.length
    ? `${state.pending.length} pending: run npm run db:migrate`
    : ahead
      ? `ahead of this release by ${ahead} migration${ahead > 1 ? 's' : ''} (applied by a newer release)`
      : 'up to date';
  return [...lines, summary];
}

async function run(args: string[]): Promise<void> {
  const [command, ...rest] = args;
  if (!command || !['migrate', 'rollback', 'status', 'backup'].includes(command)) throw new UsageError(USAGE);
  const config = loadConfig();
  const target = describeTarget(config);

  if (command === 'backup') {
    const file = rest[0];
    if (!file || file.startsWith('-')) throw new UsageError('usage: db backup <file>   (npm run db:backup -- backup.sqlite)');
    if (config.databaseUrl) throw new UsageError('db backup copies SQLite databases; with DATABASE_URL use pg_dump (docs/OPERATIONS.md "Backup and restore")');
    if (existsSync(file)) throw new UsageError(`${file} exists already; name a new file`);
    const source = new SQLite(existingSqliteFile(path.join(config.dataDir, 'iam.sqlite')), { fileMustExist: true });
    try {
      // SQLite's online backup API: a consistent copy while the server keeps reading and writing
      const { totalPages } = await source.backup(file);
      console.log(`backed up ${target} to ${file} (${totalPages} pages)`);
    } finally {
      source.close();
    }
    return;
  }

  const db = openDb(config, command !== 'migrate');
  try {
    if (command === 'status') {
      const state = await readMigrationState(db);
      console.log(`database: ${target}`);
      for (const line of statusLines(state)) console.log(line);
    } else if (command === 'migrate') {
      const ran = await migrateToLatest(db, { onAhead: (names) => console.log(`ahead of this release by ${names.join(', ')} (expand: compatible)`) });
      console.log(ran.length ? `migrated ${target}: ${ran.join(', ')}` : `${target} is up to date`);
    } else {
      const i = rest.indexOf('--to');
      const to = i >= 0 ? rest[i + 1] : undefined;
      if (!to || to.startsWith('-')) throw new UsageError('usage: db rollback --to <migration>   (npm run db:rollback -- --to 0013_oidc_partial_indexes; npm run db:status lists them)');
      const undone = await rollbackTo(db, to);
      console.log(undone.length ? `rolled back ${target}: ${undone.join(', ')}` : `${target} is at ${to} already: nothing to roll back`);
    }
  } finally {
    await db.close();
  }
}

/** One line for any failure: ours as they are, the database's with its code. */
function oneLine(err: unknown): string {
  if (err instanceof UsageError || err instanceof SchemaMismatchError || err instanceof ConfigError) return err.message;
  if (err instanceof DependencyUnavailableError) {
    const cause = err.cause instanceof Error ? [(err.cause as { code?: string }).code, err.cause.message].filter(Boolean).join(' ') : '';
    return `database not reachable (${err.kind}${cause ? `: ${cause}` : ''})`;
  }
  if (err instanceof Error) return [(err as { code?: string }).code, err.message].filter(Boolean).join(' ').split('\n')[0] ?? 'error';
  return String(err);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const command = process.argv[2] ?? '';
  run(process.argv.slice(2)).then(
    () => process.exit(0),
    (err: unknown) => {
      console.error(`db ${command}: ${oneLine(err)}`.trim());
      process.exit(err instanceof ConfigError ? 78 : 1);
    },
  );
}
