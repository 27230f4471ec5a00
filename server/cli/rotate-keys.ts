import path from 'node:path';
import { loadConfig } from '../config';
import { createDb, migrateToLatest } from '../db/index';
import { keyPolicy, rotationMessage, scheduleRotation } from '../oidc/keys';

/**
 * `npm run keys:rotate`: publishes a new signing key now and schedules it to sign from now +
 * IAM_KEYS_PREPUBLISH_SECONDS (default 1 h, at least IAM_JWKS_MAX_AGE_SECONDS + 3 × IAM_KEYS_POLL_SECONDS).
 * Running instances publish it in /oidc/jwks within one poll, switch to it within one poll after that time, and
 * keep publishing the old key (as `previous`) until every token it signed has expired. No restart needed.
 */
const config = loadConfig();
const policy = keyPolicy(config);
const db = createDb({ databaseUrl: config.databaseUrl, sqliteFile: path.join(config.dataDir, 'iam.sqlite') });
try {
  await migrateToLatest(db);
  console.log(rotationMessage(await scheduleRotation(db, policy), policy));
} finally {
  await db.close();
}
