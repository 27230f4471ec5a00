import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import * as account from '../../../contract/account';
import { routeOf } from '../../lib/route';
import { serverPasswordBodies } from '../../services/account-passwords';

/** Invitation: check the signed link, then set the password once (flow `sc`). contract/account.ts, server/services/invitations.ts. */
const routes: FastifyPluginAsyncZod = async (app) => {
  const service = app.services.invitations;
  for (const kind of ['user', 'admin'] as const) {
    const endpoints = account.byKind[kind];

    app.route({
      ...routeOf(endpoints.checkInvitationLink),
      handler: async (req) => ({ data: { valid: true as const, email: (await service.checkLink(kind, req.query)).email } }),
    });

    const finish = routeOf(endpoints.finishInvitation);
    app.route({
      ...finish,
      schema: { ...finish.schema, body: serverPasswordBodies.invitation },
      handler: async (req) => {
        await service.finish(kind, req.body.url, req.body.password);
        return { data: { flow: 'sc' as const } };
      },
    });
  }
};
export default routes;
