import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { requireAdmin } from '../../plugins/app/auth';
import { AppError } from '../../errors';
import { errorResponses } from '../../lib/openapi';
import { boolQuery, idParams } from '../../services/admin/schemas';
import { exportUsersCsv } from '../../services/admin/csv';
import { drainImportJobs, getImportJob, readImportFile, reapStaleImportJobs, runImport, sendInvitationsThrottled, startImportJob } from '../../services/admin/import';
import { userFilterQuery } from './users.routes';

const MAX_IMPORT_BYTES = 50 * 1024 * 1024;

const reportSchema = z.object({
  total: z.number().int(),
  created: z.number().int(),
  skipped: z.array(z.object({ row: z.number().int(), email: z.string(), reason: z.string() })),
  failed: z.array(z.object({ row: z.number().int(), fields: z.record(z.string(), z.array(z.string())) })),
  skipped_count: z.number().int().describe('exact number of skipped rows (the list is capped at 10 000)'),
  failed_count: z.number().int().describe('exact number of invalid rows (the list is capped at 10 000)'),
  dry_run: z.boolean(),
  invitations_queued: z.number().int(),
  truncated: z.boolean().optional(),
  encoding: z.enum(['utf-8', 'utf-16le', 'utf-16be', 'windows-1252']).optional().describe('how the file was decoded (docs/IMPORT.md)'),
});
const jobSchema = z.object({
  id: z.string(),
  status: z.enum(['queued', 'running', 'done', 'failed']),
  dry_run: z.boolean(),
  total: z.number().int(),
  processed: z.number().int(),
  created: z.number().int(),
  skipped: z.number().int(),
  failed: z.number().int(),
  report: reportSchema.nullable(),
  error: z.object({ code: z.string(), message: z.string() }).nullable(),
  created_at: z.string(),
  updated_at: z.string(),
  finished_at: z.string().nullable(),
});

/** Files with more data rows than `syncMaxRows` (IAM_IMPORT_SYNC_MAX_ROWS) run as a background job (202 + job id). */
const importDescription = (syncMaxRows: number) => `multipart/form-data with the file in field \`file\` (UTF-8, with or without BOM, ',' or ';' separated, header row required).
Columns: \`email\` (required), \`first_name\` (required), \`last_name\` (required), \`locale\` (required: en|de|fr|it), \`auth_type\` (required: CREDENTIALS|SSO),
\`provider\` (SSO provider id, required for SSO), \`technical\` (true/false, 1/0, yes/no; default false), \`phone\` (+digits, optional).
Options \`dry_run\` and \`send_invitations\` (true|false) as query parameters or form fields. Files of more than ${syncMaxRows} rows run as a job:
202 \`{data:{job_id}}\`, progress at GET /api/admin/users/import/{job_id}. Existing or repeated e-mails are skipped, invalid rows reported in \`failed\`.`;

/** Users import (CSV) and export (CSV): super_admin and manager. */
const routes: FastifyPluginAsyncZod = async (app) => {
  const guard = { onRequest: requireAdmin() };

  // jobs of dead instances are closed at start and then every lease period; running jobs stop and release
  // their leases on shutdown (before the database closes)
  const reap = () => reapStaleImportJobs(app).catch((err: unknown) => app.log.warn({ err: err instanceof Error ? err.message : String(err) }, 'import job check failed'));
  const reaper = setInterval(reap, app.config.timeouts.jobLeaseMs);
  reaper.unref();
  app.addHook('onReady', async () => void (await reap()));
  app.addHook('preClose', async () => {
    clearInterval(reaper);
    await drainImportJobs(app);
  });
  const sec = [{ bearer: [] }];
  const tags = ['admin: users'];

  app.post('/admin/users/import', {
    ...guard,
    schema: {
      tags, summary: 'Import users from CSV', description: importDescription(app.config.importJobs.syncMaxRows), security: sec, consumes: ['multipart/form-data'],
      querystring: z.object({ dry_run: boolQuery.optional(), send_invitations: boolQuery.optional(), async: boolQuery.optional().describe('always run as a job') }),
      response: {
        200: z.object({ data: reportSchema }),
        202: z.object({ data: z.object({ job_id: z.string(), total: z.number().int(), status: z.string() }) }),
        ...errorResponses(400, 401, 403, 413, 422),
      },
    },
  }, async (req, reply) => {
    if (!req.isMultipart()) throw new AppError(422, 'validation_failed', { fields: { file: ['file_required'] } });
    const file = await req.file({ limits: { fileSize: MAX_IMPORT_BYTES, files: 1 } });
    if (!file || file.fieldname !== 'file') throw new AppError(422, 'validation_failed', { fields: { file: ['required'] } });
    const buf = await file.toBuffer();
    const field = (name: string): boolean | undefined => {
      const f = file.fields[name];
      const v = f && !Array.isArray(f) && 'value' in f ? String(f.value) : undefined;
      return v === undefined ? undefined : v === 'true' || v === '1';
    };
    const dryRun = req.query.dry_run ?? field('dry_run') ?? false;
    const sendInvitations = req.query.send_invitations ?? field('send_invitations') ?? false;
    const parsed = await readImportFile(buf);
    if (parsed.records.length > app.config.importJobs.syncMaxRows || req.query.async) {
      const jobId = await startImportJob(req, parsed, { dryRun, sendInvitations });
      return reply.status(202).send({ data: { job_id: jobId, total: parsed.records.length, status: 'running' } });
    }
    const { report, invite } = await runImport(req, parsed, { dryRun, sendInvitations });
    if (invite.length) void sendInvitationsThrottled(app, invite, req.auth?.account.id ?? null);
    return reply.status(200).send({ data: report });
  });

  app.get('/admin/users/import/:id', {
    ...guard,
    schema: {
      tags, summary: 'Progress and report of an import job', security: sec, params: idParams,
      response: { 200: z.object({ data: jobSchema }), ...errorResponses(401, 403, 404) },
    },
  }, async (req) => ({ data: await getImportJob(req, req.params.id) }));

  app.get('/admin/users/export', {
    ...guard,
    schema: {
      tags, summary: 'Export the filtered users as CSV (streamed; formula cells escaped with a leading apostrophe)', security: sec,
      querystring: z.object(userFilterQuery),
      produces: ['text/csv'],
      response: { 200: z.string().describe('text/csv'), ...errorResponses(401, 403, 422) },
    },
  }, async (req, reply) => {
    const stamp = new Date().toISOString().slice(0, 10);
    reply.header('content-type', 'text/csv; charset=utf-8').header('content-disposition', `attachment; filename="users-${stamp}.csv"`).header('cache-control', 'no-store');
    // a stream skips the serializer; the schema documents the CSV body
    return reply.send(exportUsersCsv(app, req.query) as unknown as string);
  });
};
export default routes;
