import type { Kysely } from 'kysely';

/**
 * Passkeys (WebAuthn, issue 33).
 *
 * - `passkeys`: one row per registered credential of an account: its id and COSE public key (base64url), the sign
 *   counter (a response whose counter does not grow is a cloned authenticator and is refused), the backup flags
 *   (`backup_eligible` = BE, `backed_up` = BS of the authenticator data), the transports and attachment the browser
 *   reported, the name the person gave it, when it was registered and last used. Deleted with the account.
 * - `webauthn_challenges`: the challenges handed out and not yet answered, shared by every instance: single use (a
 *   verification deletes its row first), bound to what asked for it (`interaction_uid` for a sign-in, `grant_id` =
 *   the session for a registration from the profile), valid until `expires_at` (epoch ms). Expired rows are deleted by
 *   the provider cleanup every 10 minutes.
 * Expand step only: two new tables, nothing existing changes.
 */
/* eslint-disable @typescript-eslint/no-explicit-any -- migrations are frozen in time and must not depend on current types */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('passkeys')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('credential_id', 'text', (c) => c.notNull().unique())
    .addColumn('public_key', 'text', (c) => c.notNull())
    .addColumn('counter', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('transports', 'text')
    .addColumn('attachment', 'text')
    .addColumn('backup_eligible', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('backed_up', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('aaguid', 'text')
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('last_used_at', 'text')
    .execute();
  await db.schema.createIndex('passkeys_account_idx').on('passkeys').column('account_id').execute();
  await db.schema
    .createTable('webauthn_challenges')
    .addColumn('challenge', 'text', (c) => c.primaryKey())
    .addColumn('purpose', 'text', (c) => c.notNull())
    .addColumn('account_id', 'text')
    .addColumn('interaction_uid', 'text')
    .addColumn('grant_id', 'text')
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('webauthn_challenges_expires_idx').on('webauthn_challenges').column('expires_at').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('webauthn_challenges').ifExists().execute();
  await db.schema.dropTable('passkeys').ifExists().execute();
}
