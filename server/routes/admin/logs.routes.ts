import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import * as logs from '../../../contract/admin/logs';
import { routeOf } from '../../lib/route';

/** Dashboard logs (super_admin, manager) and the admin audit trail (super_admin): contract/admin/logs.ts, server/services/admin/logs.ts. */
const routes: FastifyPluginAsyncZod = async (app) => {
  const service = app.services.logs;
  const meta = (q: { page: number; size: number }, total: number) => ({ page: q.page, size: q.size, total });

  app.route({
    ...routeOf(logs.listActivities),
    handler: async (req) => {
      const { rows, total } = await service.activities(req.query);
      return { data: rows, meta: meta(req.query, total) };
    },
  });
  app.route({ ...routeOf(logs.dailySignIns), handler: async (req) => ({ data: await service.dailySignIns(req.query.days) }) });
  app.route({
    ...routeOf(logs.listErrors),
    handler: async (req) => {
      const { rows, total } = await service.errors(req.query);
      return { data: rows, meta: meta(req.query, total) };
    },
  });
  app.route({
    ...routeOf(logs.listAudit),
    handler: async (req) => {
      const { rows, total } = await service.audit(req.query);
      return { data: rows, meta: meta(req.query, total) };
    },
  });
};
export default routes;
