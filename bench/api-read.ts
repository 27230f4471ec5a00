/**
 * Authenticated API reads against a bare Fastify hello-world, side by side in one run: `npm run bench:api-read`
 * (SQLite) or `BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/<your db> npm run bench:api-read` (the
 * database is created when missing and the app's tables are migrated into it).
 *
 * Both servers run in processes of their own (the real one is the compiled server, build/server/main.js, production settings apart from a
 * rate limit high enough not to refuse the load); the load generator (autocannon, BENCH_CONNECTIONS connections,
 * keep-alive, no pipelining) runs here. A user and an admin sign in through the real OIDC flow over HTTP
 * (authorize with PKCE → POST /api/login → code → token), then GET /api/user and GET /api/admin are driven with
 * their bearers, so every check runs on every request (signature, issuer, audience, grant alive, account active).
 * BENCH_ROUNDS rounds of hello, user, admin (the order rotates each round), each compared with its round's hello
 * run; the table shows every run and the medians. The machine may be shared: besides req/s it shows the server
 * process's CPU time per request (from /proc, user + system), which other load on the machine changes much less,
 * and the 1-minute load average during each run. Every answer must be a 200.
 *
 * BENCH_COMPARE_DIR=<another checkout> runs that checkout's server too (port BENCH_PORT + 2, same database) and
 * measures it in the same rounds, labelled BENCH_COMPARE_LABEL (default "compare"): before/after in one run.
 *
 * Env: BENCH_SECONDS (per run, default 10), BENCH_ROUNDS (default 3), BENCH_CONNECTIONS (50), BENCH_PORT (first of two ports, default 3251),
 * BENCH_REDIS_URL (REDIS_URL of the server, optional), BENCH_CPU_PROF (a directory: the server runs with
 * `node --cpu-prof` and writes its profile there on exit).
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import autocannon from 'autocannon';
import { createDb, migrateToLatest } from '../server/db/index';
import { accountRow } from '../server/services/accounts';
import { hashPassword } from '../server/services/passwords';

const here = fileURLToPath(import.meta.url);
const SECONDS = Number(process.env.BENCH_SECONDS || 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS || 50);
const ROUNDS = Number(process.env.BENCH_ROUNDS || 3);
const PORT = Number(process.env.BENCH_PORT || 3251);
const pgUrl = process.env.BENCH_DATABASE_URL || undefined;
const PASSWORD = 'Bench-Passw0rd!x';

/** Child mode: the bare Fastify hello-world. */
async function hello(port: number): Promise<void> {
  const { default: Fastify } = await import('fastify');
  const app = Fastify({ logger: false });
  app.get('/', async () => ({ hello: 'world' }));
  await app.listen({ port, host: '127.0.0.1' });
}

async function waitFor(url: string, child: ChildProcess, timeoutMs = 120_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${url}: the server exited (${child.exitCode})`);
    try {
      const res = await fetch(url);
      if (res.status < 500) return;
    } catch {
      /* not listening yet */
    }
    if (Date.now() > until) throw new Error(`${url} did not answer`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

function stop(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

/** A tiny browser: fetch with a cookie jar and manual redirects. */
class Browser {
  private jar = new Map<string, string>();
  async go(url: string, init: RequestInit = {}): Promise<Response> {
    const headers = new Headers(init.headers);
    if (this.jar.size) headers.set('cookie', [...this.jar].map(([k, v]) => `${k}=${v}`).join('; '));
    const res = await fetch(url, { ...init, headers, redirect: 'manual' });
    for (const c of res.headers.getSetCookie()) {
      const [pair = ''] = c.split(';');
      const i = pair.indexOf('=');
      if (i <= 0) continue;
      const value = pair.slice(i + 1);
      if (!value || /expires=Thu, 01 Jan 1970/i.test(c)) this.jar.delete(pair.slice(0, i));
      else this.jar.set(pair.slice(0, i), value);
    }
    return res;
  }
}

/** The real sign-in over HTTP; returns the access token. */
async function signIn(base: string, client: 'portal' | 'admin-console', email: string): Promise<string> {
  const b = new Browser();
  const redirectUri = `${base}${client === 'admin-console' ? '/admin/login' : '/login'}`;
  const verifier = randomBytes(48).toString('base64url');
  const state = randomBytes(24).toString('base64url');
  const q = new URLSearchParams({
    client_id: client,
    redirect_uri: redirectUri,
    response_type: 'code',
    scope: 'openid profile email',
    state,
    code_challenge: createHash('sha256').update(verifier).digest('base64url'),
    code_challenge_method: 'S256',
  });
  const auth = await b.go(`${base}/oidc/auth?${q}`);
  const interaction = new URL(auth.headers.get('location') ?? '', base).searchParams.get('interaction');
  if (!interaction) throw new Error(`authorize: ${auth.status} ${auth.headers.get('location')}`);
  const login = await b.go(`${base}${client === 'admin-console' ? '/api/admin/login' : '/api/login'}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password: PASSWORD, interaction }),
  });
  const body = (await login.json()) as { data?: { status: string; redirect_to?: string } };
  let url = body.data?.redirect_to;
  if (login.status !== 200 || !url) throw new Error(`login: ${login.status} ${JSON.stringify(body)}`);
  for (let i = 0; i < 6 && !url.startsWith(redirectUri); i++) {
    const res = await b.go(new URL(url, base).href);
    url = new URL(res.headers.get('location') ?? '', base).href;
  }
  const code = new URL(url).searchParams.get('code');
  if (!code) throw new Error(`no code: ${url}`);
  const token = await fetch(`${base}/oidc/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'authorization_code', code, redirect_uri: redirectUri, client_id: client, code_verifier: verifier }),
  });
  const t = (await token.json()) as { access_token?: string };
  if (!t.access_token) throw new Error(`token: ${token.status} ${JSON.stringify(t)}`);
  return t.access_token;
}

/** Creates the PostgreSQL database of BENCH_DATABASE_URL when it does not exist. */
async function ensureDatabase(url: string): Promise<void> {
  const u = new URL(url);
  const name = decodeURIComponent(u.pathname.slice(1));
  if (!/^[A-Za-z0-9_]+$/.test(name)) throw new Error(`BENCH_DATABASE_URL: database name "${name}" must be [A-Za-z0-9_]+`);
  u.pathname = '/postgres';
  const c = new pg.Client({ connectionString: u.href });
  await c.connect();
  try {
    const { rowCount } = await c.query('select 1 from pg_database where datname = $1', [name]);
    if (!rowCount) await c.query(`create database "${name}"`);
  } finally {
    await c.end();
  }
}

interface Run {
  name: string;
  round: number;
  rps: number;
  /** server CPU µs per request */
  cpuUs: number;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
  load: number[];
}

/** CPU time (user + system) of a process so far, in µs (Linux /proc; clock ticks of 10 ms). */
function cpuUsOf(pid: number | undefined): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10_000; // utime, stime (fields 14 and 15)
}

async function measure(name: string, round: number, pid: number | undefined, url: string, headers: Record<string, string> = {}): Promise<Run> {
  if (round === 1) await autocannon({ url, connections: CONNECTIONS, duration: 2, headers }); // warm-up (JIT, caches, connections)
  const load: number[] = [];
  const sampler = setInterval(() => load.push(os.loadavg()[0] ?? 0), 1000);
  const cpu0 = cpuUsOf(pid);
  const r = await autocannon({ url, connections: CONNECTIONS, duration: SECONDS, headers });
  const cpu = cpuUsOf(pid) - cpu0;
  clearInterval(sampler);
  const run = { name, round, rps: r.requests.average, cpuUs: cpu / Math.max(1, r.requests.total), p50: r.latency.p50, p99: r.latency.p99, non2xx: r.non2xx, errors: r.errors + r.timeouts, load };
  console.error(`round ${round} ${name}: ${Math.round(run.rps)} req/s, ${run.cpuUs.toFixed(0)} µs CPU/req, p50 ${run.p50} ms, p99 ${run.p99} ms, non-2xx ${run.non2xx}, errors ${run.errors}`);
  return run;
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? (s[m] ?? 0) : ((s[m - 1] ?? 0) + (s[m] ?? 0)) / 2;
};

async function main(): Promise<void> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'iam-bench-api-read-'));
  const children: ChildProcess[] = [];
  try {
    if (pgUrl) await ensureDatabase(pgUrl);
    const db = createDb({ databaseUrl: pgUrl, sqliteFile: path.join(dataDir, 'iam.sqlite'), poolSize: 1 });
    await migrateToLatest(db);
    const run = randomBytes(4).toString('hex');
    const emails = { user: `bench-user-${run}@example.com`, admin: `bench-admin-${run}@example.com` };
    const passwordHash = await hashPassword(PASSWORD);
    const now = new Date().toISOString();
    for (const type of ['user', 'admin'] as const) {
      await db.kysely
        .insertInto('accounts')
        .values(
          accountRow({
            type,
            email: emails[type],
            first_name: 'Bench',
            last_name: type,
            locale: 'en',
            status: 'ACTIVE',
            auth_type: 'CREDENTIALS',
            technical: 0,
            admin_role: type === 'admin' ? 'super_admin' : null,
            email_verified_at: now,
            password_changed_at: now,
            password_hash: passwordHash,
          }),
        )
        .execute();
    }
    await db.close();

    const prof = process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(process.env.BENCH_CPU_PROF)}`] : [];
    // the compiled server, as `npm start` runs it (a checkout without scripts/build-server.mjs: its sources under tsx)
    const serverArgs = (dir: string): string[] => {
      const script = path.join(dir, 'scripts', 'build-server.mjs');
      if (!existsSync(script)) return ['--import', 'tsx', path.join(dir, 'server', 'main.ts')];
      execFileSync(process.execPath, [script, '--if-stale'], { cwd: dir, stdio: 'inherit' });
      return [path.join(dir, 'build', 'server', 'main.js')];
    };
    const startServer = (dir: string, port: number, profile: boolean): ChildProcess => {
      const child = spawn(process.execPath, [...(profile ? prof : []), ...serverArgs(dir)], {
        cwd: dir,
        stdio: ['ignore', 'ignore', 'inherit'],
        env: {
          ...process.env,
          NODE_ENV: 'production',
          PORT: String(port),
          HOST: '127.0.0.1',
          APP_URL: `http://localhost:${port}`,
          IAM_DATA_DIR: dataDir,
          IAM_DIST_DIR: path.join(dataDir, 'no-dist'),
          LOG_LEVEL: 'warn',
          IAM_RATE_LIMIT_PER_MINUTE: '100000000',
          DATABASE_URL: pgUrl ?? '',
          REDIS_URL: process.env.BENCH_REDIS_URL ?? '',
          IAM_REDIS_PREFIX: `bench-api-read-${run}:`,
        },
      });
      children.push(child);
      return child;
    };
    // the real server of this checkout, and (BENCH_COMPARE_DIR) the one of another checkout on the same database
    const servers = [{ label: '', dir: path.join(path.dirname(here), '..'), port: PORT }];
    if (process.env.BENCH_COMPARE_DIR) servers.push({ label: `${process.env.BENCH_COMPARE_LABEL || 'compare'}: `, dir: path.resolve(process.env.BENCH_COMPARE_DIR), port: PORT + 2 });
    const bare = spawn(process.execPath, ['--import', 'tsx', here, 'hello', String(PORT + 1)], { stdio: ['ignore', 'ignore', 'inherit'] });
    children.push(bare);
    await waitFor(`http://127.0.0.1:${PORT + 1}/`, bare);
    const targets: { name: string; pid: number | undefined; url: string; headers: Record<string, string> }[] = [
      { name: 'bare Fastify hello-world', pid: bare.pid, url: `http://127.0.0.1:${PORT + 1}/`, headers: {} },
    ];
    for (const s of servers) {
      // one at a time: a server migrating or creating the first signing key while another starts
      const child = startServer(s.dir, s.port, s.label === '');
      const origin = `http://localhost:${s.port}`;
      await waitFor(`${origin}/api/health`, child);
      const userToken = await signIn(origin, 'portal', emails.user);
      const adminToken = await signIn(origin, 'admin-console', emails.admin);
      for (const [p, token] of [['/api/user', userToken], ['/api/admin', adminToken]] as const) {
        const res = await fetch(`${origin}${p}`, { headers: { authorization: `Bearer ${token}` } });
        if (res.status !== 200) throw new Error(`${p}: ${res.status} ${await res.text()}`);
      }
      targets.push(
        { name: `${s.label}GET /api/user (bearer)`, pid: child.pid, url: `http://127.0.0.1:${s.port}/api/user`, headers: { authorization: `Bearer ${userToken}` } },
        { name: `${s.label}GET /api/admin (bearer)`, pid: child.pid, url: `http://127.0.0.1:${s.port}/api/admin`, headers: { authorization: `Bearer ${adminToken}` } },
      );
    }
    const runs: Run[] = [];
    for (let round = 1; round <= ROUNDS; round++) {
      for (let i = 0; i < targets.length; i++) {
        const t = targets[(i + round - 1) % targets.length];
        if (t) runs.push(await measure(t.name, round, t.pid, t.url, t.headers));
      }
    }

    const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0);
    const bareOf = (round: number) => runs.find((r) => r.round === round && r.name === targets[0]?.name);
    console.log(`\n### ${pgUrl ? 'PostgreSQL' : 'SQLite'}${process.env.BENCH_REDIS_URL ? ' + Redis' : ''}, ${CONNECTIONS} connections, ${ROUNDS} rounds of ${SECONDS} s per run (${os.cpus().length} cores, Node ${process.version})\n`);
    console.log('| round | run | req/s | % of bare (same round) | server CPU µs/req | p50 ms | p99 ms | load avg (1 min) mean / max |\n|---|---|---:|---:|---:|---:|---:|---|');
    for (const r of runs) {
      const b = bareOf(r.round);
      console.log(`| ${r.round} | ${r.name} | ${Math.round(r.rps)} | ${b ? ((100 * r.rps) / b.rps).toFixed(1) : '?'} % | ${r.cpuUs.toFixed(0)} | ${r.p50} | ${r.p99} | ${mean(r.load).toFixed(1)} / ${Math.max(0, ...r.load).toFixed(1)} |`);
    }
    console.log('\n| medians | req/s | % of bare | server CPU µs/req | CPU per request vs bare | p50 ms | p99 ms |\n|---|---:|---:|---:|---:|---:|---:|');
    const bareCpu = median(runs.filter((r) => r.name === targets[0]?.name).map((r) => r.cpuUs));
    for (const t of targets) {
      const mine = runs.filter((r) => r.name === t.name);
      const pcts = mine.map((r) => (100 * r.rps) / (bareOf(r.round)?.rps ?? Infinity));
      const cpu = median(mine.map((r) => r.cpuUs));
      console.log(`| ${t.name} | ${Math.round(median(mine.map((r) => r.rps)))} | ${median(pcts).toFixed(1)} % | ${cpu.toFixed(0)} | ${((100 * bareCpu) / cpu).toFixed(1)} % | ${median(mine.map((r) => r.p50))} | ${median(mine.map((r) => r.p99))} |`);
    }
    console.log(`\nnon-2xx answers: ${runs.reduce((a, r) => a + r.non2xx, 0)}, errors: ${runs.reduce((a, r) => a + r.errors, 0)}`);
    const bad = runs.find((r) => r.non2xx > 0 || r.errors > 0);
    if (bad) throw new Error(`${bad.name}: ${bad.non2xx} non-2xx answers, ${bad.errors} errors`);
  } finally {
    for (const c of children) await stop(c);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

if (process.argv[2] === 'hello') {
  hello(Number(process.argv[3])).catch((err: unknown) => {
    console.error(err);
    process.exit(1);
  });
} else {
  main().catch((err: unknown) => {
    console.error(err);
    process.exit(1);
  });
}
