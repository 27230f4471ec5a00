import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import * as system from '../../contract/system';
import { LANGUAGES } from '../i18n/index';
import { routeOf } from '../lib/route';
import { clientConfigOf, createReadinessCheck, devOriginOf } from '../services/system';

/** Languages, the public client configuration and health (contract/system.ts, server/services/system.ts). */
const routes: FastifyPluginAsyncZod = async (app) => {
  app.route({ ...routeOf(system.languages), handler: async () => ({ data: { languages: [...LANGUAGES] } }) });

  app.route({ ...routeOf(system.clientConfig), handler: async (req) => ({ data: clientConfigOf(app.config, devOriginOf(app.config, req.headers.host)) }) });

  // Health (docs/OPERATIONS.md): live = the process answers; ready = the database (and Redis when configured)
  // answer within IAM_HEALTH_TIMEOUT_MS and the instance is not shutting down. /health is readiness.
  const readiness = createReadinessCheck(app, () => app.lifecycle.draining);
  app.addHook('onClose', async () => readiness.close());
  const healthConfig = { rateLimit: false as const };

  app.route({
    ...routeOf(system.live),
    config: healthConfig,
    handler: async (_req, reply) => {
      reply.header('cache-control', 'no-store');
      return { data: { status: 'ok' as const } };
    },
  });

  for (const endpoint of [system.ready, system.health]) {
    app.route({
      ...routeOf(endpoint),
      config: healthConfig,
      handler: async (_req, reply) => {
        reply.header('cache-control', 'no-store');
        return readiness.check();
      },
    });
  }
};
export default routes;
