import type { Kysely } from 'kysely';

/**
 * Revocation of access tokens and DPoP replay protection (issue 31, points 3 and 4).
 *
 * - `revoked_access_tokens`: the `jti` of every JWT access token revoked at `/oidc/token/revocation` (RFC 7009), kept
 *   until the token would have expired (`expires_at`, epoch seconds, the token's `exp`); UserInfo, introspection and
 *   the REST API refuse a token whose jti is here (server/oidc/revocation.ts). The provider does not store our JWT
 *   access tokens, so this list is the only trace of a revocation.
 * - `dpop_proofs`: the DPoP proofs (RFC 9449) the resource endpoints accepted, keyed by a hash of the proof's key
 *   thumbprint and `jti`, kept while the proof could still be accepted (`expires_at`), so a proof is used once across
 *   every instance. Used without REDIS_URL; with it, the same keys live in Redis (server/oidc/dpop.ts).
 * Expired rows of both are deleted by the provider cleanup every 10 minutes (server/oidc/index.ts).
 * Expand step only: two new tables, nothing existing changes.
 */
/* eslint-disable @typescript-eslint/no-explicit-any -- migrations are frozen in time and must not depend on current types */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('revoked_access_tokens')
    .addColumn('jti', 'text', (c) => c.primaryKey())
    .addColumn('client_id', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('revoked_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('revoked_access_tokens_expires_idx').on('revoked_access_tokens').column('expires_at').execute();
  await db.schema
    .createTable('dpop_proofs')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('dpop_proofs_expires_idx').on('dpop_proofs').column('expires_at').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('dpop_proofs').ifExists().execute();
  await db.schema.dropTable('revoked_access_tokens').ifExists().execute();
}
