/**
 * Memory of the CSV export over a whole list, in process (no HTTP): `npx tsx bench/export-memory.ts` (SQLite in
 * BENCH_DATA_DIR, default ./data/bench) or with BENCH_DATABASE_URL=postgres://… . Reads exportUsersCsv's stream to the
 * end and prints RSS and the V8 heap every 100 000 rows: a streamed export levels off instead of growing with the rows.
 */
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { createDb } from '../server/db/index';
import { exportUsersCsv } from '../server/services/admin/csv';

async function main() {
  const dataDir = path.resolve(process.env.BENCH_DATA_DIR || './data/bench');
  const db = createDb({ databaseUrl: process.env.BENCH_DATABASE_URL || undefined, sqliteFile: path.join(dataDir, 'iam.sqlite'), queryTimeoutMs: 600_000 });
  const mb = (n: number) => `${Math.round(n / 1e6)} MB`;
  const show = (label: string) => {
    const m = process.memoryUsage();
    console.log(`| ${label} | ${mb(m.rss)} | ${mb(m.heapUsed)} | ${mb(m.heapTotal)} | ${((performance.now() - t0) / 1000).toFixed(1)} s |`);
  };
  const t0 = performance.now();
  console.log(`${db.dialect}\n\n| rows | RSS | heap used | heap total | time |\n|---|---:|---:|---:|---:|`);
  show('0');
  let rows = -1; // the header line
  let next = 100_000;
  for await (const chunk of exportUsersCsv(db, {})) {
    const s = String(chunk);
    for (let i = s.indexOf('\n'); i >= 0; i = s.indexOf('\n', i + 1)) rows++;
    if (rows >= next) {
      show(String(rows));
      next += 100_000;
    }
  }
  show(`${rows} (end)`);
  await db.close();
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
