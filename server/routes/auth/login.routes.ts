import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import * as auth from '../../../contract/auth';
import { AppError } from '../../errors';
import { clientInfoOf } from '../../lib/client-info';
import { routeOf } from '../../lib/route';
import { resolveAuth } from '../../plugins/app/auth';
import { admit } from '../../plugins/app/admission';
import { takeUpstreamSignIn } from '../../oidc/upstream-sessions';

/**
 * Sign-in endpoints of the OIDC interaction (docs/DESIGN.md §6): password, then the second factor when enabled.
 * The interaction remembers the account and the passed password step server-side (server/services/sign-in.ts).
 * Every step acts only for the browser holding the interaction (its `iam_interaction_<uid>` cookie, server/oidc/
 * interaction-binding.ts): another browser gets 403 interaction_foreign_browser before anything is read or spent.
 */
const routes: FastifyPluginAsyncZod = async (app) => {
  const signIn = app.services.signIn;

  // the password step is the expensive one (argon2id): admitted within the login gate, else 503 at once — before
  // the body is read, the interaction loaded or a lockout slot reserved (server/lib/admission.ts)
  const login = admit('login', 'api');
  app.route({ ...routeOf(auth.login), onRequest: login, handler: async (req) => ({ data: await signIn.signIn('user', req.body, clientInfoOf(req), req.headers.cookie) }) });
  app.route({ ...routeOf(auth.adminLogin), onRequest: login, handler: async (req) => ({ data: await signIn.signIn('admin', req.body, clientInfoOf(req), req.headers.cookie) }) });

  app.route({
    ...routeOf(auth.validateOtp),
    handler: async (req) => ({ data: await signIn.verifyOneTimePassword({ type: 'user', method: 'GOOGLE' }, req.body.interaction, req.body.one_time_password, clientInfoOf(req), req.headers.cookie) }),
  });
  app.route({
    ...routeOf(auth.adminValidateOtp),
    handler: async (req) => ({ data: await signIn.verifyOneTimePassword({ type: 'admin' }, req.body.interaction, req.body.one_time_password, clientInfoOf(req), req.headers.cookie) }),
  });
  app.route({ ...routeOf(auth.verifySms), handler: async (req) => ({ data: await signIn.verifySmsCode(req.body.interaction, req.body.one_time_password, clientInfoOf(req), req.headers.cookie) }) });
  app.route({
    ...routeOf(auth.validateRecoveryCode),
    handler: async (req) => ({ data: await signIn.verifyRecoveryCode(req.body.interaction, req.body.recovery_code, clientInfoOf(req), req.headers.cookie) }),
  });

  // the login page asks first whether this browser holds the interaction of its link (else it starts its own)
  app.route({
    ...routeOf(auth.interactionStatus),
    handler: async (req) => {
      await signIn.checkInteraction(req.params.interaction, req.headers.cookie);
      return { data: { status: 'active' as const } };
    },
  });

  app.route({
    ...routeOf(auth.resendSms),
    handler: async (req) => {
      const uid = req.body?.interaction;
      if (uid) {
        await signIn.resendSignInSms(uid, req.headers.cookie);
      } else {
        const ctx = await resolveAuth(req);
        if (!ctx) throw new AppError(401, 'unauthorized');
        await signIn.resendEnrollmentSms(ctx.account);
      }
      return { data: { status: 'sent' as const } };
    },
  });

  app.route({
    ...routeOf(auth.logout),
    handler: async (req) => {
      const grantId = req.auth?.grantId;
      const ended = grantId ? await signIn.endGrant(grantId) : [];
      // an SSO session continues its sign-out at the upstream provider (its record is kept by the session's uid)
      const upstream = await takeUpstreamSignIn(app.db.kysely, ended);
      const url = upstream && req.auth ? await app.services.sso.endSessionUrl(upstream, req.auth.account.type) : undefined;
      return { data: { status: 'logged_out' as const, ...(url ? { upstream_logout_url: url } : {}) } };
    },
  });
};
export default routes;
