/**
 * The default set-up (SQLite, no Redis) does not load the PostgreSQL and Redis drivers: `pg` and `ioredis` are
 * required on first use (server/lib/optional-packages.ts), which keeps ~6.5 MB off the idle server's resident memory
 * (BENCHMARKS.md "Idle memory: drivers on first use"). The compiled server is started as `npm start` starts it, with a
 * preload that records every module file the process loads; the other two cases show that the recorder sees each
 * driver once it is used.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { freePort, startServerProcess, type ServerProcess } from '../../helpers/faults';

const RECORDER = path.join(import.meta.dirname, 'fixtures/module-recorder.mjs');

let server: ServerProcess | undefined;
let recordDir = '';

afterEach(async () => {
  await server?.stop('SIGKILL');
  server = undefined;
  if (recordDir) rmSync(recordDir, { recursive: true, force: true });
});

/** Starts the compiled server with the recorder; returns the file it records into. */
async function start(env: Record<string, string>): Promise<string> {
  recordDir = mkdtempSync(path.join(tmpdir(), 'iam-lazy-'));
  const record = path.join(recordDir, 'modules.txt');
  server = await startServerProcess({ NODE_ENV: 'production', MODULE_RECORD_FILE: record, ...env }, { nodeArgs: ['--import', RECORDER], npmStartRuntime: true });
  return record;
}

const loaded = (record: string, pkg: string) =>
  existsSync(record) && readFileSync(record, 'utf8').split('\n').some((line) => line.includes(`/node_modules/${pkg}/`));

/** A loopback address nothing listens on. */
const deadAddress = async (scheme: string, rest = '') => `${scheme}://127.0.0.1:${await freePort()}${rest}`;

describe('drivers load on first use', () => {
  it('SQLite without Redis (npm start’s default): neither pg nor ioredis is loaded once the server listens', async () => {
    const record = await start({});
    await server?.waitForOutput(/IAM is at/, 60_000);
    await sleep(500); // the first key poll and bootstrap after listening
    expect(loaded(record, 'better-sqlite3'), 'the recorder sees the SQLite driver').toBe(true);
    expect(loaded(record, 'pg'), 'pg loaded').toBe(false);
    expect(loaded(record, 'ioredis'), 'ioredis loaded').toBe(false);
  }, 90_000);

  it('REDIS_URL set: ioredis is loaded (Redis down does not matter: the client is created at start)', async () => {
    const record = await start({ REDIS_URL: await deadAddress('redis') });
    await server?.waitFor('ioredis to load', () => loaded(record, 'ioredis'), 60_000);
    expect(loaded(record, 'pg')).toBe(false);
  }, 90_000);

  it('DATABASE_URL set: pg is loaded (to wait for the database, before anything else)', async () => {
    const record = await start({ DATABASE_URL: await deadAddress('postgres', '/iam_lazy') });
    await server?.waitFor('pg to load', () => loaded(record, 'pg'), 60_000);
  }, 90_000);
});
