import type { Kysely } from 'kysely';

/**
 * Sessions and devices (issue 33, second half).
 *
 * - `account_sessions`: what the product knows of one provider session (oidc-provider's `Session`, kept in
 *   `oidc_models`), keyed by the session's `uid` (stable for the session's life): the browser's User-Agent, the client
 *   address and the approximate place (ISO 3166-1 country code, only from the header the operator names,
 *   IAM_PLACE_HEADER) at sign-in, when it signed in, when it was last used (written at most once a minute) and when
 *   the session expires (the row is deleted after it). The provider's row stays the truth: a session is live while its
 *   `oidc_models` row is; a row here without one is ignored and cleaned up.
 * - `account_devices`: the browsers an account signed in from, for the "new device" mail: the SHA-256 of the id in the
 *   browser's signed device cookie plus the User-Agent family (browser and system). Rows not seen for 400 days go.
 * Expand step only: two new tables, nothing existing changes (a previous release ignores them).
 */
/* eslint-disable @typescript-eslint/no-explicit-any -- migrations are frozen in time and must not depend on current types */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('account_sessions')
    .addColumn('uid', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull())
    .addColumn('user_agent', 'text')
    .addColumn('ip_address', 'text')
    .addColumn('place', 'text')
    .addColumn('signed_in_at', 'text', (c) => c.notNull())
    .addColumn('last_used_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('account_sessions_account_idx').on('account_sessions').column('account_id').execute();
  await db.schema.createIndex('account_sessions_expires_idx').on('account_sessions').column('expires_at').execute();
  await db.schema
    .createTable('account_devices')
    .addColumn('account_id', 'text', (c) => c.notNull())
    .addColumn('device_hash', 'text', (c) => c.notNull())
    .addColumn('family', 'text', (c) => c.notNull())
    .addColumn('first_seen_at', 'text', (c) => c.notNull())
    .addColumn('last_seen_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('account_devices_pk', ['account_id', 'device_hash', 'family'])
    .execute();
  await db.schema.createIndex('account_devices_seen_idx').on('account_devices').column('last_seen_at').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('account_devices').ifExists().execute();
  await db.schema.dropTable('account_sessions').ifExists().execute();
}
