import { randomBytes } from 'node:crypto';
import { nowIso } from '../db/index';
import type { Account } from '../db/schema';
import { AppError } from '../errors';
import { API_KEY_RE } from '../../contract/account';
import { displayName } from './account-passwords';
import { recordAudit } from './admin/audit';
import type { Actor, Deps } from './deps';
import { sha256Hex } from './server-secrets';

/**
 * API keys for technical users: `iam_<prefix>_<secret>` (8 hex prefix, 256-bit base64url secret),
 * shown once; only the SHA-256 of the whole key and its prefix are stored. A new key replaces the old.
 * The key works as `Authorization: Bearer <key>` with that user's rights.
 */
export { API_KEY_RE };

export function newApiKey(): { key: string; prefix: string } {
  const prefix = randomBytes(4).toString('hex');
  return { key: `iam_${prefix}_${randomBytes(32).toString('base64url')}`, prefix };
}

/** What the bearer verifier answers for a valid key: the technical user it belongs to. */
export interface ApiKeyAuth {
  account: Account;
  via: 'api_key';
}

export function createApiKeysService(deps: Deps) {
  const db = deps.db.kysely;

  /** Tells the account's owner that a key was generated or revoked (a mail failure is logged, never fails the request). */
  async function notifyOwner(target: Pick<Account, 'email' | 'locale' | 'first_name' | 'last_name'>, template: 'api_key_generated' | 'api_key_revoked', prefix: string): Promise<void> {
    try {
      await deps.mailer.send({ to: target.email, template, locale: target.locale, params: { name: displayName(target), key_prefix: prefix } });
    } catch (err) {
      deps.log.error({ err: err instanceof Error ? err.message : String(err) }, `${template} mail failed`);
    }
  }

  return {
    /** Recognises `iam_` bearers; any other token is not ours (null). A wrong `iam_` key is a 401. */
    async verify(token: string): Promise<ApiKeyAuth | null> {
      if (!token.startsWith('iam_')) return null;
      if (!API_KEY_RE.test(token)) throw new AppError(401, 'invalid_token');
      // lookup by the SHA-256 of a 256-bit secret: the timing of an index lookup reveals nothing usable
      const account = await db.selectFrom('accounts').selectAll().where('api_key_hash', '=', sha256Hex(token)).executeTakeFirst();
      if (!account || account.type !== 'user' || !account.technical) throw new AppError(401, 'invalid_token');
      return { account, via: 'api_key' };
    },

    /** A new key for a technical user (replaces the previous one; audited, the owner is mailed). */
    async generate(actor: Actor, userId: string): Promise<{ api_key: string }> {
      const target = await db.selectFrom('accounts').selectAll().where('id', '=', userId).executeTakeFirst();
      if (!target) throw new AppError(404, 'not_found');
      if (target.type !== 'user' || !target.technical) throw new AppError(422, 'not_technical');
      const { key, prefix } = newApiKey();
      const now = nowIso();
      await db.transaction().execute(async (trx) => {
        await trx.updateTable('accounts').set({ api_key_hash: sha256Hex(key), api_key_prefix: prefix, api_key_created_at: now, updated_at: now }).where('id', '=', target.id).execute();
        // the prefix identifies the key without revealing it ("api_key" fields are redacted by the audit)
        await recordAudit(trx, actor, 'user.api_key_generated', 'user', target.id, target.api_key_prefix ? { key_prefix: target.api_key_prefix } : null, { key_prefix: prefix });
      });
      await notifyOwner(target, 'api_key_generated', prefix);
      return { api_key: key };
    },

    /** Revokes a user's key at once (audited, the owner is mailed); `revoked: false` when there was none. */
    async revoke(actor: Actor, userId: string): Promise<{ id: string; revoked: boolean }> {
      const target = await db.selectFrom('accounts').selectAll().where('id', '=', userId).where('type', '=', 'user').executeTakeFirst();
      if (!target) throw new AppError(404, 'not_found');
      if (!target.api_key_hash) return { id: target.id, revoked: false };
      const prefix = target.api_key_prefix ?? '';
      const revoked = await db.transaction().execute(async (trx) => {
        // conditional on the key seen: a concurrent regenerate is not undone by this revoke
        const r = await trx
          .updateTable('accounts')
          .set({ api_key_hash: null, api_key_prefix: null, api_key_created_at: null, updated_at: nowIso() })
          .where('id', '=', target.id)
          .where('api_key_hash', '=', target.api_key_hash)
          .executeTakeFirst();
        if (Number(r.numUpdatedRows) !== 1) return false;
        await recordAudit(trx, actor, 'user.api_key_revoked', 'user', target.id, { key_prefix: prefix }, null);
        return true;
      });
      if (revoked) await notifyOwner(target, 'api_key_revoked', prefix);
      return { id: target.id, revoked };
    },
  };
}
export type ApiKeysService = ReturnType<typeof createApiKeysService>;
