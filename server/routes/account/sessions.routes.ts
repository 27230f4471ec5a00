import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { FastifyRequest } from 'fastify';
import * as sessions from '../../../contract/sessions';
import * as adminSessions from '../../../contract/admin/sessions';
import { AppError } from '../../errors';
import { routeOf } from '../../lib/route';
import type { AuthContext } from '../../plugins/app/auth';
import { actorOf } from '../../services/deps';

/** Sessions and devices (issue 33): contract/sessions.ts, server/services/sessions.ts. */
const routes: FastifyPluginAsyncZod = async (app) => {
  const service = app.services.sessions;
  const authOf = (req: FastifyRequest): AuthContext => {
    if (!req.auth) throw new AppError(401, 'unauthorized');
    return req.auth;
  };

  // the signed-in account's own sessions: only ever its own (the account comes from the token, never from the request)
  for (const kind of ['user', 'admin'] as const) {
    const e = sessions.byKind[kind];
    app.route({ ...routeOf(e.list), handler: async (req) => ({ data: await service.list(authOf(req).account, authOf(req).grantId ?? null) }) });
    app.route({ ...routeOf(e.end), handler: async (req) => ({ data: { ended: await service.end(actorOf(req), authOf(req).account, req.params.session) } }) });
    app.route({ ...routeOf(e.endOthers), handler: async (req) => ({ data: { ended: await service.endOthers(actorOf(req), authOf(req).account, authOf(req).grantId ?? null) } }) });
  }

  // an admin's view of a user
  app.route({ ...routeOf(adminSessions.listUserSessionsOfUser), handler: async (req) => ({ data: await service.listOfUser(req.params.id) }) });
  app.route({ ...routeOf(adminSessions.endSessionOfUser), handler: async (req) => ({ data: { ended: await service.endOfUser(actorOf(req), req.params.id, req.params.session) } }) });
};
export default routes;
