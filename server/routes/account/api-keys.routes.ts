import { audit } from '../../services/admin/audit';
import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { NO_CONTROL } from '../../services/account-passwords';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { FastifyInstance } from 'fastify';
import { nowIso } from '../../db/index';
import { AppError } from '../../errors';
import { errorResponses } from '../../lib/openapi';
import { requireAdmin, type BearerVerifier } from '../../plugins/app/auth';
import { sha256Hex } from '../../services/server-secrets';

/**
 * API keys for technical users: `iam_<prefix>_<secret>` (8 hex prefix, 256-bit base64url secret),
 * shown once; only the SHA-256 of the whole key and its prefix are stored. A new key replaces the old.
 * The key works as `Authorization: Bearer <key>` with that user's rights.
 */
export const API_KEY_RE = /^iam_[0-9a-f]{8}_[A-Za-z0-9_-]{43}$/;

export function newApiKey(): { key: string; prefix: string } {
  const prefix = randomBytes(4).toString('hex');
  return { key: `iam_${prefix}_${randomBytes(32).toString('base64url')}`, prefix };
}

/** Recognises `iam_` bearers; any other token is not ours (null). A wrong `iam_` key is a 401. */
export function apiKeyVerifier(app: FastifyInstance): BearerVerifier {
  return async (token) => {
    if (!token.startsWith('iam_')) return null;
    if (!API_KEY_RE.test(token)) throw new AppError(401, 'invalid_token');
    // lookup by the SHA-256 of a 256-bit secret: the timing of an index lookup reveals nothing usable
    const account = await app.db.kysely.selectFrom('accounts').selectAll().where('api_key_hash', '=', sha256Hex(token)).executeTakeFirst();
    if (!account || account.type !== 'user' || !account.technical) throw new AppError(401, 'invalid_token');
    return { account, via: 'api_key' };
  };
}

const routes: FastifyPluginAsyncZod = async (app) => {
  // first in line: it answers null at once for anything that is not an `iam_` key
  app.bearerVerifiers.unshift(apiKeyVerifier(app));

  app.post(
    '/admin/users/:id/token-generate',
    {
      onRequest: requireAdmin('super_admin', 'manager'),
      schema: {
        tags: ['api keys'],
        summary: 'Generates an API key for a technical user (shown once; replaces the previous key)',
        security: [{ bearer: [] }],
        params: z.object({ id: z.string().min(1).max(64).regex(NO_CONTROL) }),
        response: { 200: z.object({ data: z.object({ api_key: z.string() }) }), ...errorResponses(401, 403, 404, 422) },
      },
    },
    async (request) => {
      const target = await app.db.kysely.selectFrom('accounts').select(['id', 'type', 'technical']).where('id', '=', request.params.id).executeTakeFirst();
      if (!target) throw new AppError(404, 'not_found');
      if (target.type !== 'user' || !target.technical) throw new AppError(422, 'not_technical');
      const { key, prefix } = newApiKey();
      const now = nowIso();
      await app.db.kysely.transaction().execute(async (trx) => {
        await trx.updateTable('accounts').set({ api_key_hash: sha256Hex(key), api_key_prefix: prefix, api_key_created_at: now, updated_at: now }).where('id', '=', target.id).execute();
        // the prefix identifies the key without revealing it ("api_key" fields are redacted by audit())
        await audit(request, 'user.api_key_generated', 'user', target.id, null, { key_prefix: prefix }, trx);
      });
      return { data: { api_key: key } };
    },
  );
};
export default routes;
