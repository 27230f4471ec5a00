import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import * as account from '../../../contract/account';
import { routeOf } from '../../lib/route';
import { requireAdmin } from '../../plugins/app/auth';
import { actorOf } from '../../services/deps';

/** API keys of technical users (super_admin, manager): contract/account.ts, server/services/api-keys.ts. */
const routes: FastifyPluginAsyncZod = async (app) => {
  const service = app.services.apiKeys;
  // first in line: it answers null at once for anything that is not an `iam_` key
  app.bearerVerifiers.unshift((token) => service.verify(token));
  // admins with a role (super_admin, manager); an admin without one is refused
  const managers = { onRequest: requireAdmin('super_admin', 'manager') };

  app.route({ ...routeOf(account.generateApiKey), ...managers, handler: async (req) => ({ data: await service.generate(actorOf(req), req.params.id) }) });
  app.route({ ...routeOf(account.revokeApiKey), ...managers, handler: async (req) => ({ data: await service.revoke(actorOf(req), req.params.id) }) });
};
export default routes;
