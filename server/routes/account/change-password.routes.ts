import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import * as account from '../../../contract/account';
import { routeOf } from '../../lib/route';
import { requireAdmin } from '../../plugins/app/auth';
import { serverPasswordBodies } from '../../services/account-passwords';
import { actorOf } from '../../services/deps';

/**
 * Change the own password (user, admin); set a user's password and mark a user's e-mail verified (super_admin,
 * manager). contract/account.ts, server/services/account-passwords.ts.
 */
const routes: FastifyPluginAsyncZod = async (app) => {
  const service = app.services.accountPasswords;
  // admins with a role (super_admin, manager); an admin without one is refused
  const managers = { onRequest: requireAdmin('super_admin', 'manager') };

  for (const endpoint of [account.changeUserPassword, account.changeAdminPassword]) {
    const route = routeOf(endpoint);
    app.route({
      ...route,
      // the contract's body plus the server-only password rule (password_common)
      schema: { ...route.schema, body: serverPasswordBodies.change },
      handler: async (req) => {
        await service.changePassword(actorOf(req), req.auth?.grantId, req.body);
        return { data: { flow: 'cp' as const } };
      },
    });
  }

  const setUser = routeOf(account.setUserPassword);
  app.route({
    ...setUser,
    ...managers,
    schema: { ...setUser.schema, body: serverPasswordBodies.setUser },
    handler: async (req) => ({ data: await service.setUserPassword(actorOf(req), req.body.uuid, req.body.password) }),
  });

  app.route({
    ...routeOf(account.verifyUserManually),
    ...managers,
    handler: async (req) => ({ data: await service.verifyUserManually(actorOf(req), req.body.uuid) }),
  });
};
export default routes;
