/**
 * The users CSV import dialog (docs/SPEC.md "Import users", docs/IMPORT.md): pick a file → check it (a dry run,
 * nothing saved; a big file is checked as a job with progress) → the report → run the import as a job, its
 * progress polled → done | failed | cancelled (the admin stopped the job; the rows of the batches before stay).
 * A check that the server refuses (missing columns, not a CSV) goes back to the pick screen with the reason on the
 * file field; "Try again" is offered only when trying again can help (no answer, 5xx, interrupted job).
 *
 * Injected: actors uploadFile, getJob, cancelJob (`createCsvImportActors({ call, upload })`, the endpoints of
 * contract/admin/import.ts); actions `close` (the dialog closes) and `usersChanged` (the user lists are stale).
 */
import { assign, fromPromise, setup } from 'xstate';
import type * as csv from '../contract/admin/import';
// method and path only: contract/admin/import.ts builds its zod schemas on import (contract/routes-admin.ts)
import { adminImport } from '../contract/routes-admin';
import type { Call, CallOptions, EndpointShape, ResultOf, Route } from '../contract/endpoint';
import { isRetryableCode, toMachineError, type MachineError } from './errors';
import { notProvided } from './shared';

/** How often a running job's progress is asked for. */
export const IMPORT_POLL_MS = 750;

/** A multipart upload through the app's HTTP client (src/api/call.ts `upload`). */
export type Upload = <E extends EndpointShape>(endpoint: E | Route<E>, form: FormData, options?: CallOptions & { params?: Record<string, string | number> }) => Promise<ResultOf<E>>;

/** What the dialog needs of the chosen file (a browser File). */
export type ImportFile = Blob & { readonly name: string };

export interface CsvImportInput {
  /** The "Send invitation e-mails to new users" switch starts on. */
  sendInvitations: boolean;
}
export interface ImportProgress {
  processed: number;
  total: number;
  created: number;
}
export interface CsvImportContext extends CsvImportInput {
  file: ImportFile | null;
  /** The dry run's report (screen `report`) or the import's (screen `done`). */
  report: csv.ImportReport | null;
  /** The job being followed (a big file's check, or the import). */
  jobId: string | null;
  progress: ImportProgress | null;
  error: MachineError | null;
}
export type CsvImportEvent =
  | { type: 'FILE_CHOSEN'; file: ImportFile | null }
  | { type: 'INVITATIONS_TOGGLED'; send: boolean }
  | { type: 'CHECK' }
  | { type: 'RUN' }
  | { type: 'CANCEL' }
  | { type: 'RETRY' }
  | { type: 'CLOSE' };
export type CsvImportScreen =
  | 'screen:import.pick'
  | 'screen:import.checking'
  | 'screen:import.report'
  | 'screen:import.running'
  | 'screen:import.done'
  | 'screen:import.failed'
  | 'screen:import.cancelled';
/** `exit`: the dialog is closed, the person is back on the user list (machines/testing/qa.ts EXIT_TAG). */
export type CsvImportTag = CsvImportScreen | 'screen:import.closed' | 'exit' | 'busy';

export interface UploadInput {
  file: ImportFile;
  dryRun: boolean;
  sendInvitations: boolean;
}
/** The upload's answer: the report (200), or a job to follow (202). */
export type UploadOutput = { status: 'report'; report: csv.ImportReport } | { status: 'job'; jobId: string; total: number };
/** A job as the dialog follows it: the job's status, with a cancelled job told apart from a failed one. */
export interface JobOutput {
  status: 'running' | 'done' | 'failed' | 'cancelled';
  progress: ImportProgress;
  report: csv.ImportReport | null;
  errorCode: csv.ImportJobErrorCode | null;
}

export function jobOutput(job: csv.ImportJob): JobOutput {
  const progress = { processed: job.processed, total: job.total, created: job.created };
  const errorCode = job.error?.code ?? null;
  if (job.status === 'done') return { status: 'done', progress, report: job.report, errorCode: null };
  if (job.status === 'failed') return { status: errorCode === 'import_cancelled' ? 'cancelled' : 'failed', progress, report: job.report, errorCode };
  return { status: 'running', progress, report: null, errorCode: null };
}

/** The 202 answer (a job was started) rather than a report. */
function isAccepted(data: csv.ImportReport | csv.ImportAccepted['data']): data is csv.ImportAccepted['data'] {
  return typeof (data as { job_id?: unknown }).job_id === 'string';
}

export function createCsvImportActors(deps: { call: Call; upload: Upload }) {
  const { call, upload } = deps;
  return {
    uploadFile: fromPromise<UploadOutput, UploadInput>(async ({ input }) => {
      const form = new FormData();
      form.append('dry_run', String(input.dryRun));
      form.append('send_invitations', String(input.sendInvitations));
      // the import itself always runs as a job: its progress is shown and it can be cancelled
      if (!input.dryRun) form.append('async', 'true');
      form.append('file', input.file, input.file.name);
      const data: csv.ImportReport | csv.ImportAccepted['data'] = (await upload(adminImport.importUsers, form)).data;
      return isAccepted(data) ? { status: 'job', jobId: data.job_id, total: data.total } : { status: 'report', report: data };
    }),
    getJob: fromPromise<JobOutput, { jobId: string }>(async ({ input }) => jobOutput((await call(adminImport.getImportJob, { params: { id: input.jobId } })).data)),
    cancelJob: fromPromise<JobOutput, { jobId: string }>(async ({ input }) => jobOutput((await call(adminImport.cancelImportJob, { params: { id: input.jobId } })).data)),
  };
}

/** Rows a run would create or skip: what is left of the file after the invalid rows. */
export function importableRows(report: csv.ImportReport): number {
  // counts beyond the capped lists; a report without them (an older server) has complete lists
  return report.total - (report.failed_count ?? report.failed.length) - (report.skipped_count ?? report.skipped.length);
}

const jobError = (code: csv.ImportJobErrorCode | null): MachineError => ({ code: code ?? 'users_import_failed', retryable: isRetryableCode(code ?? '') });

export const csvImportMachine = setup({
  types: {
    context: {} as CsvImportContext,
    events: {} as CsvImportEvent,
    input: {} as CsvImportInput,
    tags: {} as CsvImportTag,
  },
  actors: {
    uploadFile: fromPromise<UploadOutput, UploadInput>(async () => notProvided('uploadFile')),
    getJob: fromPromise<JobOutput, { jobId: string }>(async () => notProvided('getJob')),
    cancelJob: fromPromise<JobOutput, { jobId: string }>(async () => notProvided('cancelJob')),
  },
  actions: {
    close: () => {},
    usersChanged: () => {},
    setFile: assign((_, params: { file: ImportFile | null }) => ({ file: params.file, report: null, jobId: null, progress: null, error: null })),
    setInvitations: assign((_, params: { send: boolean }) => ({ sendInvitations: params.send })),
    setReport: assign((_, params: { report: csv.ImportReport }) => ({ report: params.report, jobId: null, error: null })),
    followJob: assign((_, params: { jobId: string; total: number }) => ({ jobId: params.jobId, progress: { processed: 0, total: params.total, created: 0 }, error: null })),
    setProgress: assign((_, params: { progress: ImportProgress }) => ({ progress: params.progress })),
    endJob: assign((_, params: { job: JobOutput }) => ({ jobId: null, progress: params.job.progress, report: params.job.report })),
    setError: assign((_, params: { error: unknown }) => ({ error: toMachineError(params.error) })),
    setJobError: assign((_, params: { code: csv.ImportJobErrorCode | null }) => ({ error: jobError(params.code), jobId: null })),
    clearError: assign({ error: null }),
  },
  guards: {
    hasFile: ({ context }) => context.file !== null,
    isJob: (_, params: { output: UploadOutput }) => params.output.status === 'job',
    hasRowsToImport: ({ context }) => context.report !== null && importableRows(context.report) > 0,
    jobIs: (_, params: { job: JobOutput; status: JobOutput['status'] }) => params.job.status === params.status,
    canRetry: ({ context }) => context.error?.retryable === true && context.file !== null,
    /** canRetry while a job is being followed (one named guard: Stately's editor shows `and([…])` as inline code) */
    canRetryFollowingJob: ({ context }) => context.error?.retryable === true && context.file !== null && context.jobId !== null,
  },
  delays: { pollInterval: IMPORT_POLL_MS },
}).createMachine({
  id: 'csvImport',
  context: ({ input }) => ({ ...input, file: null, report: null, jobId: null, progress: null, error: null }),
  initial: 'pick',
  on: {
    CLOSE: '.closed',
  },
  states: {
    pick: {
      tags: ['screen:import.pick'],
      on: {
        FILE_CHOSEN: { target: 'pick', actions: { type: 'setFile', params: ({ event }) => ({ file: event.file }) } },
        INVITATIONS_TOGGLED: { actions: { type: 'setInvitations', params: ({ event }) => ({ send: event.send }) } },
        CHECK: { guard: 'hasFile', target: 'checking', actions: 'clearError' },
      },
    },
    checking: {
      tags: ['screen:import.pick', 'busy'],
      invoke: {
        id: 'checkFile',
        src: 'uploadFile',
        input: ({ context }) => ({ file: context.file as ImportFile, dryRun: true, sendInvitations: context.sendInvitations }),
        onDone: [
          { guard: { type: 'isJob', params: ({ event }) => ({ output: event.output }) }, target: 'checkingJob', actions: { type: 'followJob', params: ({ event }) => (event.output.status === 'job' ? event.output : { jobId: '', total: 0 }) } },
          { target: 'report', actions: { type: 'setReport', params: ({ event }) => ({ report: (event.output as Extract<UploadOutput, { status: 'report' }>).report }) } },
        ],
        onError: { target: 'pick', actions: { type: 'setError', params: ({ event }) => ({ error: event.error }) } },
      },
    },
    checkingJob: {
      tags: ['screen:import.checking'],
      initial: 'fetching',
      states: {
        fetching: {
          invoke: {
            id: 'pollCheck',
            src: 'getJob',
            input: ({ context }) => ({ jobId: context.jobId ?? '' }),
            onDone: [
              { guard: { type: 'jobIs', params: ({ event }) => ({ job: event.output, status: 'running' as const }) }, target: 'waiting', actions: { type: 'setProgress', params: ({ event }) => ({ progress: event.output.progress }) } },
              { guard: { type: 'jobIs', params: ({ event }) => ({ job: event.output, status: 'done' as const }) }, target: '#csvImport.report', actions: { type: 'endJob', params: ({ event }) => ({ job: event.output }) } },
              { target: '#csvImport.pick', actions: [{ type: 'endJob', params: ({ event }) => ({ job: event.output }) }, { type: 'setJobError', params: ({ event }) => ({ code: event.output.errorCode }) }] },
            ],
            onError: { target: '#csvImport.pick', actions: { type: 'setError', params: ({ event }) => ({ error: event.error }) } },
          },
        },
        waiting: { after: { pollInterval: 'fetching' } },
      },
    },
    report: {
      tags: ['screen:import.report'],
      on: {
        FILE_CHOSEN: { target: 'pick', actions: { type: 'setFile', params: ({ event }) => ({ file: event.file }) } },
        INVITATIONS_TOGGLED: { actions: { type: 'setInvitations', params: ({ event }) => ({ send: event.send }) } },
        RUN: { guard: 'hasRowsToImport', target: 'starting' },
      },
    },
    starting: {
      tags: ['screen:import.running', 'busy'],
      invoke: {
        id: 'startImport',
        src: 'uploadFile',
        input: ({ context }) => ({ file: context.file as ImportFile, dryRun: false, sendInvitations: context.sendInvitations }),
        // always a job: the import is started with `async=true` (createCsvImportActors); a file over the upload limit
        // was already refused at the check
        onDone: { target: 'running', actions: { type: 'followJob', params: ({ event }) => (event.output.status === 'job' ? event.output : { jobId: '', total: 0 }) } },
        onError: { target: 'failed', actions: { type: 'setError', params: ({ event }) => ({ error: event.error }) } },
      },
    },
    running: {
      tags: ['screen:import.running'],
      initial: 'fetching',
      on: { CANCEL: '.cancelling' },
      states: {
        fetching: {
          invoke: {
            id: 'pollImport',
            src: 'getJob',
            input: ({ context }) => ({ jobId: context.jobId ?? '' }),
            onDone: [
              { guard: { type: 'jobIs', params: ({ event }) => ({ job: event.output, status: 'running' as const }) }, target: 'waiting', actions: { type: 'setProgress', params: ({ event }) => ({ progress: event.output.progress }) } },
              { guard: { type: 'jobIs', params: ({ event }) => ({ job: event.output, status: 'done' as const }) }, target: '#csvImport.done', actions: { type: 'endJob', params: ({ event }) => ({ job: event.output }) } },
              { guard: { type: 'jobIs', params: ({ event }) => ({ job: event.output, status: 'cancelled' as const }) }, target: '#csvImport.cancelled', actions: { type: 'endJob', params: ({ event }) => ({ job: event.output }) } },
              { target: '#csvImport.failed', actions: [{ type: 'endJob', params: ({ event }) => ({ job: event.output }) }, { type: 'setJobError', params: ({ event }) => ({ code: event.output.errorCode }) }] },
            ],
            // no answer: the job goes on on the server; "Try again" asks for its progress again
            onError: { target: '#csvImport.failed', actions: { type: 'setError', params: ({ event }) => ({ error: event.error }) } },
          },
        },
        waiting: { after: { pollInterval: 'fetching' } },
        cancelling: {
          tags: ['busy'],
          on: { CANCEL: {} },
          invoke: {
            id: 'cancelImport',
            src: 'cancelJob',
            input: ({ context }) => ({ jobId: context.jobId ?? '' }),
            onDone: [
              { guard: { type: 'jobIs', params: ({ event }) => ({ job: event.output, status: 'cancelled' as const }) }, target: '#csvImport.cancelled', actions: { type: 'endJob', params: ({ event }) => ({ job: event.output }) } },
              // it ended before the cancel arrived
              { guard: { type: 'jobIs', params: ({ event }) => ({ job: event.output, status: 'done' as const }) }, target: '#csvImport.done', actions: { type: 'endJob', params: ({ event }) => ({ job: event.output }) } },
              // it was closed before the cancel arrived (interrupted); the server closes any job still queued or
              // running (server/services/admin/import.ts cancelImportJob), so the answer is never "running"
              { target: '#csvImport.failed', actions: [{ type: 'endJob', params: ({ event }) => ({ job: event.output }) }, { type: 'setJobError', params: ({ event }) => ({ code: event.output.errorCode }) }] },
            ],
            onError: { target: 'waiting', actions: { type: 'setError', params: ({ event }) => ({ error: event.error }) } },
          },
        },
      },
    },
    done: {
      tags: ['screen:import.done'],
      entry: 'usersChanged',
    },
    failed: {
      tags: ['screen:import.failed'],
      entry: 'usersChanged',
      on: {
        RETRY: [
          // no answer while following the job: ask for its progress again
          { guard: 'canRetryFollowingJob', target: 'running', actions: 'clearError' },
          // the upload got no answer, or the job was interrupted: rows already imported are skipped
          { guard: 'canRetry', target: 'starting', actions: 'clearError' },
        ],
        FILE_CHOSEN: { target: 'pick', actions: { type: 'setFile', params: ({ event }) => ({ file: event.file }) } },
      },
    },
    cancelled: {
      tags: ['screen:import.cancelled'],
      entry: 'usersChanged',
    },
    closed: {
      type: 'final',
      tags: ['screen:import.closed', 'exit'],
      entry: 'close',
    },
  },
});

export type CsvImportMachine = typeof csvImportMachine;
