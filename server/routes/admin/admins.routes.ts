import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import * as admins from '../../../contract/admin/admins';
import { routeOf } from '../../lib/route';
import { actorOf } from '../../services/deps';

/** Admin management, super_admin only: contract/admin/admins.ts, server/services/admin/admins.ts. */
const routes: FastifyPluginAsyncZod = async (app) => {
  const service = app.services.admins;

  app.route({
    ...routeOf(admins.listAdmins),
    handler: async (req) => {
      const { page, size, search, role } = req.query;
      const { rows, total } = await service.list(req.query);
      return { data: rows, meta: { page, size, total, ...(total === 0 && search && !role ? { message: req.t('users_no_results') } : {}) } };
    },
  });
  app.route({ ...routeOf(admins.getAdmin), handler: async (req) => ({ data: await service.get(req.params.id) }) });
  app.route({
    ...routeOf(admins.createAdmin),
    handler: async (req, reply) => {
      const { admin, invitation_sent } = await service.create(actorOf(req), { ...req.body, locale: req.body.locale ?? req.auth?.account.locale ?? 'en' });
      return reply.status(201).send({ data: { ...admin, invitation_sent } });
    },
  });
  app.route({ ...routeOf(admins.updateAdmin), handler: async (req) => ({ data: await service.changeRole(actorOf(req), req.params.id, req.body.role) }) });
  app.route({
    ...routeOf(admins.deleteAdmin),
    handler: async (req) => {
      await service.remove(actorOf(req), req.params.id);
      return { data: { id: req.params.id, deleted: true as const } };
    },
  });
  app.route({
    ...routeOf(admins.inviteAdmin),
    handler: async (req) => ({ data: { id: req.params.id, invitation_sent: await service.reinvite(actorOf(req), req.params.id) } }),
  });
};
export default routes;
