/** Graph model of the users CSV import dialog machine. */
import type { AnyMachineSnapshot, EventObject } from 'xstate';
import type { ImportReport } from '../contract/admin/import';
import { csvImportMachine, type CsvImportContext, type CsvImportEvent, type ImportFile, type JobOutput, type UploadOutput } from './csvImport.machine';
import { CallFailureError } from './testing/failure';
import { afterEvent, doneEvent, errorEvent, stateKey, type MachineModel } from './testing/graph';

export const IMPORT_FILE: ImportFile = new Blob(['email,first_name,last_name,locale,auth_type\nada@example.com,Ada,Lovelace,en,CREDENTIALS\n'], { type: 'text/csv' }) as ImportFile;
Object.defineProperty(IMPORT_FILE, 'name', { value: 'users.csv' });

const baseReport: ImportReport = { total: 3, created: 0, skipped: [], failed: [], skipped_count: 0, failed_count: 0, dry_run: true, invitations_queued: 0 };
/** A dry run with rows to import (one invalid, one existing). */
export const CHECKED: ImportReport = {
  ...baseReport,
  created: 1,
  skipped: [{ row: 3, email: 'taken@example.com', reason: 'email_taken' }],
  failed: [{ row: 2, email: 'bad', fields: { email: ['email'] } }],
  skipped_count: 1,
  failed_count: 1,
};
/** A dry run where every row is invalid: nothing to import. */
export const NOTHING_TO_IMPORT: ImportReport = { ...baseReport, total: 1, failed: [{ row: 2, email: 'bad', fields: { email: ['email'] } }], failed_count: 1 };
export const IMPORTED: ImportReport = { ...CHECKED, dry_run: false, invitations_queued: 1 };

export const uploads = {
  report: (report: ImportReport): UploadOutput => ({ status: 'report', report }),
  job: { status: 'job', jobId: 'job-1', total: 3 } satisfies UploadOutput,
};
export const jobs: Record<JobOutput['status'], JobOutput> = {
  running: { status: 'running', progress: { processed: 1, total: 3, created: 1 }, report: null, errorCode: null },
  done: { status: 'done', progress: { processed: 3, total: 3, created: 1 }, report: IMPORTED, errorCode: null },
  failed: { status: 'failed', progress: { processed: 1, total: 3, created: 1 }, report: null, errorCode: 'import_interrupted' },
  cancelled: { status: 'cancelled', progress: { processed: 1, total: 3, created: 1 }, report: null, errorCode: 'import_cancelled' },
};
export const importErrors = {
  /** The file is over the 50 MB upload limit (server/routes/admin/users-import.routes.ts MAX_IMPORT_BYTES). */
  tooLarge: new CallFailureError({ kind: 'http', status: 413, code: 'payload_too_large', message: 'Too large' }),
  /** The file lacks the `email` column (server/services/admin/import.ts readImportFile). */
  missingColumns: new CallFailureError({ kind: 'http', status: 422, code: 'users_import_failed', message: 'Users import failed', fields: { 'columns.email': ['required'] } }),
  network: new CallFailureError({ kind: 'network', message: 'fetch failed' }),
};

function events(snapshot: AnyMachineSnapshot): EventObject[] {
  const c = snapshot.context as CsvImportContext;
  const user: CsvImportEvent[] = [{ type: 'CHECK' }, { type: 'RUN' }, { type: 'CANCEL' }, { type: 'RETRY' }, { type: 'CLOSE' }];
  if (c.file === null) user.push({ type: 'FILE_CHOSEN', file: IMPORT_FILE });
  if (c.sendInvitations) user.push({ type: 'INVITATIONS_TOGGLED', send: false });
  const outcomes: Record<string, EventObject[]> = {
    checking: [
      doneEvent('checkFile', uploads.report(CHECKED)),
      doneEvent('checkFile', uploads.report(NOTHING_TO_IMPORT)),
      doneEvent('checkFile', uploads.job),
      errorEvent('checkFile', importErrors.missingColumns),
      errorEvent('checkFile', importErrors.tooLarge),
      errorEvent('checkFile', importErrors.network),
    ],
    'checkingJob.fetching': [
      doneEvent('pollCheck', jobs.running),
      doneEvent('pollCheck', { ...jobs.done, report: CHECKED }),
      doneEvent('pollCheck', jobs.failed),
      errorEvent('pollCheck', importErrors.network),
    ],
    'checkingJob.waiting': [afterEvent('pollInterval', 'csvImport.checkingJob.waiting')],
    // the SPA starts the import with `async=true`: the answer is always a job (never a report); a file over the upload
    // limit already got its 413 at the check (the same file, the same limit)
    starting: [doneEvent('startImport', uploads.job), errorEvent('startImport', importErrors.network)],
    'running.fetching': [
      doneEvent('pollImport', jobs.running),
      doneEvent('pollImport', jobs.done),
      doneEvent('pollImport', jobs.failed),
      doneEvent('pollImport', jobs.cancelled),
      errorEvent('pollImport', importErrors.network),
    ],
    'running.waiting': [afterEvent('pollInterval', 'csvImport.running.waiting')],
    // the server closes any job still queued or running (cancelImportJob), so a cancel is never answered "running";
    // a job that ended before the cancel arrived is answered as it ended (done, or interrupted)
    'running.cancelling': [doneEvent('cancelImport', jobs.cancelled), doneEvent('cancelImport', jobs.done), doneEvent('cancelImport', jobs.failed), errorEvent('cancelImport', importErrors.network)],
  };
  return [...user, ...(outcomes[stateKey(snapshot.value)] ?? [])];
}

export const csvImportModel: MachineModel<typeof csvImportMachine> = {
  name: 'csvImport',
  title: 'Users CSV import (pick → check → report → run with progress → done | failed | cancelled)',
  machine: csvImportMachine,
  scenarios: [{ name: 'open "Import users" on the user list', input: { sendInvitations: true } }],
  events,
  strategy: 'shortest',
  injectedActions: ['close', 'usersChanged'],
  expectedStates: [
    'pick',
    'checking',
    'checkingJob.fetching',
    'checkingJob.waiting',
    'report',
    'starting',
    'running.fetching',
    'running.waiting',
    'running.cancelling',
    'done',
    'failed',
    'cancelled',
    'closed',
  ],
  finalStates: ['done', 'failed', 'cancelled', 'closed'],
  serializeState: (snapshot) => {
    const c = snapshot.context as CsvImportContext;
    const reportKind = c.report === null ? null : c.report === NOTHING_TO_IMPORT ? 'empty' : c.report.dry_run ? 'checked' : 'imported';
    return JSON.stringify([stateKey(snapshot.value), c.file !== null, c.sendInvitations, reportKind, c.jobId !== null, c.progress?.processed ?? null, c.error?.code ?? null]);
  },
};
