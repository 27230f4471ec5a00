import { randomBytes, randomUUID } from 'node:crypto';
import { exportJWK, generateKeyPair, type JWK } from 'jose';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';
import { nowIso } from '../db/index';

export const SIGNING_ALG = 'RS256';
/**
 * How long a rotated-out key stays published: longer than any token it signed can live
 * (access tokens 10 min, id tokens 1 h) plus clock tolerance.
 */
export const PREVIOUS_KEY_RETENTION_SECONDS = 2 * 60 * 60;

async function newKeyRow() {
  const { privateKey, publicKey } = await generateKeyPair(SIGNING_ALG, { extractable: true, modulusLength: 2048 });
  const kid = randomUUID();
  const priv = { ...(await exportJWK(privateKey)), kid, alg: SIGNING_ALG, use: 'sig' };
  const pub = { ...(await exportJWK(publicKey)), kid, alg: SIGNING_ALG, use: 'sig' };
  return { kid, alg: SIGNING_ALG, private_jwk: JSON.stringify(priv), public_jwk: JSON.stringify(pub), status: 'active' as const, created_at: nowIso(), rotated_at: null };
}

/** Private JWKs to sign with: active keys first (newest first), then previous ones still published. */
export async function loadSigningKeys(db: Kysely<Database>): Promise<JWK[]> {
  let rows = await db.selectFrom('signing_keys').selectAll().where('status', 'in', ['active', 'previous']).orderBy('created_at', 'desc').execute();
  if (!rows.some((r) => r.status === 'active')) {
    await db.insertInto('signing_keys').values(await newKeyRow()).execute();
    rows = await db.selectFrom('signing_keys').selectAll().where('status', 'in', ['active', 'previous']).orderBy('created_at', 'desc').execute();
  }
  const ordered = [...rows.filter((r) => r.status === 'active'), ...rows.filter((r) => r.status === 'previous')];
  return ordered.map((r) => JSON.parse(r.private_jwk) as JWK);
}

/** Public JWKs currently published (active and previous). */
export async function loadPublicKeys(db: Kysely<Database>): Promise<JWK[]> {
  const rows = await db.selectFrom('signing_keys').select(['public_jwk']).where('status', 'in', ['active', 'previous']).execute();
  return rows.map((r) => JSON.parse(r.public_jwk) as JWK);
}

/**
 * Makes a new active key; the old active one becomes `previous` (still published, still verifying its
 * tokens) and previous keys older than the retention are retired. Instances pick the new key up on
 * restart; until then they keep signing with the old one, which stays published.
 */
export async function rotateSigningKeys(db: Kysely<Database>, now = new Date()): Promise<{ kid: string; retired: string[] }> {
  const row = await newKeyRow();
  const cutoff = new Date(now.getTime() - PREVIOUS_KEY_RETENTION_SECONDS * 1000).toISOString();
  return db.transaction().execute(async (trx) => {
    const retired = await trx.selectFrom('signing_keys').select('kid').where('status', '=', 'previous').where('rotated_at', '<', cutoff).execute();
    if (retired.length) await trx.updateTable('signing_keys').set({ status: 'retired' }).where('kid', 'in', retired.map((r) => r.kid)).execute();
    await trx.updateTable('signing_keys').set({ status: 'previous', rotated_at: now.toISOString() }).where('status', '=', 'active').execute();
    await trx.insertInto('signing_keys').values(row).execute();
    return { kid: row.kid, retired: retired.map((r) => r.kid) };
  });
}

/** Cookie signing keys shared by every instance (app_settings `oidc_cookie_keys`), created once. */
export async function loadCookieKeys(db: Kysely<Database>): Promise<string[]> {
  const key = 'oidc_cookie_keys';
  await db
    .insertInto('app_settings')
    .values({ key, value: JSON.stringify([randomBytes(32).toString('base64url')]), updated_at: nowIso() })
    .onConflict((oc) => oc.column('key').doNothing())
    .execute();
  const row = await db.selectFrom('app_settings').select('value').where('key', '=', key).executeTakeFirstOrThrow();
  const parsed: unknown = JSON.parse(row.value);
  if (!Array.isArray(parsed) || !parsed.every((k): k is string => typeof k === 'string') || parsed.length === 0) {
    throw new Error('app_settings.oidc_cookie_keys is malformed');
  }
  return parsed;
}
