import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import * as serviceApps from '../../../contract/admin/service-apps';
import { routeOf } from '../../lib/route';
import { actorOf } from '../../services/deps';

/** Service apps (OIDC clients): super_admin only (contract/admin/service-apps.ts, server/services/admin/service-apps.ts). */
const routes: FastifyPluginAsyncZod = async (app) => {
  const service = app.services.serviceApps;

  app.route({
    ...routeOf(serviceApps.listServiceApps),
    handler: async (req) => {
      const { rows, total } = await service.list(req.query);
      return { data: rows, meta: { page: req.query.page, size: req.query.size, total } };
    },
  });
  app.route({ ...routeOf(serviceApps.getServiceApp), handler: async (req) => ({ data: await service.get(req.params.id) }) });
  app.route({ ...routeOf(serviceApps.createServiceApp), handler: async (req, reply) => reply.status(201).send({ data: await service.create(actorOf(req), req.body) }) });
  app.route({ ...routeOf(serviceApps.updateServiceApp), handler: async (req) => ({ data: await service.update(actorOf(req), req.params.id, req.body) }) });
  app.route({ ...routeOf(serviceApps.deleteServiceApp), handler: async (req) => ({ data: await service.delete(actorOf(req), req.params.id) }) });
};
export default routes;
