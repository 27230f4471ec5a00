import { randomBytes } from 'node:crypto';
import type { Db } from '../db/index';
import { nowIso } from '../db/index';
import type { Queries } from './deps';
import { ENCRYPTION_CHECK_MARKER, ENCRYPTION_CHECK_SETTING, decryptWith, deriveEncryptionKey, encryptWith } from './server-secrets';

/** `app_settings` key of the database's part of the TOTP encryption key (server-secrets.ts `serverSecret('encryption')`). */
const BASE_SETTING = 'secret:encryption';

/** The rotation was refused; nothing was changed. */
export class RotationRefused extends Error {}

export interface RotationResult {
  /** TOTP secrets re-encrypted */
  secrets: number;
}

async function upsertSetting(trx: Queries, key: string, value: string): Promise<void> {
  await trx
    .insertInto('app_settings')
    .values({ key, value, updated_at: nowIso() })
    .onConflict((oc) => oc.column('key').doUpdateSet({ value, updated_at: nowIso() }))
    .execute();
}

/**
 * `npm run keys:rotate-encryption` (server/cli/rotate-encryption-key.ts): re-encrypts every stored TOTP secret from
 * the key made of the database's part and `from` (the IAM_ENCRYPTION_KEY in use, possibly empty) to a key made of a
 * fresh database part and `to`, and writes the key check value under the new key, all in one transaction. Refused
 * (RotationRefused, nothing changed) when `from` does not decrypt the key check value or any stored secret.
 */
export async function rotateEncryptionKey(db: Db, from: string, to: string): Promise<RotationResult> {
  return db.kysely.transaction().execute(async (trx) => {
    let baseQuery = trx.selectFrom('app_settings').select('value').where('key', '=', BASE_SETTING);
    // PostgreSQL: a second rotation at the same time waits for this one (SQLite has one writer anyway)
    if (db.dialect === 'postgres') baseQuery = baseQuery.forUpdate();
    const baseRow = await baseQuery.executeTakeFirst();
    const oldKey = baseRow ? deriveEncryptionKey(Buffer.from(baseRow.value, 'base64'), from) : null;
    const check = await trx.selectFrom('app_settings').select('value').where('key', '=', ENCRYPTION_CHECK_SETTING).executeTakeFirst();
    if (check && (!oldKey || decryptWith(oldKey, check.value) !== ENCRYPTION_CHECK_MARKER)) {
      throw new RotationRefused('IAM_ENCRYPTION_KEY is not the key in use: it does not decrypt the key check value. Set IAM_ENCRYPTION_KEY to the current key (empty or unset if none was set). Nothing was changed.');
    }
    const rows = await trx.selectFrom('accounts').select(['id', 'two_factor_secret']).where('two_factor_secret', 'is not', null).orderBy('id').execute();
    const newBase = randomBytes(32);
    const newKey = deriveEncryptionKey(newBase, to);
    let secrets = 0;
    for (const row of rows) {
      const plain = oldKey && row.two_factor_secret ? decryptWith(oldKey, row.two_factor_secret) : null;
      if (plain === null) {
        throw new RotationRefused(`the TOTP secret of account ${row.id} does not decrypt with IAM_ENCRYPTION_KEY. Set IAM_ENCRYPTION_KEY to the current key. Nothing was changed.`);
      }
      await trx.updateTable('accounts').set({ two_factor_secret: encryptWith(newKey, plain) }).where('id', '=', row.id).execute();
      secrets++;
    }
    await upsertSetting(trx, BASE_SETTING, newBase.toString('base64'));
    await upsertSetting(trx, ENCRYPTION_CHECK_SETTING, encryptWith(newKey, ENCRYPTION_CHECK_MARKER));
    return { secrets };
  });
}
