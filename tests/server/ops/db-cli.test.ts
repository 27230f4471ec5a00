import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { pgQueryOnce } from '../../helpers/pg-writer';
import { afterAll, describe, expect, inject, it } from 'vitest';

/**
 * Issue 30.4: the database commands as an operator runs them (the compiled CLI, `node build/server/cli/db.js`, which
 * `npm run db:*` runs from the sources): one-line errors, status of a fresh and a migrated database, and the backups
 * of docs/OPERATIONS.md "Backup and restore" restored and checked with db:status (SQLite's online backup; pg_dump and
 * pg_restore when TEST_DATABASE_URL is set). Upgrade and rollback across releases: upgrade-*.test.ts.
 */

const run = promisify(execFile);
const cli = path.join(path.dirname(inject('serverEntry')), 'cli', 'db.js');
const repo = path.resolve(import.meta.dirname, '..', '..', '..');

async function sh(cmd: string, args: string[], env: Record<string, string> = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(cmd, args, { cwd: repo, env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env }, timeout: 30_000 });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof e.code === 'number' ? e.code : -1, stdout: e.stdout ?? '', stderr: e.stderr ?? '' };
  }
}
const db = (args: string[], env: Record<string, string>) => sh(process.execPath, [cli, ...args], env);
const lastLine = (s: string) => s.trim().split('\n').at(-1);

const dir = mkdtempSync(path.join(os.tmpdir(), 'iam-dbcli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('db CLI [sqlite]', () => {
  const env = { IAM_DATA_DIR: path.join(dir, 'data') };

  it('one-line errors: no database yet, unknown command, missing --to, bad IAM_MIGRATE (78)', async () => {
    const status = await db(['status'], env);
    expect([status.code, status.stderr.trim()]).toEqual([1, `db status: no database at ${path.join(dir, 'data', 'iam.sqlite')} (set IAM_DATA_DIR, or DATABASE_URL for PostgreSQL)`]);
    expect(existsSync(path.join(dir, 'data', 'iam.sqlite'))).toBe(false);
    const unknown = await db(['frobnicate'], env);
    expect([unknown.code, unknown.stderr.trim()]).toEqual([1, 'db frobnicate: usage: db <migrate | rollback --to <migration> | status | backup <file>>']);
    const bad = await db(['status'], { ...env, IAM_MIGRATE: 'sometimes' });
    expect(bad.code).toBe(78);
    expect(bad.stderr.trim().split('\n')).toHaveLength(1);
    expect(bad.stderr).toContain('IAM_MIGRATE must be "on"');
  });

  it('migrate, status, rollback usage; the online backup restores to a database at the same migration', async () => {
    const migrated = await db(['migrate'], env);
    expect(migrated.code).toBe(0);
    expect(migrated.stdout).toMatch(/^migrated sqlite .*iam\.sqlite: 0001_initial, /);
    expect(lastLine((await db(['migrate'], env)).stdout)).toMatch(/is up to date$/);
    const status = await db(['status'], env);
    expect(status.stdout).toMatch(/^applied\s+0001_initial\s+legacy\s+\d{4}-\d\d-\d\dT/m);
    expect(lastLine(status.stdout)).toBe('up to date');
    const noTarget = await db(['rollback'], env);
    expect([noTarget.code, noTarget.stderr.split('\n').filter(Boolean).length]).toEqual([1, 1]);

    const backup = path.join(dir, 'backup.sqlite');
    const made = await db(['backup', backup], env);
    expect(made.code).toBe(0);
    expect(made.stdout).toMatch(/^backed up sqlite .* to .*backup\.sqlite \(\d+ pages\)/);
    const again = await db(['backup', backup], env);
    expect([again.code, again.stderr.trim()]).toEqual([1, `db backup: ${backup} exists already; name a new file`]);
    // the documented sqlite3 shell command gives the same
    const shell = path.join(dir, 'shell.sqlite');
    if ((await sh('sqlite3', ['--version'])).code === 0) expect((await sh('sqlite3', [path.join(dir, 'data', 'iam.sqlite'), `.backup '${shell}'`])).code).toBe(0);

    // restore: the copy as another data directory's iam.sqlite
    const restored = path.join(dir, 'restored');
    await sh('mkdir', ['-p', restored]);
    await sh('cp', [backup, path.join(restored, 'iam.sqlite')]);
    const restoredStatus = await db(['status'], { IAM_DATA_DIR: restored });
    expect(lastLine(restoredStatus.stdout)).toBe('up to date');
    expect(restoredStatus.stdout.split('\n').filter((l) => l.startsWith('applied')).length).toBe(status.stdout.split('\n').filter((l) => l.startsWith('applied')).length);
  });
});

describe.skipIf(!process.env.TEST_DATABASE_URL)('db CLI [postgres]', () => {
  const adminUrl = process.env.TEST_DATABASE_URL ?? '';
  const name = `mig_cli_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
  const urlOf = (database: string) => Object.assign(new URL(adminUrl), { pathname: `/${database}` }).href;
  const admin = (text: string) => pgQueryOnce(adminUrl, text);
  afterAll(async () => {
    for (const d of [name, `${name}_r`]) await admin(`drop database if exists "${d}" with (force)`);
  });

  it('migrate, then pg_dump and pg_restore into an empty database as documented: the restore is at the same migration', async () => {
    await admin(`create database "${name}"`);
    const env = { DATABASE_URL: urlOf(name) };
    expect((await db(['migrate'], env)).code).toBe(0);
    const unreachable = await db(['status'], { DATABASE_URL: 'postgres://postgres@127.0.0.1:1/none' });
    expect(unreachable.code).toBe(1);
    expect(unreachable.stderr.trim()).toMatch(/^db status: database not reachable \(unreachable: ECONNREFUSED/);
    expect(unreachable.stderr.trim().split('\n')).toHaveLength(1);
    const pgBackup = await db(['backup', path.join(dir, 'x.sqlite')], env);
    expect(pgBackup.stderr.trim()).toBe('db backup: db backup copies SQLite databases; with DATABASE_URL use pg_dump (docs/OPERATIONS.md "Backup and restore")');

    const dump = path.join(dir, 'iam.dump');
    const dumped = await sh('pg_dump', ['--format=custom', `--file=${dump}`, urlOf(name)]);
    expect(dumped.stderr).toBe('');
    await admin(`create database "${name}_r"`);
    const restored = await sh('pg_restore', ['--no-owner', '--exit-on-error', '-d', urlOf(`${name}_r`), dump]);
    expect([restored.code, restored.stderr]).toEqual([0, '']);
    const status = await db(['status'], { DATABASE_URL: urlOf(`${name}_r`) });
    expect(lastLine(status.stdout)).toBe('up to date');
    expect(status.stdout).toMatch(/^applied\s+0001_initial/m);
  });
});
