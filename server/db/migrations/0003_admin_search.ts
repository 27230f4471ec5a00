import { type Kysely, PostgresAdapter, sql } from 'kysely';

/**
 * Admin console at scale (issue "Admin and account API"):
 * - substring search on accounts.search_text through a trigram index:
 *   PostgreSQL: pg_trgm GIN index; SQLite: FTS5 table with the trigram tokenizer, external content on
 *   accounts.rowid, kept in sync by triggers (after a VACUUM run `INSERT INTO accounts_fts(accounts_fts) VALUES('rebuild')`).
 * - account_counters: maintained count of accounts per type, for unfiltered list totals in O(1).
 * - import_jobs: progress and report of CSV imports, readable by every instance.
 */
/* eslint-disable @typescript-eslint/no-explicit-any -- migrations are frozen in time and must not depend on current types */
async function dialectOf(db: Kysely<any>): Promise<'sqlite' | 'postgres'> {
  return db.getExecutor().adapter instanceof PostgresAdapter ? 'postgres' : 'sqlite';
}

export async function up(db: Kysely<any>): Promise<void> {
  const dialect = await dialectOf(db);

  await db.schema
    .createTable('account_counters')
    .addColumn('type', 'text', (c) => c.primaryKey())
    .addColumn('n', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();
  await sql`insert into account_counters (type, n) select t.type, (select count(*) from accounts a where a.type = t.type) from (select 'user' as type union all select 'admin') t`.execute(db);

  await db.schema
    .createTable('import_jobs')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('actor_id', 'text')
    .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ('queued','running','done','failed')`))
    .addColumn('dry_run', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('send_invitations', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('total', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('processed', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('skipped_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('failed_count', 'integer', (c) => c.notNull().defaultTo(0))
    /** JSON report {total, created, skipped, failed}, set when done */
    .addColumn('report', 'text')
    .addColumn('error_code', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addColumn('finished_at', 'text')
    .execute();
  // accounts.created_by references accounts.id (on delete set null): without this index every account deletion
  // scans the whole table
  await db.schema.createIndex('accounts_created_by_idx').on('accounts').column('created_by').execute();

  await db.schema.createIndex('import_jobs_time_idx').on('import_jobs').column('created_at').execute();

  if (dialect === 'postgres') {
    // the extension is database-wide: install it in public once (concurrent migrations may race), then use its schema
    const extSchema = async () =>
      (await sql<{ nspname: string }>`select n.nspname from pg_extension e join pg_namespace n on n.oid = e.extnamespace where e.extname = 'pg_trgm'`.execute(db)).rows[0]?.nspname;
    let schema = await extSchema();
    if (!schema) {
      // migrations run in a transaction: a savepoint keeps it usable if another migration created it meanwhile
      await sql`savepoint pg_trgm_ext`.execute(db);
      try {
        await sql`create extension if not exists pg_trgm schema public`.execute(db);
        await sql`release savepoint pg_trgm_ext`.execute(db);
      } catch {
        await sql`rollback to savepoint pg_trgm_ext`.execute(db);
      }
      schema = (await extSchema()) ?? 'public';
    }
    await sql`create index accounts_search_trgm_idx on accounts using gin (search_text ${sql.id(schema)}.gin_trgm_ops)`.execute(db);
    await sql`create or replace function accounts_count_ins() returns trigger language plpgsql as $$
      begin
        update account_counters c set n = c.n + x.k from (select type, count(*) as k from new_rows group by type) x where c.type = x.type;
        return null;
      end $$`.execute(db);
    await sql`create or replace function accounts_count_del() returns trigger language plpgsql as $$
      begin
        update account_counters c set n = c.n - x.k from (select type, count(*) as k from old_rows group by type) x where c.type = x.type;
        return null;
      end $$`.execute(db);
    await sql`create trigger accounts_count_ins_trg after insert on accounts referencing new table as new_rows for each statement execute function accounts_count_ins()`.execute(db);
    await sql`create trigger accounts_count_del_trg after delete on accounts referencing old table as old_rows for each statement execute function accounts_count_del()`.execute(db);
  } else {
    await sql`create virtual table accounts_fts using fts5(search_text, content='accounts', content_rowid='rowid', tokenize='trigram')`.execute(db);
    await sql`insert into accounts_fts(accounts_fts) values ('rebuild')`.execute(db);
    await sql`create trigger accounts_fts_ai after insert on accounts begin
        insert into accounts_fts(rowid, search_text) values (new.rowid, new.search_text);
        update account_counters set n = n + 1 where type = new.type;
      end`.execute(db);
    await sql`create trigger accounts_fts_ad after delete on accounts begin
        insert into accounts_fts(accounts_fts, rowid, search_text) values ('delete', old.rowid, old.search_text);
        update account_counters set n = n - 1 where type = old.type;
      end`.execute(db);
    await sql`create trigger accounts_fts_au after update of search_text on accounts when old.search_text is not new.search_text begin
        insert into accounts_fts(accounts_fts, rowid, search_text) values ('delete', old.rowid, old.search_text);
        insert into accounts_fts(rowid, search_text) values (new.rowid, new.search_text);
      end`.execute(db);
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  const dialect = await dialectOf(db);
  if (dialect === 'postgres') {
    await sql`drop trigger if exists accounts_count_ins_trg on accounts`.execute(db);
    await sql`drop trigger if exists accounts_count_del_trg on accounts`.execute(db);
    await sql`drop function if exists accounts_count_ins()`.execute(db);
    await sql`drop function if exists accounts_count_del()`.execute(db);
    await sql`drop index if exists accounts_search_trgm_idx`.execute(db);
  } else {
    for (const t of ['accounts_fts_ai', 'accounts_fts_ad', 'accounts_fts_au']) await sql`drop trigger if exists ${sql.raw(t)}`.execute(db);
    await sql`drop table if exists accounts_fts`.execute(db);
  }
  await db.schema.dropIndex('accounts_created_by_idx').ifExists().execute();
  await db.schema.dropTable('import_jobs').ifExists().execute();
  await db.schema.dropTable('account_counters').ifExists().execute();
}
