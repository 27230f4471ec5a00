import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import * as auth from '../../../contract/auth';
import { AppError } from '../../errors';
import { routeOf } from '../../lib/route';

/** The signed-in account (docs/SPEC.md §3 "Authenticated user response" / "Admin response"; server/services/me.ts). */
const routes: FastifyPluginAsyncZod = async (app) => {
  const me = app.services.me;

  app.route({
    ...routeOf(auth.currentUser),
    // the one route a technical user's API key is for: who am I, with which subscriptions and roles
    config: { apiKey: true },
    handler: async (req) => {
      const account = req.auth?.account;
      if (!account) throw new AppError(401, 'unauthorized');
      const include = new Set((req.query.with ?? '').split(',').map((s) => s.trim()));
      return { data: await me.currentUser(account, include.has('subscriptions')) };
    },
  });

  app.route({
    ...routeOf(auth.currentAdmin),
    handler: async (req) => {
      const account = req.auth?.account;
      if (!account) throw new AppError(401, 'unauthorized');
      return { data: me.currentAdmin(account) };
    },
  });
};
export default routes;
