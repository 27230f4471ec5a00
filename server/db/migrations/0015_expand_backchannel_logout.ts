import type { Kysely } from 'kysely';

/* eslint-disable @typescript-eslint/no-explicit-any -- migrations are frozen in time and must not depend on current types */
/**
 * OpenID Connect Back-Channel Logout 1.0 (issue 31.1). Expand step only: new nullable or defaulted columns and a new
 * table; the previous release neither reads nor writes them and keeps working.
 *
 * service_apps:
 * - backchannel_logout_uri: where the app receives logout tokens (null: the app is not told);
 * - backchannel_logout_session_required: the app's registration says it needs `sid` (0/1; every ID token carries one);
 * - backchannel_delivered_at / backchannel_failed_at / backchannel_error: the last delivery, the last failed attempt
 *   and its error, for the admin's view of the app.
 *
 * logout_deliveries: the durable queue (server/oidc/backchannel-logout.ts). One row per logout token to send (app,
 * subject, session id); it is deleted once delivered and kept as `failed` when the retries are used up. A worker takes
 * due rows under a lease (`lease_owner`, `lease_until` epoch ms) as the import jobs do (0006), so several instances on
 * one database never send a row twice at once, and a row whose instance died is taken over when its lease runs out.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('service_apps').addColumn('backchannel_logout_uri', 'text').execute();
  await db.schema.alterTable('service_apps').addColumn('backchannel_logout_session_required', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  await db.schema.alterTable('service_apps').addColumn('backchannel_delivered_at', 'text').execute();
  await db.schema.alterTable('service_apps').addColumn('backchannel_failed_at', 'text').execute();
  await db.schema.alterTable('service_apps').addColumn('backchannel_error', 'text').execute();

  await db.schema
    .createTable('logout_deliveries')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('service_app_id', 'text', (c) => c.notNull().references('service_apps.id').onDelete('cascade'))
    .addColumn('account_id', 'text', (c) => c.notNull())
    .addColumn('sid', 'text')
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('pending'))
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_attempt_at', 'bigint', (c) => c.notNull())
    .addColumn('lease_owner', 'text')
    .addColumn('lease_until', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('last_error', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('logout_deliveries_due_idx').on('logout_deliveries').columns(['status', 'next_attempt_at']).execute();
  await db.schema.createIndex('logout_deliveries_app_idx').on('logout_deliveries').columns(['service_app_id', 'status']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('logout_deliveries').ifExists().execute();
  await db.schema.alterTable('service_apps').dropColumn('backchannel_error').execute();
  await db.schema.alterTable('service_apps').dropColumn('backchannel_failed_at').execute();
  await db.schema.alterTable('service_apps').dropColumn('backchannel_delivered_at').execute();
  await db.schema.alterTable('service_apps').dropColumn('backchannel_logout_session_required').execute();
  await db.schema.alterTable('service_apps').dropColumn('backchannel_logout_uri').execute();
}
