import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import * as auth from '../../../contract/auth';
import { clientInfoOf } from '../../lib/client-info';
import { routeOf } from '../../lib/route';

/** Upstream single sign-on: browser redirects to the upstream provider and back (server/services/sso.ts). */
const routes: FastifyPluginAsyncZod = async (app) => {
  const sso = app.services.sso;

  app.route({
    ...routeOf(auth.ssoStart),
    handler: async (req, reply) => reply.redirect(await sso.start(req.params.provider, req.query.interaction), 302),
  });

  app.route({
    ...routeOf(auth.ssoCallback),
    handler: async (req, reply) => reply.redirect(await sso.callback(req.params.provider, req.query.state, req.url, clientInfoOf(req), req.log), 302),
  });
};
export default routes;
