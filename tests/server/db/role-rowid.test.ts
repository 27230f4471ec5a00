import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Migrator, sql } from 'kysely';
import { createDb, migrateToLatest, migrationModules, type Db } from '../../../server/db/index';
import { accountRow } from '../../../server/services/accounts';
import { ensureCatalog } from '../../../server/cli/seed';

/**
 * Migration 0012 (SQLite): role_subscriptions.account_rowid is the holder's accounts.rowid, for rows that existed
 * before the migration (its UPDATE) and for every row written after it (triggers). The role filter probes by it, so a
 * wrong or missing value would drop a holder from the list.
 */
describe('role_subscriptions.account_rowid (migration 0012) [sqlite]', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'iam-role-rowid-'));
  let db: Db;
  let catalog: { subscriptionId: string; roleIds: string[] }[] = [];
  const migrator = () => new Migrator({ db: db.kysely, provider: { getMigrations: migrationModules } });
  const addUsers = async (n: number) => {
    const ids: string[] = [];
    for (let i = 0; i < n; i++) {
      const row = { ...accountRow({ type: 'user', email: `rr-${randomUUID()}@example.com`, first_name: 'R', last_name: 'R', status: 'ACTIVE', auth_type: 'CREDENTIALS', locale: 'en', technical: 0 }), id: randomUUID() };
      await db.kysely.insertInto('accounts').values(row).execute();
      ids.push(row.id);
    }
    return ids;
  };
  const grant = async (ids: string[]) => {
    const c = catalog[1] ?? catalog[0];
    if (!c) throw new Error('no catalog');
    const now = new Date().toISOString();
    await db.kysely
      .insertInto('role_subscriptions')
      .values(ids.flatMap((id) => c.roleIds.map((r) => ({ account_id: id, subscription_id: c.subscriptionId, role_id: r, created_at: now }))))
      .execute();
  };
  // rows whose account_rowid is not their account's rowid (null included)
  const wrong = async () =>
    Number(
      (
        await sql<{ n: number }>`select count(*) as n from role_subscriptions rs left join accounts a on a.id = rs.account_id where rs.account_rowid is not a.rowid`.execute(db.kysely)
      ).rows[0]?.n,
    );
  const total = async () => Number((await sql<{ n: number }>`select count(*) as n from role_subscriptions`.execute(db.kysely)).rows[0]?.n);

  beforeAll(async () => {
    db = createDb({ sqliteFile: path.join(dir, 'iam.sqlite') });
    const r = await migrator().migrateTo('0011_list_search_cover');
    if (r.error) throw r.error instanceof Error ? r.error : new Error(String(r.error));
    catalog = await ensureCatalog(db);
  });
  afterAll(async () => {
    await db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('fills the rows that were there before it, and the triggers keep every later row right', async () => {
    // rows spread out: some accounts without roles, so rowids and insertion order differ
    await addUsers(5);
    await grant(await addUsers(20));
    await addUsers(3);
    const before = await total();
    expect(before).toBeGreaterThan(20);
    expect(await migrateToLatest(db)).toContain('0012_role_filter_rowid');
    expect(await wrong()).toBe(0);

    // later inserts (several rows per statement) and a change of holder
    await addUsers(4);
    const later = await addUsers(10);
    await grant(later);
    const [moved] = await addUsers(1);
    await db.kysely.updateTable('role_subscriptions').set({ account_id: moved ?? '' }).where('account_id', '=', later[0] ?? '').execute();
    expect(await total()).toBeGreaterThan(before);
    expect(await wrong()).toBe(0);

    // down and up again: the column goes and comes back filled
    // (to 0011: later migrations, e.g. 0013, are undone first)
    const down = await migrator().migrateTo('0011_list_search_cover');
    expect(down.error).toBeUndefined();
    expect((await sql<{ name: string }>`select name from pragma_table_info('role_subscriptions')`.execute(db.kysely)).rows.map((r) => r.name)).not.toContain('account_rowid');
    await grant(await addUsers(2));
    await migrateToLatest(db);
    expect(await wrong()).toBe(0);
  });
});
