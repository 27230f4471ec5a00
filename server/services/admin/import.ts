import { randomUUID } from 'node:crypto';
import { setImmediate as yieldToLoop, setTimeout as sleep } from 'node:timers/promises';
import { z } from 'zod';
import type { Account, ImportJobsTable, NewAccount } from '../../db/schema';
import { refreshAfterBulkInsert } from '../../db/statistics';
import { AppError } from '../../errors';
import { importJobs as importJobMetrics } from '../../lib/metrics';
import { zodErrorToFieldIssues } from '../../lib/validation';
import { emailSchema, LOCALES, personNameSchema, phoneSchema } from '../../../contract/domain/formats';
import { IMPORT_COLUMN_NAMES, IMPORT_JOB_ERROR_CODES, REQUIRED_IMPORT_COLUMNS, type ImportColumn, type ImportJob, type ImportJobErrorCode, type ImportReport } from '../../../contract/admin/import';
import { normalizeEmail, searchTextOf } from '../accounts';
import { actorOpts, sendInvitation } from '../invitations';
import { epochMs, type Actor, type Deps, type Queries } from '../deps';
import type { LeasedJob } from '../jobs';
import { recordAudit } from './audit';
import { CsvRefused, excerpt, exportUsersCsv, parseCsv, type ParsedCsv } from './csv';
import type { UserFilters } from '../../../contract/admin/users';

/**
 * The CSV import of end users (docs/IMPORT.md) and the export: a file of up to `config.importJobs.syncMaxRows` rows is imported
 * within the request; a bigger one runs as a job whose state lives in `import_jobs`. A job gets the
 * dependencies and the Actor (plain values) of the request that started it, never the request itself.
 */

const BATCH_SIZE = 1000;
/** Lists in a report are capped; counts stay exact. */
const REPORT_LIST_MAX = 10_000;

const truthy = new Set(['true', '1', 'yes', 'y', 'ja', 'oui', 'si', 'sì', 'x']);
const falsy = new Set(['', 'false', '0', 'no', 'n', 'nein', 'non']);

/** One rule per column of the contract (contract/admin/import.ts IMPORT_COLUMNS): a column added there fails tsc here until it has one. */
function rowSchema(ssoProviders: string[]) {
  const columns = {
    email: emailSchema,
    first_name: personNameSchema,
    last_name: personNameSchema,
    locale: z.string().trim().toLowerCase().pipe(z.enum(LOCALES)),
    auth_type: z.string().trim().toUpperCase().pipe(z.enum(['CREDENTIALS', 'SSO'])),
    provider: z.string().trim().max(64).optional(),
    technical: z
      .string()
      .trim()
      .toLowerCase()
      .optional()
      .refine((v) => v === undefined || truthy.has(v) || falsy.has(v), { params: { code: 'invalid' } })
      .transform((v) => (v !== undefined && truthy.has(v) ? 1 : 0)),
    phone: z.union([z.literal('').transform(() => null), phoneSchema]).optional(),
  } satisfies Record<ImportColumn, z.ZodType>;
  return z
    .object(columns)
    .superRefine((r, ctx) => {
      if (r.auth_type === 'SSO') {
        if (!r.provider) ctx.addIssue({ code: 'custom', path: ['provider'], params: { code: 'provider_required' } });
        else if (!ssoProviders.includes(r.provider)) ctx.addIssue({ code: 'custom', path: ['provider'], params: { code: 'provider_unknown' } });
      }
    });
}

type ValidRow = { row: number; account: NewAccount };

/** Validates records: failed rows with field codes, in-file duplicates skipped (first occurrence wins). */
async function validateRecords(config: Deps['config'], parsed: ParsedCsv, actorId: string | null) {
  const schema = rowSchema(config.ssoProviders.map((p) => p.id));
  const failed: ImportReport['failed'] = [];
  const skipped: ImportReport['skipped'] = [];
  const valid: ValidRow[] = [];
  const seen = new Set<string>();
  for (let i = 0; i < parsed.records.length; i++) {
    // validation is CPU work: let other requests run every 1000 rows
    if (i > 0 && i % 1000 === 0) await yieldToLoop();
    const { row, values } = parsed.records[i] as ParsedCsv['records'][number];
    const input: Record<string, string> = {};
    for (const c of IMPORT_COLUMN_NAMES) {
      const v = values[c];
      if (v !== undefined && !(v === '' && (c === 'provider' || c === 'phone'))) input[c] = v;
    }
    const res = schema.safeParse(input);
    if (!res.success) {
      const fields: Record<string, string[]> = {};
      for (const issue of zodErrorToFieldIssues(res.error)) {
        const codes = (fields[issue.field] ??= []);
        if (!codes.includes(issue.code)) codes.push(issue.code);
      }
      failed.push({ row, email: excerpt(values.email ?? ''), fields });
      continue;
    }
    const r = res.data;
    const email = r.email.trim();
    const normalized = normalizeEmail(email);
    if (seen.has(normalized)) {
      skipped.push({ row, email, reason: 'duplicate_in_file' });
      continue;
    }
    seen.add(normalized);
    valid.push({
      row,
      account: {
        id: randomUUID(),
        type: 'user',
        email,
        email_normalized: normalized,
        first_name: r.first_name,
        last_name: r.last_name,
        locale: r.locale,
        auth_type: r.auth_type,
        provider: r.auth_type === 'SSO' ? (r.provider ?? null) : null,
        technical: r.technical,
        phone: r.phone ?? null,
        status: 'ACTIVE',
        created_by: actorId,
        search_text: searchTextOf({ email, first_name: r.first_name, last_name: r.last_name }),
        // set when its batch is inserted (runImport)
        created_at: '',
        updated_at: '',
      },
    });
  }
  return { failed, skipped, valid };
}

/** The field error of a refused file (written out, so the contract's check of field codes finds each). */
function refusalFields(code: CsvRefused['code']) {
  switch (code) {
    case 'csv_too_many_columns':
      return { fields: { file: ['csv_too_many_columns'] } };
    case 'csv_cell_too_long':
      return { fields: { file: ['csv_cell_too_long'] } };
    default:
      return { fields: { file: ['csv_invalid'] } };
  }
}

async function readImportFile(buf: Buffer): Promise<ParsedCsv> {
  let parsed: ParsedCsv;
  try {
    parsed = await parseCsv(buf);
  } catch (error) {
    const refused = error instanceof CsvRefused ? error : new CsvRefused('csv_invalid');
    throw new AppError(422, 'users_import_failed', { ...refusalFields(refused.code), ...(refused.size ? { params: { size: refused.size } } : {}) });
  }
  const missing = REQUIRED_IMPORT_COLUMNS.filter((c) => !parsed.header.includes(c));
  if (missing.length) throw new AppError(422, 'users_import_failed', { fields: Object.fromEntries(missing.map((c) => [`columns.${c}`, ['required']])) });
  return parsed;
}

interface Progress {
  processed: number;
  created: number;
  skipped: number;
  failed: number;
}

/** Thrown between batches when the job must stop (shutdown, lease lost); the batches before it are committed. */
class ImportStopped extends Error {
  constructor(readonly reason: 'shutdown' | 'lease_lost') {
    super(`import stopped: ${reason}`);
  }
}

/**
 * Runs the import: one short transaction per batch of 1000 rows (multi-row INSERT … ON CONFLICT DO NOTHING
 * RETURNING, so existing e-mails count as skipped), yielding to the event loop between batches. Dry run only
 * checks which e-mails exist. Invitations are queued after each commit and sent afterwards, throttled.
 */
async function runImport(
  deps: Deps,
  actor: Actor,
  parsed: ParsedCsv,
  opts: {
    dryRun: boolean;
    sendInvitations: boolean;
    onProgress?: (p: Progress) => Promise<void>;
    /** runs inside each batch's transaction (not for dry runs): progress committed with the rows, exactly */
    inBatch?: (trx: Queries, p: Progress) => Promise<void>;
    /** checked before each batch; throws ImportStopped when it says so */
    shouldStop?: () => ImportStopped['reason'] | null;
  },
): Promise<{ report: ImportReport; invite: Account[] }> {
  const db = deps.db.kysely;
  const { failed, skipped, valid } = await validateRecords(deps.config, parsed, actor.id);
  const total = parsed.records.length;
  let created = 0;
  const toInvite: string[] = [];
  let processed = total - valid.length;
  for (let off = 0; off < valid.length; off += BATCH_SIZE) {
    const stop = opts.shouldStop?.();
    if (stop) throw new ImportStopped(stop);
    const batch = valid.slice(off, off + BATCH_SIZE);
    const emails = batch.map((b) => b.account.email_normalized);
    let inserted: Set<string>;
    if (opts.dryRun) {
      const existing = new Set((await db.selectFrom('accounts').select('email_normalized').where('type', '=', 'user').where('email_normalized', 'in', emails).execute()).map((r) => r.email_normalized));
      inserted = new Set(emails.filter((e) => !existing.has(e)));
    } else {
      inserted = await db.transaction().execute(async (trx) => {
        // the batch's rows are created now: one timestamp for the batch, never ahead of the clock (rows of equal
        // created_at are ordered by id in the list, whose (created_at, id) order and cursors stay total)
        const at = deps.clock.nowIso();
        const rows = await trx
          .insertInto('accounts')
          .values(batch.map((b) => ({ ...b.account, created_at: at, updated_at: at })))
          .onConflict((oc) => oc.columns(['type', 'email_normalized']).doNothing())
          .returning(['id', 'email_normalized', 'auth_type'])
          .execute();
        await recordAudit(trx, actor, 'user.import', 'user', null, null, { rows: batch.length, created: rows.length, first_row: batch[0]?.row, last_row: batch[batch.length - 1]?.row });
        const done = new Set(rows.map((r) => r.email_normalized));
        const taken = batch.filter((b) => !done.has(b.account.email_normalized)).length;
        await opts.inBatch?.(trx, { processed: processed + batch.length, created: created + rows.length, skipped: skipped.length + taken, failed: failed.length });
        for (const r of rows) if (r.auth_type === 'CREDENTIALS') toInvite.push(r.id);
        return done;
      });
    }
    for (const b of batch) {
      if (!inserted.has(b.account.email_normalized)) skipped.push({ row: b.row, email: b.account.email, reason: 'email_taken' });
    }
    created += inserted.size;
    processed += batch.length;
    await opts.onProgress?.({ processed, created, skipped: skipped.length, failed: failed.length });
    await yieldToLoop();
  }
  skipped.sort((a, b) => a.row - b.row);
  const truncated = skipped.length > REPORT_LIST_MAX || failed.length > REPORT_LIST_MAX;
  const report: ImportReport = {
    total,
    created,
    skipped: skipped.slice(0, REPORT_LIST_MAX),
    failed: failed.slice(0, REPORT_LIST_MAX),
    skipped_count: skipped.length,
    failed_count: failed.length,
    dry_run: opts.dryRun,
    invitations_queued: opts.sendInvitations && !opts.dryRun ? toInvite.length : 0,
    ...(truncated ? { truncated } : {}),
    encoding: parsed.encoding,
  };
  let invite: Account[] = [];
  if (opts.sendInvitations && !opts.dryRun && toInvite.length) {
    invite = [];
    for (let i = 0; i < toInvite.length; i += 500) {
      invite.push(...(await db.selectFrom('accounts').selectAll().where('id', 'in', toInvite.slice(i, i + 500)).execute()));
    }
  }
  return { report, invite };
}

/** Sends invitations one after another, at most `perSecond` per second (mail servers throttle bulk senders). */
function sendInvitationsThrottled(deps: Deps, accounts: Account[], actorId: string | null, perSecond = deps.config.importJobs.invitationsPerSecond): Promise<void> {
  const gap = Math.max(0, Math.floor(1000 / Math.max(1, perSecond)));
  return (async () => {
    for (const a of accounts) {
      try {
        await sendInvitation(deps, a, actorOpts(actorId));
      } catch (err) {
        deps.log.error({ err, accountId: a.id }, 'import invitation failed');
      }
      if (gap) await sleep(gap);
    }
  })();
}

export type ImportJobView = ImportJob;

/** Why a job ended failed (contract/admin/import.ts IMPORT_JOB_ERROR_CODES). */
const INTERRUPTED: ImportJobErrorCode = 'import_interrupted';
/** The job error code of a job an admin cancelled (contract/admin/import.ts cancelImportJob). */
export const CANCELLED: ImportJobErrorCode = 'import_cancelled';
const FAILED: ImportJobErrorCode = 'users_import_failed';
/** A stored job's error code as the contract names it (a code this version does not know reads as a failed import). */
const jobErrorCode = (code: string): ImportJobErrorCode => IMPORT_JOB_ERROR_CODES.find((known) => known === code) ?? FAILED;

/**
 * Closes jobs whose owner is gone (lease expired: the process died or lost the database for longer than the
 * lease): status failed, error `import_interrupted`, counts as committed (exact: each batch commits its counts
 * with its rows). Returns how many it closed.
 */
export async function reapStaleImportJobs(deps: Pick<Deps, 'db' | 'log' | 'clock'>): Promise<number> {
  const now = deps.clock.nowIso();
  const res = await deps.db.kysely
    .updateTable('import_jobs')
    .set({ status: 'failed', error_code: INTERRUPTED, owner: null, updated_at: now, finished_at: now })
    .where('status', 'in', ['queued', 'running'])
    .where('lease_until', '<', epochMs(deps.clock))
    .executeTakeFirst();
  const n = Number(res.numUpdatedRows);
  for (let i = 0; i < n; i++) importJobMetrics.recovered('interrupted');
  if (n) deps.log.warn({ jobs: n }, 'import jobs of a stopped instance closed as interrupted');
  return n;
}

/** A job's row as it starts at `at`: running, nothing counted yet, held by the instance `owner` until `leaseUntil` (epoch ms). */
export function startedImportJobRow(job: {
  id: string;
  actorId: string | null;
  dryRun: boolean;
  sendInvitations: boolean;
  total: number;
  at: string;
  owner: string;
  leaseUntil: number;
}): ImportJobsTable {
  return {
    id: job.id,
    actor_id: job.actorId,
    status: 'running',
    dry_run: job.dryRun ? 1 : 0,
    send_invitations: job.sendInvitations ? 1 : 0,
    total: job.total,
    processed: 0,
    created: 0,
    skipped_count: 0,
    failed_count: 0,
    report: null,
    error_code: null,
    created_at: job.at,
    updated_at: job.at,
    finished_at: null,
    owner: job.owner,
    heartbeat_at: job.at,
    lease_until: job.leaseUntil,
  };
}

/**
 * Starts a background import; its state lives in import_jobs so any instance can report progress. The job runs on
 * the app's job runner (server/services/jobs.ts): its owner is this process and its lease is renewed by the runner's
 * heartbeat; each batch commits its rows and the job's counts in one transaction, and only while this process still
 * holds the lease (otherwise the batch rolls back and the job stops). On shutdown the job stops after the batch in
 * flight and is closed as `import_interrupted`.
 */
async function startImportJob(deps: Deps, actor: Actor, parsed: ParsedCsv, opts: { dryRun: boolean; sendInvitations: boolean }): Promise<string> {
  const db = deps.db.kysely;
  const { instanceId } = deps.jobs;
  const leaseMs = deps.config.timeouts.jobLeaseMs;
  const id = randomUUID();
  const now = deps.clock.nowIso();
  await db
    .insertInto('import_jobs')
    .values(startedImportJobRow({ id, actorId: actor.id, ...opts, total: parsed.records.length, at: now, owner: instanceId, leaseUntil: epochMs(deps.clock) + leaseMs }))
    .execute();
  importJobMetrics.started();
  const mine = () => db.updateTable('import_jobs').where('id', '=', id).where('owner', '=', instanceId).where('status', '=', 'running');
  let lastCounts = { created: 0, skipped: 0, failed: 0 };

  const work = async (lease: LeasedJob) => {
    try {
      const { report, invite } = await runImport(deps, actor, parsed, {
        ...opts,
        shouldStop: lease.stopReason,
        inBatch: async (trx, p) => {
          const r = await trx
            .updateTable('import_jobs')
            .set({ processed: p.processed, created: p.created, skipped_count: p.skipped, failed_count: p.failed, updated_at: deps.clock.nowIso(), heartbeat_at: deps.clock.nowIso(), lease_until: lease.leaseUntil() })
            .where('id', '=', id)
            .where('owner', '=', instanceId)
            .where('status', '=', 'running')
            .executeTakeFirst();
          // fenced: a job closed or taken over by someone else gets no more rows from us
          if (Number(r.numUpdatedRows) === 0) {
            lease.lost();
            throw new ImportStopped('lease_lost');
          }
        },
        onProgress: async (p) => {
          importJobMetrics.rows('created', p.created - lastCounts.created);
          importJobMetrics.rows('skipped', p.skipped - lastCounts.skipped);
          importJobMetrics.rows('failed', p.failed - lastCounts.failed);
          lastCounts = { created: p.created, skipped: p.skipped, failed: p.failed };
          // dry runs write no rows: their progress is written here
          if (opts.dryRun) await mine().set({ processed: p.processed, created: p.created, skipped_count: p.skipped, failed_count: p.failed, updated_at: deps.clock.nowIso() }).execute();
        },
      });
      const end = deps.clock.nowIso();
      await mine()
        .set({
          status: 'done',
          processed: report.total,
          created: report.created,
          skipped_count: report.skipped_count,
          failed_count: report.failed_count,
          report: JSON.stringify(report),
          owner: null,
          lease_until: 0,
          updated_at: end,
          finished_at: end,
        })
        .execute();
      importJobMetrics.finished('done');
      if (invite.length) await sendInvitationsThrottled(deps, invite, actor.id);
    } catch (err) {
      const stopped = err instanceof ImportStopped ? err.reason : null;
      if (stopped) deps.log.warn({ jobId: id, reason: stopped }, 'users import stopped');
      else deps.log.error({ err, jobId: id }, 'users import failed');
      importJobMetrics.finished(stopped ? 'interrupted' : 'failed');
      if (stopped === 'lease_lost') return; // closed by whoever took it over
      const end = deps.clock.nowIso();
      // the counts stay as the last committed batch left them (exact); the lease is released
      await mine()
        .set({ status: 'failed', error_code: stopped ? INTERRUPTED : FAILED, owner: null, lease_until: 0, updated_at: end, finished_at: end })
        .execute()
        .catch((e: unknown) => deps.log.error({ err: e }, 'could not record import failure'));
    } finally {
      // many new rows: the planner's statistics of accounts are refreshed now rather than whenever autovacuum
      // gets to it (db/statistics.ts); the job ends after it, its rows and report already committed
      if (!opts.dryRun) await refreshAfterBulkInsert(deps.db, 'accounts', lastCounts.created, deps.log).catch(() => {});
    }
  };
  deps.jobs.run({
    leaseMs,
    renew: async (leaseUntil) => Number((await mine().set({ heartbeat_at: deps.clock.nowIso(), lease_until: leaseUntil }).executeTakeFirst()).numUpdatedRows) > 0,
    onRenewError: (err) => deps.log.warn({ err: err instanceof Error ? err.message : String(err), jobId: id }, 'import job heartbeat failed'),
    work,
  });
  return id;
}

/** Resolves when the jobs the app runs (`owner.jobs`: its job runner) have ended (stopped, failed or done). */
export async function importJobsSettled(owner: Pick<Deps, 'jobs'>): Promise<void> {
  await owner.jobs.settled();
}

/** A job's progress and report; `translate` gives the message of its error code in the reader's language. */
export async function getImportJob(deps: Pick<Deps, 'db' | 'log' | 'clock'>, id: string, translate: (code: string) => string): Promise<ImportJobView> {
  await reapStaleImportJobs(deps);
  const j = await deps.db.kysely.selectFrom('import_jobs').selectAll().where('id', '=', id).executeTakeFirst();
  if (!j) throw new AppError(404, 'import_job_not_found');
  return {
    id: j.id,
    status: j.status,
    dry_run: Number(j.dry_run) === 1,
    total: Number(j.total),
    processed: Number(j.processed),
    created: Number(j.created),
    skipped: Number(j.skipped_count),
    failed: Number(j.failed_count),
    report: j.report ? (JSON.parse(j.report) as ImportReport) : null,
    error: j.error_code ? { code: jobErrorCode(j.error_code), message: translate(j.error_code) } : null,
    created_at: j.created_at,
    updated_at: j.updated_at,
    finished_at: j.finished_at,
  };
}

/**
 * Cancels a running job: closes it as failed with `import_cancelled`. The process running it sees the job closed at
 * its next batch (the batch's fenced update finds no running job of its own) and stops; the batch in flight rolls back.
 */
export async function cancelImportJob(deps: Pick<Deps, 'db' | 'log' | 'clock'>, actor: Actor, id: string, translate: (code: string) => string): Promise<ImportJobView> {
  const now = deps.clock.nowIso();
  const r = await deps.db.kysely
    .updateTable('import_jobs')
    .set({ status: 'failed', error_code: CANCELLED, owner: null, lease_until: 0, updated_at: now, finished_at: now })
    .where('id', '=', id)
    .where('status', 'in', ['queued', 'running'])
    .executeTakeFirst();
  if (Number(r.numUpdatedRows) > 0) {
    await recordAudit(deps.db.kysely, actor, 'user.import_cancel', 'import_job', id, null, {}, now);
    deps.log.info({ jobId: id }, 'users import cancelled');
  }
  return getImportJob(deps, id, translate);
}

export type ImportAnswer = { kind: 'report'; report: ImportReport } | { kind: 'job'; jobId: string; total: number };

export function createImportService(deps: Deps) {
  // jobs of dead instances are closed when the app is ready and then every lease period (the app's job runner)
  deps.jobs.reaper('import job', deps.config.timeouts.jobLeaseMs, () => reapStaleImportJobs(deps));
  return {
    /** Decodes and parses an upload (422 users_import_failed for a malformed file or missing columns). */
    read: readImportFile,
    /**
     * Imports the file: within the call when it has at most `syncMaxRows` rows (invitations are then sent in the
     * background, throttled), else as a job (`async` forces one).
     */
    async importFile(actor: Actor, parsed: ParsedCsv, opts: { dryRun: boolean; sendInvitations: boolean; async: boolean }): Promise<ImportAnswer> {
      const { dryRun, sendInvitations } = opts;
      if (parsed.records.length > deps.config.importJobs.syncMaxRows || opts.async) {
        return { kind: 'job', jobId: await startImportJob(deps, actor, parsed, { dryRun, sendInvitations }), total: parsed.records.length };
      }
      const { report, invite } = await runImport(deps, actor, parsed, { dryRun, sendInvitations });
      if (invite.length) void sendInvitationsThrottled(deps, invite, actor.id);
      return { kind: 'report', report };
    },
    job: (id: string, translate: (code: string) => string) => getImportJob(deps, id, translate),
    /** Cancels a running job (it stops after its batch in flight); answers the job. */
    cancel: (actor: Actor, id: string, translate: (code: string) => string) => cancelImportJob(deps, actor, id, translate),
    /** The filtered users as a CSV stream (csv.ts). */
    exportCsv: (filters: UserFilters) => exportUsersCsv(deps.db, filters),
  };
}
export type ImportService = ReturnType<typeof createImportService>;
