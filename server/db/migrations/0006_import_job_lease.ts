import type { Kysely } from 'kysely';

/**
 * Import jobs get an owner and a lease (issue 9): the running instance renews `lease_until` (epoch ms) with a
 * heartbeat; a job whose lease ran out belongs to a dead instance and is closed as failed (`import_interrupted`)
 * with the counts committed so far, which are exact because each batch updates them in its own transaction.
 * Jobs left `running` before this migration have no lease (0) and are closed the same way.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('import_jobs').addColumn('owner', 'text').execute();
  await db.schema.alterTable('import_jobs').addColumn('heartbeat_at', 'text').execute();
  await db.schema.alterTable('import_jobs').addColumn('lease_until', 'bigint', (c) => c.notNull().defaultTo(0)).execute();
  await db.schema.createIndex('import_jobs_running_idx').on('import_jobs').columns(['status', 'lease_until']).execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('import_jobs_running_idx').ifExists().execute();
  await db.schema.alterTable('import_jobs').dropColumn('lease_until').execute();
  await db.schema.alterTable('import_jobs').dropColumn('heartbeat_at').execute();
  await db.schema.alterTable('import_jobs').dropColumn('owner').execute();
}
