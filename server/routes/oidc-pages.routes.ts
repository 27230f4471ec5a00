import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from '../errors';
import { deniedPage, LOGOUT_SCRIPT, PAGES_CSS, pageLanguage } from '../oidc/pages';
import { getProvider, oidcOf } from '../oidc/index';
import { clientDisplayName, CONSENT_PATH, DENIED_PATH } from '../oidc/access';
import { finishConsent } from '../oidc/consent';
import { readInteractionResult } from '../oidc/interaction-result';

/** Server-side pieces of the provider's pages: the logout page's script and the service apps' consent step. */
const routes: FastifyPluginAsyncZod = async (app) => {
  /** The same-origin script of the provider's logout page (the CSP allows no inline script). */
  app.get('/oidc-pages/logout.js', { schema: { hide: true } }, async (_req, reply) =>
    reply.type('text/javascript; charset=utf-8').header('cache-control', 'public, max-age=3600').send(LOGOUT_SCRIPT),
  );

  /** The stylesheet of the provider's pages. */
  app.get('/oidc-pages/pages.css', { schema: { hide: true } }, async (_req, reply) =>
    reply.type('text/css; charset=utf-8').header('cache-control', 'public, max-age=3600').send(PAGES_CSS),
  );

  /**
   * "You have no access to <app>": shown when a sign-in to a service app was refused by its role rules
   * (the interaction ended with access_denied), or could not reach the two-factor class the app asked for
   * (unmet_authentication_requirements: step-up, server/services/sign-in.ts). Continue resumes the authorization, which hands
   * access_denied to the app; Back to home goes to the portal. Unknown or other interactions: 404.
   */
  app.get(`${DENIED_PATH.replace(/^\/api/, '')}/:uid`, {
    schema: { hide: true, params: z.object({ uid: z.string().min(1).max(100) }) },
  }, async (req, reply) => {
    const provider = await getProvider(app);
    const interaction = await provider.Interaction.find(req.params.uid);
    const result = readInteractionResult(interaction?.result);
    const reason = result.error === 'access_denied' ? 'no_role' : result?.error === 'unmet_authentication_requirements' ? (result.unmet === 'sso' ? 'mfa_sso' : 'mfa_missing') : undefined;
    if (!interaction || !reason) throw new AppError(404, 'not_found');
    const clientId = String(interaction.params.client_id ?? '');
    const html = deniedPage(pageLanguage(req.headers['accept-language']), await clientDisplayName(app.db.kysely, clientId), interaction.returnTo, `${app.config.appUrl}/`, reason);
    return reply.code(403).type('text/html; charset=utf-8').header('cache-control', 'no-store').send(html);
  });

  /** First-party consent (see server/oidc/consent.ts): records the grant and resumes the authorization. */
  app.get(`${CONSENT_PATH.replace(/^\/api/, '')}/:uid`, {
    schema: { hide: true, params: z.object({ uid: z.string().min(1).max(100) }) },
  }, async (req, reply) => reply.header('cache-control', 'no-store').redirect(await finishConsent(app, oidcOf(app), req.raw, reply.raw, req.params.uid), 303));
};
export default routes;
