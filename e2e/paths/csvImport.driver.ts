/**
 * Browser driver of the users CSV import dialog (machines/csvImport.machine.ts) on the user list.
 *
 * Every outcome is the real server's, arranged server-side:
 * - a check that runs as a job: a file of more than `IAM_IMPORT_SYNC_MAX_ROWS` (2 000) data rows;
 * - a job held in "running": its `import_jobs` lease is taken in the SQLite file (owner a fake instance, lease in the
 *   future), so no worker advances it. The lease is taken by a trigger armed just before the upload and dropped as soon
 *   as the upload is answered (the worker would finish a small file before a test could reach the row); the worker
 *   then finds the job no longer its own at its first write and stops (an import's first batch rolls back);
 * - `import_interrupted`: the held job's lease put in the past; the next poll reaps it;
 * - a cancel by another admin: the cancel endpoint called with another admin's token;
 * - network failures: `page.route(...).abort()`; missing columns: a file without an email column; too large: a file
 *   over the 50 MB upload limit.
 * The dialog's progress polls are held in the browser (never answered by the test) and let through one at a time by
 * the step that stands for a poll's outcome, so each poll answers what the server then says.
 * All e-mails are under `@csv-walk.test`.
 */
import { expect, type Request, type Route } from '@playwright/test';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ADMIN, adminSignIn, apiToken, createAdminWithPassword, dataDir, withDb } from '../helpers';
import type { DriverContext, MachineDriver } from './driver';

const UPLOAD = '**/api/admin/users/import';
const JOB = '**/api/admin/users/import/*';
const CANCEL = '**/api/admin/users/import/*/cancel';
const DOMAIN = 'csv-walk.test';
const HELD_OWNER = 'csv-walk:another-instance';
const TRIGGER = 'csv_walk_hold_job';
/** Rows of a check that runs as a job (more than IAM_IMPORT_SYNC_MAX_ROWS = 2 000). */
const JOB_ROWS = 2001;
/**
 * Rows of a check that must still be running at its first poll and then end by itself: the one outcome paced by the
 * server's own work (a held job never ends by itself). Its first poll is let through as soon as the upload is answered,
 * with some seconds of validation and batches still ahead of the worker.
 */
const LONG_ROWS = 40_000;
const HEADER = 'email,first_name,last_name,locale,auth_type';

type FileKind = 'small' | 'empty' | 'job' | 'long' | 'no-email' | 'too-large';
interface Upload {
  name: string;
  mimeType: string;
  buffer: Buffer;
}

interface World {
  stamp: string;
  token: string;
  adminId: string;
  fileKind: FileKind | null;
  /** Rows of the file last chosen. */
  total: number;
  jobId: string | null;
  /** Jobs held by the walk (released in `finish`). */
  held: string[];
  polls: Route[];
  pollsSeen: number;
  /** A cancel got no answer while this job runs (the running screen says so). */
  cancelFailed: boolean;
}
const w = (ctx: DriverContext) => ctx.world as unknown as World;

let tooLargePath: string | null = null;
/** A CSV over the 50 MB upload limit (written once; a path: Playwright does not take buffers that large). */
function tooLargeFile(): string {
  if (tooLargePath) return tooLargePath;
  const path = join(dataDir(), 'csv-walk-too-large.csv');
  const line = `too.large@${DOMAIN},Too,Large,en,CREDENTIALS\n`;
  writeFileSync(path, `${HEADER}\n${line.repeat(Math.ceil((50 * 1024 * 1024 + 4096) / line.length))}`);
  return (tooLargePath = path);
}

function csvFile(ctx: DriverContext, kind: Exclude<FileKind, 'too-large'>): Upload {
  const { stamp } = w(ctx);
  let lines: string[];
  if (kind === 'small') lines = [HEADER, `ada-${stamp}@${DOMAIN},Ada,Lovelace,en,CREDENTIALS`, `bad-${stamp}@${DOMAIN},Bad,Locale,xx,CREDENTIALS`, `alan-${stamp}@${DOMAIN},Alan,Turing,de,CREDENTIALS`];
  else if (kind === 'empty') lines = [HEADER, `bad-${stamp}@${DOMAIN},Bad,Locale,xx,CREDENTIALS`];
  else if (kind === 'no-email') lines = ['first_name,last_name,locale,auth_type', 'Ada,Lovelace,en,CREDENTIALS'];
  else {
    const rows = kind === 'job' ? JOB_ROWS : LONG_ROWS;
    lines = [HEADER];
    for (let i = 0; i < rows; i++) lines.push(`row${i}-${stamp}@${DOMAIN},Row,Number,en,CREDENTIALS`);
  }
  return { name: `${kind}.csv`, mimeType: 'text/csv', buffer: Buffer.from(`${lines.join('\n')}\n`) };
}

const ROWS: Record<FileKind, number> = { small: 3, empty: 1, job: JOB_ROWS, long: LONG_ROWS, 'no-email': 1, 'too-large': 0 };

const dialog = (ctx: DriverContext) => ctx.page.locator('[data-screen^="screen:import."]');
const fileInput = (ctx: DriverContext) => ctx.page.getByTestId('import-file');
const button = (ctx: DriverContext, name: string) => dialog(ctx).getByRole('button', { name, exact: true });
/** The footer's "Close" (the corner button is named "Close" too). */
const closeButton = (ctx: DriverContext) => dialog(ctx).locator('button:not([data-part="close-trigger"])', { hasText: /^Close$/ });

async function chooseFile(ctx: DriverContext, kind: FileKind): Promise<void> {
  await fileInput(ctx).setInputFiles(kind === 'too-large' ? tooLargeFile() : csvFile(ctx, kind));
  w(ctx).fileKind = kind;
  w(ctx).total = ROWS[kind];
  await expect(dialog(ctx).getByText(`${kind}.csv`, { exact: true }).or(dialog(ctx).getByText('csv-walk-too-large.csv', { exact: true }))).toBeVisible();
}

/** The file the check of this step needs, chosen again only when another kind is in the field. */
async function ensureFile(ctx: DriverContext, kind: FileKind): Promise<void> {
  if (w(ctx).fileKind !== kind) await chooseFile(ctx, kind);
}

// ----- the job held in "running" (its lease taken in the SQLite file) -------------------------------------------------

function armHold(ctx: DriverContext): void {
  const { adminId, total } = w(ctx);
  withDb((db) => {
    db.exec(`DROP TRIGGER IF EXISTS ${TRIGGER}`);
    db.exec(
      `CREATE TRIGGER ${TRIGGER} AFTER INSERT ON import_jobs WHEN NEW.actor_id = '${adminId}' AND NEW.total = ${total}
       BEGIN UPDATE import_jobs SET owner = '${HELD_OWNER}', lease_until = ${Date.now() + 3_600_000} WHERE id = NEW.id; END`,
    );
  });
}
function disarmHold(): void {
  withDb((db) => db.exec(`DROP TRIGGER IF EXISTS ${TRIGGER}`));
}
function jobRow(id: string): { status: string; owner: string | null; processed: number; error_code: string | null } {
  return withDb((db) => db.prepare('SELECT status, owner, processed, error_code FROM import_jobs WHERE id = ?').get(id) as { status: string; owner: string | null; processed: number; error_code: string | null });
}
function currentJob(ctx: DriverContext): string {
  const id = w(ctx).jobId;
  if (!id) throw new Error('no import job started in this case');
  return id;
}
/** The held job's lease runs out: its instance is gone (the next reading of any job closes it as interrupted). */
function expireLease(ctx: DriverContext): void {
  const id = currentJob(ctx);
  expect(jobRow(id)).toMatchObject({ status: 'running', owner: HELD_OWNER });
  withDb((db) => db.prepare('UPDATE import_jobs SET lease_until = ? WHERE id = ?').run(Date.now() - 1000, id));
}
async function waitForJob(ctx: DriverContext, status: string): Promise<void> {
  const id = currentJob(ctx);
  await expect.poll(() => jobRow(id).status, { timeout: 30_000, message: `job ${id} ${status}` }).toBe(status);
}

/** Steps after `from` up to the next job started (the steps that follow this job). */
function followingKeys(ctx: DriverContext): string[] {
  const steps = ctx.testCase.steps;
  const keys: string[] = [];
  for (const step of steps.slice(steps.indexOf(ctx.step!) + 1)) {
    if (step.key === 'checkFile succeeds job' || step.key === 'startImport succeeds job') break;
    keys.push(step.key);
  }
  return keys;
}
const NEEDS_RUNNING = ['pollCheck succeeds running', 'pollCheck succeeds failed', 'pollImport succeeds running', 'pollImport succeeds failed', 'pollImport succeeds cancelled', 'cancelImport succeeds cancelled', 'cancelImport succeeds failed'];
const NEEDS_END = ['pollCheck succeeds done', 'pollImport succeeds done', 'cancelImport succeeds done'];

// ----- the dialog's progress polls, held and let through one at a time -----------------------------------------------

async function nextPoll(ctx: DriverContext): Promise<Route> {
  await expect.poll(() => w(ctx).polls.length, { message: 'the dialog asks for the job' }).toBeGreaterThan(0);
  return w(ctx).polls.shift()!;
}
async function answerPoll(ctx: DriverContext): Promise<void> {
  await (await nextPoll(ctx)).continue();
}
async function failPoll(ctx: DriverContext): Promise<void> {
  await (await nextPoll(ctx)).abort('internetdisconnected');
}

/** Presses the button and returns the upload's answer (202: the job). */
async function uploadBy(ctx: DriverContext, press: () => Promise<void>): Promise<void> {
  const answered = ctx.page.waitForResponse((r) => r.request().method() === 'POST' && new URL(r.url()).pathname === '/api/admin/users/import');
  await press();
  const res = await answered;
  expect(res.status(), await res.text()).toBe(202);
  w(ctx).jobId = ((await res.json()) as { data: { job_id: string } }).data.job_id;
}

async function abortOnce(ctx: DriverContext, pattern: string, method: string): Promise<void> {
  await ctx.page.route(pattern, async (route: Route, request: Request) => {
    if (request.method() !== method) return route.fallback();
    await ctx.page.unroute(pattern);
    await route.abort('internetdisconnected');
  });
}
/** Holds the next request of this kind unanswered (the state waiting for it stays on screen). */
async function holdRequests(ctx: DriverContext, pattern: string, method: string): Promise<void> {
  await ctx.page.route(pattern, (route: Route, request: Request) => (request.method() === method ? undefined : route.fallback()));
}

const lastOutcome = (ctx: DriverContext) => ctx.events.at(-1) as { type: string; error?: { code?: string; kind?: string }; output?: { status?: string; errorCode?: string | null; report?: { total: number; failed: unknown[] } } } | undefined;

/** The admin's words of the error the last outcome left (machines/adminError.ts, the dialog's texts). */
function errorText(ctx: DriverContext): string | null {
  const out = lastOutcome(ctx);
  if (!out) return null;
  const code = out.error?.code ?? out.error?.kind ?? out.output?.errorCode ?? null;
  if (out.type.startsWith('xstate.done.actor.') && !out.output?.errorCode) return null;
  if (code === 'users_import_failed') return 'The file has no “email” column';
  if (code === 'payload_too_large') return 'The file is too large';
  if (code === 'network') return 'The server cannot be reached; check the connection and try again';
  if (code === 'import_interrupted') return 'The import was interrupted (a server restarted). Try again: rows already imported are skipped.';
  return code;
}

const stateOf = (ctx: DriverContext) => ctx.step?.state ?? 'pick';
const fmt = (n: number) => n.toLocaleString('en');

async function pressCheck(ctx: DriverContext): Promise<void> {
  await button(ctx, 'Check file').click();
}
/** "Import users" on the report, or "Try again" when the step starts with RETRY. */
async function pressRunOrRetry(ctx: DriverContext): Promise<void> {
  await button(ctx, ctx.events[0]?.type === 'RETRY' ? 'Try again' : 'Import users').click();
}

async function startJobCheck(ctx: DriverContext): Promise<void> {
  const next = followingKeys(ctx);
  const running = next.some((k) => NEEDS_RUNNING.includes(k));
  const ends = next.some((k) => NEEDS_END.includes(k));
  if (running && next.includes('pollCheck succeeds failed') && ends) throw new Error(`case ${ctx.testCase.id}: a check job both interrupted and done`);
  // seen running and then done: a check long enough to be running at its first poll, ending by itself
  await ensureFile(ctx, running && ends ? 'long' : 'job');
  if (running && !ends) armHold(ctx);
  try {
    await uploadBy(ctx, () => pressCheck(ctx));
  } finally {
    disarmHold();
  }
  if (running && !ends) w(ctx).held.push(w(ctx).jobId!);
}

async function startImportJob(ctx: DriverContext): Promise<void> {
  const next = followingKeys(ctx);
  const running = next.some((k) => NEEDS_RUNNING.includes(k));
  if (running && next.some((k) => NEEDS_END.includes(k))) throw new Error(`case ${ctx.testCase.id}: an import both held running and ending by itself`);
  // a big file's import is always held: the walk creates no thousands of users
  const hold = running || w(ctx).total > 100;
  if (hold) armHold(ctx);
  try {
    await uploadBy(ctx, () => pressRunOrRetry(ctx));
  } finally {
    disarmHold();
  }
  if (hold) w(ctx).held.push(w(ctx).jobId!);
  w(ctx).cancelFailed = false;
}

/** The kind of file the first check after this step needs. */
function fileForNextCheck(ctx: DriverContext): FileKind {
  const steps = ctx.testCase.steps;
  for (const step of steps.slice(steps.indexOf(ctx.step!) + 1)) {
    if (step.key === 'checkFile succeeds report') return (step.events.at(-1) as { output?: { report?: { total: number } } }).output?.report?.total === 1 ? 'empty' : 'small';
    if (step.key === 'checkFile succeeds job') return 'job';
    if (step.key === 'checkFile fails users_import_failed') return 'no-email';
    if (step.key === 'checkFile fails payload_too_large') return 'too-large';
  }
  return 'small';
}

export const csvImportDriver: MachineDriver = {
  machine: 'csvImport',
  start: {
    'open "Import users" on the user list': async (ctx) => {
      const world = w(ctx);
      world.stamp = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;
      world.held = [];
      world.polls = [];
      world.pollsSeen = 0;
      world.fileKind = null;
      world.jobId = null;
      world.cancelFailed = false;
      await adminSignIn(ctx.page);
      world.token = await apiToken(ctx.page);
      world.adminId = withDb((db) => (db.prepare("SELECT id FROM accounts WHERE type = 'admin' AND email_normalized = ?").get(ADMIN.email.toLowerCase()) as { id: string }).id);
      await ctx.page.route(JOB, (route, request) => {
        if (request.method() !== 'GET') return route.fallback();
        world.pollsSeen++;
        world.polls.push(route);
        return undefined;
      });
      await ctx.page.goto('/admin/user-management');
      await ctx.page.getByRole('button', { name: 'Import users' }).click();
    },
  },
  steps: {
    FILE_CHOSEN: async (ctx) => chooseFile(ctx, fileForNextCheck(ctx)),
    INVITATIONS_TOGGLED: async (ctx) => {
      const toggle = dialog(ctx).getByRole('switch', { name: 'Send invitation e-mails to new users' }).or(dialog(ctx).getByRole('checkbox', { name: 'Send invitation e-mails to new users' }));
      await expect(toggle).toBeChecked();
      await dialog(ctx).getByText('Send invitation e-mails to new users', { exact: true }).click();
      await expect(toggle).not.toBeChecked();
    },
    // a lone CHECK / RUN / CANCEL (the outcome not in the case): the request is held, the busy state stays on screen
    CHECK: async (ctx) => {
      await holdRequests(ctx, UPLOAD, 'POST');
      await pressCheck(ctx);
      await expect(button(ctx, 'Check file')).toBeDisabled();
    },
    RUN: async (ctx) => {
      await holdRequests(ctx, UPLOAD, 'POST');
      await button(ctx, 'Import users').click();
      await expect(dialog(ctx)).toHaveAttribute('data-screen', 'screen:import.running');
    },
    CANCEL: async (ctx) => {
      await holdRequests(ctx, CANCEL, 'POST');
      await button(ctx, 'Cancel import').click();
      await expect(button(ctx, 'Cancel import')).toBeDisabled();
    },
    RETRY: async (ctx) => {
      await button(ctx, 'Try again').click();
    },
    CLOSE: async (ctx) => {
      const screen = await dialog(ctx).getAttribute('data-screen');
      if (screen === 'screen:import.done') await button(ctx, 'Done').click();
      else if (screen === 'screen:import.cancelled') await closeButton(ctx).click();
      // the running screen has no "Cancel": the dialog's corner button closes it
      else if (screen === 'screen:import.running') await dialog(ctx).locator('[data-part="close-trigger"]').click();
      else await button(ctx, 'Cancel').click();
    },
    'checkFile succeeds report': async (ctx) => {
      await ensureFile(ctx, (lastOutcome(ctx)?.output?.report?.total ?? 0) === 1 ? 'empty' : 'small');
      await pressCheck(ctx);
    },
    'checkFile succeeds job': startJobCheck,
    'checkFile fails users_import_failed': async (ctx) => {
      await ensureFile(ctx, 'no-email');
      await pressCheck(ctx);
    },
    'checkFile fails payload_too_large': async (ctx) => {
      await ensureFile(ctx, 'too-large');
      const answered = ctx.page.waitForResponse((r) => r.request().method() === 'POST' && new URL(r.url()).pathname === '/api/admin/users/import');
      await pressCheck(ctx);
      expect((await answered).status()).toBe(413);
      // the browser has read it: 50 MB less in the data directory
      if (tooLargePath) rmSync(tooLargePath, { force: true });
      tooLargePath = null;
    },
    'checkFile fails network': async (ctx) => {
      await ensureFile(ctx, 'small');
      await abortOnce(ctx, UPLOAD, 'POST');
      await pressCheck(ctx);
    },
    'pollCheck succeeds running': async (ctx) => {
      const id = currentJob(ctx);
      if (w(ctx).held.includes(id)) expect(jobRow(id)).toMatchObject({ status: 'running', owner: HELD_OWNER });
      else expect(jobRow(id).status).toBe('running');
      await answerPoll(ctx);
    },
    'pollCheck succeeds done': async (ctx) => {
      await waitForJob(ctx, 'done');
      await answerPoll(ctx);
    },
    'pollCheck succeeds failed': async (ctx) => {
      expireLease(ctx);
      await answerPoll(ctx);
    },
    'pollCheck fails network': failPoll,
    'startImport succeeds job': startImportJob,
    'startImport fails network': async (ctx) => {
      await abortOnce(ctx, UPLOAD, 'POST');
      await pressRunOrRetry(ctx);
    },
    'pollImport succeeds running': async (ctx) => {
      expect(jobRow(currentJob(ctx))).toMatchObject({ status: 'running', owner: HELD_OWNER });
      await answerPoll(ctx);
    },
    'pollImport succeeds done': async (ctx) => {
      await waitForJob(ctx, 'done');
      await answerPoll(ctx);
    },
    'pollImport succeeds failed': async (ctx) => {
      expireLease(ctx);
      await answerPoll(ctx);
    },
    'pollImport succeeds cancelled': async (ctx) => {
      const other = await otherAdminToken(ctx);
      const res = await ctx.request.post(`/api/admin/users/import/${currentJob(ctx)}/cancel`, { headers: { Authorization: `Bearer ${other}` } });
      expect(res.ok(), await res.text()).toBeTruthy();
      expect(((await res.json()) as { data: { error: { code: string } | null } }).data.error?.code).toBe('import_cancelled');
      await answerPoll(ctx);
    },
    'pollImport fails network': failPoll,
    'cancelImport succeeds cancelled': async (ctx) => {
      expect(jobRow(currentJob(ctx))).toMatchObject({ status: 'running', owner: HELD_OWNER });
      await button(ctx, 'Cancel import').click();
    },
    'cancelImport succeeds done': async (ctx) => {
      await waitForJob(ctx, 'done');
      await button(ctx, 'Cancel import').click();
    },
    'cancelImport succeeds failed': async (ctx) => {
      expireLease(ctx);
      // another admin's page reads a job: the server closes the jobs of stopped instances first
      const res = await ctx.request.get(`/api/admin/users/import/${currentJob(ctx)}`, { headers: { Authorization: `Bearer ${w(ctx).token}` } });
      expect(((await res.json()) as { data: { error: { code: string } | null } }).data.error?.code).toBe('import_interrupted');
      await button(ctx, 'Cancel import').click();
    },
    'cancelImport fails network': async (ctx) => {
      await abortOnce(ctx, CANCEL, 'POST');
      await button(ctx, 'Cancel import').click();
    },
    'after pollInterval': async (ctx) => {
      // the dialog asks again after 0.75 s: the next poll arrives (held until an outcome lets it through)
      await expect.poll(() => w(ctx).polls.length, { message: 'the next poll' }).toBeGreaterThan(0);
    },
  },
  screens: {
    'screen:import.pick': async (ctx) => {
      const check = button(ctx, 'Check file');
      const busy = stateOf(ctx) === 'checking';
      await expect(dialog(ctx)).toHaveAttribute('data-screen', 'screen:import.pick');
      await expect(dialog(ctx).getByText('Send invitation e-mails to new users', { exact: true })).toBeVisible();
      if (busy) await expect(check).toHaveAttribute('aria-busy', 'true');
      if (busy || w(ctx).fileKind === null) await expect(check).toBeDisabled();
      else await expect(check).toBeEnabled();
      const text = busy ? null : errorText(ctx);
      if (text) await expect(ctx.page.getByTestId('import-file-error')).toHaveText(`Users import failed: ${text}`);
      else await expect(ctx.page.getByTestId('import-file-error')).toHaveCount(0);
      await expect(button(ctx, 'Try again')).toHaveCount(0);
    },
    'screen:import.checking': async (ctx) => {
      await expect(dialog(ctx).getByText('Checking the file…', { exact: true })).toBeVisible();
      await expect(dialog(ctx).getByRole('progressbar', { name: 'Checking the file…' })).toBeVisible();
      const progress = ctx.page.getByTestId('import-progress');
      await expect(progress).toHaveText(new RegExp(`^[\\d,]+ of ${fmt(w(ctx).total)}$`));
      if (ctx.step?.key === 'checkFile succeeds job') await expect(progress).toHaveText(`0 of ${fmt(w(ctx).total)}`);
    },
    'screen:import.report': async (ctx) => {
      const kind = w(ctx).fileKind;
      const report = ctx.page.getByTestId('import-report');
      const stat = (label: string) => report.getByText(label, { exact: true }).locator('xpath=following-sibling::span[1]');
      const expected =
        kind === 'small' ? { rows: 3, ready: 2, errors: 1 } : kind === 'empty' ? { rows: 1, ready: 0, errors: 1 } : { rows: w(ctx).total, ready: w(ctx).total, errors: 0 };
      await expect(stat('Rows')).toHaveText(fmt(expected.rows));
      await expect(stat('Ready to import')).toHaveText(fmt(expected.ready));
      await expect(stat('Skipped')).toHaveText('0');
      await expect(stat('With errors')).toHaveText(fmt(expected.errors));
      if (expected.errors) {
        const row = ctx.page.getByTestId('import-problem');
        await expect(row).toHaveCount(1);
        await expect(row.getByRole('cell')).toHaveText([kind === 'small' ? '3' : '2', `bad-${w(ctx).stamp}@${DOMAIN}`, 'Error', 'locale is invalid']);
      } else await expect(report.getByText('No problems found.')).toBeVisible();
      if (expected.ready > 0) await expect(button(ctx, 'Import users')).toBeEnabled();
      else await expect(button(ctx, 'Import users')).toBeDisabled();
    },
    'screen:import.running': async (ctx) => {
      await expect(dialog(ctx).getByRole('progressbar', { name: 'Importing users…' })).toBeVisible();
      const state = stateOf(ctx);
      // `starting` (the upload held) shows no total yet
      await expect(ctx.page.getByTestId('import-progress')).toHaveText(state === 'starting' ? '0 of 0' : new RegExp(`^[\\d,]+ of ${fmt(w(ctx).total)}$`));
      const cancel = button(ctx, 'Cancel import');
      if (state === 'starting' || state === 'running.cancelling') await expect(cancel).toBeDisabled();
      else await expect(cancel).toBeEnabled();
      if (ctx.step?.key === 'cancelImport fails network') w(ctx).cancelFailed = true;
      if (w(ctx).cancelFailed)
        await expect(dialog(ctx).getByRole('alert')).toHaveText('The import could not be cancelled: The server cannot be reached; check the connection and try again');
      else await expect(dialog(ctx).getByRole('alert')).toHaveCount(0);
    },
    'screen:import.done': async (ctx) => {
      await expect(dialog(ctx).getByRole('status')).toHaveText('Users imported');
      const report = ctx.page.getByTestId('import-report');
      await expect(report.getByText('Created', { exact: true }).locator('xpath=following-sibling::span[1]')).toHaveText('2');
      await expect(button(ctx, 'Done')).toBeVisible();
      // the user list behind the dialog shows the new users
      await expect(ctx.page.getByText(`ada-${w(ctx).stamp}@${DOMAIN}`).first()).toBeAttached();
    },
    'screen:import.failed': async (ctx) => {
      const text = errorText(ctx);
      await expect(dialog(ctx).getByRole('alert').first()).toHaveText(`Users import failed: ${text}`);
      // every failure the dialog can meet after the check can be tried again (no answer, an interrupted job)
      await expect(button(ctx, 'Try again')).toBeVisible();
    },
    'screen:import.cancelled': async (ctx) => {
      await expect(dialog(ctx).getByRole('status')).toHaveText('Import cancelled. 0 users were created before it stopped.');
      expect(jobRow(currentJob(ctx))).toMatchObject({ status: 'failed', error_code: 'import_cancelled' });
      await expect(closeButton(ctx)).toBeVisible();
    },
    'screen:import.closed': async (ctx) => {
      await expect(dialog(ctx)).toHaveCount(0);
      await expect(ctx.page.getByRole('button', { name: 'Import users' })).toBeVisible();
    },
  },
  finish: async (ctx) => {
    disarmHold();
    await ctx.page.unrouteAll({ behavior: 'ignoreErrors' });
    // jobs still held end as cancelled (no other spec sees a job running)
    for (const id of w(ctx).held ?? []) {
      withDb((db) => db.prepare("UPDATE import_jobs SET status = 'failed', error_code = 'import_cancelled', owner = NULL, lease_until = 0 WHERE id = ? AND status IN ('queued', 'running')").run(id));
    }
  },
};

let otherAdmin: { email: string; password: string } | null = null;
/** Another super admin's access token (created once per worker, signed in in its own browser context). */
async function otherAdminToken(ctx: DriverContext): Promise<string> {
  if (!otherAdmin) {
    const admin = { email: `other-admin-${Date.now().toString(36)}@${DOMAIN}`, first: 'Other', last: 'Admin', password: 'Csv-Walk-Passw0rd!x' };
    await createAdminWithPassword(ctx.request, w(ctx).token, admin);
    otherAdmin = { email: admin.email, password: admin.password };
  }
  const browser = ctx.context.browser();
  if (!browser) throw new Error('no browser');
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    await adminSignIn(page, otherAdmin);
    return await apiToken(page);
  } finally {
    await context.close();
  }
}
