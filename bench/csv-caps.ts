/**
 * Hostile CSV uploads (issue 28.4): `npm run bench:csv-caps`. The server listens on 127.0.0.1 (SQLite in a temporary
 * directory); each upload goes over real HTTP while a probe asks `/api/health/live` every 5 ms. Prints, per file, the
 * answer, the time to it and the probe's worst wait (how long the event loop was held), BENCH_RUNS times (default 5).
 * Files: the audit's 7.7 MB and 25 MB headers of a million columns, a 5 MB e-mail cell, and a valid 50 000-row file
 * (the import's normal work, for comparison: parsing and validating it must leave the probe answered too).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { loadConfig } from '../server/config';
import { buildApp } from '../server/app';
import { createDb, migrateToLatest } from '../server/db/index';
import { accountRow } from '../server/services/accounts';

const RUNS = Number(process.env.BENCH_RUNS || 5);
const HEADER = 'email,first_name,last_name,locale,auth_type';

const files: { name: string; body: () => Buffer }[] = [
  { name: 'header of 1 000 000 columns (the audit: 7.7 MB)', body: () => Buffer.from(`${HEADER},${Array.from({ length: 999_995 }, (_, i) => `c${i}`).join(',')}\r\n`) },
  { name: 'header of 1 000 000 long columns (the audit: 25 MB)', body: () => Buffer.from(`${HEADER},${Array.from({ length: 999_995 }, (_, i) => `column_${String(i).padStart(15, '0')}`).join(',')}\r\n`) },
  { name: '5 MB e-mail cell', body: () => Buffer.from(`${HEADER}\r\n${'q'.repeat(5 * 1024 * 1024)}@caps.test,A,B,en,CREDENTIALS\r\n`) },
  { name: 'valid 50 000 rows, dry run', body: () => Buffer.from(`${HEADER}\r\n${Array.from({ length: 50_000 }, (_, i) => `p${i}@bench-caps.test,First${i},Last${i},en,CREDENTIALS`).join('\r\n')}\r\n`) },
];

function multipart(content: Buffer): { body: Buffer; type: string } {
  const boundary = `----bench${randomUUID()}`;
  const head = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="users.csv"\r\nContent-Type: text/csv\r\n\r\n`);
  const tail = Buffer.from(`\r\n--${boundary}\r\nContent-Disposition: form-data; name="dry_run"\r\n\r\ntrue\r\n--${boundary}--\r\n`);
  return { body: Buffer.concat([head, content, tail]), type: `multipart/form-data; boundary=${boundary}` };
}

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))] ?? 0;
};

async function main() {
  process.env.IAM_RATE_LIMIT_PER_MINUTE = '100000000';
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'iam-bench-csv-'));
  const db = createDb({ sqliteFile: path.join(dataDir, 'iam.sqlite'), poolSize: 4 });
  await migrateToLatest(db);
  const config = loadConfig({ IAM_DATA_DIR: dataDir, LOG_LEVEL: 'silent', APP_URL: 'http://localhost:3000', IAM_DIST_DIR: path.join(dataDir, 'no-dist'), IAM_IMPORT_SYNC_MAX_ROWS: '100000' });
  const app = await buildApp({ config, db, logger: false, migrate: false });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  const base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  const admin = accountRow({ type: 'admin', email: `bench-${randomUUID()}@example.com`, first_name: 'Bench', last_name: 'Admin', admin_role: 'super_admin', status: 'ACTIVE', auth_type: 'CREDENTIALS', locale: 'en', technical: 0 });
  await db.kysely.insertInto('accounts').values(admin).execute();
  const adminRow = await db.kysely.selectFrom('accounts').selectAll().where('id', '=', admin.id).executeTakeFirstOrThrow();
  const token = randomUUID();
  app.bearerVerifiers.unshift(async (t) => (t === token ? { account: adminRow, via: 'access_token' as const } : null));

  console.log(`# CSV caps (${os.cpus().length} cores, Node ${process.version}, ${RUNS} runs each, load ${os.loadavg()[0]?.toFixed(2)})\n`);
  console.log('| file | answer | time to answer p50 / max (ms) | /api/health/live worst wait p50 / max (ms) | answer size |');
  console.log('|---|---|---|---|---|');
  for (const file of files) {
    const content = file.body();
    const { body, type } = multipart(content);
    const times: number[] = [];
    const waits: number[] = [];
    let answer = '';
    let size = 0;
    for (let run = 0; run < RUNS; run++) {
      let probing = true;
      let worst = 0;
      const probe = (async () => {
        while (probing) {
          const t0 = performance.now();
          await fetch(`${base}/api/health/live`).then((r) => r.arrayBuffer());
          worst = Math.max(worst, performance.now() - t0);
          await new Promise((r) => setTimeout(r, 5));
        }
      })();
      const t0 = performance.now();
      const res = await fetch(`${base}/api/admin/users/import`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': type }, body: new Uint8Array(body) });
      const text = await res.text();
      times.push(performance.now() - t0);
      probing = false;
      await probe;
      waits.push(worst);
      size = text.length;
      const parsed = JSON.parse(text) as { error?: { code: string; fields?: Record<string, string[]> }; data?: { total: number } };
      answer = parsed.error ? `${res.status} ${parsed.error.code} ${JSON.stringify(parsed.error.fields ?? {})}` : `${res.status} total ${parsed.data?.total}`;
    }
    console.log(`| ${file.name} (${(content.length / 1e6).toFixed(1)} MB) | ${answer} | ${pct(times, 50).toFixed(0)} / ${Math.max(...times).toFixed(0)} | ${pct(waits, 50).toFixed(1)} / ${Math.max(...waits).toFixed(1)} | ${size} B |`);
  }
  await app.close();
  await db.close();
  rmSync(dataDir, { recursive: true, force: true });
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
