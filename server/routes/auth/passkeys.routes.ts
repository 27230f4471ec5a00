import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import * as passkeys from '../../../contract/passkeys';
import { AppError } from '../../errors';
import { clientInfoOf } from '../../lib/client-info';
import { routeOf } from '../../lib/route';
import { actorOf } from '../../services/deps';

/**
 * Passkeys (contract/passkeys.ts): the signed-in account's (registration is bound to the session asking), the sign-in
 * ceremonies (bound to the interaction and its browser, like every sign-in step: server/services/sign-in.ts), the
 * admins' view and the requirement setting (server/services/passkeys.ts).
 */
const routes: FastifyPluginAsyncZod = async (app) => {
  const service = app.services.passkeys;
  const signIn = app.services.signIn;
  const self = (req: Parameters<typeof actorOf>[0]) => {
    const actor = actorOf(req);
    if (!actor.id) throw new AppError(401, 'unauthorized');
    return { ...actor, id: actor.id };
  };

  app.route({ ...routeOf(passkeys.listPasskeys), handler: async (req) => ({ data: await service.list(self(req).id) }) });
  app.route({
    ...routeOf(passkeys.passkeyRegistrationOptions),
    handler: async (req) => ({ data: { options: await service.registrationOptions(self(req).id, req.auth?.grantId ?? null) } }),
  });
  app.route({
    ...routeOf(passkeys.registerPasskey),
    handler: async (req, reply) => {
      const created = await service.register(self(req), req.auth?.grantId ?? null, req.body.name, req.body.credential);
      return reply.code(201).send({ data: created });
    },
  });
  app.route({ ...routeOf(passkeys.renamePasskey), handler: async (req) => ({ data: await service.rename(self(req), req.params.id, req.body.name) }) });
  app.route({
    ...routeOf(passkeys.deletePasskey),
    handler: async (req) => {
      await service.remove(self(req), req.params.id);
      return { data: { id: req.params.id, deleted: true as const } };
    },
  });

  app.route({
    ...routeOf(passkeys.passkeyAuthenticationOptions),
    handler: async (req) => ({ data: { options: await signIn.passkeyOptions(req.body.interaction, req.body.purpose, req.headers.cookie) } }),
  });
  app.route({ ...routeOf(passkeys.passkeySignIn), handler: async (req) => ({ data: await signIn.passkeySignIn(req.body.interaction, req.body.credential, clientInfoOf(req), req.headers.cookie) }) });
  app.route({
    ...routeOf(passkeys.passkeySecondFactor),
    handler: async (req) => ({ data: await signIn.passkeySecondFactor(req.body.interaction, req.body.credential, clientInfoOf(req), req.headers.cookie) }),
  });
  app.route({ ...routeOf(passkeys.passkeyEnrolmentOptions), handler: async (req) => ({ data: { options: await signIn.enrolmentOptions(req.body.interaction, req.headers.cookie) } }) });
  app.route({
    ...routeOf(passkeys.passkeyEnrol),
    handler: async (req) => ({ data: await signIn.enrol(req.body.interaction, req.body.name, req.body.credential, clientInfoOf(req), req.headers.cookie) }),
  });

  app.route({ ...routeOf(passkeys.adminListPasskeys), handler: async (req) => ({ data: await service.adminList(req.params.id) }) });
  app.route({
    ...routeOf(passkeys.adminDeletePasskey),
    handler: async (req) => {
      await service.adminRemove(actorOf(req), req.params.id, req.params.passkey);
      return { data: { id: req.params.passkey, deleted: true as const } };
    },
  });
  app.route({ ...routeOf(passkeys.getSecondFactorPolicy), handler: async () => ({ data: await service.getPolicy() }) });
  app.route({ ...routeOf(passkeys.updateSecondFactorPolicy), handler: async (req) => ({ data: await service.updatePolicy(actorOf(req), req.body) }) });
};
export default routes;
