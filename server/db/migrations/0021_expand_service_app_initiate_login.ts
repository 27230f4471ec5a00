import type { Kysely } from 'kysely';

/**
 * A service app's `initiate_login_uri` (OpenID Connect Core 1.0 §4, Registration metadata): where the portal's home
 * page sends a person who opens the app, so the app starts its own sign-in (the page adds `iss`). Null: the home page
 * opens the app's address (`url`), never its redirect URI (a callback without a code is an error in every library).
 * Expand step only: one nullable column (a previous release ignores it).
 */
/* eslint-disable @typescript-eslint/no-explicit-any -- migrations are frozen in time and must not depend on current types */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('service_apps').addColumn('initiate_login_uri', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('service_apps').dropColumn('initiate_login_uri').execute();
}
