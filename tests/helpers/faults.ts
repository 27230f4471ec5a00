import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { inject } from 'vitest';
import { freePort } from './http';
// @ts-expect-error -- a plain .mjs script without types (the settings npm start uses)
import { serverEnv as runtimeEnv, serverNodeArgs as runtimeArgs } from '../../scripts/server-runtime.mjs';

const serverNodeArgs = runtimeArgs as () => string[];
const serverEnv = runtimeEnv as (env: Record<string, string | undefined>) => Record<string, string | undefined>;

/**
 * Throwaway dependencies for fault tests: a PostgreSQL cluster and a Redis server of the test's own, on free
 * ports picked at runtime (never the shared ones), and the real server as a child process.
 */

/** A free loopback port below the ephemeral range (tests/helpers/http.ts). */
export { freePort };

/** The newest installed PostgreSQL server binaries (Debian layout), or PG_BIN. */
function pgBin(): string {
  if (process.env.PG_BIN) return process.env.PG_BIN;
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root) ? readdirSync(root).filter((v) => existsSync(path.join(root, v, 'bin', 'initdb'))) : [];
  versions.sort((a, b) => Number(b) - Number(a));
  return path.join(root, versions[0] ?? '15', 'bin');
}
const PG_BIN = pgBin();

/** Children of a process (from /proc), for freezing PostgreSQL's backends along with its postmaster. */
function childPids(pid: number): number[] {
  const out = spawnSync('ps', ['-o', 'pid=', '--ppid', String(pid)], { encoding: 'utf8' });
  return out.stdout
    .split('\n')
    .map((l) => Number(l.trim()))
    .filter((n) => n > 0);
}

export interface PgCluster {
  port: number;
  url: string;
  start(): Promise<void>;
  /** SIGSTOP on the postmaster and every backend: connections stay open, nothing answers. */
  freeze(): void;
  thaw(): void;
  /** pg_terminate_backend on every client backend but our own; returns how many were terminated. */
  terminateBackends(): Promise<number>;
  query<R extends pg.QueryResultRow>(text: string, params?: unknown[]): Promise<R[]>;
  stop(): Promise<void>;
}

/** initdb in a temp dir (as the postgres user when running as root), started on a free port with its own socket dir. */
export async function createPgCluster(): Promise<PgCluster> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'iam-pgfault-'));
  const data = path.join(dir, 'data');
  const asRoot = process.getuid?.() === 0;
  let uid: number | undefined;
  let gid: number | undefined;
  if (asRoot) {
    uid = Number(spawnSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).stdout.trim());
    gid = Number(spawnSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).stdout.trim());
    chownSync(dir, uid, gid);
  }
  const ids = asRoot ? { uid, gid } : {};
  const init = spawnSync(`${PG_BIN}/initdb`, ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-sync', '--locale=C'], { ...ids, encoding: 'utf8' });
  if (init.status !== 0) throw new Error(`initdb failed: ${init.stderr}`);
  const port = await freePort('dependency');
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
  let proc: ChildProcess | undefined;
  let frozen = false;

  const cluster: PgCluster = {
    port,
    url,
    async start() {
      proc = spawn(
        `${PG_BIN}/postgres`,
        ['-D', data, '-p', String(port), '-k', dir, '-c', 'listen_addresses=127.0.0.1', '-c', 'fsync=off', '-c', 'full_page_writes=off', '-c', 'shared_buffers=16MB', '-c', 'max_connections=40'],
        { ...ids, stdio: 'ignore' },
      );
      for (let i = 0; i < 200; i++) {
        const c = new pg.Client({ connectionString: url, connectionTimeoutMillis: 500 });
        c.on('error', () => {});
        try {
          await c.connect();
          await c.end();
          return;
        } catch {
          await c.end().catch(() => {});
          await sleep(100);
        }
      }
      throw new Error('own PostgreSQL did not start');
    },
    freeze() {
      if (!proc?.pid) throw new Error('not started');
      frozen = true;
      process.kill(proc.pid, 'SIGSTOP');
      for (const p of childPids(proc.pid)) process.kill(p, 'SIGSTOP');
    },
    thaw() {
      if (!proc?.pid) return;
      frozen = false;
      for (const p of childPids(proc.pid)) process.kill(p, 'SIGCONT');
      process.kill(proc.pid, 'SIGCONT');
    },
    async terminateBackends() {
      const rows = await cluster.query<{ n: string }>(
        `select count(pg_terminate_backend(pid)) as n from pg_stat_activity where pid <> pg_backend_pid() and backend_type = 'client backend'`,
      );
      return Number(rows[0]?.n ?? 0);
    },
    async query(text, params) {
      const c = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 });
      c.on('error', () => {});
      await c.connect();
      try {
        return (await c.query(text, params)).rows;
      } finally {
        await c.end().catch(() => {});
      }
    },
    async stop() {
      if (frozen) cluster.thaw();
      if (proc && proc.exitCode === null) {
        const exited = new Promise((r) => proc?.once('exit', r));
        proc.kill('SIGINT'); // fast shutdown
        await Promise.race([exited, sleep(10_000)]);
        if (proc.exitCode === null) proc.kill('SIGKILL');
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
  return cluster;
}

export interface OwnRedis {
  port: number;
  url: string;
  start(): Promise<void>;
  stop(): Promise<void>;
  /** FLUSHALL through redis-cli (every key of every db gone, as an operator's mistake would do) */
  flushAll(): void;
}

/** redis-server on a free port, no persistence; stop() and start() again on the same port. */
export async function createRedisServer(): Promise<OwnRedis> {
  const port = await freePort('dependency');
  let proc: ChildProcess | undefined;
  const r: OwnRedis = {
    port,
    url: `redis://127.0.0.1:${port}/0`,
    async start() {
      proc = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
      for (let i = 0; i < 100; i++) {
        if (spawnSync('redis-cli', ['-p', String(port), 'ping'], { encoding: 'utf8' }).stdout.trim() === 'PONG') return;
        await sleep(50);
      }
      throw new Error('own Redis did not start');
    },
    flushAll() {
      const out = spawnSync('redis-cli', ['-p', String(port), 'flushall'], { encoding: 'utf8' });
      if (out.stdout.trim() !== 'OK') throw new Error(`FLUSHALL failed: ${out.stdout}${out.stderr}`);
    },
    async stop() {
      if (proc && proc.exitCode === null) {
        const exited = new Promise((res) => proc?.once('exit', res));
        proc.kill('SIGTERM');
        await Promise.race([exited, sleep(5000)]);
        if (proc.exitCode === null) proc.kill('SIGKILL');
      }
    },
  };
  return r;
}

export interface ServerProcess {
  proc: ChildProcess;
  base: string;
  port: number;
  /** stdout and stderr so far */
  output(): string;
  alive(): boolean;
  waitForOutput(re: RegExp, ms: number): Promise<void>;
  /** Polls `check` until it holds; throws with the output when the server exits first or `ms` pass. */
  waitFor(what: string, check: () => boolean, ms: number): Promise<void>;
  /** SIGTERM and wait for the exit; returns the exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

export interface ServerProcessOptions {
  /** node flags before the entry (e.g. `--import` a preload) */
  nodeArgs?: string[];
  /** with npm start's memory and thread settings (scripts/server-runtime.mjs: its node flags and environment) */
  npmStartRuntime?: boolean;
  /** another compiled server's entry (default: this run's build, tests/global-setup.ts) */
  entry?: string;
}

/** The real server, compiled as `npm start` runs it (tests/global-setup.ts), with `env`, on a free port. */
export async function startServerProcess(env: Record<string, string>, opts: ServerProcessOptions = {}): Promise<ServerProcess> {
  const port = await freePort();
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'iam-proc-'));
  const childEnv: Record<string, string | undefined> = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    PORT: String(port),
    HOST: '127.0.0.1',
    APP_URL: `http://127.0.0.1:${port}`,
    IAM_DATA_DIR: dataDir,
    IAM_DIST_DIR: path.join(dataDir, 'no-dist'),
    LOG_LEVEL: 'info',
    ...env,
  };
  const runtime = opts.npmStartRuntime === true;
  const proc = spawn(process.execPath, [...(runtime ? serverNodeArgs() : []), ...(opts.nodeArgs ?? []), opts.entry ?? inject('serverEntry')], {
    cwd: path.resolve(import.meta.dirname, '..', '..'),
    env: runtime ? serverEnv(childEnv) : childEnv,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  proc.stdout?.on('data', (d: Buffer) => (out += d.toString()));
  proc.stderr?.on('data', (d: Buffer) => (out += d.toString()));
  const sp: ServerProcess = {
    proc,
    port,
    base: `http://127.0.0.1:${port}`,
    output: () => out,
    alive: () => proc.exitCode === null && proc.signalCode === null,
    waitForOutput: (re, ms) => sp.waitFor(String(re), () => re.test(out), ms),
    async waitFor(what, check, ms) {
      const until = Date.now() + ms;
      while (!check()) {
        if (!sp.alive()) throw new Error(`server exited (${proc.exitCode}):\n${out.slice(-3000)}`);
        if (Date.now() > until) throw new Error(`timed out waiting for ${what}:\n${out.slice(-3000)}`);
        await sleep(50);
      }
    },
    async stop(signal = 'SIGTERM') {
      if (sp.alive()) {
        const exited = new Promise((r) => proc.once('exit', r));
        proc.kill(signal);
        await Promise.race([exited, sleep(20_000)]);
        if (sp.alive()) proc.kill('SIGKILL');
      }
      rmSync(dataDir, { recursive: true, force: true });
      return proc.exitCode;
    },
  };
  return sp;
}

export interface Timed {
  status: number;
  ms: number;
  body: string;
  headers: Headers;
}

/** fetch with a hard client-side deadline; status 0 when it did not answer in time. */
export async function timedFetch(url: string, init: RequestInit = {}, deadlineMs = 20_000): Promise<Timed> {
  const t0 = performance.now();
  try {
    const res = await fetch(url, { ...init, signal: AbortSignal.timeout(deadlineMs) });
    const body = await res.text();
    return { status: res.status, ms: performance.now() - t0, body, headers: res.headers };
  } catch {
    return { status: 0, ms: performance.now() - t0, body: '', headers: new Headers() };
  }
}

export const percentile = (xs: number[], p: number): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)] ?? 0;
};
