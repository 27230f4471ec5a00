import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import * as account from '../../../contract/account';
import { routeOf } from '../../lib/route';
import { requireAdmin } from '../../plugins/app/auth';
import { closeThrottleStore } from '../../services/throttle';

/** Lockouts visible to admins (super_admin, manager), and cleared by them: contract/account.ts, server/services/locks.ts. */
const routes: FastifyPluginAsyncZod = async (app) => {
  app.addHook('onClose', async (instance) => closeThrottleStore(instance));
  const service = app.services.locks;
  // admins with a role (super_admin, manager); an admin without one is refused
  const managers = { onRequest: requireAdmin('super_admin', 'manager') };

  app.route({ ...routeOf(account.listLocks), ...managers, handler: async (req) => ({ data: await service.list(req.query) }) });
  app.route({
    ...routeOf(account.clearLock),
    ...managers,
    handler: async (req) => {
      await service.clear(req.params.key);
      return { data: { cleared: true as const } };
    },
  });
};
export default routes;
