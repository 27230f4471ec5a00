import type { Kysely } from 'kysely';

/* eslint-disable @typescript-eslint/no-explicit-any -- migrations are frozen in time and must not depend on current types */
/** oidc_models.account_id: the account a session/grant/token belongs to, so all of them can be ended at once. */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('oidc_models').addColumn('account_id', 'text').execute();
  await db.schema.createIndex('oidc_models_account_idx').on('oidc_models').columns(['account_id', 'model']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('oidc_models_account_idx').ifExists().execute();
  await db.schema.alterTable('oidc_models').dropColumn('account_id').execute();
}
