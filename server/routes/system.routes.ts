import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { LANGUAGES } from '../i18n/index';
import type { Redis } from 'ioredis';
import { pingDbWithin } from '../db/index';
import { closeRedis, createRedis } from '../lib/redis';
import { AppError } from '../errors';
import { errorResponses } from '../lib/openapi';

const routes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/languages',
    {
      schema: {
        tags: ['system'],
        summary: 'Languages the interface is offered in',
        response: { 200: z.object({ data: z.object({ languages: z.array(z.string()) }) }) },
      },
    },
    async () => ({ data: { languages: [...LANGUAGES] } }),
  );

  app.get(
    '/config',
    {
      schema: {
        tags: ['system'],
        summary: 'Public client configuration for the SPA and other clients',
        response: {
          200: z.object({
            data: z.object({
              issuer: z.string(),
              authorization_endpoint: z.string(),
              token_endpoint: z.string(),
              end_session_endpoint: z.string(),
              revocation_endpoint: z.string(),
              userinfo_endpoint: z.string(),
              jwks_uri: z.string(),
              scope: z.string(),
              clients: z.object({ portal: z.string(), admin: z.string() }),
              sso_providers: z.array(z.object({ id: z.string(), name: z.string() })),
              languages: z.array(z.string()),
              default_locale: z.string(),
            }),
          }),
        },
      },
    },
    async () => {
      const issuer = app.config.issuer;
      return {
        data: {
          issuer,
          authorization_endpoint: `${issuer}/auth`,
          token_endpoint: `${issuer}/token`,
          end_session_endpoint: `${issuer}/session/end`,
          revocation_endpoint: `${issuer}/token/revocation`,
          userinfo_endpoint: `${issuer}/me`,
          jwks_uri: `${issuer}/jwks`,
          scope: 'openid profile email offline_access',
          clients: { portal: 'portal', admin: 'admin-console' },
          sso_providers: app.config.ssoProviders.map((p) => ({ id: p.id, name: p.name })),
          languages: [...LANGUAGES],
          default_locale: 'en',
        },
      };
    },
  );

  // Health (docs/OPERATIONS.md): live = the process answers; ready = the database (and Redis when configured)
  // answer within IAM_HEALTH_TIMEOUT_MS and the instance is not shutting down. /health is readiness.
  const healthMs = app.config.timeouts.healthMs;
  let redis: Redis | undefined;
  if (app.config.redisUrl) {
    redis = createRedis(app.config.redisUrl, 'health', { log: app.log, timeoutMs: healthMs });
    app.addHook('onClose', async () => redis && closeRedis(redis));
  }
  const within = <T>(p: Promise<T>, ms: number): Promise<T> => {
    let timer: NodeJS.Timeout | undefined;
    return Promise.race([p, new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error('deadline')), ms)))]).finally(() => clearTimeout(timer));
  };
  const readySchema = z.object({
    data: z.object({ status: z.literal('ok'), database: z.enum(['sqlite', 'postgres']), redis: z.enum(['ok', 'not_configured']) }),
  });
  const ready = async () => {
    if (app.lifecycle.draining) throw new AppError(503, 'shutting_down', { headers: { 'retry-after': '1', 'cache-control': 'no-store' } });
    try {
      await pingDbWithin(app.db, healthMs);
    } catch (cause) {
      throw new AppError(503, 'database_unavailable', { cause, headers: { 'retry-after': '5', 'cache-control': 'no-store' } });
    }
    if (redis) {
      try {
        await within(redis.ping(), healthMs);
      } catch (cause) {
        throw new AppError(503, 'redis_unavailable', { cause, headers: { 'retry-after': '5', 'cache-control': 'no-store' } });
      }
    }
    return { data: { status: 'ok' as const, database: app.db.dialect, redis: redis ? ('ok' as const) : ('not_configured' as const) } };
  };
  const healthConfig = { rateLimit: false };

  app.get(
    '/health/live',
    {
      config: healthConfig,
      schema: {
        tags: ['system'],
        summary: 'Liveness: the process is up and serving (no dependency checks; for restart decisions)',
        response: { 200: z.object({ data: z.object({ status: z.literal('ok') }) }) },
      },
    },
    async (_req, reply) => {
      reply.header('cache-control', 'no-store');
      return { data: { status: 'ok' as const } };
    },
  );

  for (const url of ['/health/ready', '/health']) {
    app.get(
      url,
      {
        config: healthConfig,
        schema: {
          tags: ['system'],
          summary:
            url === '/health'
              ? 'Readiness (same as /health/ready)'
              : 'Readiness: the database, and Redis when configured, answer within IAM_HEALTH_TIMEOUT_MS; 503 while shutting down (for load balancers)',
          response: { 200: readySchema, ...errorResponses(503) },
        },
      },
      async (_req, reply) => {
        reply.header('cache-control', 'no-store');
        return ready();
      },
    );
  }
};
export default routes;
