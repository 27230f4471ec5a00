import { sql, type Kysely } from 'kysely';

/* eslint-disable @typescript-eslint/no-explicit-any -- migrations are frozen in time and must not depend on current types */
/**
 * Signing-key rollover states next → active → previous → retired with their timestamps, and the one-active
 * invariant in the database itself: a partial unique index allows at most one `active` and at most one `next` row.
 * The table is rebuilt (SQLite cannot change a CHECK constraint). Rows left over by the old race (several
 * `active` keys) are repaired first: the newest stays active, the others become `previous`.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const now = new Date().toISOString();
  await db.schema
    .createTable('signing_keys_v2')
    .addColumn('kid', 'text', (c) => c.primaryKey())
    .addColumn('alg', 'text', (c) => c.notNull())
    .addColumn('private_jwk', 'text', (c) => c.notNull())
    .addColumn('public_jwk', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ('next','active','previous','retired')`))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('activates_at', 'text')
    .addColumn('rotated_at', 'text')
    .addColumn('retired_at', 'text')
    .execute();
  await sql`insert into signing_keys_v2 (kid, alg, private_jwk, public_jwk, status, created_at, activates_at, rotated_at, retired_at)
    select kid, alg, private_jwk, public_jwk, status, created_at, created_at, rotated_at, case when status = 'retired' then coalesce(rotated_at, created_at) end
    from signing_keys`.execute(db);
  await sql`update signing_keys_v2 set status = 'previous', rotated_at = ${now}
    where status = 'active' and kid <> (select kid from signing_keys_v2 where status = 'active' order by created_at desc, kid desc limit 1)`.execute(db);
  await db.schema.dropTable('signing_keys').execute();
  await db.schema.alterTable('signing_keys_v2').renameTo('signing_keys').execute();
  await sql`create unique index signing_keys_one_active on signing_keys (status) where status = 'active'`.execute(db);
  await sql`create unique index signing_keys_one_next on signing_keys (status) where status = 'next'`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('signing_keys_v1')
    .addColumn('kid', 'text', (c) => c.primaryKey())
    .addColumn('alg', 'text', (c) => c.notNull())
    .addColumn('private_jwk', 'text', (c) => c.notNull())
    .addColumn('public_jwk', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ('active','previous','retired')`))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('rotated_at', 'text')
    .execute();
  await sql`insert into signing_keys_v1 (kid, alg, private_jwk, public_jwk, status, created_at, rotated_at)
    select kid, alg, private_jwk, public_jwk, status, created_at, rotated_at from signing_keys where status <> 'next'`.execute(db);
  await db.schema.dropTable('signing_keys').execute();
  await db.schema.alterTable('signing_keys_v1').renameTo('signing_keys').execute();
}
