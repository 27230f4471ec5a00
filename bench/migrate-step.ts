/**
 * Times one migration step on a bench database (issue 15: a migration must be safe at 1 M rows at start-up):
 * `npx tsx bench/migrate-step.ts up|down` with BENCH_DATA_DIR (SQLite) or BENCH_DATABASE_URL (PostgreSQL). `up`
 * runs every pending migration (each timed), `down` undoes the last one. Prints wall and CPU seconds.
 */
import path from 'node:path';
import { readdirSync } from 'node:fs';
import { Migrator, type Migration } from 'kysely';
import { createDb, migrationFolder } from '../server/db/index';

const pgUrl = process.env.BENCH_DATABASE_URL || undefined;
const dataDir = path.resolve(process.env.BENCH_DATA_DIR || './data/bench');
const db = createDb({ databaseUrl: pgUrl, sqliteFile: path.join(dataDir, 'iam.sqlite'), poolSize: 2, queryTimeoutMs: 3_600_000 });
const migrator = new Migrator({
  db: db.kysely,
  provider: {
    async getMigrations() {
      const out: Record<string, Migration> = {};
      for (const f of readdirSync(migrationFolder).filter((x) => /^\d{4}_.+\.ts$/.test(x)).sort()) out[f.replace(/\.ts$/, '')] = (await import(path.join(migrationFolder, f))) as Migration;
      return out;
    },
  },
});
const t0 = performance.now();
const c0 = process.cpuUsage();
const { error, results } = process.argv[2] === 'down' ? await migrator.migrateDown() : await migrator.migrateToLatest();
const cpu = process.cpuUsage(c0);
console.log(JSON.stringify({ step: process.argv[2], results: results?.map((r) => `${r.migrationName}: ${r.status}`), wall_s: ((performance.now() - t0) / 1000).toFixed(1), node_cpu_s: ((cpu.user + cpu.system) / 1e6).toFixed(1), error: error ? String(error) : undefined }));
await db.close();
