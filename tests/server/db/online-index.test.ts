import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type pg from 'pg';
import { sql } from 'kysely';
import { buildOnlineIndexes, createDb, migrateToLatest, type Db } from '../../../server/db/index';
import { onlineIndexes } from '../../../server/db/migrations/0008_short_search';
import { insertAccountRow, lockTimeoutClient } from '../../helpers/pg-writer';

const url = process.env.TEST_DATABASE_URL;

/**
 * Migration 0008's GIN index on PostgreSQL (issue 15): built after the migrations' transaction, CONCURRENTLY on a big
 * table, so writes to accounts go on while it builds (built inside the transaction it held a SHARE lock on accounts:
 * 293 s at 1 M rows with every INSERT waiting). The build is made to wait here on an open snapshot (a CONCURRENTLY
 * build waits for older transactions before it completes), which holds it in progress on a small table.
 */
describe.skipIf(!url)('online index of migration 0008 [postgres]', () => {
  const schema = `iam_oi_${randomBytes(4).toString('hex')}`;
  let db: Db;
  let admin: Db;
  const client = () => lockTimeoutClient(url ?? '', schema);
  const insertAccount = (c: pg.Client, n: string) => insertAccountRow(c, { email: `oi-${n}@example.com` });
  const indexState = async () =>
    (
      await sql<{ valid: boolean; def: string }>`select i.indisvalid as valid, pg_get_indexdef(i.indexrelid) as def from pg_index i join pg_class x on x.oid = i.indexrelid join pg_namespace n on n.oid = x.relnamespace where n.nspname = ${schema} and x.relname = 'accounts_search_grams_idx'`.execute(admin.kysely)
    ).rows[0];

  beforeAll(async () => {
    admin = createDb({ databaseUrl: url, poolSize: 2 });
    await admin.kysely.schema.createSchema(schema).execute();
    db = createDb({ databaseUrl: url, pgSchema: schema, poolSize: 2 });
    await migrateToLatest(db);
  });
  afterAll(async () => {
    await db.close();
    await admin.kysely.schema.dropSchema(schema).cascade().execute();
    await admin.close();
  });

  it('a fresh database gets the index, valid, with the definition migration 0008 always had', async () => {
    expect(await indexState()).toEqual({ valid: true, def: `CREATE INDEX accounts_search_grams_idx ON ${schema}.accounts USING gin (${schema}.account_short_grams(search_text))` });
    // a second start finds it and builds nothing
    expect(await buildOnlineIndexes(db, onlineIndexes)).toEqual([]);
  });

  it('a plain CREATE INDEX in a transaction (0008 as it was) makes an INSERT into accounts wait', async () => {
    const builder = await client();
    const writer = await client();
    try {
      await builder.query('begin');
      await builder.query('create index oi_blocking_idx on accounts using gin (account_short_grams(search_text))');
      await expect(insertAccount(writer, 'blocked')).rejects.toMatchObject({ code: '55P03' }); // lock_not_available
    } finally {
      await builder.query('rollback');
      await builder.end();
      await writer.end();
    }
  });

  it('built CONCURRENTLY: an INSERT into accounts goes through while the build is in progress, and the index ends valid', async () => {
    await sql`drop index accounts_search_grams_idx`.execute(db.kysely);
    const old = await client();
    const writer = await client();
    try {
      // an open snapshot the build has to wait for before it completes
      await old.query('begin isolation level repeatable read');
      await old.query('select 1');
      const build = buildOnlineIndexes(db, onlineIndexes, { concurrentlyFromRows: 0 });
      // the build is in progress: its entry exists, not yet valid
      for (let i = 0; i < 200 && !(await indexState()); i++) await new Promise((r) => setTimeout(r, 25));
      expect(await indexState()).toMatchObject({ valid: false });
      await insertAccount(writer, 'during');
      await old.query('commit');
      expect(await build).toEqual(['accounts_search_grams_idx']);
    } finally {
      await old.end();
      await writer.end();
    }
    expect((await indexState())?.valid).toBe(true);
    const found = await sql<{ n: string }>`select count(*) as n from accounts where account_short_grams(search_text) @> array['oi']`.execute(db.kysely);
    expect(Number(found.rows[0]?.n)).toBe(1);
  });

  it('an interrupted CONCURRENTLY build (an invalid index) is dropped and built again at the next start', async () => {
    await sql`drop index accounts_search_grams_idx`.execute(db.kysely);
    // what a build cut short leaves: the index entry, invalid
    await sql`create index accounts_search_grams_idx on accounts using gin (account_short_grams(search_text))`.execute(db.kysely);
    await sql`update pg_index set indisvalid = false where indexrelid = ${`${schema}.accounts_search_grams_idx`}::regclass`.execute(admin.kysely);
    expect((await indexState())?.valid).toBe(false);
    expect(await buildOnlineIndexes(db, onlineIndexes)).toEqual(['accounts_search_grams_idx']);
    expect((await indexState())?.valid).toBe(true);
  });
});
