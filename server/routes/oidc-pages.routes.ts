import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { LOGOUT_SCRIPT } from '../oidc/pages';

/** The same-origin script of the provider's logout page (the CSP allows no inline script). */
const routes: FastifyPluginAsyncZod = async (app) => {
  app.get('/oidc-pages/logout.js', { schema: { hide: true } }, async (_req, reply) =>
    reply.type('text/javascript; charset=utf-8').header('cache-control', 'public, max-age=3600').send(LOGOUT_SCRIPT),
  );
};
export default routes;
