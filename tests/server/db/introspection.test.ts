import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import pg from 'pg';
import { createDb, migrateToLatest, type Db } from '../../../server/db/index';

/**
 * Kysely's PostgreSQL introspector (which its Migrator calls at every start) reads the tables of every schema in the
 * database and resolves each schema by name (has_schema_privilege, pg_get_serial_sequence). A schema another session
 * drops meanwhile is still in the scan's snapshot but no longer resolves: the whole read fails with
 * `schema "<the other one>" does not exist`, and so does the migration. (It failed a CI run: one test file dropped
 * its schema while another migrated.) Ours reads the current schema only, by oid.
 */
const url = process.env.TEST_DATABASE_URL;

describe.skipIf(!url)('database introspection on PostgreSQL', () => {
  const own = `iam_i_${randomBytes(4).toString('hex')}`;
  let db: Db;
  let admin: pg.Client;

  beforeAll(async () => {
    admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`create schema ${own}`);
    db = createDb({ databaseUrl: url, pgSchema: own, poolSize: 2 });
  });
  afterAll(async () => {
    await db?.close();
    await admin.query(`drop schema if exists ${own} cascade`);
    await admin.end();
  });

  it('survives another schema being dropped while it reads (the snapshot still shows it)', async () => {
    const other = `iam_i_${randomBytes(4).toString('hex')}`;
    await admin.query(`create schema ${other}; create table ${other}.t (id serial primary key, name text)`);
    // A repeatable-read transaction keeps the snapshot taken before the drop: the catalog rows of the dropped schema
    // stay visible to the scan, exactly as in the race, but deterministically.
    const names = await db.kysely
      .transaction()
      .setIsolationLevel('repeatable read')
      .execute(async (trx) => {
        await sql`select 1`.execute(trx);
        await admin.query(`drop schema ${other} cascade`);
        const tables = await trx.introspection.getTables({ withInternalKyselyTables: true });
        return tables.map((t) => `${t.schema}.${t.name}`);
      });
    expect(names.some((n) => n.startsWith(`${other}.`))).toBe(false);
  });

  it("lists the current schema's tables with their columns, and nothing of other schemas", async () => {
    await admin.query(`create table ${own}.widgets (id serial primary key, label text not null, note text default 'x')`);
    await admin.query(`create table public.iam_i_elsewhere_${own} (id int)`);
    try {
      const tables = await db.kysely.introspection.getTables();
      expect(tables.map((t) => t.name)).toEqual(['widgets']);
      const [widgets] = tables;
      expect(widgets?.schema).toBe(own);
      expect(widgets?.isView).toBe(false);
      expect(widgets?.columns.map((c) => [c.name, c.dataType, c.isNullable, c.hasDefaultValue, c.isAutoIncrementing])).toEqual([
        ['id', 'int4', false, true, true],
        ['label', 'text', false, false, false],
        ['note', 'text', true, true, false],
      ]);
      const schemas = (await db.kysely.introspection.getSchemas()).map((s) => s.name);
      expect(schemas).toContain(own);
      expect(schemas).toContain('public');
    } finally {
      await admin.query(`drop table ${own}.widgets; drop table public.iam_i_elsewhere_${own}`);
    }
  });

  it('migrates its own schema while other schemas come and go', async () => {
    let stop = false;
    let dropped = 0;
    const churn = (async () => {
      const c = new pg.Client({ connectionString: url });
      await c.connect();
      try {
        while (!stop) {
          const s = `iam_i_churn_${randomBytes(4).toString('hex')}`;
          await c.query(`create schema ${s}; create table ${s}.a (id serial); create table ${s}.b (id int)`);
          await c.query(`drop schema ${s} cascade`);
          dropped++;
        }
      } finally {
        await c.end();
      }
    })();
    try {
      const applied = await migrateToLatest(db);
      expect(applied.length).toBeGreaterThan(0);
      // and again: everything is applied, nothing fails while the churn goes on
      for (let i = 0; i < 20; i++) await migrateToLatest(db);
    } finally {
      stop = true;
      await churn;
    }
    expect(dropped).toBeGreaterThan(0);
    const tables = await db.kysely.introspection.getTables({ withInternalKyselyTables: true });
    expect(tables.map((t) => t.name)).toEqual(expect.arrayContaining(['accounts', 'kysely_migration', 'kysely_migration_lock']));
  });
});
