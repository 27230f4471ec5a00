import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import * as system from '../../contract/system';
import { routeOf } from '../lib/route';
import { newPasswordBody } from '../services/account-passwords';

/** The one-time setup of the first super_admin (contract/system.ts, server/services/setup.ts). */
const routes: FastifyPluginAsyncZod = async (app) => {
  const service = app.services.setup;

  app.route({
    ...routeOf(system.checkSetupLink),
    config: { rateLimit: { max: 20, timeWindow: '1 minute' } },
    handler: async (req) => {
      await service.checkLink(req.params.token);
      return { data: { valid: true as const } };
    },
  });

  const complete = routeOf(system.completeSetup);
  app.route({
    ...complete,
    // the server's password rules: the shared policy plus `password_common`, and the confirmation
    schema: { ...complete.schema, body: newPasswordBody(system.setupFields) },
    config: { rateLimit: { max: 10, timeWindow: '1 minute' } },
    handler: async (req, reply) => reply.status(201).send({ data: await service.complete(req.body, req.lang) }),
  });
};
export default routes;
