/**
 * Sign-in throughput, overload and memory: `npm run bench:signin`.
 *
 * Runs the real server as its own process (the compiled server, as `npm start` runs it; BENCH_TSX=1: the sources under
 * `node --import tsx server/main.ts`, as before the server was compiled; NODE_ENV=production, SQLite in a
 * temporary directory) and drives it over HTTP like a relying party with PKCE: GET /oidc/auth → POST /api/login →
 * follow redirect_to (the provider's resume) → the code at the redirect URI → POST /oidc/token. Prints:
 *  - the raw argon2id verify rate of this machine (same parameters as the server, as many verifies at once as the
 *    server's libuv threadpool has threads), measured before and after the load phases, in this process;
 *  - capacity: completed sign-ins/s with BENCH_SIGNIN_USERS (default 8 × cores: enough to saturate the server; refused ones retry after 50 ms) closed-loop clients, and the ratio
 *    to the raw verify rate;
 *  - overload: sign-ins started open-loop at BENCH_OVERLOAD (default 4) × capacity for BENCH_SIGNIN_SECONDS: goodput
 *    (completed sign-ins/s, and as a share of capacity), refusals (429/503) per step with p50/p99 latency and whether
 *    each carried Retry-After, other 5xx, and the server's log lines (error-level lines, stack traces, counter lines);
 *  - RSS of the server process: idle (after start, and 5 s and 30 s after the load) and peak (sampled every 50 ms).
 * The shared machine's CPU drifts, so windows alternate (capacity, raw rate, overload; BENCH_SIGNIN_ROUNDS, default 3) and
 * each ratio compares a window with its neighbours.
 * Env: BENCH_SIGNIN_SECONDS (window length, default 8), BENCH_SIGNIN_PORT (default 3261), BENCH_OVERLOAD (4), BENCH_SIGNIN_ACCOUNTS (50),
 * BENCH_CHEAP_HASHES=1 (diagnostic: cheap account hashes, see below), BENCH_SERVER_LOG=<file> (the server's output lines, e.g. with BENCH_NODE_OPTIONS=--trace-gc), BENCH_MEM_LOG=<file> (a line per second: the server's RSS, anonymous memory, huge pages, V8 heap, sign-ins done), BENCH_CLIENT=fetch (the generator uses the global fetch instead of node:http with keep-alive), BENCH_NODE_OPTIONS (extra node flags for the server), BENCH_PLAIN=1 (start the server without scripts/server-runtime.mjs), and any server variable (IAM_HASH_CONCURRENCY…) passes through.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import { createHash, randomBytes } from 'node:crypto';
import { appendFileSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import argon2 from 'argon2';
import { createDb, migrateToLatest } from '../server/db/index';
import { accountRow } from '../server/services/accounts';
import { ARGON2_OPTIONS } from '../server/services/passwords';
// @ts-expect-error -- a plain .mjs script without types (the settings npm start uses)
import { serverEnv, serverNodeArgs } from '../scripts/server-runtime.mjs';
import { ensureServerBuilt } from '../scripts/build-server.mjs';

const SECONDS = Number(process.env.BENCH_SIGNIN_SECONDS || 8);
const ROUNDS = Number(process.env.BENCH_SIGNIN_ROUNDS || 3);
const RAW_MS = 4000;
const PORT = Number(process.env.BENCH_SIGNIN_PORT || 3261);
const OVERLOAD = Number(process.env.BENCH_OVERLOAD || 4);
const ACCOUNTS = Number(process.env.BENCH_SIGNIN_ACCOUNTS || 50);
const CORES = os.availableParallelism();
const CLIENTS = Number(process.env.BENCH_SIGNIN_USERS || CORES * 8);
const PASSWORD = 'Bench-Passw0rd!42';
const APP_URL = `http://localhost:${PORT}`;
const REDIRECT_URI = `${APP_URL}/login`;

const CHEAP = process.env.BENCH_CHEAP_HASHES === '1';
const METRICS_TOKEN = 'bench-signin-metrics-token';

/** Server-side durations of the 503 answers (iam_http_request_duration_seconds): answers within 50 ms / all, per route. */
async function serverRefusalTimes(): Promise<string> {
  const text = await fetch(`${APP_URL}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } }).then((r) => r.text());
  const rows = new Map<string, { fast: number; all: number }>();
  for (const m of text.matchAll(/^iam_http_request_duration_seconds_bucket\{([^}]*)\} (\d+)/gm)) {
    const labels = Object.fromEntries([...(m[1] ?? '').matchAll(/(\w+)="([^"]*)"/g)].map((l) => [l[1], l[2]]));
    if (labels.status !== '503') continue;
    const key = `${labels.method} ${labels.route}`;
    const row = rows.get(key) ?? { fast: 0, all: 0 };
    if (labels.le === '0.05') row.fast = Number(m[2]);
    if (labels.le === '+Inf') row.all = Number(m[2]);
    rows.set(key, row);
  }
  return [...rows].map(([k, r]) => `${k}: ${r.fast}/${r.all}`).join('; ') || 'none';
}

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))] ?? 0;
};
const f1 = (n: number) => n.toFixed(1);

/** CPU ms per argon2id verify in this process's windows (all threads; the process does nothing else meanwhile). */
const rawCpuPerVerify: number[] = [];

/** argon2id verifies per second with `parallel` verifies in flight for `ms` (this process's threadpool). */
async function argonRate(parallel: number, ms: number): Promise<number> {
  const hash = await argon2.hash(PASSWORD, ARGON2_OPTIONS);
  let done = 0;
  const end = performance.now() + ms;
  const t0 = performance.now();
  const c0 = process.cpuUsage();
  await Promise.all(
    Array.from({ length: parallel }, async () => {
      while (performance.now() < end) {
        if (!(await argon2.verify(hash, PASSWORD))) throw new Error('verify failed');
        done++;
      }
    }),
  );
  const c = process.cpuUsage(c0);
  rawCpuPerVerify.push((c.user + c.system) / 1000 / Math.max(1, done));
  return done / ((performance.now() - t0) / 1000);
}

/** Resident set size of a process in MB (/proc). */
function rssMb(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : 0;
}
/** The kB fields of /proc/<pid>/smaps_rollup that say what the resident memory is (anonymous, huge pages, files), in MB. */
function smapsMb(pid: number): Record<string, number> {
  const out: Record<string, number> = {};
  for (const m of readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8').matchAll(/^(Rss|Anonymous|AnonHugePages|Private_Clean|Private_Dirty|Shared_Clean):\s+(\d+) kB/gm)) out[m[1] ?? ''] = Number(m[2]) / 1024;
  return out;
}
/** The server's V8 heap and external memory (prom-client's default metrics at /metrics), in MB; undefined when not answered. */
async function heapMb(url: string, token: string): Promise<Record<string, number> | undefined> {
  try {
    const text = await fetch(url, { headers: { authorization: `Bearer ${token}` } }).then((r) => r.text());
    const out: Record<string, number> = {};
    for (const m of text.matchAll(/^iam_nodejs_(heap_size_used|heap_size_total|external_memory)_bytes (\S+)/gm)) out[m[1] ?? ''] = Number(m[2]) / 1048576;
    for (const m of text.matchAll(/^iam_nodejs_heap_space_size_used_bytes\{space="(\w+)"\} (\S+)/gm)) out[`used ${m[1]}`] = Number(m[2]) / 1048576;
    return out;
  } catch {
    return undefined;
  }
}
/**
 * CPU time (user + system, ms) of a process, of its main thread, and per thread name (/proc/<pid>/task/<tid>/stat:
 * "node" is the main thread, libuv's pool threads run argon2id, "V8 …" threads are the compiler and GC helpers).
 */
const CLK_TCK = 100;
function cpuMs(pid: number): { process: number; main: number; threads: Map<string, number> } {
  const read = (file: string) => {
    const stat = readFileSync(file, 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { name: stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')), ms: ((Number(f[11]) + Number(f[12])) * 1000) / CLK_TCK };
  };
  const threads = new Map<string, number>();
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      const t = read(`/proc/${pid}/task/${tid}/stat`);
      const name = Number(tid) === pid ? 'main' : `${t.name.replace(/[\d\s]+$/, '')}#${tid}`;
      threads.set(name, (threads.get(name) ?? 0) + t.ms);
    } catch {
      /* the thread ended */
    }
  }
  return { process: read(`/proc/${pid}/stat`).ms, main: threads.get('main') ?? 0, threads };
}
const loadavg = () => os.loadavg().map((x) => x.toFixed(2)).join(' / ');

type Step = 'authorize' | 'login' | 'resume' | 'token';
interface Outcome {
  ok: boolean;
  step?: Step;
  status?: number;
  refusedMs?: number;
  retryAfter?: boolean;
  error?: string;
}

/**
 * The answer of one request of the load generator. node:http with a keep-alive agent (BENCH_CLIENT=fetch: the global
 * fetch, as before): fetch/undici cost the generator ~2–3 ms of CPU per request on this machine, CPU taken from the
 * same two cores as the server and its hashes.
 */
interface Answer {
  status: number;
  header(name: string): string | undefined;
  setCookies(): string[];
  text(): Promise<string>;
}
const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });
const useFetch = process.env.BENCH_CLIENT === 'fetch';

function request(url: string, init: { method?: string; headers?: Record<string, string>; body?: string } = {}): Promise<Answer> {
  if (useFetch) {
    return fetch(url, { redirect: 'manual', ...init }).then((res) => ({
      status: res.status,
      header: (n: string) => res.headers.get(n) ?? undefined,
      setCookies: () => res.headers.getSetCookie(),
      text: () => res.text(),
    }));
  }
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: init.method ?? 'GET', headers: init.headers, agent }, (res) => {
      const chunks: Buffer[] = [];
      const body = new Promise<string>((done, fail) => {
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => done(Buffer.concat(chunks).toString('utf8')));
        res.on('error', fail);
      });
      const h = (n: string) => {
        const v = res.headers[n.toLowerCase()];
        return Array.isArray(v) ? v.join(', ') : v;
      };
      resolve({ status: res.statusCode ?? 0, header: h, setCookies: () => res.headers['set-cookie'] ?? [], text: () => body });
    });
    req.on('error', reject);
    if (init.body !== undefined) req.end(init.body);
    else req.end();
  });
}

class Jar {
  private readonly cookies = new Map<string, string>();
  store(res: Answer): void {
    for (const c of res.setCookies()) {
      const pair = c.split(';')[0] ?? '';
      const i = pair.indexOf('=');
      if (i <= 0) continue;
      const value = pair.slice(i + 1).trim();
      if (!value || /expires=Thu, 01 Jan 1970/i.test(c)) this.cookies.delete(pair.slice(0, i).trim());
      else this.cookies.set(pair.slice(0, i).trim(), value);
    }
  }
  header(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }
}

const refused = (status: number) => status === 429 || status === 503;

let signInsDone = 0;
/** One full sign-in as a browser + relying party do it; stops at the first step that is not answered as expected. */
async function signIn(email: string): Promise<Outcome> {
  const jar = new Jar();
  const verifier = randomBytes(48).toString('base64url');
  const state = randomBytes(24).toString('base64url');
  const q = new URLSearchParams({
    client_id: 'portal',
    redirect_uri: REDIRECT_URI,
    response_type: 'code',
    scope: 'openid profile email offline_access',
    state,
    code_challenge: createHash('sha256').update(verifier).digest('base64url'),
    code_challenge_method: 'S256',
  });
  const step = async (name: Step, url: string, init: { method?: string; headers?: Record<string, string>; body?: string }, expect: (status: number) => boolean): Promise<Answer | Outcome> => {
    const t0 = performance.now();
    let res: Answer;
    try {
      res = await request(url, { ...init, headers: { cookie: jar.header(), 'accept-language': 'en', ...init.headers } });
    } catch (err) {
      return { ok: false, step: name, error: err instanceof Error ? `${err.name}: ${(err.cause as Error | undefined)?.message ?? err.message}` : String(err) };
    }
    const ms = performance.now() - t0;
    jar.store(res);
    if (expect(res.status)) return res;
    const body = await res.text().catch(() => '');
    if (refused(res.status)) return { ok: false, step: name, status: res.status, refusedMs: ms, retryAfter: res.header('retry-after') !== undefined };
    return { ok: false, step: name, status: res.status, error: body.slice(0, 200) };
  };
  const isRedirect = (s: number) => s === 302 || s === 303;
  const isAnswer = (x: Answer | Outcome): x is Answer => !('ok' in x);

  const auth = await step('authorize', `${APP_URL}/oidc/auth?${q.toString()}`, {}, isRedirect);
  if (!isAnswer(auth)) return auth;
  await auth.text();
  const interaction = new URL(auth.header('location') ?? '', APP_URL).searchParams.get('interaction');
  if (!interaction) return { ok: false, step: 'authorize', error: `no interaction in ${auth.header('location')}` };

  const login = await step('login', `${APP_URL}/api/login`, { method: 'POST', headers: { 'content-type': 'application/json', origin: APP_URL }, body: JSON.stringify({ email, password: PASSWORD, interaction }) }, (s) => s === 200);
  if (!isAnswer(login)) return login;
  const data = (JSON.parse(await login.text()) as { data: { status: string; redirect_to?: string } }).data;
  if (data.status !== 'complete' || !data.redirect_to) return { ok: false, step: 'login', error: JSON.stringify(data) };

  let url = data.redirect_to;
  for (let i = 0; !url.startsWith(REDIRECT_URI); i++) {
    if (i > 4) return { ok: false, step: 'resume', error: 'too many redirects' };
    const res = await step('resume', new URL(url, APP_URL).href, {}, isRedirect);
    if (!isAnswer(res)) return res;
    await res.text();
    url = new URL(res.header('location') ?? '', APP_URL).href;
  }
  const back = new URL(url);
  const code = back.searchParams.get('code');
  if (!code || back.searchParams.get('state') !== state) return { ok: false, step: 'resume', error: `no code: ${url}` };

  const token = await step(
    'token',
    `${APP_URL}/oidc/token`,
    { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT_URI, client_id: 'portal', code_verifier: verifier }).toString() },
    (s) => s === 200,
  );
  if (!isAnswer(token)) return token;
  const tokens = JSON.parse(await token.text()) as { access_token?: string; id_token?: string };
  if (!tokens.access_token || !tokens.id_token) return { ok: false, step: 'token', error: 'no tokens' };
  signInsDone++;
  return { ok: true };
}

interface PhaseResult {
  started: number;
  completed: number;
  seconds: number;
  outcomes: Outcome[];
  /** CPU ms during the window: the server process, its main thread, and this (generator) process */
  cpu?: { process: number; main: number; generator: number; threads: Map<string, number> };
}

const emailOf = (i: number) => `bench${i % ACCOUNTS}@signin.example.com`;

/** `clients` loops of back-to-back sign-ins for `ms`. */
async function closedLoop(clients: number, ms: number): Promise<PhaseResult> {
  const outcomes: Outcome[] = [];
  let n = 0;
  const end = performance.now() + ms;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (performance.now() < end) {
        const o = await signIn(emailOf(n++));
        outcomes.push(o);
        if (!o.ok && o.refusedMs !== undefined) await sleep(50);
      }
    }),
  );
  const seconds = (performance.now() - t0) / 1000;
  return { started: outcomes.length, completed: outcomes.filter((o) => o.ok).length, seconds, outcomes };
}

/** Sign-ins started at `rate`/s for `ms` whatever the answers (open loop), then waits for them all. */
async function openLoop(rate: number, ms: number): Promise<PhaseResult> {
  const running: Promise<void>[] = [];
  const outcomes: Outcome[] = [];
  const t0 = performance.now();
  let n = 0;
  while (performance.now() - t0 < ms) {
    const due = Math.floor(((performance.now() - t0) / 1000) * rate);
    while (n < due) running.push(signIn(emailOf(n++)).then((o) => void outcomes.push(o)));
    await sleep(5);
  }
  const seconds = (performance.now() - t0) / 1000;
  await Promise.all(running);
  return { started: n, completed: outcomes.filter((o) => o.ok).length, seconds, outcomes };
}

async function main() {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'iam-bench-signin-'));
  const threadpool = Number(process.env.UV_THREADPOOL_SIZE || 4);
  // the raw rate: as many verifies at once as the server's gate admits by default and its threadpool can run
  console.error(`load average ${loadavg()}; measuring the raw argon2id verify rate…`);
  const startLoad = loadavg();
  const rawBefore = await argonRate(Math.max(CORES, Math.min(threadpool, CORES * 2)), RAW_MS);

  console.error(`seeding ${ACCOUNTS} accounts…`);
  const db = createDb({ sqliteFile: path.join(dataDir, 'iam.sqlite') });
  await migrateToLatest(db);
  // BENCH_CHEAP_HASHES=1 (diagnostic only): the accounts' hashes cost m=1024 KiB, t=1, so a loaded machine still runs
  // thousands of sign-ins through everything but the hash (memory that grows with the number of sign-ins); the
  // ratios are then meaningless
  const hash = await argon2.hash(PASSWORD, CHEAP ? { ...ARGON2_OPTIONS, memoryCost: 1024, timeCost: 1 } : ARGON2_OPTIONS);
  const now = new Date().toISOString();
  for (let i = 0; i < ACCOUNTS; i++) {
    await db.kysely
      .insertInto('accounts')
      .values(accountRow({ type: 'user', email: emailOf(i), first_name: 'Bench', last_name: `User${i}`, locale: 'en', status: 'ACTIVE', auth_type: 'CREDENTIALS', technical: 0, password_hash: hash, password_changed_at: now, email_verified_at: now }))
      .execute();
  }
  await db.close();

  const logLines: string[] = [];
  // as `npm start` runs it (scripts/server-runtime.mjs, the compiled server), unless BENCH_PLAIN=1: plain `node`;
  // BENCH_TSX=1: the sources under tsx's loader instead of the compiled server
  const tsx = process.env.BENCH_TSX === '1';
  const serverArgs = tsx ? ['--import', 'tsx', 'server/main.ts'] : [await ensureServerBuilt()];
  const plain = process.env.BENCH_PLAIN === '1';
  const env: NodeJS.ProcessEnv = {
    ...(plain ? process.env : (serverEnv(process.env) as NodeJS.ProcessEnv)),
    NODE_ENV: 'production',
    PORT: String(PORT),
    HOST: '127.0.0.1',
    APP_URL,
    IAM_DATA_DIR: dataDir,
    LOG_LEVEL: process.env.LOG_LEVEL || 'info',
    // one client address drives the whole load: the per-IP limits would measure themselves, not the server
    IAM_RATE_LIMIT_PER_MINUTE: '100000000',
    IAM_IP_MAX_FAILURES: '100000000',
    IAM_METRICS_TOKEN: METRICS_TOKEN,
  };
  const nodeFlags = [...(plain ? [] : (serverNodeArgs() as string[])), ...(process.env.BENCH_NODE_OPTIONS ?? '').split(' ').filter(Boolean)];
  const nodeArgs = [...nodeFlags, ...serverArgs];
  const server: ChildProcess = spawn(process.execPath, nodeArgs, { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let buffer = '';
  const collect = (chunk: Buffer) => {
    buffer += chunk.toString('utf8');
    const lines = buffer.split('\n');
    buffer = lines.pop() ?? '';
    logLines.push(...lines.filter(Boolean));
    if (process.env.BENCH_SERVER_LOG) appendFileSync(process.env.BENCH_SERVER_LOG, lines.filter(Boolean).map((l) => `${l}\n`).join(''));
  };
  server.stdout?.on('data', collect);
  server.stderr?.on('data', collect);
  const pid = server.pid ?? 0;
  try {
    for (let i = 0; ; i++) {
      if (server.exitCode !== null) throw new Error(`server exited ${server.exitCode}:\n${logLines.join('\n')}`);
      const ok = await fetch(`${APP_URL}/api/health`).then((r) => r.ok, () => false);
      if (ok) break;
      if (i > 600) throw new Error('server did not start');
      await sleep(100);
    }
    await sleep(2000);
    const rssIdleStart = rssMb(pid);

    let peak = rssIdleStart;
    // what the peak is made of: smaps_rollup when a new peak is seen, and the V8 heap scraped every second (the
    // scrape nearest before the peak is shown, and the largest of each figure over the run)
    const idleSmaps = smapsMb(pid);
    const idleHeap = await heapMb(`${APP_URL}/metrics`, METRICS_TOKEN);
    let peakSmaps = idleSmaps;
    let peakHeap = idleHeap;
    let lastHeap = idleHeap;
    const maxHeap: Record<string, number> = {};
    let peakSmapsAt = 0;
    const sampler = setInterval(() => {
      try {
        const r = rssMb(pid);
        if (r > peak) {
          peak = r;
          if (r > peakSmapsAt + 1) {
            peakSmaps = smapsMb(pid);
            peakSmapsAt = r;
          }
          peakHeap = lastHeap;
        }
      } catch {
        /* exited */
      }
    }, 50);
    const memLog = process.env.BENCH_MEM_LOG;
    const t00 = performance.now();
    const heapSampler = setInterval(() => {
      void heapMb(`${APP_URL}/metrics`, METRICS_TOKEN).then((h) => {
        if (!h) return;
        lastHeap = h;
        if (memLog) {
          const sm = smapsMb(pid);
          appendFileSync(memLog, `${((performance.now() - t00) / 1000).toFixed(1)} rss ${f1(sm.Rss ?? 0)} anon ${f1(sm.Anonymous ?? 0)} thp ${f1(sm.AnonHugePages ?? 0)} heapUsed ${f1(h.heap_size_used ?? 0)} heapTotal ${f1(h.heap_size_total ?? 0)} old ${f1(h['used old'] ?? 0)} ext ${f1(h.external_memory ?? 0)} done ${signInsDone}\n`);
        }
        for (const [k, v] of Object.entries(h)) maxHeap[k] = Math.max(maxHeap[k] ?? 0, v);
      });
    }, 1000);

    // warm-up (JIT, first provider build, statement caches), not counted
    const warm = await closedLoop(CLIENTS, 3000);
    const warmFail = warm.outcomes.find((o) => !o.ok && o.refusedMs === undefined);
    if (warmFail) throw new Error(`warm-up sign-in failed: ${JSON.stringify(warmFail)}\n${logLines.slice(-20).join('\n')}`);
    const logStart = logLines.length;

    // The machine is shared and the CPU this run gets drifts: raw-rate, capacity and overload windows alternate,
    // and every ratio compares a window with its neighbours (raw r0 C1 r1 O1 C2 r2 O2 C3 …).
    const raws: number[] = [];
    const caps: PhaseResult[] = [];
    /** a closed-loop capacity window with the CPU it cost (server process, server main thread, generator) */
    const capacityWindow = async (): Promise<PhaseResult> => {
      const s0 = cpuMs(pid);
      const g0 = process.cpuUsage();
      const r = await closedLoop(CLIENTS, SECONDS * 1000);
      const s1 = cpuMs(pid);
      const g = process.cpuUsage(g0);
      const threads = new Map([...s1.threads].map(([k, v]) => [k, v - (s0.threads.get(k) ?? 0)]));
      r.cpu = { process: s1.process - s0.process, main: s1.main - s0.main, generator: (g.user + g.system) / 1000, threads };
      return r;
    };
    const overs: PhaseResult[] = [];
    // the load generator shares the machine: its own event-loop delay is part of every latency it measures
    // one monitor per overload window: a monitor disabled and enabled again records the whole pause between (the
    // capacity and raw windows, ~12 s) as one delay
    const lags: string[] = [];
    const rawWindow = async () => {
      raws.push(await argonRate(Math.max(CORES, Math.min(threadpool, CORES * 2)), RAW_MS));
      console.error(`  raw argon2id ${f1(raws.at(-1) ?? 0)}/s (load ${loadavg()})`);
    };
    raws.length = 0;
    raws.push(rawBefore);
    for (let round = 0; round < ROUNDS; round++) {
      const cap = await capacityWindow();
      caps.push(cap);
      console.error(`round ${round + 1}: capacity ${f1(cap.completed / cap.seconds)} sign-ins/s (load ${loadavg()})`);
      await rawWindow();
      const rate = (cap.completed / cap.seconds) * OVERLOAD;
      const windowLag = monitorEventLoopDelay({ resolution: 10 });
      windowLag.enable();
      const over = await openLoop(rate, SECONDS * 1000);
      windowLag.disable();
      lags.push(`${f1(windowLag.percentile(50) / 1e6)} / ${f1(windowLag.percentile(99) / 1e6)} / ${f1(windowLag.max / 1e6)}`);
      overs.push(over);
      console.error(`round ${round + 1}: overload ${f1(over.started / over.seconds)}/s offered, goodput ${f1(over.completed / over.seconds)}/s, ${over.outcomes.filter((o) => o.refusedMs !== undefined).length} refused`);
    }
    const lastCap = await capacityWindow();
    caps.push(lastCap);
    const overLoad = loadavg();
    clearInterval(sampler);
    clearInterval(heapSampler);
    const logOver = logLines.slice(logStart);
    await sleep(5000);
    const rssIdleAfter = rssMb(pid);
    const afterSmaps = smapsMb(pid);
    const afterHeap = await heapMb(`${APP_URL}/metrics`, METRICS_TOKEN);
    // and once V8 has had time to shrink its heap after the burst (its memory reducer runs on an idle isolate)
    await sleep(25_000);
    const rssIdleSettled = rssMb(pid);
    await rawWindow();
    const rateOf = (p: PhaseResult) => p.completed / p.seconds;
    const median = (xs: number[]) => pct(xs, 50);
    // sign-ins ÷ raw: capacity window i against the raw windows around it (raws[i], raws[i+1])
    const ratios = caps.map((c, i) => rateOf(c) / (((raws[i] ?? raws.at(-1) ?? 1) + (raws[i + 1] ?? raws.at(-1) ?? 1)) / 2));
    // goodput: overload window i against the capacity windows around it
    const goodShares = overs.map((o, i) => rateOf(o) / ((rateOf(caps[i] as PhaseResult) + rateOf(caps[i + 1] as PhaseResult)) / 2));
    const capacity = median(caps.map(rateOf));
    const raw = median(raws);
    const capLoad = overLoad;
    const capPeak = peak;
    const cap: PhaseResult = { started: 0, completed: 0, seconds: 0, outcomes: caps.flatMap((c) => c.outcomes) };
    cap.completed = caps.reduce((a, c) => a + c.completed, 0);
    const over: PhaseResult = { started: overs.reduce((a, o) => a + o.started, 0), completed: overs.reduce((a, o) => a + o.completed, 0), seconds: overs.reduce((a, o) => a + o.seconds, 0), outcomes: overs.flatMap((o) => o.outcomes) };
    const capRefused = cap.outcomes.filter((o) => o.refusedMs !== undefined).length;
    const capFailed = cap.outcomes.filter((o) => !o.ok && o.refusedMs === undefined);
    const rawBeforeShown = raws[0] ?? 0;
    const rawAfter = raws.at(-1) ?? 0;

    const goodput = over.completed / over.seconds;
    const refusals = over.outcomes.filter((o) => o.refusedMs !== undefined);
    const noRetryAfter = refusals.filter((o) => !o.retryAfter).length;
    const fivexx = over.outcomes.filter((o) => o.status !== undefined && o.status >= 500 && !(o.status === 503 && o.retryAfter)).length + capFailed.filter((o) => (o.status ?? 0) >= 500).length;
    const otherFailures = [...cap.outcomes, ...over.outcomes].filter((o) => !o.ok && o.refusedMs === undefined);
    const parsed = logOver.map((l) => {
      try {
        return JSON.parse(l) as { level?: number; msg?: string; err?: { stack?: string } };
      } catch {
        return { level: 0, msg: l };
      }
    });
    const errorLines = parsed.filter((l) => (l.level ?? 0) >= 50).length;
    const stackLines = parsed.filter((l) => typeof l.err?.stack === 'string' || /\n\s+at /.test(String(l.msg))).length;
    const overloadLines = parsed.filter((l) => /overload|admission|refus/i.test(String(l.msg)));
    const ratio = median(ratios);

    const steps: Step[] = ['authorize', 'login', 'resume', 'token'];
    console.log(`\n### Sign-in throughput and overload (${CORES} cores, ${os.cpus()[0]?.model ?? ''}, Node ${process.version}, server started ${tsx ? 'from the sources under tsx (BENCH_TSX=1), ' : 'compiled (build/server/main.js), '}${plain ? 'plainly (BENCH_PLAIN=1)' : `as npm start does: ${nodeFlags.join(' ')} UV_THREADPOOL_SIZE=${env.UV_THREADPOOL_SIZE} MALLOC_ARENA_MAX=${env.MALLOC_ARENA_MAX} MALLOC_MMAP_THRESHOLD_=${env.MALLOC_MMAP_THRESHOLD_} GLIBC_TUNABLES=${env.GLIBC_TUNABLES ?? ""}`})\n`);
    if (CHEAP) console.log('**Diagnostic run (BENCH_CHEAP_HASHES=1): the accounts are hashed with m=1024 KiB, t=1, not the product cost; the ratios below are meaningless, the memory figures show what grows with the number of sign-ins.**\n');
    console.log(`Load generator: ${useFetch ? "fetch" : "node:http, keep-alive"}. Load average (1/5/15 min): ${startLoad} at the start, ${capLoad} at the end. ${ROUNDS} rounds of ${SECONDS} s windows: capacity, raw argon2id, overload (then a last capacity window).\n`);
    console.log('| measure | value |\n|---|---:|');
    console.log(`| raw argon2id verify rate (m=19456, t=2, p=1) per window; median | ${raws.map(f1).join(', ')}; **${f1(raw)}**/s (first ${f1(rawBeforeShown)}, last ${f1(rawAfter)}) |`);
    console.log(`| capacity: full sign-ins/s per window (${CLIENTS} closed-loop clients); median | ${caps.map((c) => f1(rateOf(c))).join(', ')}; **${f1(capacity)}** (${cap.completed} sign-ins, ${capRefused} refused) |`);
    const perSignIn = (k: 'process' | 'main' | 'generator') => caps.map((c) => (c.cpu?.[k] ?? 0) / Math.max(1, c.completed));
    console.log(`| CPU ms per completed sign-in in the capacity windows: server process (main thread + argon2id threads); median | ${perSignIn('process').map(f1).join(', ')}; **${f1(median(perSignIn('process')))}** |`);
    console.log(`| … of which the server's main thread (everything but the hash); median | ${perSignIn('main').map(f1).join(', ')}; **${f1(median(perSignIn('main')))}** |`);
    const threadNames = [...new Set(caps.flatMap((c) => [...(c.cpu?.threads.keys() ?? [])]))].filter((k) => k !== 'main');
    const perThread = threadNames.map((k) => [k, median(caps.map((c) => (c.cpu?.threads.get(k) ?? 0) / Math.max(1, c.completed)))] as const).filter(([, v]) => v >= 0.05).sort((a, b) => b[1] - a[1]);
    console.log(`| … the server's other threads (name#tid: libuv's pool runs argon2id, the others are V8's GC/compiler helpers and the tsx loader), ms per sign-in (medians) | ${perThread.map(([k, v]) => `${k} ${f1(v)}`).join(', ')} |`);
    console.log(`| … the load generator (this process: HTTP client, PKCE); median | ${perSignIn('generator').map(f1).join(', ')}; **${f1(median(perSignIn('generator')))}** |`);
    const verifyCpu = median(rawCpuPerVerify);
    console.log(`| CPU ms per raw argon2id verify (this process, per raw window); median | ${rawCpuPerVerify.map(f1).join(', ')}; **${f1(verifyCpu)}** |`);
    console.log(`| **server-side ratio: CPU of one raw verify ÷ server CPU per sign-in** (the sign-in rate ÷ the raw rate a server alone on the machine would reach, generator elsewhere); median of windows | ${perSignIn('process').map((v) => (verifyCpu / v).toFixed(2)).join(', ')}; **${(verifyCpu / median(perSignIn('process'))).toFixed(2)}** |`);
    console.log(`| sign-ins ÷ raw verify rate (each capacity window ÷ the raw windows around it); median | ${ratios.map((r) => r.toFixed(2)).join(', ')}; **${ratio.toFixed(2)}** |`);
    console.log(`| overload: offered (open loop, ${OVERLOAD}× the capacity window before) | ${overs.map((o) => f1(o.started / o.seconds)).join(', ')} sign-ins/s started (${over.started}) |`);
    console.log(`| goodput under overload per window (÷ the capacity windows around it); median | ${overs.map((o, i) => `${f1(rateOf(o))}/s = ${((goodShares[i] ?? 0) * 100).toFixed(0)} %`).join(', ')}; **${((median(goodShares)) * 100).toFixed(0)} %** (${over.completed} completed, ${f1(goodput)}/s overall) |`);
    console.log(`| refusals (429/503), p50 / p99 / max ms | ${refusals.length}: **${f1(pct(refusals.map((o) => o.refusedMs ?? 0), 50))} / ${f1(pct(refusals.map((o) => o.refusedMs ?? 0), 99))}** / ${f1(Math.max(0, ...refusals.map((o) => o.refusedMs ?? 0)))} |`);
    for (const s of steps) {
      const r = refusals.filter((o) => o.step === s);
      if (r.length) console.log(`| … at ${s}: count, statuses, p50 / p99 ms | ${r.length}, ${[...new Set(r.map((o) => o.status))].join('/')}, ${f1(pct(r.map((o) => o.refusedMs ?? 0), 50))} / ${f1(pct(r.map((o) => o.refusedMs ?? 0), 99))} |`);
    }
    console.log(`| … answered within 50 ms server-side (request start → answer, iam_http_request_duration_seconds) / all 503 | ${await serverRefusalTimes()} |`);
    console.log(`| event-loop delay of the load generator during overload, p50 / p99 / max ms per window | ${lags.join('; ')} |`);
    console.log(`| refusals without Retry-After | ${noRetryAfter} |`);
    console.log(`| other 5xx | **${fivexx}** |`);
    console.log(`| other failures (timeouts, unexpected answers) | ${otherFailures.length}${otherFailures.length ? `: ${[...new Set(otherFailures.map((o) => `${o.step} ${o.status ?? ''} ${o.error ?? ''}`.slice(0, 120)))].slice(0, 3).join('; ')}` : ''} |`);
    console.log(`| server log lines during the load: total / error-level / with a stack trace | ${logOver.length} / ${errorLines} / ${stackLines} |`);
    console.log(`| refusal counter lines | ${overloadLines.length}${overloadLines[0] ? ` (e.g. \`${JSON.stringify(overloadLines[0]).slice(0, 160)}\`)` : ''} |`);
    console.log(`| server RSS idle (after start) / idle (5 s after the load) / idle (30 s after the load) | **${f1(rssIdleStart)}** / ${f1(rssIdleAfter)} / **${f1(rssIdleSettled)}** MB |`);
    console.log(`| server RSS peak: capacity phase / overall | ${f1(capPeak)} / **${f1(peak)}** MB |`);
    const memRow = (sm: Record<string, number>, h: Record<string, number> | undefined) =>
      `${['Rss', 'Anonymous', 'AnonHugePages', 'Private_Dirty', 'Shared_Clean'].map((k) => `${k} ${f1(sm[k] ?? 0)}`).join(', ')}; V8 heap ${h ? `${f1(h.heap_size_used ?? 0)} used / ${f1(h.heap_size_total ?? 0)} total (old space ${f1(h['used old'] ?? 0)}, new ${f1(h['used new'] ?? 0)}, code ${f1(h['used code'] ?? 0)}, large objects ${f1(h['used large_object'] ?? 0)}), external ${f1(h.external_memory ?? 0)}` : 'n/a'}`;
    console.log(`| server memory, MB (smaps_rollup; V8 heap from /metrics): idle after start | ${memRow(idleSmaps, idleHeap)} |`);
    console.log(`| … at the RSS peak (heap: the last scrape before it) | ${memRow(peakSmaps, peakHeap)} |`);
    console.log(`| … 5 s after the load | ${memRow(afterSmaps, afterHeap)} |`);
    console.log(`| … largest V8 figures over the run (scraped every second) | heap used ${f1(maxHeap.heap_size_used ?? 0)}, heap total ${f1(maxHeap.heap_size_total ?? 0)}, external ${f1(maxHeap.external_memory ?? 0)} |`);
  } finally {
    server.kill('SIGTERM');
    // a graceful exit writes --cpu-prof profiles; the drain can take a few seconds after the load
    for (let i = 0; i < 100 && server.exitCode === null && server.signalCode === null; i++) await sleep(100);
    if (server.exitCode === null && server.signalCode === null) server.kill('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
