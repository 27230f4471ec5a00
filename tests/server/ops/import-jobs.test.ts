import { beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { createTestApp, describeEachDb, type TestApp } from '../../helpers/app';
import { actor, multipart, type Actor } from '../admin/fixtures';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { importJobsSettled, reapStaleImportJobs } from '../../../server/services/admin/import';
import { INSTANCE_ID } from '../../../server/services/jobs';
import { createDb, nowIso } from '../../../server/db/index';
import { buildApp } from '../../../server/app';
import { loadConfig } from '../../../server/config';

/** Import jobs: exact counts at any size, owner + lease, jobs of dead owners closed, shutdown releases leases. */

const HEADER = 'email,first_name,last_name,locale,auth_type';
const fileOf = (domain: string, rows: number, distinct = rows) => {
  const lines = [HEADER];
  for (let i = 0; i < rows; i++) lines.push(`r${i % distinct}@${domain},Row,N${i},en,CREDENTIALS`);
  return lines.join('\n');
};
const upload = (t: TestApp, admin: Actor, csv: string, query = '?async=true') => {
  const m = multipart('file', 'users.csv', csv, 'text/csv');
  return t.app.inject({ method: 'POST', url: `/api/admin/users/import${query}`, headers: { ...admin.headers, ...m.headers }, payload: m.payload });
};
const jobOf = async (t: TestApp, admin: Actor, id: string, lang = 'en') =>
  (await t.app.inject({ method: 'GET', url: `/api/admin/users/import/${id}`, headers: { ...admin.headers, 'accept-language': lang } })).json().data;
const accountsIn = async (t: TestApp, domain: string) =>
  Number((await t.db.kysely.selectFrom('accounts').select((eb) => eb.fn.countAll().as('n')).where('email_normalized', 'like', `%@${domain}`).executeTakeFirstOrThrow()).n);

describeEachDb('import jobs: counts, owner and lease', (get) => {
  let admin: Actor;
  beforeAll(async () => {
    admin = await actor(get(), 'super_admin');
  });

  it('counts are exact beyond the capped report lists (10 500 skipped, 10 000 listed)', async () => {
    // 10 600 rows, 100 distinct e-mails: 100 created, 10 500 skipped as in-file duplicates
    const res = await upload(get(), admin, fileOf('exact.test', 10_600, 100));
    expect(res.statusCode).toBe(202);
    let job = await jobOf(get(), admin, res.json().data.job_id);
    for (let i = 0; i < 300 && job.status === 'running'; i++) {
      await sleep(50);
      job = await jobOf(get(), admin, job.id);
    }
    expect(job).toMatchObject({ status: 'done', total: 10_600, processed: 10_600, created: 100, skipped: 10_500, failed: 0 });
    expect(job.report).toMatchObject({ created: 100, skipped_count: 10_500, failed_count: 0, truncated: true });
    expect(job.report.skipped).toHaveLength(10_000);
    expect(await accountsIn(get(), 'exact.test')).toBe(100);
    // the synchronous answer carries the exact counts too
    const sync = await upload(get(), admin, fileOf('exact.test', 150, 100), '');
    expect(sync.json().data).toMatchObject({ total: 150, created: 0, skipped_count: 150, failed_count: 0 });
  });

  it('a job whose owner died (lease expired) is closed as interrupted with its committed counts; a live one is left alone', async () => {
    const row = (owner: string, leaseUntil: number) => ({
      id: randomUUID(),
      actor_id: admin.account.id,
      status: 'running' as const,
      dry_run: 0,
      send_invitations: 0,
      total: 5000,
      processed: 3000,
      created: 2600,
      skipped_count: 400,
      failed_count: 0,
      report: null,
      error_code: null,
      created_at: nowIso(),
      updated_at: nowIso(),
      finished_at: null,
      owner,
      heartbeat_at: nowIso(),
      lease_until: leaseUntil,
    });
    const dead = row('gone-host:4242:deadbeef', Date.now() - 1000);
    const alive = row('other-host:1:cafebabe', Date.now() + 60_000);
    await get().db.kysely.insertInto('import_jobs').values([dead, alive]).execute();
    const d = await jobOf(get(), admin, dead.id, 'de');
    expect(d).toMatchObject({ status: 'failed', processed: 3000, created: 2600, skipped: 400, error: { code: 'import_interrupted' } });
    expect(d.error.message).toMatch(/unterbrochen/);
    expect(d.finished_at).toBeTypeOf('string');
    const a = await jobOf(get(), admin, alive.id);
    expect(a).toMatchObject({ status: 'running', error: null });
    const stored = await get().db.kysely.selectFrom('import_jobs').select(['owner', 'lease_until']).where('id', '=', dead.id).executeTakeFirstOrThrow();
    expect(stored.owner).toBeNull();
  });

  it('a job taken from its owner gets no more rows from it (lease fencing): rows and counts agree', async () => {
    const res = await upload(get(), admin, fileOf('fenced.test', 30_000));
    const id = res.json().data.job_id as string;
    // another instance takes the job over (as after an expired lease)
    await get().db.kysely.updateTable('import_jobs').set({ owner: 'thief:1:x', lease_until: Date.now() + 60_000 }).where('id', '=', id).execute();
    await importJobsSettled(get().app.deps);
    const stored = await get().db.kysely.selectFrom('import_jobs').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    expect(stored.owner).toBe('thief:1:x');
    expect(stored.status).toBe('running');
    // nothing half-written: every committed row is counted, no batch committed after the takeover
    expect(await accountsIn(get(), 'fenced.test')).toBe(Number(stored.created));
    expect(Number(stored.created)).toBeLessThan(30_000);
  });
});

describeEachDb('import jobs: cancel', (get) => {
  let admin: Actor;
  beforeAll(async () => {
    admin = await actor(get(), 'super_admin');
  });
  const cancel = (id: string, lang = 'en') => get().app.inject({ method: 'POST', url: `/api/admin/users/import/${id}/cancel`, headers: { ...admin.headers, 'accept-language': lang } });

  it('a cancelled job stops after its batch in flight: failed with import_cancelled, the committed rows counted, no more rows after', async () => {
    const res = await upload(get(), admin, fileOf('cancel.test', 30_000));
    const id = res.json().data.job_id as string;
    const answer = await cancel(id, 'de');
    expect(answer.statusCode).toBe(200);
    expect(answer.json().data).toMatchObject({ id, status: 'failed', error: { code: 'import_cancelled', message: expect.stringContaining('abgebrochen') } });
    await importJobsSettled(get().app.deps);
    const stored = await get().db.kysely.selectFrom('import_jobs').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    expect(stored).toMatchObject({ status: 'failed', error_code: 'import_cancelled', owner: null });
    expect(await accountsIn(get(), 'cancel.test')).toBe(Number(stored.created));
    expect(Number(stored.created)).toBeLessThan(30_000);
    const audit = await get().db.kysely.selectFrom('audit_log').select(['action', 'target_id']).where('action', '=', 'user.import_cancel').where('target_id', '=', id).execute();
    expect(audit).toHaveLength(1);
  });

  it('cancelling a job that has ended answers it unchanged; an unknown job is 404 import_job_not_found', async () => {
    const res = await upload(get(), admin, fileOf('ended.test', 3));
    const id = res.json().data.job_id as string;
    await importJobsSettled(get().app.deps);
    const answer = await cancel(id);
    expect(answer.json().data).toMatchObject({ id, status: 'done', created: 3, error: null });
    const missing = await cancel(randomUUID());
    expect(missing.statusCode).toBe(404);
    expect(missing.json().error.code).toBe('import_job_not_found');
  });

  it('the import takes `async` as a form field too (the SPA sends its options in the form)', async () => {
    const m = multipart('file', 'users.csv', fileOf('asyncfield.test', 2), 'text/csv', { async: 'true' });
    const res = await get().app.inject({ method: 'POST', url: '/api/admin/users/import', headers: { ...admin.headers, ...m.headers }, payload: m.payload });
    expect(res.statusCode).toBe(202);
    await importJobsSettled(get().app.deps);
  });
});

describe('import jobs and shutdown', () => {
  it('closing the app stops a running job after its batch and releases its lease; counts match the rows', async () => {
    const t = await createTestApp('sqlite');
    try {
      const admin = await actor(t, 'super_admin');
      const res = await upload(t, admin, fileOf('drain.test', 30_000));
      const id = res.json().data.job_id as string;
      const running = await t.db.kysely.selectFrom('import_jobs').select(['owner', 'lease_until']).where('id', '=', id).executeTakeFirstOrThrow();
      expect(running.owner).toBe(INSTANCE_ID);
      expect(Number(running.lease_until)).toBeGreaterThan(Date.now());
      await t.app.close();
      const job = await t.db.kysely.selectFrom('import_jobs').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
      expect(job).toMatchObject({ status: 'failed', error_code: 'import_interrupted', owner: null });
      expect(Number(job.lease_until)).toBe(0);
      expect(await accountsIn(t, 'drain.test')).toBe(Number(job.created));
      expect(Number(job.created)).toBeLessThan(30_000);
    } finally {
      await t.close();
    }
  });
});

describe('import job of a killed process', () => {
  it('SIGKILL mid-import: the job is closed as interrupted once its lease runs out, counts equal the committed rows', async () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'iam-crash-'));
    const env = { IAM_DATA_DIR: dataDir, LOG_LEVEL: 'silent', APP_URL: 'http://localhost:3000', IAM_DIST_DIR: path.join(dataDir, 'no-dist'), IAM_JOB_LEASE_SECONDS: '2' };
    const child = spawn(process.execPath, ['--import', 'tsx', 'tests/server/ops/fixtures/import-crash-child.ts'], {
      cwd: path.resolve(import.meta.dirname, '..', '..', '..'),
      env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    try {
      for (let i = 0; i < 1200 && !/JOB \S+/.test(out); i++) {
        if (child.exitCode !== null) throw new Error(`child exited: ${out}`);
        await sleep(50);
      }
      const id = /JOB (\S+)/.exec(out)?.[1];
      if (!id) throw new Error(`no job started: ${out}`);
      child.kill('SIGKILL');
      await new Promise((r) => child.once('exit', r));

      const db = createDb({ sqliteFile: path.join(dataDir, 'iam.sqlite') });
      const app = await buildApp({ config: loadConfig(env), db, logger: false, migrate: false });
      try {
        const before = await db.kysely.selectFrom('import_jobs').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
        expect(before.status).toBe('running'); // the dead owner's row, as it was left
        // any instance closes it once the lease has run out (at start, every lease period, or when read)
        for (let i = 0; i < 100 && (await reapStaleImportJobs(app)) === 0; i++) await sleep(100);
        const job = await db.kysely.selectFrom('import_jobs').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
        expect(job).toMatchObject({ status: 'failed', error_code: 'import_interrupted', owner: null });
        const rows = Number((await db.kysely.selectFrom('accounts').select((eb) => eb.fn.countAll().as('n')).where('email_normalized', 'like', '%@crash.test').executeTakeFirstOrThrow()).n);
        // exact: the counts are committed with each batch, nothing half-written
        expect(Number(job.created)).toBe(rows);
        expect(Number(job.processed)).toBe(rows);
        expect(rows % 1000).toBe(0);
        expect(rows).toBeGreaterThanOrEqual(3000);
        expect(rows).toBeLessThan(40_000);
      } finally {
        await app.close();
        await db.close();
      }
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 90_000);
});
