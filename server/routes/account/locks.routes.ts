import { z } from 'zod';
import { NO_CONTROL } from '../../services/account-passwords';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { AppError } from '../../errors';
import { errorResponses } from '../../lib/openapi';
import { requireAdmin } from '../../plugins/app/auth';
import { clearLock, closeThrottleStore, listLocks, throttleKeys } from '../../services/throttle';

const lock = z.object({ key: z.string(), failures: z.number().int(), locked_until: z.string(), retry_after_seconds: z.number().int() });

/** Lockouts visible to admins, and cleared by them. */
const routes: FastifyPluginAsyncZod = async (app) => {
  app.addHook('onClose', async (instance) => closeThrottleStore(instance));

  app.get(
    '/admin/locks',
    {
      onRequest: requireAdmin('super_admin', 'manager'),
      schema: {
        tags: ['account security'],
        summary: 'Locked keys (accounts, e-mails, IP addresses) with their lock end',
        security: [{ bearer: [] }],
        querystring: z.object({
          account_id: z.string().trim().min(1).max(64).regex(NO_CONTROL).optional(),
          prefix: z.string().trim().min(1).max(200).regex(NO_CONTROL).optional(),
        }),
        response: { 200: z.object({ data: z.array(lock) }), ...errorResponses(401, 403, 422) },
      },
    },
    async (request) => {
      const { account_id, prefix } = request.query;
      if (account_id) {
        const keys = [throttleKeys.account(account_id), throttleKeys.otp(account_id)];
        const locks = (await Promise.all(keys.map((k) => listLocks(app, k)))).flat().filter((l) => keys.includes(l.key));
        return { data: locks };
      }
      return { data: await listLocks(app, prefix) };
    },
  );

  app.delete(
    '/admin/locks/:key',
    {
      onRequest: requireAdmin('super_admin', 'manager'),
      schema: {
        tags: ['account security'],
        summary: 'Clears a lock (and its failure counter); the key is URL-encoded, e.g. account%3A<id>',
        security: [{ bearer: [] }],
        params: z.object({ key: z.string().min(3).max(300).regex(NO_CONTROL) }),
        response: { 200: z.object({ data: z.object({ cleared: z.literal(true) }) }), ...errorResponses(401, 403, 404, 422) },
      },
    },
    async (request) => {
      const { key } = request.params;
      if (key.startsWith('rate:') || !(await clearLock(app, key))) throw new AppError(404, 'lock_not_found');
      return { data: { cleared: true as const } };
    },
  );
};
export default routes;
