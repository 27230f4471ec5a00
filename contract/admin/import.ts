/** CSV import and export of end users (super_admin and manager); the columns: docs/IMPORT.md. */
import { z } from 'zod';
import { defineEndpoint } from '../endpoint';
import { boolQuery, dataOf, idParams } from '../common';
import { userFilterQuery } from './users';

const tag = 'admin: users';

export { CSV_EXCERPT_LENGTH, CSV_MAX_CELL_LENGTH, CSV_MAX_COLUMNS } from '../domain/csv-limits';

/**
 * The import file's columns, in the order a file is written: the one list the parser (server/services/admin/import.ts
 * checks one rule per column against it), the endpoint's description, the import dialog and docs/IMPORT.md's table
 * (tests/contract/import-vocabulary.test.ts) use. `values`: what a cell may hold, as the docs and OpenAPI say it.
 */
export const IMPORT_COLUMNS = [
  { name: 'email', required: true, values: 'e-mail address; unique per user (case-insensitive)' },
  { name: 'first_name', required: true, values: '1–100 characters' },
  { name: 'last_name', required: true, values: '1–100 characters' },
  { name: 'locale', required: true, values: '`en`, `de`, `fr`, `it` (case-insensitive)' },
  { name: 'auth_type', required: true, values: '`CREDENTIALS` or `SSO` (case-insensitive)' },
  { name: 'provider', required: false, values: 'id of a provider in `SSO_PROVIDERS`; required for SSO' },
  { name: 'technical', required: false, values: '`true`/`false`, `1`/`0`, `yes`/`no` (empty = false)' },
  { name: 'phone', required: false, values: '`+` followed by digits' },
] as const;
export type ImportColumn = (typeof IMPORT_COLUMNS)[number]['name'];
export const IMPORT_COLUMN_NAMES: readonly ImportColumn[] = IMPORT_COLUMNS.map((c) => c.name);
export const REQUIRED_IMPORT_COLUMNS: readonly ImportColumn[] = IMPORT_COLUMNS.filter((c) => c.required).map((c) => c.name);
/** The export's columns: an exported file imports as is (the import ignores id, status and the timestamps). */
export const EXPORT_COLUMNS = ['id', ...IMPORT_COLUMN_NAMES, 'status', 'created_at', 'updated_at'] as const;

/** Why a row was skipped, not imported: an account has the e-mail already, or the file repeats it (the first wins). */
export const IMPORT_SKIP_REASONS = ['email_taken', 'duplicate_in_file'] as const;
export type ImportSkipReason = (typeof IMPORT_SKIP_REASONS)[number];

/** How the server decoded an uploaded file. */
export const CSV_ENCODINGS = ['utf-8', 'utf-16le', 'utf-16be', 'windows-1252'] as const;
export type CsvEncoding = (typeof CSV_ENCODINGS)[number];

/** The outcome of an import (or of a dry run): what was created, skipped (with the reason) and refused (with field codes). */
export const importReportSchema = z.object({
  total: z.number().int(),
  created: z.number().int(),
  skipped: z.array(z.object({ row: z.number().int(), email: z.string(), reason: z.enum(IMPORT_SKIP_REASONS) })),
  failed: z.array(
    z.object({
      row: z.number().int(),
      email: z.string().optional().describe("the row's e-mail column as written (absent in reports of older jobs)"),
      fields: z.record(z.string(), z.array(z.string())),
    }),
  ),
  skipped_count: z.number().int().describe('exact number of skipped rows (the list is capped at 10 000)'),
  failed_count: z.number().int().describe('exact number of invalid rows (the list is capped at 10 000)'),
  dry_run: z.boolean(),
  invitations_queued: z.number().int(),
  truncated: z.boolean().optional(),
  encoding: z.enum(CSV_ENCODINGS).optional().describe('how the file was decoded (docs/IMPORT.md)'),
});
export type ImportReport = z.infer<typeof importReportSchema>;

/**
 * Why an import job ended `failed` (its `error.code`, localized `message` beside it): the admin cancelled it
 * (cancelImportJob), its server instance stopped (the rows of the batches before stay; importing the same file again
 * finishes it), or the import itself failed (`users_import_failed`, a code of ERROR_CODES).
 */
export const IMPORT_JOB_ERROR_CODES = ['import_cancelled', 'import_interrupted', 'users_import_failed'] as const;
export type ImportJobErrorCode = (typeof IMPORT_JOB_ERROR_CODES)[number];

export const importJobSchema = z.object({
  id: z.string(),
  status: z.enum(['queued', 'running', 'done', 'failed']),
  dry_run: z.boolean(),
  total: z.number().int(),
  processed: z.number().int(),
  created: z.number().int(),
  skipped: z.number().int(),
  failed: z.number().int(),
  report: importReportSchema.nullable(),
  error: z.object({ code: z.enum(IMPORT_JOB_ERROR_CODES), message: z.string() }).nullable(),
  created_at: z.string(),
  updated_at: z.string(),
  finished_at: z.string().nullable(),
});
export type ImportJob = z.infer<typeof importJobSchema>;

/** The 202 answer of an import that runs as a job. */
export const importAcceptedSchema = dataOf(z.object({ job_id: z.string(), total: z.number().int(), status: z.string() }));
export type ImportAccepted = z.infer<typeof importAcceptedSchema>;

/**
 * `multipart/form-data` with the file in field `file` (no JSON body): 200 with the report, or 202
 * (importAcceptedSchema) when the file runs as a job. Options as query parameters or form fields.
 */
export const importUsers = defineEndpoint({
  method: 'POST', path: '/api/admin/users/import', tag, access: 'admin', summary: 'Import users from CSV',
  query: z.object({ dry_run: boolQuery.optional(), send_invitations: boolQuery.optional(), async: boolQuery.optional().describe('always run as a job') }),
  response: dataOf(importReportSchema),
  errors: {
    400: ['bad_request'],
    401: ['unauthorized'],
    403: ['forbidden'],
    413: ['payload_too_large'],
    422: ['validation_failed', 'users_import_failed'],
  },
});

/**
 * Stops a running job after its batch in flight: the job ends `failed` with error code `import_cancelled`, the rows of
 * the batches before stay imported. Answers the job as it then is (a job that already ended is answered unchanged).
 */
export const cancelImportJob = defineEndpoint({
  method: 'POST', path: '/api/admin/users/import/:id/cancel', tag, access: 'admin', summary: 'Cancel a running import job',
  params: idParams,
  response: dataOf(importJobSchema),
  errors: { 401: ['unauthorized'], 403: ['forbidden'], 404: ['import_job_not_found'] },
});

export const getImportJob = defineEndpoint({
  method: 'GET', path: '/api/admin/users/import/:id', tag, access: 'admin', summary: 'Progress and report of an import job',
  params: idParams,
  response: dataOf(importJobSchema),
  errors: { 401: ['unauthorized'], 403: ['forbidden'], 404: ['import_job_not_found'] },
});

/** Answers `text/csv` (streamed), so no JSON response schema: the SPA downloads it as a blob from pathOf(exportUsers). */
export const exportUsers = defineEndpoint({
  method: 'GET', path: '/api/admin/users/export', tag, access: 'admin',
  summary: 'Export the filtered users as CSV (streamed; formula cells escaped with a leading apostrophe)',
  query: z.object(userFilterQuery),
  errors: { 401: ['unauthorized'], 403: ['forbidden'], 422: ['validation_failed'] },
});
