import { audit } from '../../services/admin/audit';
import { z } from 'zod';
import { NO_CONTROL } from '../../services/account-passwords';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { FastifyRequest } from 'fastify';
import { nowIso } from '../../db/index';
import { AppError } from '../../errors';
import { errorResponses } from '../../lib/openapi';
import { requireAdmin, requireUser } from '../../plugins/app/auth';
import { assertDiffersFromCurrent, newPasswordBody, notifyPasswordChanged, setAccountPassword } from '../../services/account-passwords';
import { verifyPassword } from '../../services/passwords';
import { checkWithLockout, throttleKeys } from '../../services/throttle';

const tags = ['password'];
const changeBody = newPasswordBody({ current_password: z.string().min(1).max(200) });
const targetBody = { uuid: z.string().trim().min(1).max(64).regex(NO_CONTROL) };

function authOf(request: FastifyRequest) {
  const ctx = request.auth;
  if (!ctx) throw new AppError(401, 'unauthorized');
  return ctx;
}

const routes: FastifyPluginAsyncZod = async (app) => {
  for (const type of ['user', 'admin'] as const) {
    app.post(
      `/${type}/change-password`,
      {
        onRequest: type === 'admin' ? requireAdmin() : requireUser,
        schema: {
          tags,
          summary: `Changes the signed-in ${type}'s password; ends the account's other sessions and mails a notice`,
          security: [{ bearer: [] }],
          body: changeBody,
          response: { 200: z.object({ data: z.object({ flow: z.literal('cp') }) }), ...errorResponses(401, 403, 422, 429) },
        },
      },
      async (request) => {
        const { account, grantId } = authOf(request);
        const { current_password, password } = request.body;
        // guessing the current password with a stolen session counts like failed sign-ins
        // (the slot is reserved before the password is checked: parallel guesses evaluate at most the limit)
        const fresh = await app.db.kysely.selectFrom('accounts').selectAll().where('id', '=', account.id).executeTakeFirstOrThrow();
        const hash = fresh.password_hash;
        if (!(await checkWithLockout(app, [throttleKeys.account(account.id)], async () => Boolean(hash) && verifyPassword(hash ?? '', current_password)))) {
          throw new AppError(422, 'validation_failed', { fields: { current_password: ['given_password_invalid'] } });
        }
        if (current_password === password) throw new AppError(422, 'validation_failed', { fields: { password: ['password_same_as_current'] } });
        await setAccountPassword(app, fresh, password, { endSessions: { exceptGrantId: grantId } });
        await notifyPasswordChanged(app, fresh);
        return { data: { flow: 'cp' as const } };
      },
    );
  }

  app.post(
    '/admin/user/change-password',
    {
      onRequest: requireAdmin('super_admin', 'manager'),
      schema: {
        tags,
        summary: "Sets a user's password (admin); ends all of that user's sessions",
        security: [{ bearer: [] }],
        body: newPasswordBody(targetBody),
        response: { 200: z.object({ data: z.object({ id: z.string() }) }), ...errorResponses(401, 403, 404, 422) },
      },
    },
    async (request) => {
      const { uuid, password } = request.body;
      const user = await app.db.kysely.selectFrom('accounts').selectAll().where('id', '=', uuid).where('type', '=', 'user').executeTakeFirst();
      if (!user) throw new AppError(404, 'not_found');
      await assertDiffersFromCurrent(user, password);
      await setAccountPassword(app, user, password, { endSessions: 'all' });
      await audit(request, 'user.password_set', 'user', user.id, null, null);
      await notifyPasswordChanged(app, user);
      return { data: { id: user.id } };
    },
  );

  app.post(
    '/admin/user/verify-manually',
    {
      onRequest: requireAdmin('super_admin', 'manager'),
      schema: {
        tags,
        summary: "Marks a user's e-mail as verified (admin)",
        security: [{ bearer: [] }],
        body: z.object(targetBody),
        response: { 200: z.object({ data: z.object({ id: z.string(), email_verified_at: z.string() }) }), ...errorResponses(401, 403, 404, 422) },
      },
    },
    async (request) => {
      const { uuid } = request.body;
      const now = nowIso();
      const user = await app.db.kysely.selectFrom('accounts').select(['id', 'email_verified_at']).where('id', '=', uuid).where('type', '=', 'user').executeTakeFirst();
      if (!user) throw new AppError(404, 'not_found');
      if (user.email_verified_at) return { data: { id: user.id, email_verified_at: user.email_verified_at } };
      await app.db.kysely.transaction().execute(async (trx) => {
        await trx.updateTable('accounts').set({ email_verified_at: now, updated_at: now }).where('id', '=', user.id).where('email_verified_at', 'is', null).execute();
        await audit(request, 'user.verified_manually', 'user', user.id, null, null, trx);
      });
      return { data: { id: user.id, email_verified_at: now } };
    },
  );
};
export default routes;
