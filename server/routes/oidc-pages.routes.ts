import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { LOGOUT_SCRIPT } from '../oidc/pages';
import { CONSENT_PATH } from '../oidc/access';
import { finishConsent } from '../oidc/consent';

/** Server-side pieces of the provider's pages: the logout page's script and the service apps' consent step. */
const routes: FastifyPluginAsyncZod = async (app) => {
  /** The same-origin script of the provider's logout page (the CSP allows no inline script). */
  app.get('/oidc-pages/logout.js', { schema: { hide: true } }, async (_req, reply) =>
    reply.type('text/javascript; charset=utf-8').header('cache-control', 'public, max-age=3600').send(LOGOUT_SCRIPT),
  );

  /** First-party consent (see server/oidc/consent.ts): records the grant and resumes the authorization. */
  app.get(`${CONSENT_PATH.replace(/^\/api/, '')}/:uid`, {
    schema: { hide: true, params: z.object({ uid: z.string().min(1).max(100) }) },
  }, async (req, reply) => reply.header('cache-control', 'no-store').redirect(await finishConsent(app, req, reply, req.params.uid), 303));
};
export default routes;
