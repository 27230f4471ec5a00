import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import * as users from '../../../contract/admin/users';
import { routeOf } from '../../lib/route';
import { actorOf } from '../../services/deps';

/** End users, for any admin: contract/admin/users.ts, server/services/admin/users.ts. Import/export: users-import.routes.ts. */
const routes: FastifyPluginAsyncZod = async (app) => {
  const service = app.services.users;

  app.route({
    ...routeOf(users.listUsers),
    handler: async (req) => {
      const { page, size, sort, cursor, count, ...filters } = req.query;
      const r = await service.list(filters, { page, size, sort, cursor, count });
      const meta = { page, size, total: r.total, total_is_lower_bound: r.totalIsLowerBound, next_cursor: r.nextCursor, prev_cursor: r.prevCursor };
      return { data: r.rows, meta: { ...meta, ...(r.total === 0 && filters.search ? { message: req.t('users_no_results') } : {}) } };
    },
  });
  app.route({ ...routeOf(users.getUser), handler: async (req) => ({ data: await service.detail(req.params.id, req.query.with) }) });
  app.route({
    ...routeOf(users.createUser),
    handler: async (req, reply) => {
      const { user, invitation_sent } = await service.create(actorOf(req), req.body);
      return reply.status(201).send({ data: { ...user, invitation_sent } });
    },
  });
  app.route({ ...routeOf(users.updateUser), handler: async (req) => ({ data: await service.update(actorOf(req), req.params.id, req.body) }) });
  app.route({
    ...routeOf(users.deleteUser),
    handler: async (req) => {
      await service.remove(actorOf(req), req.params.id);
      return { data: { id: req.params.id, deleted: true as const } };
    },
  });
  app.route({ ...routeOf(users.bulkUsers), handler: async (req) => ({ data: await service.bulk(actorOf(req), req.body) }) });
  app.route({
    ...routeOf(users.inviteUser),
    handler: async (req) => ({ data: { id: req.params.id, invitation_sent: await service.reinvite(actorOf(req), req.params.id) } }),
  });
  app.route({
    ...routeOf(users.endUserSessions),
    handler: async (req) => ({ data: { id: req.params.id, grants_ended: await service.endSessions(actorOf(req), req.params.id) } }),
  });
};
export default routes;
