import type { Kysely } from 'kysely';

/**
 * Several redirect URIs per service app (issue 31.2): `redirect_uris` and `post_logout_redirect_uris`, each a JSON array
 * of exact URIs in a text column (read with the row the provider loads for the client; the provider matches in memory,
 * so no lookup by URI needs a table of its own). Expand step: both columns are nullable and `url` + `path` stay; the
 * previous release keeps reading and writing url + path, and this release keeps them equal to the first redirect URI.
 * A row the previous release writes after this migration has null lists: this release reads it as url + path (and the
 * contract migration that later drops url + path fills such rows first). While instances of the previous release still
 * serve, they register only the first redirect URI and the post-logout URIs derived from url: an app's further URIs
 * work everywhere once every instance runs this release.
 *
 * Backfill: every app gets its one redirect URI (url without trailing slashes, then path) and the post-logout URIs it
 * had (the bare url with and without a trailing slash, and the redirect URI). The logic is copied here on purpose: a
 * migration is frozen in time.
 */
/* eslint-disable @typescript-eslint/no-explicit-any -- migrations are frozen in time and must not depend on current types */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('service_apps').addColumn('redirect_uris', 'text').execute();
  await db.schema.alterTable('service_apps').addColumn('post_logout_redirect_uris', 'text').execute();
  const apps = (await db.selectFrom('service_apps').select(['id', 'url', 'path']).execute()) as { id: string; url: string; path: string }[];
  for (const app of apps) {
    const base = app.url.trim().replace(/\/+$/, '');
    const redirect = `${base}${app.path.trim()}`;
    await db
      .updateTable('service_apps')
      .set({ redirect_uris: JSON.stringify([redirect]), post_logout_redirect_uris: JSON.stringify([...new Set([`${base}/`, base, redirect])]) })
      .where('id', '=', app.id)
      .execute();
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('service_apps').dropColumn('post_logout_redirect_uris').execute();
  await db.schema.alterTable('service_apps').dropColumn('redirect_uris').execute();
}
