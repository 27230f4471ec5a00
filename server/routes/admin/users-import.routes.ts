import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import * as csv from '../../../contract/admin/import';
import { AppError } from '../../errors';
import { routeOf } from '../../lib/route';
import { actorOf } from '../../services/deps';

const MAX_IMPORT_BYTES = 50 * 1024 * 1024;

/** A column of the contract as the description lists it: `email` (required), `provider` … */
const columnList = csv.IMPORT_COLUMNS.map((c) => `\`${c.name}\`${c.required ? ' (required)' : ''}: ${c.values}`).join('; ');

/** Files with more data rows than `syncMaxRows` (IAM_IMPORT_SYNC_MAX_ROWS) run as a background job (202 + job id). */
const importDescription = (syncMaxRows: number) => `multipart/form-data with the file in field \`file\` (UTF-8, with or without BOM, ',' or ';' separated, header row required).
Columns: ${columnList}.
Options \`dry_run\` and \`send_invitations\` (true|false) as query parameters or form fields. Files of more than ${syncMaxRows} rows run as a job:
202 \`{data:{job_id}}\`, progress at GET /api/admin/users/import/{job_id}. Existing or repeated e-mails are skipped (\`reason\`: ${csv.IMPORT_SKIP_REASONS.map((r) => `\`${r}\``).join(', ')}), invalid rows reported in \`failed\`.`;

/** Users import (CSV) and export (CSV), for any admin: contract/admin/import.ts, server/services/admin/import.ts. */
const routes: FastifyPluginAsyncZod = async (app) => {
  const service = app.services.usersImport;

  const importRoute = routeOf(csv.importUsers);
  app.route({
    ...importRoute,
    schema: {
      ...importRoute.schema,
      description: importDescription(app.config.importJobs.syncMaxRows),
      consumes: ['multipart/form-data'],
      response: { ...importRoute.schema.response, 202: csv.importAcceptedSchema },
    },
    handler: async (req, reply) => {
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
      const parsed = await service.read(buf);
      const answer = await service.importFile(actorOf(req), parsed, { dryRun, sendInvitations, async: req.query.async ?? field('async') ?? false });
      if (answer.kind === 'job') return reply.status(202).send({ data: { job_id: answer.jobId, total: answer.total, status: 'running' } });
      return reply.status(200).send({ data: answer.report });
    },
  });

  app.route({ ...routeOf(csv.getImportJob), handler: async (req) => ({ data: await service.job(req.params.id, (code) => req.t(code)) }) });
  app.route({ ...routeOf(csv.cancelImportJob), handler: async (req) => ({ data: await service.cancel(actorOf(req), req.params.id, (code) => req.t(code)) }) });

  const exportRoute = routeOf(csv.exportUsers);
  app.route({
    ...exportRoute,
    schema: { ...exportRoute.schema, produces: ['text/csv'], response: { ...exportRoute.schema.response, 200: z.string().describe('text/csv') } },
    handler: async (req, reply) => {
      const stamp = new Date().toISOString().slice(0, 10);
      reply.header('content-type', 'text/csv; charset=utf-8').header('content-disposition', `attachment; filename="users-${stamp}.csv"`).header('cache-control', 'no-store');
      // a stream skips the serializer; the schema documents the CSV body
      return reply.send(service.exportCsv(req.query) as unknown as string);
    },
  });
};
export default routes;
