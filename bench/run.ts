/**
 * Admin API benchmark: `npm run bench` (SQLite, 1 000 000 users by default) or
 * `BENCH_DATABASE_URL=postgres://… npm run bench` (PostgreSQL).
 * Env: BENCH_USERS (default 1000000), BENCH_DATA_DIR (default ./data/bench), BENCH_RUNS (default 20),
 * BENCH_IMPORT_ROWS (default 100000; 0 skips the import), BENCH_EXPORT_ROWS (default: all users; the unfiltered
 * export), BENCH_PORT (default: any free port). The database is seeded once (kept for later runs; more rows are added
 * when BENCH_USERS grows). Requests go over real HTTP (the app listens on 127.0.0.1, fetch with keep-alive) with a
 * bench-only bearer. Prints a markdown table (p50/p95 in ms), the export's rows/s and peak RSS, the load average
 * during the run, and the query plans.
 */
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { CompiledQuery } from 'kysely';
import type { FastifyInstance } from 'fastify';
import { loadConfig } from '../server/config';
import { buildApp } from '../server/app';
import { createDb, migrateToLatest } from '../server/db/index';
import { accountRow } from '../server/services/accounts';
import { seedUsers } from '../server/cli/seed';
import { countQuery, pageQuery } from '../server/services/admin/user-search';

const USERS = Number(process.env.BENCH_USERS || 1_000_000);
const RUNS = Number(process.env.BENCH_RUNS || 20);
const IMPORT_ROWS = Number(process.env.BENCH_IMPORT_ROWS ?? 100_000);
const EXPORT_ROWS = Number(process.env.BENCH_EXPORT_ROWS || 0);
const pgUrl = process.env.BENCH_DATABASE_URL || undefined;
const dataDir = path.resolve(process.env.BENCH_DATA_DIR || './data/bench');

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))] ?? 0;
};
const fmt = (n: number) => (n < 10 ? n.toFixed(2) : n.toFixed(0));

async function main() {
  process.env.IAM_RATE_LIMIT_PER_MINUTE = '100000000';
  process.env.IAM_INVITATIONS_PER_SECOND = '1';
  // the bench's own statements (seeding, VACUUM ANALYZE, count=exact on a million rows) outlast the server's 5 s
  const db = createDb({ databaseUrl: pgUrl, sqliteFile: path.join(dataDir, 'iam.sqlite'), poolSize: 10, queryTimeoutMs: 600_000 });
  await migrateToLatest(db);
  const have = Number((await db.kysely.selectFrom('accounts').select((eb) => eb.fn.countAll<number | string>().as('n')).where('type', '=', 'user').executeTakeFirstOrThrow()).n);
  if (have < USERS) {
    console.error(`seeding ${USERS - have} users…`);
    await seedUsers(db, { users: USERS - have, log: (m) => console.error(m) });
  }
  // still needed: the seed loads with seedUsers, not through an import job (which analyzes accounts itself,
  // server/db/statistics.ts), and only VACUUM sets PostgreSQL's visibility map for index-only scans.
  // as after a real bulk load (autovacuum would get there too): statistics, and on PostgreSQL the visibility map, of
  // every table the list reads (without statistics on role_subscriptions, PostgreSQL drove role + filters from the
  // role's 33 000 holders with a primary-key lookup each: 1.3–2 s instead of a 0.1 s hash semi-join)
  await db.kysely.executeQuery(CompiledQuery.raw(db.dialect === 'postgres' ? 'vacuum analyze accounts, role_subscriptions' : 'analyze'));
  const config = loadConfig({ IAM_DATA_DIR: dataDir, LOG_LEVEL: 'silent', APP_URL: 'http://localhost:3000', IAM_DIST_DIR: path.join(dataDir, 'no-dist') });
  const app: FastifyInstance = await buildApp({ config: { ...config, databaseUrl: pgUrl }, db, logger: false, migrate: false });
  await app.listen({ host: '127.0.0.1', port: Number(process.env.BENCH_PORT || 0) });
  const address = app.server.address();
  const base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  const load: number[] = [];
  const loadTimer = setInterval(() => load.push(os.loadavg()[0] ?? 0), 5000);
  load.push(os.loadavg()[0] ?? 0);
  /** One request over HTTP: status, body and the time to the last byte. */
  const get = async (url: string): Promise<{ status: number; body: string; ms: number }> => {
    const t0 = performance.now();
    const res = await fetch(base + url, { headers });
    const body = await res.text();
    return { status: res.status, body, ms: performance.now() - t0 };
  };
  const admin = accountRow({ type: 'admin', email: `bench-${randomUUID()}@example.com`, first_name: 'Bench', last_name: 'Admin', admin_role: 'super_admin', status: 'ACTIVE', auth_type: 'CREDENTIALS', locale: 'en', technical: 0 });
  await db.kysely.insertInto('accounts').values(admin).execute();
  const adminRow = await db.kysely.selectFrom('accounts').selectAll().where('id', '=', admin.id).executeTakeFirstOrThrow();
  const token = randomUUID();
  app.bearerVerifiers.unshift(async (t) => (t === token ? { account: adminRow, via: 'access_token' as const } : null));
  const headers = { authorization: `Bearer ${token}` };
  const total = Number((await db.kysely.selectFrom('account_counters').select('n').where('type', '=', 'user').executeTakeFirstOrThrow()).n);
  const role = await db.kysely.selectFrom('roles').select('id').where('name', '=', 'CRM_WRITE').executeTakeFirstOrThrow();
  const sample = await db.kysely.selectFrom('accounts').select('email').where('type', '=', 'user').orderBy('created_at').offset(Math.floor(total / 3)).limit(1).executeTakeFirstOrThrow();
  const rare = sample.email.split('@')[0]?.slice(-9) ?? 'x';

  // a term of few matches: 100 users named Qvist ("q", "qv": no other seeded row holds a q), removed at the end
  const qvist = Array.from({ length: 100 }, (_, i) =>
    ({
      ...accountRow({ type: 'user', email: `qvist.${i}@bench.example.com`, first_name: 'Ola', last_name: 'Qvist', status: 'ACTIVE', auth_type: 'CREDENTIALS', locale: 'en', technical: 0 }),
      // spread over the seeded years, as rare rows would be (not all on the first page)
      created_at: new Date(Date.UTC(2022, 0, 1) + ((i + 0.5) / 100) * (Date.now() - Date.UTC(2022, 0, 1))).toISOString(),
    }),
  );
  await db.kysely.deleteFrom('accounts').where('email_normalized', 'like', 'qvist.%@bench.example.com').execute();
  await db.kysely.insertInto('accounts').values(qvist).execute();

  const lastPage = Math.ceil(total / 10);
  const middle = Math.floor(lastPage / 2);
  // a cursor in the middle of the list: the next_cursor of the page before it (taken once, as the SPA would hold it)
  const beforeRes = await get(`/api/admin/users?page=${middle - 1}&size=10`);
  if (beforeRes.status !== 200) throw new Error(`list: ${beforeRes.status} ${beforeRes.body.slice(0, 300)}`);
  const before = JSON.parse(beforeRes.body) as { meta: { next_cursor: string | null } };
  const midCursor = before.meta.next_cursor ?? '';
  const zimmerPage1 = JSON.parse((await get('/api/admin/users?search=zimmermann')).body) as { meta: { next_cursor: string | null } };
  const scenarios: { name: string; url: string }[] = [
    { name: 'list, first page', url: '/api/admin/users?page=1&size=10' },
    { name: `list, middle page (${middle}) by page number`, url: `/api/admin/users?page=${middle}&size=10` },
    { name: `list, middle page (${middle}) by cursor`, url: `/api/admin/users?page=${middle}&size=10&cursor=${midCursor}` },
    { name: `list, last page (${lastPage})`, url: `/api/admin/users?page=${lastPage}&size=10` },
    { name: 'search, common ("zimmermann", ~2.5%)', url: '/api/admin/users?search=zimmermann' },
    { name: 'search, common, page 2 by cursor', url: `/api/admin/users?search=zimmermann&page=2&cursor=${zimmerPage1.meta.next_cursor ?? ''}` },
    { name: `search, rare ("${rare}")`, url: `/api/admin/users?search=${encodeURIComponent(rare)}` },
    { name: 'search, 1 character ("a")', url: '/api/admin/users?search=a' },
    { name: 'search, 2 characters ("zi")', url: '/api/admin/users?search=zi' },
    { name: 'search, 2 characters, no match ("qx")', url: '/api/admin/users?search=qx' },
    { name: 'search, 1 character, no match ("ß")', url: `/api/admin/users?search=${encodeURIComponent('ß')}` },
    { name: 'search, 1 character, 100 matches ("q")', url: '/api/admin/users?search=q' },
    { name: 'search, 2 characters, 100 matches ("qv"), page 2 by cursor', url: 'qv-page-2' },
    { name: 'filtered search (status=INACTIVE, locale=it, "rossi")', url: '/api/admin/users?search=rossi&status=INACTIVE&locale=it' },
    { name: 'filtered search (status=INACTIVE, locale=it, "ro")', url: '/api/admin/users?search=ro&status=INACTIVE&locale=it' },
    { name: 'filter status=INACTIVE, page 50', url: '/api/admin/users?status=INACTIVE&page=50' },
    { name: 'filter role (CRM_WRITE)', url: `/api/admin/users?role=${role.id}` },
    { name: 'filter role + locale=de + SSO', url: `/api/admin/users?role=${role.id}&locale=de&auth_type=SSO` },
    { name: 'search "zimmermann", count=exact', url: '/api/admin/users?search=zimmermann&count=exact' },
  ];
  const qvPage1 = JSON.parse((await get('/api/admin/users?search=qv')).body) as { meta: { next_cursor: string | null } };
  for (const sc of scenarios) if (sc.url === 'qv-page-2') sc.url = `/api/admin/users?search=qv&page=2&cursor=${qvPage1.meta.next_cursor ?? ''}`;
  const only = process.env.BENCH_ONLY ? new RegExp(process.env.BENCH_ONLY) : undefined;
  const results: { name: string; p50: number; p95: number; note: string }[] = [];
  for (const s of scenarios) {
    if (only && !only.test(s.name)) continue;
    const times: number[] = [];
    let note = '';
    let cpuUs = 0;
    for (let i = 0; i < RUNS + 2; i++) {
      const c0 = process.cpuUsage();
      const res = await get(s.url);
      const c = process.cpuUsage(c0);
      if (res.status !== 200) throw new Error(`${s.name}: ${res.status} ${res.body.slice(0, 200)}`);
      if (i >= 2) {
        times.push(res.ms); // 2 warm-up runs
        cpuUs += c.user + c.system;
      }
      const meta = (JSON.parse(res.body) as { meta: { total: number; total_is_lower_bound?: boolean } }).meta;
      note = `total ${meta.total}${meta.total_is_lower_bound ? '+' : ''}`;
    }
    // CPU of the process (server and client) per request, mean: less sensitive to the machine's load than wall time
    note += `; CPU ${fmt(cpuUs / RUNS / 1000)} ms/req`;
    results.push({ name: s.name, p50: pct(times, 50), p95: pct(times, 95), note });
    console.error(`${s.name}: p50 ${fmt(pct(times, 50))} p95 ${fmt(pct(times, 95))} ms (load ${os.loadavg()[0]?.toFixed(1)})`);
  }

  // exports, read as a stream over HTTP: a filtered one (status=INACTIVE & locale=it ≈ 1.25 %) and the whole list
  const exportRun = async (url: string, maxRows: number) => {
    let peak = process.memoryUsage().rss;
    const rss0 = peak;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 100);
    const t0 = performance.now();
    const res = await fetch(base + url, { headers });
    let rows = -1; // the header line
    const reader = res.body?.getReader();
    for (;;) {
      const chunk = reader ? await reader.read() : { done: true, value: undefined };
      if (chunk.done || !chunk.value) break;
      for (const b of chunk.value) if (b === 10) rows++;
      if (maxRows && rows >= maxRows) {
        await reader?.cancel();
        break;
      }
    }
    const ms = performance.now() - t0;
    clearInterval(sampler);
    return { ms, rows, rowsPerS: Math.round(rows / (ms / 1000)), rss0, peak };
  };
  if (!only || only.test('export')) {
    const times: number[] = [];
    let rows = 0;
    for (let i = 0; i < Math.max(3, Math.floor(RUNS / 4)); i++) {
      const r = await exportRun('/api/admin/users/export?status=INACTIVE&locale=it', 0);
      times.push(r.ms);
      rows = r.rows;
    }
    results.push({ name: 'export CSV (status=INACTIVE, locale=it)', p50: pct(times, 50), p95: pct(times, 95), note: `${rows} rows, ${Math.round(rows / (pct(times, 50) / 1000))} rows/s (p50)` });
    const cpu0 = process.cpuUsage();
    const all = await exportRun('/api/admin/users/export', EXPORT_ROWS);
    const cpu = process.cpuUsage(cpu0);
    const mb = (n: number) => `${Math.round(n / 1e6)} MB`;
    results.push({
      name: `export CSV, whole list${EXPORT_ROWS ? ` (first ${EXPORT_ROWS} rows)` : ''}`,
      p50: all.ms,
      p95: all.ms,
      note: `${all.rows} rows, **${all.rowsPerS} rows/s** wall, ${Math.round(all.rows / ((cpu.user + cpu.system) / 1e6))} rows per CPU-second (server and reader in one process); RSS ${mb(all.rss0)} before, peak ${mb(all.peak)}`,
    });
    console.error(`export: ${all.rows} rows in ${Math.round(all.ms)} ms`);
  }

  // import of IMPORT_ROWS rows as a background job, with a health probe running meanwhile
  if (IMPORT_ROWS > 0 && (!only || only.test('import'))) {
    const run = randomUUID().slice(0, 8);
    const lines = ['email;first_name;last_name;locale;auth_type;provider;technical;phone'];
    for (let i = 0; i < IMPORT_ROWS; i++) lines.push(`imp.${run}.${i}@import.example.com;Imp${i % 97};Ort${i % 89};${['en', 'de', 'fr', 'it'][i % 4]};CREDENTIALS;;${i % 50 === 0 ? 'true' : 'false'};`);
    const csv = `\ufeff${lines.join('\n')}\n`;
    const boundary = `----bench${run}`;
    const body = Buffer.concat([
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="users.csv"\r\nContent-Type: text/csv\r\n\r\n`),
      Buffer.from(csv),
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    const probe: number[] = [];
    let probing = true;
    const prober = (async () => {
      while (probing) {
        const t0 = performance.now();
        await app.inject({ method: 'GET', url: '/api/admin/users?page=1&size=10', headers });
        probe.push(performance.now() - t0);
        await new Promise((r) => setTimeout(r, 50));
      }
    })();
    const t0 = performance.now();
    const res = await app.inject({ method: 'POST', url: '/api/admin/users/import?async=true', headers: { ...headers, 'content-type': `multipart/form-data; boundary=${boundary}` }, payload: body });
    if (res.statusCode !== 202) throw new Error(`import: ${res.statusCode} ${res.body.slice(0, 300)}`);
    const jobId = res.json<{ data: { job_id: string } }>().data.job_id;
    let job: { status: string; created: number; processed: number } = { status: 'running', created: 0, processed: 0 };
    while (job.status === 'running' || job.status === 'queued') {
      await new Promise((r) => setTimeout(r, 200));
      job = (await app.inject({ method: 'GET', url: `/api/admin/users/import/${jobId}`, headers })).json<{ data: typeof job }>().data;
    }
    const dt = performance.now() - t0;
    probing = false;
    await prober;
    results.push({ name: `import ${IMPORT_ROWS} rows (job, 1000-row batches)`, p50: dt, p95: dt, note: `${job.status}, ${job.created} created, ${Math.round(job.created / (dt / 1000))} rows/s; list p50/max while importing ${fmt(pct(probe, 50))}/${fmt(Math.max(...probe))} ms` });
  }

  clearInterval(loadTimer);
  load.push(os.loadavg()[0] ?? 0);
  const machine = `${os.cpus().length} cores, ${os.cpus()[0]?.model ?? ''}`;
  console.log(`\n### ${db.dialect === 'postgres' ? 'PostgreSQL' : 'SQLite'}, ${total.toLocaleString('en')} users, ${RUNS} runs (${machine}, Node ${process.version})\n`);
  console.log(`Load average (1 min) during the run: ${Math.min(...load).toFixed(1)}–${Math.max(...load).toFixed(1)} (median ${pct(load, 50).toFixed(1)}) on ${os.cpus().length} cores\n`);
  console.log('| scenario | p50 ms | p95 ms | notes |\n|---|---:|---:|---|');
  for (const r of results) console.log(`| ${r.name} | ${fmt(r.p50)} | ${fmt(r.p95)} | ${r.note} |`);

  console.log('\n#### Query plans\n');
  const explain = async (name: string, q: { compile(): CompiledQuery }) => {
    const c = q.compile();
    const prefix = db.dialect === 'postgres' ? 'explain (analyze, buffers, costs off) ' : 'explain query plan ';
    const out = await db.kysely.executeQuery<Record<string, unknown>>(CompiledQuery.raw(prefix + c.sql, [...c.parameters]));
    const lines = out.rows.map((r) => (db.dialect === 'postgres' ? String(r['QUERY PLAN']) : `${'  '.repeat(Number(r.parent) ? 1 : 0)}${String(r.detail)}`));
    console.log(`${name}:\n\n\`\`\`\n${lines.join('\n')}\n\`\`\`\n`);
  };
  await explain('first page', pageQuery(app.db, 'user', {}, 10, 0));
  await explain(`deep page (offset ${Math.floor(total / 2) - 10}, the middle: deeper pages scan from the other end)`, pageQuery(app.db, 'user', {}, 10, Math.floor(total / 2) - 10));
  await explain('search "zimmermann", page 1', pageQuery(app.db, 'user', { search: 'zimmermann' }, 10, 0));
  await explain('search "zimmermann", total', countQuery(app.db, 'user', { search: 'zimmermann' }));
  await explain('filtered search (INACTIVE, it, "rossi"), page 1', pageQuery(app.db, 'user', { search: 'rossi', status: 'INACTIVE', locale: 'it' }, 10, 0));
  await explain('filtered search, total', countQuery(app.db, 'user', { search: 'rossi', status: 'INACTIVE', locale: 'it' }));
  await explain('role filter, page 1', pageQuery(app.db, 'user', { role: role.id }, 10, 0));

  // leave the bench DB as it was: drop the imported rows and the bench admin
  await db.kysely.deleteFrom('accounts').where('email_normalized', 'like', 'imp.%@import.example.com').execute();
  await db.kysely.deleteFrom('accounts').where('email_normalized', 'like', 'qvist.%@bench.example.com').execute();
  await db.kysely.deleteFrom('accounts').where('id', '=', admin.id).execute();
  await app.close();
  await db.close();
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
