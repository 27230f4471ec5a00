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
import { displayName } from '../../services/account-passwords';
import type { Account } from '../../db/schema';

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

export const API_KEY_ACTIONS = ['user.api_key_generated', 'user.api_key_revoked'] as const;

/** Tells the account's owner that a key was generated or revoked (a mail failure is logged, never fails the request). */
async function notifyOwner(app: FastifyInstance, target: Pick<Account, 'email' | 'locale' | 'first_name' | 'last_name'>, template: 'api_key_generated' | 'api_key_revoked', prefix: string): Promise<void> {
  try {
    await app.mailer.send({ to: target.email, template, locale: target.locale, params: { name: displayName(target), key_prefix: prefix } });
  } catch (err) {
    app.log.error({ err: err instanceof Error ? err.message : String(err) }, `${template} mail failed`);
  }
}

const routes: FastifyPluginAsyncZod = async (app) => {
  // first in line: it answers null at once for anything that is not an `iam_` key
  app.bearerVerifiers.unshift(apiKeyVerifier(app));
  const params = z.object({ id: z.string().min(1).max(64).regex(NO_CONTROL) });
  const guard = requireAdmin('super_admin', 'manager');

  app.post(
    '/admin/users/:id/token-generate',
    {
      onRequest: guard,
      schema: {
        tags: ['api keys'],
        summary: 'Generates an API key for a technical user (shown once; replaces the previous key; audited, the owner is mailed)',
        security: [{ bearer: [] }],
        params,
        response: { 200: z.object({ data: z.object({ api_key: z.string() }) }), ...errorResponses(401, 403, 404, 422) },
      },
    },
    async (request) => {
      const target = await app.db.kysely.selectFrom('accounts').selectAll().where('id', '=', request.params.id).executeTakeFirst();
      if (!target) throw new AppError(404, 'not_found');
      if (target.type !== 'user' || !target.technical) throw new AppError(422, 'not_technical');
      const { key, prefix } = newApiKey();
      const now = nowIso();
      await app.db.kysely.transaction().execute(async (trx) => {
        await trx.updateTable('accounts').set({ api_key_hash: sha256Hex(key), api_key_prefix: prefix, api_key_created_at: now, updated_at: now }).where('id', '=', target.id).execute();
        // the prefix identifies the key without revealing it ("api_key" fields are redacted by audit())
        await audit(request, 'user.api_key_generated', 'user', target.id, target.api_key_prefix ? { key_prefix: target.api_key_prefix } : null, { key_prefix: prefix }, trx);
      });
      await notifyOwner(app, target, 'api_key_generated', prefix);
      return { data: { api_key: key } };
    },
  );

  app.delete(
    '/admin/users/:id/token',
    {
      onRequest: guard,
      schema: {
        tags: ['api keys'],
        summary: "Revokes a technical user's API key at once (audited, the owner is mailed); `revoked: false` when there was none",
        security: [{ bearer: [] }],
        params,
        response: { 200: z.object({ data: z.object({ id: z.string(), revoked: z.boolean() }) }), ...errorResponses(401, 403, 404) },
      },
    },
    async (request) => {
      const target = await app.db.kysely.selectFrom('accounts').selectAll().where('id', '=', request.params.id).where('type', '=', 'user').executeTakeFirst();
      if (!target) throw new AppError(404, 'not_found');
      if (!target.api_key_hash) return { data: { id: target.id, revoked: false } };
      const prefix = target.api_key_prefix ?? '';
      const revoked = await app.db.kysely.transaction().execute(async (trx) => {
        // conditional on the key seen: a concurrent regenerate is not undone by this revoke
        const r = await trx
          .updateTable('accounts')
          .set({ api_key_hash: null, api_key_prefix: null, api_key_created_at: null, updated_at: nowIso() })
          .where('id', '=', target.id)
          .where('api_key_hash', '=', target.api_key_hash)
          .executeTakeFirst();
        if (Number(r.numUpdatedRows) !== 1) return false;
        await audit(request, 'user.api_key_revoked', 'user', target.id, { key_prefix: prefix }, null, trx);
        return true;
      });
      if (revoked) await notifyOwner(app, target, 'api_key_revoked', prefix);
      return { data: { id: target.id, revoked } };
    },
  );
};
export default routes;
