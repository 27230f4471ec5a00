import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import * as account from '../../../contract/account';
import { routeOf } from '../../lib/route';
import { serverPasswordBodies } from '../../services/account-passwords';

/** Forgot password, reset links, new password (flow `cp`). contract/account.ts, server/services/password-reset.ts. */
const routes: FastifyPluginAsyncZod = async (app) => {
  const service = app.services.passwordReset;
  for (const kind of ['user', 'admin'] as const) {
    const endpoints = account.byKind[kind];

    app.route({
      ...routeOf(endpoints.forgotPassword),
      handler: async (req) => {
        await service.forgotPassword(kind, req.body.email, req.ip);
        return { data: { message: req.t('password_reset_sent') } };
      },
    });

    app.route({
      ...routeOf(endpoints.checkResetLink),
      handler: async (req) => ({ data: { valid: true as const, email: (await service.checkLink(kind, req.query)).email } }),
    });

    app.route({
      ...routeOf(endpoints.checkResetToken),
      handler: async (req) => ({ data: { valid: true as const, email: (await service.checkUrl(kind, req.body.url)).email } }),
    });

    const reset = routeOf(endpoints.resetPassword);
    app.route({
      ...reset,
      schema: { ...reset.schema, body: serverPasswordBodies.reset },
      handler: async (req) => {
        await service.reset(kind, req.body);
        return { data: { flow: 'cp' as const } };
      },
    });
  }
};
export default routes;
