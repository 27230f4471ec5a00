/**
 * The default set-up (SQLite, no Redis) does not load the PostgreSQL and Redis drivers: `pg` and `ioredis` are
 * required on first use (server/lib/optional-packages.ts), which keeps ~6 MB off the idle server's resident memory
 * (BENCHMARKS.md "Idle memory"). The compiled server is started as `npm start` starts it, with a preload that records
 * every module file the process loads; the other two cases show that the recorder sees each driver once it is used.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, inject, it } from 'vitest';
// @ts-expect-error -- a plain .mjs script without types (the settings npm start uses)
import { serverEnv as runtimeEnv, serverNodeArgs as runtimeArgs } from '../../../scripts/server-runtime.mjs';

const serverNodeArgs = runtimeArgs as () => string[];
const serverEnv = runtimeEnv as (env: Record<string, string | undefined>) => Record<string, string | undefined>;

const ROOT = path.resolve(import.meta.dirname, '../../..');
const RECORDER = path.join(import.meta.dirname, 'fixtures/module-recorder.mjs');

let child: ChildProcess | undefined;
let dataDir = '';

afterEach(async () => {
  if (child && child.exitCode === null) {
    const exited = new Promise((resolve) => child?.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
  }
  child = undefined;
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

/** A loopback port nothing listens on (bound, then released). */
async function deadPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  if (!address || typeof address === 'string') throw new Error('no port');
  return address.port;
}

/** Starts the compiled server with the recorder; returns the record file and the server's output so far. */
function start(env: Record<string, string>): { record: string; output: () => string } {
  dataDir = mkdtempSync(path.join(tmpdir(), 'iam-lazy-'));
  const record = path.join(dataDir, 'modules.txt');
  const base: Record<string, string | undefined> = { ...process.env };
  for (const name of ['DATABASE_URL', 'REDIS_URL', 'IAM_METRICS_TOKEN', 'METRICS_PORT']) delete base[name];
  Object.assign(base, { NODE_ENV: 'production', PORT: '0', IAM_DATA_DIR: dataDir, LOG_LEVEL: 'info', MODULE_RECORD_FILE: record }, env);
  const proc = spawn(process.execPath, [...serverNodeArgs(), '--import', RECORDER, inject('serverEntry')], {
    cwd: ROOT,
    env: serverEnv(base),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child = proc;
  let output = '';
  proc.stdout?.on('data', (c: Buffer) => (output += c.toString()));
  proc.stderr?.on('data', (c: Buffer) => (output += c.toString()));
  return { record, output: () => output };
}

const loaded = (record: string, pkg: string) =>
  existsSync(record) && readFileSync(record, 'utf8').split('\n').some((line) => line.includes(`/node_modules/${pkg}/`));

async function until(what: string, check: () => boolean, output: () => string): Promise<void> {
  for (const end = Date.now() + 60_000; Date.now() < end; await sleep(100)) {
    if (check()) return;
    if (child?.exitCode !== null) throw new Error(`server exited (${child?.exitCode}) before ${what}:\n${output()}`);
  }
  throw new Error(`timed out waiting for ${what}:\n${output()}`);
}

describe('drivers load on first use', () => {
  it('SQLite without Redis (npm start’s default): neither pg nor ioredis is loaded once the server listens', async () => {
    const { record, output } = start({});
    await until('the server to listen', () => output().includes('IAM is at'), output);
    await sleep(500); // the first key poll and bootstrap after listening
    expect(loaded(record, 'better-sqlite3'), 'the recorder sees the SQLite driver').toBe(true);
    expect(loaded(record, 'pg'), 'pg loaded').toBe(false);
    expect(loaded(record, 'ioredis'), 'ioredis loaded').toBe(false);
  }, 90_000);

  it('REDIS_URL set: ioredis is loaded (Redis down does not matter: the client is created at start)', async () => {
    const { record, output } = start({ REDIS_URL: `redis://127.0.0.1:${await deadPort()}` });
    await until('ioredis to load', () => loaded(record, 'ioredis'), output);
    expect(loaded(record, 'pg')).toBe(false);
  }, 90_000);

  it('DATABASE_URL set: pg is loaded (to wait for the database, before anything else)', async () => {
    const { record, output } = start({ DATABASE_URL: `postgres://postgres@127.0.0.1:${await deadPort()}/iam_lazy` });
    await until('pg to load', () => loaded(record, 'pg'), output);
  }, 90_000);
});
