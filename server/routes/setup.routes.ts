import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { emailSchema, personNameSchema } from '../../contract/domain/formats';
import { newPasswordBody } from '../services/account-passwords';
import { AppError } from '../errors';
import { errorResponses } from '../lib/openapi';
import { nowIso } from '../db/index';
import { sha256 } from '../services/bootstrap';
import { hashPassword } from '../services/passwords';
import { accountRow } from '../services/accounts';

/**
 * One-time setup: when the first start had no IAM_ADMIN_EMAIL/PASSWORD, the printed link leads to
 * /admin/setup?token=..., which creates the first super_admin here. The token works once, for 24 h,
 * and only while no administrator exists.
 */
const routes: FastifyPluginAsyncZod = async (app) => {
  const db = app.db.kysely;
  const liveToken = (token: string) =>
    db
      .selectFrom('one_time_tokens')
      .select(['id'])
      .where('purpose', '=', 'setup')
      .where('token_hash', '=', sha256(token))
      .where('used_at', 'is', null)
      .where('expires_at', '>', nowIso())
      .executeTakeFirst();

  app.get(
    '/setup/:token',
    {
      config: { rateLimit: { max: 20, timeWindow: '1 minute' } },
      schema: {
        tags: ['setup'],
        summary: 'Check a one-time setup link',
        params: z.object({ token: z.string().min(1).max(200) }),
        response: { 200: z.object({ data: z.object({ valid: z.literal(true) }) }), ...errorResponses(403) },
      },
    },
    async (req) => {
      if (!(await liveToken(req.params.token))) throw new AppError(403, 'invalid_link');
      return { data: { valid: true as const } };
    },
  );

  app.post(
    '/setup',
    {
      config: { rateLimit: { max: 10, timeWindow: '1 minute' } },
      schema: {
        tags: ['setup'],
        summary: 'Create the first super_admin with a one-time setup token',
        body: newPasswordBody({ token: z.string().min(1).max(200), email: emailSchema, first_name: personNameSchema, last_name: personNameSchema }),
        response: { 201: z.object({ data: z.object({ email: z.string() }) }), ...errorResponses(403, 409, 422) },
      },
    },
    async (req, reply) => {
      const { token, email, first_name, last_name, password } = req.body;
      const hash = await hashPassword(password);
      const now = nowIso();
      await db.transaction().execute(async (trx) => {
        // consume first: of two concurrent requests only one gets the row
        const used = await trx
          .updateTable('one_time_tokens')
          .set({ used_at: now })
          .where('purpose', '=', 'setup')
          .where('token_hash', '=', sha256(token))
          .where('used_at', 'is', null)
          .where('expires_at', '>', now)
          .executeTakeFirst();
        if (Number(used.numUpdatedRows) !== 1) throw new AppError(403, 'invalid_link');
        const anyAdmin = await trx.selectFrom('accounts').select('id').where('type', '=', 'admin').limit(1).executeTakeFirst();
        if (anyAdmin) throw new AppError(409, 'setup_done');
        await trx
          .insertInto('accounts')
          .values(
            accountRow({
              type: 'admin',
              email,
              first_name,
              last_name,
              admin_role: 'super_admin',
              status: 'ACTIVE',
              auth_type: 'CREDENTIALS',
              locale: req.lang,
              technical: 0,
              password_hash: hash,
              password_changed_at: now,
              email_verified_at: now,
            }),
          )
          .execute();
      });
      return reply.status(201).send({ data: { email } });
    },
  );
};
export default routes;
