/** QA words for the users CSV import dialog (machines/csvImport.machine.ts): one human step per step key, one check per screen. */
import type { MachineQa } from './testing/qa';

export const csvImportQa: MachineQa = {
  machine: 'csvImport',
  scenarios: {
    'open "Import users" on the user list': 'Sign in as a super admin, open User management and press "Import users".',
  },
  steps: {
    start: 'The import dialog opens.',
    FILE_CHOSEN: 'Choose a CSV file in the dashed file field.',
    INVITATIONS_TOGGLED: 'Switch off "Send invitation e-mails to new users".',
    CHECK: 'Press "Check file".',
    RUN: 'Press "Import users".',
    CANCEL: 'Press "Cancel import" while the progress bar runs.',
    RETRY: 'Press "Try again".',
    CLOSE: 'Press "Cancel" (or "Done" / "Close" at the end).',
    'checkFile succeeds report': 'Press "Check file" for a file of a few rows: the server checks every row and saves nothing.',
    'checkFile succeeds job': 'Press "Check file" for a file of more than 2 000 rows: the server checks it as a job.',
    'checkFile fails users_import_failed': 'Press "Check file" for a file whose header lacks the email column.',
    'checkFile fails payload_too_large': 'Press "Check file" for a file over the 50 MB upload limit.',
    'checkFile fails network': 'Press "Check file" while the server cannot be reached.',
    'pollCheck succeeds running': 'Wait for the first progress of the check.',
    'pollCheck succeeds done': 'Wait until the check has read every row.',
    'pollCheck succeeds failed': 'Wait while the check is interrupted on the server (its instance stopped).',
    'pollCheck fails network': 'Wait while the server cannot be reached during the check.',
    'startImport succeeds job': 'Press "Import users": the import starts as a job.',
    'startImport fails network': 'Press "Import users" while the server cannot be reached.',
    'pollImport succeeds running': 'Wait for the import\'s progress.',
    'pollImport succeeds done': 'Wait until the import has gone through every row.',
    'pollImport succeeds failed': 'Wait while the import is interrupted on the server (its instance stopped).',
    'pollImport succeeds cancelled': 'Wait while another admin cancels this import.',
    'pollImport fails network': 'Wait while the server cannot be reached during the import.',
    'cancelImport succeeds cancelled': 'Press "Cancel import": the server stops the job after its batch in flight.',
    'cancelImport succeeds done': 'Press "Cancel import" just as the import finishes.',
    'cancelImport succeeds failed': 'Press "Cancel import" just after the import was interrupted on the server (its instance stopped).',
    'cancelImport fails network': 'Press "Cancel import" while the server cannot be reached.',
    'after pollInterval': 'Wait a moment (the dialog asks for the progress every 0.75 s).',
  },
  screens: {
    'screen:import.pick':
      'The file field and the invitations switch; "Check file" is enabled once a file is chosen. A refused file reads "Users import failed: " and the reason (e.g. "The file has no “email” column", "The file is too large"), without "try again".',
    'screen:import.checking': 'A progress bar "Checking the file…" with "n of total" rows.',
    'screen:import.report':
      'Rows / Ready to import / Skipped / With errors, and a table of the rows with problems: row, the row\'s e-mail as written, and each field\'s problem named once ("locale is invalid"). "Import users" is enabled only when rows are ready.',
    'screen:import.running': 'A progress bar "Importing users…" with "n of total" rows, and "Cancel import".',
    'screen:import.done': '"Users imported" and the report with the created count; the user list shows the new users.',
    'screen:import.failed':
      '"Users import failed: " and the reason in its own words. "Try again" is there only when it can help (no answer, a busy server, an interrupted import).',
    'screen:import.cancelled': '"Import cancelled. n users were created before it stopped."; the user list shows those users.',
    'screen:import.closed': 'The dialog is closed; the user list is shown again.',
  },
};
