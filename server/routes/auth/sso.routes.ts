import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import * as auth from '../../../contract/auth';
import { clientInfoOf } from '../../lib/client-info';
import { routeOf } from '../../lib/route';
import { SSO_BROWSER_COOKIE } from '../../services/sso';

/** The value of one cookie of the request (no cookie plugin is registered for the API). */
function cookieOf(header: string | undefined, name: string): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const i = part.indexOf('=');
    if (i > 0 && part.slice(0, i).trim() === name) return part.slice(i + 1).trim();
  }
  return undefined;
}

/** Upstream single sign-on: browser redirects to the upstream provider and back (server/services/sso.ts). */
const routes: FastifyPluginAsyncZod = async (app) => {
  const sso = app.services.sso;
  const secure = app.config.appUrl.startsWith('https:') ? '; Secure' : '';

  app.route({
    ...routeOf(auth.ssoStart),
    handler: async (req, reply) => {
      const start = await sso.start(req.params.provider, req.query.interaction, { uiLocales: req.query.ui_locales });
      // binds the sign-in to this browser: the callback refuses a browser without it (SameSite=Lax: sent on the
      // upstream provider's top-level redirect back)
      reply.header('set-cookie', `${SSO_BROWSER_COOKIE}=${start.browser}; Path=/api/sso/; Max-Age=600; HttpOnly; SameSite=Lax${secure}`);
      return reply.redirect(start.url, 302);
    },
  });

  app.route({
    ...routeOf(auth.ssoCallback),
    handler: async (req, reply) =>
      reply.redirect(await sso.callback(req.params.provider, req.query.state, req.url, clientInfoOf(req), req.log, cookieOf(req.headers.cookie, SSO_BROWSER_COOKIE)), 302),
  });
};
export default routes;
