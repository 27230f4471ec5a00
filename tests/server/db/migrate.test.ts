import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { createDb, migrateToLatest, migrationFolder, type Db } from '../../../server/db/index';
import { assertSchemaReady, LAST_LEGACY_MIGRATION, migrationKind, readMigrationState, rollbackTo, SchemaMismatchError } from '../../../server/db/migrate';
import { accountRow } from '../../../server/services/accounts';

/**
 * Issue 30.4: migrations forward, back to a named one and forward again; a database ahead of this release (a newer
 * release migrated it) is accepted when the newer migrations are `expand` ones and refused with one line otherwise;
 * a start without migrating (IAM_MIGRATE=off) refuses a schema that is behind. SQLite always, PostgreSQL (a schema
 * of its own, `mig_…`) when TEST_DATABASE_URL is set. The real processes across an upgrade: tests/server/ops/upgrade.test.ts.
 */

const KINDS = process.env.TEST_DATABASE_URL ? (['sqlite', 'postgres'] as const) : (['sqlite'] as const);
const migrationNames = readdirSync(migrationFolder)
  .filter((f) => /^\d{4}_.+\.ts$/.test(f))
  .map((f) => f.replace(/\.ts$/, ''))
  .sort();
const newest = migrationNames.at(-1) as string;

describe('migration names follow the compatibility rule', () => {
  it(`every migration after ${String(LAST_LEGACY_MIGRATION).padStart(4, '0')} is NNNN_expand_… or NNNN_contract_… (docs/OPERATIONS.md)`, () => {
    expect(migrationNames.filter((n) => migrationKind(n) === undefined)).toEqual([]);
    expect(migrationKind('0015_expand_add_x')).toBe('expand');
    expect(migrationKind('0016_contract_drop_y')).toBe('contract');
    expect(migrationKind('0016_drop_y')).toBeUndefined();
    expect(migrationKind('0014_avatar_images')).toBe('legacy');
  });
});

describe.each(KINDS)('db:migrate / db:rollback / compatibility [%s]', (kind) => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'iam-mig-'));
  const schema = `mig_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
  const url = process.env.TEST_DATABASE_URL;
  let db: Db;

  /** a migration row as a newer release would leave it (with what it added, so the schema really is ahead) */
  const recordNewer = async (name: string) => {
    await sql`insert into kysely_migration (name, timestamp) values (${name}, ${new Date(Date.now() + 1000).toISOString()})`.execute(db.kysely);
  };
  const forget = async (name: string) => {
    await sql`delete from kysely_migration where name = ${name}`.execute(db.kysely);
  };
  const tableExists = async (table: string) =>
    kind === 'postgres'
      ? Boolean((await sql<{ ok: boolean }>`select to_regclass(${table}) is not null as ok`.execute(db.kysely)).rows[0]?.ok)
      : Number((await sql<{ n: number }>`select count(*) as n from sqlite_master where type = 'table' and name = ${table}`.execute(db.kysely)).rows[0]?.n) > 0;

  beforeAll(async () => {
    if (kind === 'postgres') {
      const admin = createDb({ databaseUrl: url, poolSize: 1 });
      await admin.kysely.schema.createSchema(schema).execute();
      await admin.close();
      db = createDb({ databaseUrl: url, pgSchema: schema, poolSize: 2 });
    } else {
      db = createDb({ sqliteFile: path.join(dir, 'iam.sqlite') });
    }
  });
  afterAll(async () => {
    await db.close();
    if (kind === 'postgres') {
      const admin = createDb({ databaseUrl: url, poolSize: 1 });
      await admin.kysely.schema.dropSchema(schema).ifExists().cascade().execute();
      await admin.close();
    }
    rmSync(dir, { recursive: true, force: true });
  });

  it('a fresh database: everything pending; IAM_MIGRATE=off refuses it with one line; migrate applies all', async () => {
    const before = await readMigrationState(db);
    expect(before.applied).toEqual([]);
    expect(before.pending).toEqual(migrationNames);
    const refused = await assertSchemaReady(db).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(SchemaMismatchError);
    expect((refused as Error).message).toMatch(new RegExp(`^database schema is behind this release: ${migrationNames.length} migrations pending \\(0001_initial, .*npm run db:migrate`));
    expect((refused as Error).message).not.toContain('\n');

    expect(await migrateToLatest(db)).toEqual(migrationNames);
    const after = await readMigrationState(db);
    expect(after.pending).toEqual([]);
    expect(after.applied.map((m) => m.name)).toEqual(migrationNames);
    expect(after.applied.every((m) => m.known && !Number.isNaN(Date.parse(m.appliedAt)))).toBe(true);
    expect(await assertSchemaReady(db)).toEqual({ ahead: [] });
  });

  it('rollback to a named migration (down() of each newer one, newest first) and forward again; rows stay', async () => {
    const id = randomUUID();
    await db.kysely
      .insertInto('accounts')
      .values({ ...accountRow({ type: 'user', email: `mig-${id}@example.com`, first_name: 'M', last_name: 'G', status: 'ACTIVE', auth_type: 'CREDENTIALS', locale: 'en', technical: 0 }), id })
      .execute();
    const target = migrationNames.at(-3) as string;
    const undone = migrationNames.slice(-2).reverse();
    // by its number, as the CLI accepts it
    expect(await rollbackTo(db, target.slice(0, 4))).toEqual(undone);
    const state = await readMigrationState(db);
    expect(state.applied.at(-1)?.name).toBe(target);
    expect(state.pending).toEqual(migrationNames.slice(-2));
    if (newest === '0014_avatar_images') expect(await tableExists('avatar_images')).toBe(false);
    await expect(assertSchemaReady(db)).rejects.toThrow(/^database schema is behind this release: 2 migrations pending/);

    expect(await rollbackTo(db, target)).toEqual([]);
    await expect(rollbackTo(db, 'no_such_migration')).rejects.toThrow('no migration named "no_such_migration"');
    await expect(rollbackTo(db, newest)).rejects.toThrow(`migration ${newest} is not applied to this database`);

    expect(await migrateToLatest(db)).toEqual(migrationNames.slice(-2));
    if (newest === '0014_avatar_images') expect(await tableExists('avatar_images')).toBe(true);
    expect(await db.kysely.selectFrom('accounts').select('email').where('id', '=', id).executeTakeFirst()).toEqual({ email: `mig-${id}@example.com` });
  });

  it('ahead by an expand migration of a newer release: starts (with or without migrating), no "corrupted migrations"', async () => {
    await recordNewer('9001_expand_probe_column');
    try {
      const heard: string[][] = [];
      expect(await migrateToLatest(db, { onAhead: (names) => heard.push(names) })).toEqual([]);
      expect(heard).toEqual([['9001_expand_probe_column']]);
      expect(await assertSchemaReady(db)).toEqual({ ahead: ['9001_expand_probe_column'] });
      const state = await readMigrationState(db);
      expect(state.unknown.map((m) => [m.name, m.kind, m.known])).toEqual([['9001_expand_probe_column', 'expand', false]]);
      // this release cannot undo the newer release's migration
      await expect(rollbackTo(db, newest)).rejects.toThrow(/cannot roll back 9001_expand_probe_column: not part of this release/);
    } finally {
      await forget('9001_expand_probe_column');
    }
  });

  it.each([
    ['9002_contract_drop_probe', 'contract'],
    ['9003_drop_probe', 'unclassified'],
  ])('ahead by %s (%s): refused with one line naming it and the rollback to run', async (name, label) => {
    await recordNewer(name);
    try {
      for (const attempt of [() => migrateToLatest(db), () => assertSchemaReady(db)]) {
        const err = await attempt().catch((e: unknown) => e);
        expect(err).toBeInstanceOf(SchemaMismatchError);
        const message = (err as Error).message;
        expect(message).toContain(`database schema is ahead of this release by ${name} (${label})`);
        expect(message).toContain(`npm run db:rollback -- --to ${newest}`);
        expect(message).not.toMatch(/corrupted/);
        expect(message).not.toContain('\n');
      }
    } finally {
      await forget(name);
    }
  });

  it('a newer migration that sorts before one of this release is refused too (not made after this release)', async () => {
    await recordNewer('0000_expand_stray');
    try {
      await expect(migrateToLatest(db)).rejects.toThrow(/ahead of this release by 0000_expand_stray \(expand\)/);
    } finally {
      await forget('0000_expand_stray');
    }
    expect(await migrateToLatest(db)).toEqual([]);
  });
});
