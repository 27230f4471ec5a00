import path from 'node:path';
import { loadConfig } from '../config';
import { createDb, migrateToLatest } from '../db/index';
import { RotationRefused, rotateEncryptionKey } from '../services/encryption-rotation';

/**
 * `npm run keys:rotate-encryption` (docs/OPERATIONS.md, "Encryption key"): re-encrypts every stored TOTP secret from
 * the current key (IAM_ENCRYPTION_KEY, unset or empty = the database's part alone) to a new one (IAM_ENCRYPTION_KEY_NEW,
 * plus a fresh database part) in one transaction. Then restart every instance with IAM_ENCRYPTION_KEY set to the new
 * key. `--database-only` with an empty IAM_ENCRYPTION_KEY_NEW goes back to a key held in the database alone.
 * Exit 0 done, 1 refused (nothing changed), 78 usage.
 */
const config = loadConfig();
const next = config.encryptionPepperNext;
const databaseOnly = process.argv.includes('--database-only');
if (next === undefined || (next === '' && !databaseOnly)) {
  console.error('Set IAM_ENCRYPTION_KEY_NEW to the new key (e.g. `openssl rand -base64 32`) and IAM_ENCRYPTION_KEY to the current one (unset if none). An empty new key (the database alone holds the key) needs --database-only.');
  process.exit(78);
}
if (next !== '' && next.length < 16) {
  console.error('IAM_ENCRYPTION_KEY_NEW is too short: use at least 16 characters (e.g. `openssl rand -base64 32`).');
  process.exit(78);
}
const db = createDb({ databaseUrl: config.databaseUrl, sqliteFile: path.join(config.dataDir, 'iam.sqlite') });
let code = 0;
try {
  await migrateToLatest(db);
  const { secrets } = await rotateEncryptionKey(db, config.encryptionPepper, next);
  console.log(
    `re-encrypted ${secrets} TOTP secret${secrets === 1 ? '' : 's'} under the new key (one transaction). Now restart every instance with IAM_ENCRYPTION_KEY set to the new key${next === '' ? ' (unset)' : ''}: until it restarts, an instance with the old key fails authenticator-app sign-ins (logged) and, after the first such failure, answers readiness 503 encryption_key_mismatch.`,
  );
} catch (err) {
  if (!(err instanceof RotationRefused)) throw err;
  console.error(`refused: ${err.message}`);
  code = 1;
} finally {
  await db.close();
}
process.exit(code);
