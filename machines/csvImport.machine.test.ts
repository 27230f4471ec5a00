import { describe, expect, it } from 'vitest';
import { createActor, type AnyMachineSnapshot } from 'xstate';
import { adminImport as csv } from '../contract/routes-admin';
import type { Call, EndpointShape } from '../contract/endpoint';
import { createCsvImportActors, jobOutput, type CsvImportContext, type Upload } from './csvImport.machine';
import { CHECKED, IMPORT_FILE, NOTHING_TO_IMPORT, csvImportModel } from './csvImport.model';
import { modelPaths, reachableStates, stateKey, walkPath, type AnyPath } from './testing/graph';
import { csvImportQa } from './csvImport.qa';
import { screenTags, stepKey, transitionPaths } from './testing/qa';
import { itWalksInBatches } from './testing/batches';

const shortest = modelPaths(csvImportModel);
const ctx = (s: AnyMachineSnapshot) => s.context as CsvImportContext;

const paths = [...shortest, ...transitionPaths(csvImportModel)];

const screenOf: Record<string, string[]> = {
  pick: ['screen:import.pick'],
  checking: ['screen:import.pick'],
  'checkingJob.fetching': ['screen:import.checking'],
  'checkingJob.waiting': ['screen:import.checking'],
  report: ['screen:import.report'],
  starting: ['screen:import.running'],
  'running.fetching': ['screen:import.running'],
  'running.waiting': ['screen:import.running'],
  'running.cancelling': ['screen:import.running'],
  done: ['screen:import.done'],
  failed: ['screen:import.failed'],
  cancelled: ['screen:import.cancelled'],
  closed: ['screen:import.closed'], // exit: the dialog is closed, the user list shows
};

describe(`csvImport machine (model-based: ${shortest.length} shortest paths + ${paths.length - shortest.length} transitions)`, () => {
  it('reaches exactly the expected states and every outcome', () => {
    expect([...reachableStates(shortest)].sort()).toEqual([...csvImportModel.expectedStates].sort());
    for (const final of csvImportModel.finalStates) expect(shortest.some((p) => stateKey(p.state.value) === final)).toBe(true);
  });

  it('the QA words name every step and every screen the paths take, and nothing else', () => {
    const keys = new Set(paths.flatMap((p) => p.steps.map((s) => stepKey(s.event))));
    expect([...keys].sort()).toEqual(Object.keys(csvImportQa.steps).sort());
    const screens = new Set(paths.flatMap((p) => p.steps.flatMap((s) => screenTags(s.state))));
    expect([...screens].sort()).toEqual(Object.keys(csvImportQa.screens).sort());
    expect(Object.keys(csvImportQa.scenarios)).toEqual(csvImportModel.scenarios.map((s) => s.name));
  });

  it('a file without a needed column goes back to the pick screen with the columns as field errors, and no retry', () => {
    const refused = paths.find((p) => p.steps.some((s) => s.event.type === 'xstate.error.actor.checkFile' && ctx(s.state).error?.code === 'users_import_failed'));
    const last = refused!.steps.find((s) => s.event.type === 'xstate.error.actor.checkFile')!.state;
    expect(stateKey(last.value)).toBe('pick');
    expect(ctx(last).error).toEqual({ code: 'users_import_failed', status: 422, fields: { 'columns.email': ['required'] }, retryable: false });
  });

  it('"Try again" is taken only when trying again can help', () => {
    const failedStates = paths.flatMap((p) => p.steps.map((s) => s.state)).filter((s) => stateKey(s.value) === 'failed');
    expect(failedStates.length).toBeGreaterThan(0);
    for (const s of failedStates) expect(s.can({ type: 'RETRY' }), JSON.stringify(ctx(s).error)).toBe(ctx(s).error?.retryable === true);
    expect(failedStates.some((s) => ctx(s).error?.code === 'network' && s.can({ type: 'RETRY' }))).toBe(true);
    expect(failedStates.some((s) => ctx(s).error?.code === 'import_interrupted' && s.can({ type: 'RETRY' }))).toBe(true);
  });

  it('a file over the upload limit is refused at the check (back to the pick screen, no retry); the import never meets the limit', () => {
    const steps = paths.flatMap((p) => p.steps);
    const refused = steps.filter((s) => s.event.type === 'xstate.error.actor.checkFile' && ctx(s.state).error?.code === 'payload_too_large');
    expect(refused.length).toBeGreaterThan(0);
    for (const s of refused) {
      expect(stateKey(s.state.value)).toBe('pick');
      expect(ctx(s.state).error?.retryable).toBe(false);
    }
    expect(steps.some((s) => s.event.type === 'xstate.error.actor.startImport' && ctx(s.state).error?.code === 'payload_too_large')).toBe(false);
  });

  it('the import always follows a job: starting leads to running or failed, never straight to done', () => {
    for (const p of paths) {
      p.steps.forEach((s, i) => {
        if (i > 0 && stateKey(p.steps[i - 1]!.state.value) === 'starting' && s.event.type === 'xstate.done.actor.startImport') expect(stateKey(s.state.value)).toBe('running.fetching');
      });
    }
  });

  it('a cancel is answered with the job ended: cancelled, done, or failed when it was interrupted first (never "running")', () => {
    const answered = paths.flatMap((p) => p.steps).filter((s) => s.event.type === 'xstate.done.actor.cancelImport');
    expect(new Set(answered.map((s) => stateKey(s.state.value)))).toEqual(new Set(['cancelled', 'done', 'failed']));
    for (const s of answered.filter((a) => stateKey(a.state.value) === 'failed')) expect(ctx(s.state).error).toEqual({ code: 'import_interrupted', retryable: true });
  });

  it('a report with nothing to import cannot be run', () => {
    const empty = paths.flatMap((p) => p.steps.map((s) => s.state)).find((s) => stateKey(s.value) === 'report' && ctx(s).report === NOTHING_TO_IMPORT);
    expect(empty?.can({ type: 'RUN' })).toBe(false);
  });

  // walked in batches (per-test overhead dominates otherwise); a failure names its path
  itWalksInBatches(paths, checkPath);
});

function checkPath(path: AnyPath): void {
  const result = walkPath(csvImportModel, path);
  path.steps.forEach((step, i) => {
    const value = stateKey(step.state.value);
    const c = ctx(step.state);
    const before = i > 0 ? ctx(path.steps[i - 1]!.state) : null;
    // every state shows exactly its screen
    expect(screenTags(result.snapshots[i]!), value).toEqual(screenOf[value]);
    expect(result.snapshots[i]!.hasTag('busy')).toBe(['checking', 'starting', 'running.cancelling'].includes(value));
    if (value === 'report') expect(c.report?.dry_run).toBe(true);
    if (value === 'done') expect(c.report?.dry_run).toBe(false);
    if (value.startsWith('running.') || value.startsWith('checkingJob.')) expect(c.jobId).toBe('job-1');
    if (value === 'failed') expect(c.error).not.toBeNull();
    for (const rec of result.stepLogs[i]!) {
      if (rec.name === 'uploadFile') {
        const dryRun = value === 'checking';
        expect(rec.data).toEqual({ file: IMPORT_FILE, dryRun, sendInvitations: c.sendInvitations });
        expect(['checking', 'starting']).toContain(value);
      }
      if (rec.name === 'getJob' || rec.name === 'cancelJob') expect(rec.data).toEqual({ jobId: 'job-1' });
      if (rec.name === 'cancelJob') expect(value).toBe('running.cancelling');
      if (rec.name === 'usersChanged') expect(['done', 'failed', 'cancelled']).toContain(value);
      if (rec.name === 'close') expect(value).toBe('closed');
    }
    // the users list is refreshed whenever an import ended, once
    const changed = result.stepLogs[i]!.filter((r) => r.name === 'usersChanged').length;
    expect(changed).toBe(['done', 'failed', 'cancelled'].includes(value) && before !== null && stateKey(path.steps[i - 1]!.state.value) !== value ? 1 : 0);
    if (value === 'closed') expect(result.stepLogs[i]!.filter((r) => r.name === 'close')).toHaveLength(1);
  });
}

describe('csvImport real actors', () => {
  const calls: Array<{ endpoint: EndpointShape; input: unknown; form?: Record<string, unknown> }> = [];
  let answer: unknown = { data: { job_id: 'job-9', total: 3, status: 'running' } };
  const call = (async (endpoint: EndpointShape, input?: unknown) => {
    calls.push({ endpoint, input });
    return answer;
  }) as Call;
  const upload = (async (endpoint: EndpointShape, form: FormData) => {
    calls.push({ endpoint, input: undefined, form: Object.fromEntries([...form.entries()].map(([k, v]) => [k, typeof v === 'string' ? v : `file:${(v as File).name}`])) });
    return answer;
  }) as Upload;
  const actors = createCsvImportActors({ call, upload });
  const run = <T,>(logic: unknown, input: unknown) =>
    new Promise<T>((resolve, reject) => {
      const a = createActor(logic as never, { input } as never) as unknown as { subscribe: (o: object) => void; start: () => void; getSnapshot: () => { output: T } };
      a.subscribe({ complete: () => resolve(a.getSnapshot().output), error: reject });
      a.start();
    });

  it('the import runs as a job (async in the form, before the file); a check does not ask for one', async () => {
    const file = new File(['email\n'], 'u.csv', { type: 'text/csv' });
    expect(await run(actors.uploadFile, { file, dryRun: false, sendInvitations: true })).toEqual({ status: 'job', jobId: 'job-9', total: 3 });
    expect(calls.at(-1)).toMatchObject({ endpoint: csv.importUsers, form: { dry_run: 'false', send_invitations: 'true', async: 'true', file: 'file:u.csv' } });
    expect(Object.keys(calls.at(-1)!.form!)).toEqual(['dry_run', 'send_invitations', 'async', 'file']);
    answer = { data: CHECKED };
    expect(await run(actors.uploadFile, { file, dryRun: true, sendInvitations: false })).toEqual({ status: 'report', report: CHECKED });
    expect(calls.at(-1)?.form).toEqual({ dry_run: 'true', send_invitations: 'false', file: 'file:u.csv' });
  });

  it('a job cancelled by an admin is told apart from a failed one', async () => {
    const job = { id: 'job-9', status: 'failed' as const, dry_run: false, total: 3, processed: 1, created: 1, skipped: 0, failed: 0, report: null, error: { code: 'import_cancelled', message: 'x' }, created_at: '', updated_at: '', finished_at: '' };
    answer = { data: job };
    expect(await run(actors.cancelJob, { jobId: 'job-9' })).toMatchObject({ status: 'cancelled', errorCode: 'import_cancelled', progress: { processed: 1, total: 3, created: 1 } });
    expect(calls.at(-1)).toEqual({ endpoint: csv.cancelImportJob, input: { params: { id: 'job-9' } } });
    expect(await run(actors.getJob, { jobId: 'job-9' })).toMatchObject({ status: 'cancelled' });
    expect(calls.at(-1)).toEqual({ endpoint: csv.getImportJob, input: { params: { id: 'job-9' } } });
    expect(jobOutput({ ...job, error: { code: 'import_interrupted', message: 'x' } }).status).toBe('failed');
    expect(jobOutput({ ...job, status: 'queued', error: null }).status).toBe('running');
  });
});
