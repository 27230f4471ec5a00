import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import * as account from '../../../contract/account';
import { routeOf } from '../../lib/route';
import { actorOf } from '../../services/deps';

/**
 * Two-factor enrollment for the signed-in account (user or admin): contract/account.ts, server/services/two-factor.ts.
 * The sign-in steps (`/2fa/google/validate-otp`, `/2fa/sms/verify`, `/2fa/validate-recovery-code`, `/admin/2fa/validate-otp`)
 * and `/2fa/sms/resend` live in routes/auth/login.routes.ts.
 */
const routes: FastifyPluginAsyncZod = async (app) => {
  const service = app.services.twoFactor;

  app.route({ ...routeOf(account.createTotpSecret), handler: async (req) => ({ data: await service.startAuthenticator(actorOf(req)) }) });
  app.route({
    ...routeOf(account.enableTotp),
    handler: async (req) => ({ data: { recovery_codes: await service.enableAuthenticator(actorOf(req), req.body.one_time_password) } }),
  });
  app.route({
    ...routeOf(account.sendEnrollmentSms),
    handler: async (req) => {
      await service.sendEnrollmentSms(actorOf(req));
      return { data: { status: 'sent' as const } };
    },
  });
  app.route({
    ...routeOf(account.enableSms),
    handler: async (req) => ({ data: { recovery_codes: await service.enableSms(actorOf(req), req.body.one_time_password) } }),
  });
  app.route({
    ...routeOf(account.disableTwoFactor),
    handler: async (req) => {
      await service.disable(actorOf(req), req.body);
      return { data: { enabled: false as const } };
    },
  });
};
export default routes;
