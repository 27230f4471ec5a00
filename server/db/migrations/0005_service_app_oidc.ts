import type { Kysely } from 'kysely';

/* eslint-disable @typescript-eslint/no-explicit-any -- migrations are frozen in time and must not depend on current types */
/**
 * Per-app OIDC settings of service apps:
 * - pkce_required: confidential apps may opt out of PKCE (software that cannot send it); public apps
 *   always need it whatever this says.
 * - client_credentials: confidential apps may use the client_credentials grant (machine to machine).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('service_apps').addColumn('pkce_required', 'integer', (c) => c.notNull().defaultTo(1)).execute();
  await db.schema.alterTable('service_apps').addColumn('client_credentials', 'integer', (c) => c.notNull().defaultTo(0)).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('service_apps').dropColumn('client_credentials').execute();
  await db.schema.alterTable('service_apps').dropColumn('pkce_required').execute();
}
