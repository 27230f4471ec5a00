import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import * as catalog from '../../../contract/admin/catalog';
import { routeOf } from '../../lib/route';
import { actorOf } from '../../services/deps';

/** Roles and subscriptions: super_admin only (contract/admin/catalog.ts, server/services/admin/catalog.ts). */
const routes: FastifyPluginAsyncZod = async (app) => {
  const service = app.services.catalog;

  app.route({
    ...routeOf(catalog.listRoles),
    handler: async (req) => {
      const { rows, total } = await service.listRoles(req.query);
      return { data: rows, meta: { page: req.query.page, size: req.query.size, total } };
    },
  });
  app.route({ ...routeOf(catalog.getRole), handler: async (req) => ({ data: await service.getRole(req.params.id) }) });
  app.route({ ...routeOf(catalog.createRole), handler: async (req, reply) => reply.status(201).send({ data: await service.createRole(actorOf(req), req.body) }) });
  app.route({ ...routeOf(catalog.updateRole), handler: async (req) => ({ data: await service.updateRole(actorOf(req), req.params.id, req.body) }) });
  app.route({
    ...routeOf(catalog.deleteRole),
    handler: async (req) => {
      await service.deleteRole(actorOf(req), req.params.id);
      return { data: { id: req.params.id, deleted: true as const } };
    },
  });

  app.route({
    ...routeOf(catalog.listSubscriptions),
    handler: async (req) => {
      const { rows, total } = await service.listSubscriptions(req.query);
      return { data: rows, meta: { page: req.query.page, size: req.query.size, total } };
    },
  });
  app.route({ ...routeOf(catalog.getSubscription), handler: async (req) => ({ data: await service.getSubscription(req.params.id) }) });
  app.route({
    ...routeOf(catalog.createSubscription),
    handler: async (req, reply) => reply.status(201).send({ data: await service.createSubscription(actorOf(req), req.body) }),
  });
  app.route({ ...routeOf(catalog.updateSubscription), handler: async (req) => ({ data: await service.updateSubscription(actorOf(req), req.params.id, req.body) }) });
  app.route({ ...routeOf(catalog.deleteSubscription), handler: async (req) => ({ data: await service.deleteSubscription(actorOf(req), req.params.id) }) });
};
export default routes;
