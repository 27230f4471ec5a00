import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { LANGUAGES } from '../i18n/index';
import { pingDb } from '../db/index';
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

  app.get(
    '/health',
    {
      config: { rateLimit: false },
      schema: {
        tags: ['system'],
        summary: 'Liveness and database check',
        response: {
          200: z.object({ data: z.object({ status: z.literal('ok'), database: z.enum(['sqlite', 'postgres']) }) }),
          ...errorResponses(503),
        },
      },
    },
    async () => {
      try {
        await pingDb(app.db);
      } catch (cause) {
        throw new AppError(503, 'database_unavailable', { cause });
      }
      return { data: { status: 'ok' as const, database: app.db.dialect } };
    },
  );
};
export default routes;
