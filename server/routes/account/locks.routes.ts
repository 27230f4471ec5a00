import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import * as account from '../../../contract/account';
import { routeOf } from '../../lib/route';
import { requireAdmin } from '../../plugins/app/auth';
import { actorOf } from '../../services/deps';
import type { LockAdminRole } from '../../services/locks';
import { closeThrottleStore } from '../../services/throttle';

/** The admin role of the caller (requireAdmin let only super_admin and manager through). */
const roleOf = (req: FastifyRequest): LockAdminRole => (req.auth?.account.admin_role === 'super_admin' ? 'super_admin' : 'manager');

/**
 * Lockouts visible to admins and cleared by them (contract/account.ts, server/services/locks.ts): a super_admin all of
 * them, a manager those of users only; every clear is audited.
 */
const routes: FastifyPluginAsyncZod = async (app) => {
  app.addHook('onClose', async (instance) => closeThrottleStore(instance));
  const service = app.services.locks;
  // admins with a role (super_admin, manager); an admin without one is refused
  const managers = { onRequest: requireAdmin('super_admin', 'manager') };

  app.route({ ...routeOf(account.listLocks), ...managers, handler: async (req) => ({ data: await service.list(roleOf(req), req.query) }) });
  app.route({
    ...routeOf(account.clearLock),
    ...managers,
    handler: async (req) => {
      await service.clear(actorOf(req), roleOf(req), req.params.key);
      return { data: { cleared: true as const } };
    },
  });
};
export default routes;
