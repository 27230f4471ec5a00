import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import * as auth from '../../../contract/auth';
import { clientInfoOf } from '../../lib/client-info';
import { routeOf } from '../../lib/route';
import { SSO_BROWSER_COOKIE } from '../../services/sso';
import { cookieOf } from '../../oidc/interaction-binding';
import { SSO_LOGOUT_COOKIE, SSO_LOGOUT_COOKIE_PATH } from '../../oidc/upstream-logout';

/** Upstream single sign-on: browser redirects to the upstream provider and back (server/services/sso.ts). */
const routes: FastifyPluginAsyncZod = async (app) => {
  const sso = app.services.sso;
  const secure = app.config.appUrl.startsWith('https:') ? '; Secure' : '';

  app.route({
    ...routeOf(auth.ssoStart),
    handler: async (req, reply) => {
      const start = await sso.start(req.params.provider, req.query.interaction, { uiLocales: req.query.ui_locales }, req.headers.cookie);
      // binds the sign-in to this browser: the callback refuses a browser without it (SameSite=Lax: sent on the
      // upstream provider's top-level redirect back)
      reply.header('set-cookie', `${SSO_BROWSER_COOKIE}=${start.browser}; Path=/api/sso/; Max-Age=600; HttpOnly; SameSite=Lax${secure}`);
      return reply.redirect(start.url, 302);
    },
  });

  app.route({
    ...routeOf(auth.ssoCallback),
    handler: async (req, reply) => {
      // a refusal the provider's settings explain (no e-mail, unverified e-mail) goes to the admin error log: the
      // answer itself is a redirect to the login page, which the error handler never sees
      const onRefused = (problem: { code: string; message: string }) =>
        app.services.errorLog.record({ status: 403, code: problem.code, method: 'GET', route: '/api/sso/:provider/callback', params: { provider: req.params.provider }, path: `/api/sso/${req.params.provider}/callback`, message: problem.message, userEmail: null });
      const to = await sso.callback(req.params.provider, req.query.state, req.url, clientInfoOf(req), req.log, cookieOf(req.headers.cookie, SSO_BROWSER_COOKIE), req.headers.cookie, onRefused);
      return reply.redirect(to, 302);
    },
  });

  app.route({
    ...routeOf(auth.ssoSignedOut),
    handler: async (req, reply) => {
      // back from the upstream's sign-out: on to where the app's RP-initiated logout ends, for this browser only, once
      const back = await sso.signedOut(req.params.provider, req.query.state, cookieOf(req.headers.cookie, SSO_LOGOUT_COOKIE));
      if (!back.keepCookie) reply.header('set-cookie', `${SSO_LOGOUT_COOKIE}=; Path=${SSO_LOGOUT_COOKIE_PATH}; Max-Age=0; HttpOnly; SameSite=Lax${secure}`);
      reply.header('cache-control', 'no-store');
      return reply.redirect(back.to, 302);
    },
  });
};
export default routes;
