import { type Kysely, PostgresAdapter } from 'kysely';

/**
 * Avatars in the database (issue 30.2): they were files under `$IAM_DATA_DIR/avatars` on the instance that took the
 * upload, so the other instances answered 404. Each avatar is one row, keyed by the name the account's `avatar`
 * column already holds (`<uuid>.png`); uploads are re-encoded PNGs of at most 1200×600 (a few KB to a few hundred).
 * Expand step only: the table is new, nothing existing changes, so the previous release keeps working beside it.
 * Files of an older release are copied in at start by `importAvatarFiles` (server/services/admin/avatars.ts), which
 * needs the data directory a migration does not know.
 */
/* eslint-disable @typescript-eslint/no-explicit-any -- migrations are frozen in time and must not depend on current types */
export async function up(db: Kysely<any>): Promise<void> {
  const binary = db.getExecutor().adapter instanceof PostgresAdapter ? 'bytea' : 'blob';
  await db.schema
    .createTable('avatar_images')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('content', binary, (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('avatar_images').ifExists().execute();
}
