import type { Kysely } from 'kysely';

/* eslint-disable @typescript-eslint/no-explicit-any -- migrations are frozen in time and must not depend on current types */
/**
 * How a confidential service app authenticates at the token endpoint: `client_secret_basic` (default, the
 * behaviour so far) or `client_secret_post` (secret in the request body, e.g. passport-openidconnect).
 * Public apps ignore it (always `none`).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('service_apps').addColumn('token_endpoint_auth_method', 'text', (c) => c.notNull().defaultTo('client_secret_basic')).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('service_apps').dropColumn('token_endpoint_auth_method').execute();
}
