import { randomBytes } from 'node:crypto';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type pg from 'pg';
import { Migrator, sql, type Migration } from 'kysely';
import { buildOnlineIndexes, createDb, migrateToLatest, migrationFolder, type Db } from '../../../server/db/index';
import { onlineIndexes as shortSearchIndexes } from '../../../server/db/migrations/0008_short_search';
import { insertAccountRow, lockTimeoutClient } from '../../helpers/pg-writer';

const url = process.env.TEST_DATABASE_URL;

/**
 * Migration 0011 on PostgreSQL (issue 15): the filter indexes that also carry search_text replace 0010's. Dropped and
 * rebuilt inside the migrations' transaction, they held an ACCESS EXCLUSIVE lock on accounts for the whole rebuild
 * (77–94 s at 1 M rows): no account read or written meanwhile, and the lock request itself queued behind any running
 * read, with every later write queued behind it. Now the new indexes are built CONCURRENTLY after the transaction and
 * the old ones dropped CONCURRENTLY. A reader holding its snapshot open keeps the build in progress here.
 */
describe.skipIf(!url)('migration 0011 replaces the filter indexes online [postgres]', () => {
  const schema = `iam_or_${randomBytes(4).toString('hex')}`;
  let db: Db;
  let admin: Db;
  const client = () => lockTimeoutClient(url ?? '', schema);
  const insertAccount = (c: pg.Client, n: string) => insertAccountRow(c, { email: `or-${n}@example.com`, locale: 'it', status: 'INACTIVE' });
  const indexes = async () =>
    (
      await sql<{ name: string; valid: boolean; def: string }>`select x.relname as name, i.indisvalid as valid, pg_get_indexdef(i.indexrelid) as def from pg_index i join pg_class x on x.oid = i.indexrelid join pg_namespace n on n.oid = x.relnamespace where n.nspname = ${schema} and x.relname ~ '^accounts_type_.*(created|cover)_idx$' order by x.relname`.execute(admin.kysely)
    ).rows;

  beforeAll(async () => {
    admin = createDb({ databaseUrl: url, poolSize: 2 });
    await admin.kysely.schema.createSchema(schema).execute();
    // as the app migrates: a connection without the requests' statement timeout (server/app.ts)
    db = createDb({ databaseUrl: url, pgSchema: schema, poolSize: 3, queryTimeoutMs: 600_000 });
    // a database as 0010 left it
    const migrations: Record<string, Migration> = {};
    for (const f of readdirSync(migrationFolder).filter((f) => /^\d{4}_.+\.ts$/.test(f) && f < '0011').sort()) {
      migrations[f.replace(/\.ts$/, '')] = (await import(path.join(migrationFolder, f))) as Migration;
    }
    const migrator = new Migrator({ db: db.kysely, provider: { getMigrations: async () => migrations }, migrationTableSchema: schema });
    const { error } = await migrator.migrateToLatest();
    if (error) throw error instanceof Error ? error : new Error(String(error));
    await buildOnlineIndexes(db, shortSearchIndexes);
    const c = await client();
    try {
      for (let i = 0; i < 20; i++) await insertAccount(c, `seed-${i}`);
    } finally {
      await c.end();
    }
  });
  afterAll(async () => {
    await db.close();
    await admin.kysely.schema.dropSchema(schema).cascade().execute();
    await admin.close();
  });

  it('while the new indexes build, accounts stay readable and writable; then the old ones are gone', async () => {
    expect((await indexes()).map((i) => i.name)).toEqual([
      'accounts_type_auth_created_idx',
      'accounts_type_created_idx',
      'accounts_type_locale_created_idx',
      'accounts_type_status_created_idx',
      'accounts_type_technical_created_idx',
    ]);
    const reader = await client();
    const writer = await client();
    let migrated: Promise<string[]> | undefined;
    try {
      // a running read: its lock and its snapshot stay until it commits
      await reader.query('begin isolation level repeatable read');
      await reader.query('select count(*) from accounts');
      migrated = migrateToLatest(db, { concurrentlyFromRows: 0 }); // CONCURRENTLY on this small table too
      // the build is in progress (its entry exists, not yet valid), waiting for the reader's snapshot
      for (let i = 0; i < 400 && !(await indexes()).some((x) => x.name.endsWith('_cover_idx')); i++) await new Promise((r) => setTimeout(r, 25));
      expect((await indexes()).find((x) => x.name.endsWith('_cover_idx'))).toMatchObject({ valid: false });
      // writes and reads go on (each would fail on its 2 s lock timeout behind an ACCESS EXCLUSIVE request)
      await insertAccount(writer, 'during');
      const seen = await writer.query<{ n: string }>(`select count(*) as n from accounts where status = 'INACTIVE' and locale = 'it'`);
      expect(Number(seen.rows[0]?.n)).toBe(21);
      await reader.query('commit');
      // 0011 and any later migration
      expect(await migrated).toContain('0011_list_search_cover');
    } finally {
      await reader.query('rollback').catch(() => undefined);
      await reader.end();
      await writer.end();
      await migrated?.catch(() => undefined);
    }
    const after = await indexes();
    expect(after.map((i) => [i.name, i.valid])).toEqual([
      ['accounts_type_auth_cover_idx', true],
      ['accounts_type_created_idx', true],
      ['accounts_type_locale_cover_idx', true],
      ['accounts_type_status_cover_idx', true],
      ['accounts_type_technical_cover_idx', true],
    ]);
    expect(after.find((i) => i.name === 'accounts_type_status_cover_idx')?.def).toBe(
      `CREATE INDEX accounts_type_status_cover_idx ON ${schema}.accounts USING btree (type, status, created_at, id) INCLUDE (locale, auth_type, technical, search_text)`,
    );
    // a second start builds and drops nothing
    expect(await migrateToLatest(db)).toEqual([]);
    expect((await indexes()).map((i) => i.name)).toEqual(after.map((i) => i.name));
  });
});
