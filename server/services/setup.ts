import { AppError } from '../errors';
import type { Language } from '../i18n/index';
import { accountRow } from './accounts';
import { sha256 } from './bootstrap';
import type { Deps } from './deps';
import { hashPassword } from './passwords';

export interface SetupInput {
  token: string;
  email: string;
  first_name: string;
  last_name: string;
  password: string;
}

/**
 * One-time setup: when the first start had no IAM_ADMIN_EMAIL/PASSWORD, the printed link (server/services/bootstrap.ts)
 * leads to /admin/setup?token=..., which creates the first super_admin. The token works once, for 24 h, and only
 * while no administrator exists.
 */
export function createSetupService(deps: Pick<Deps, 'db' | 'clock'>) {
  const db = deps.db.kysely;
  return {
    /** 403 `invalid_link` unless the token is a live setup token. */
    async checkLink(token: string): Promise<void> {
      const live = await db
        .selectFrom('one_time_tokens')
        .select(['id'])
        .where('purpose', '=', 'setup')
        .where('token_hash', '=', sha256(token))
        .where('used_at', 'is', null)
        .where('expires_at', '>', deps.clock.nowIso())
        .executeTakeFirst();
      if (!live) throw new AppError(403, 'invalid_link');
    },

    /** Consumes the token and creates the super_admin (in `locale`): 403 `invalid_link` for a used or unknown token, 409 `setup_done` once an admin exists. */
    async complete(input: SetupInput, locale: Language): Promise<{ email: string }> {
      const hash = await hashPassword(input.password);
      const now = deps.clock.nowIso();
      await db.transaction().execute(async (trx) => {
        // consume first: of two concurrent requests only one gets the row
        const used = await trx
          .updateTable('one_time_tokens')
          .set({ used_at: now })
          .where('purpose', '=', 'setup')
          .where('token_hash', '=', sha256(input.token))
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
              email: input.email,
              first_name: input.first_name,
              last_name: input.last_name,
              admin_role: 'super_admin',
              status: 'ACTIVE',
              auth_type: 'CREDENTIALS',
              locale,
              technical: 0,
              password_hash: hash,
              password_changed_at: now,
              email_verified_at: now,
            }),
          )
          .execute();
      });
      return { email: input.email };
    },
  };
}
export type SetupService = ReturnType<typeof createSetupService>;
