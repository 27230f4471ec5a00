import path from 'node:path';
import { loadConfig } from '../config';
import { createDb, migrateToLatest } from '../db/index';
import { rotateSigningKeys } from '../oidc/keys';

/** `npm run keys:rotate`: new active signing key; the previous one stays published until its tokens expire. */
const config = loadConfig();
const db = createDb({ databaseUrl: config.databaseUrl, sqliteFile: path.join(config.dataDir, 'iam.sqlite') });
try {
  await migrateToLatest(db);
  const { kid, retired } = await rotateSigningKeys(db.kysely);
  console.log(`New active signing key ${kid}.${retired.length ? ` Retired: ${retired.join(', ')}.` : ''} Restart the server instances to sign with it.`);
} finally {
  await db.close();
}
