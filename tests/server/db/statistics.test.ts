import { expect, it } from 'vitest';
import { sql } from 'kysely';
import { describeEachDb, type TestApp } from '../../helpers/app';
import { createAccount } from '../../helpers/auth';
import { seedUsers } from '../../../server/cli/seed';
import { refreshAfterBulkInsert, refreshStatistics, tablesWithoutStatistics } from '../../../server/db/statistics';
import { createImportService, importJobsSettled } from '../../../server/services/admin/import';

/** When the planner statistics of `table` were last gathered by ANALYZE (PostgreSQL), or whether they exist (SQLite). */
async function analyzed(t: TestApp, table: string): Promise<boolean> {
  if (t.db.dialect === 'postgres') {
    const r = await sql<{ last_analyze: Date | null }>`select last_analyze from pg_stat_user_tables where schemaname = current_schema() and relname = ${table}`.execute(t.db.kysely);
    return Boolean(r.rows[0]?.last_analyze);
  }
  const stat1 = await sql<{ one: number }>`select 1 as one from sqlite_master where name = 'sqlite_stat1'`.execute(t.db.kysely);
  if (!stat1.rows.length) return false;
  return (await sql<{ one: number }>`select 1 as one from sqlite_stat1 where tbl = ${table}`.execute(t.db.kysely)).rows.length > 0;
}

const noLog = { info: () => {}, warn: () => {} };

/**
 * Planner statistics after bulk loads (issue 15): autovacuum lags (or is off) and SQLite never analyzes by itself, so
 * the app analyzes `accounts` when an import job created many rows, and gathers missing statistics at start.
 */
describeEachDb('planner statistics refreshed by the app', (get) => {
  it('an import job that created 1000+ rows leaves accounts analyzed', async () => {
    const t = get();
    expect(await analyzed(t, 'accounts')).toBe(false);
    const admin = await createAccount(t, { type: 'admin', email: 'stats.importer@example.com', admin_role: 'manager' });
    const service = createImportService(t.app.deps);
    const csv = ['email,first_name,last_name,locale,auth_type', ...Array.from({ length: 1200 }, (_, i) => `s${i}@stats.test,Stat,Row${i},de,CREDENTIALS`)].join('\n');
    const answer = await service.importFile({ id: admin.id, email: admin.email, ip: null }, await service.read(Buffer.from(csv)), { dryRun: false, sendInvitations: false, async: true });
    expect(answer.kind).toBe('job');
    await importJobsSettled(t.app.deps);
    expect(await analyzed(t, 'accounts')).toBe(true);
  });

  it('finds a table of some size without statistics and gathers them', async () => {
    const t = get();
    await seedUsers(t.db, { users: 600, tx: 600 });
    const holders = Number((await t.db.kysely.selectFrom('role_subscriptions').select((eb) => eb.fn.countAll<number | string>().as('n')).executeTakeFirstOrThrow()).n);
    expect(holders).toBeGreaterThan(50);
    expect(await analyzed(t, 'role_subscriptions')).toBe(false);
    // below the size that matters: left alone
    expect(await tablesWithoutStatistics(t.db, ['role_subscriptions'], holders + 1)).toEqual([]);
    expect(await tablesWithoutStatistics(t.db, ['accounts', 'role_subscriptions'], 50)).toEqual(['role_subscriptions']);
    await refreshStatistics(t.db, ['role_subscriptions'], noLog, 'test');
    expect(await analyzed(t, 'role_subscriptions')).toBe(true);
    expect(await tablesWithoutStatistics(t.db, ['accounts', 'role_subscriptions'], 50)).toEqual([]);
  });

  it('runs one refresh at a time: calls made before it starts join it, calls made while it runs gather into the next', async () => {
    const t = get();
    const seen: unknown[] = [];
    const log = { info: (o: object) => seen.push((o as { tables: string[] }).tables), warn: (o: object) => seen.push(o) };
    const first = refreshStatistics(t.db, ['accounts'], log, 'a');
    expect(refreshStatistics(t.db, ['accounts'], log, 'b')).toBe(first);
    await Promise.resolve(); // the first has started
    const second = refreshStatistics(t.db, ['role_subscriptions'], log, 'c');
    expect(second).not.toBe(first);
    expect(refreshStatistics(t.db, ['accounts'], log, 'd')).toBe(second);
    await Promise.all([first, second]);
    expect(seen).toEqual([['accounts'], ['role_subscriptions', 'accounts']]);
  });

  it('after a bulk insert: PostgreSQL analyzes from 1000 rows; SQLite only when the table grew by a tenth (its ANALYZE reads every index)', async () => {
    const t = get();
    const refreshed: unknown[] = [];
    const log = { info: (o: object) => refreshed.push(o), warn: (o: object) => refreshed.push(o) };
    await refreshAfterBulkInsert(t.db, 'accounts', 999, log);
    expect(refreshed).toHaveLength(0);
    if (t.db.dialect === 'sqlite') {
      // statistics taken when the table held a million rows
      await sql`update sqlite_stat1 set stat = '1000000' || substr(stat, instr(stat, ' ')) where tbl = 'accounts'`.execute(t.db.kysely);
      await refreshAfterBulkInsert(t.db, 'accounts', 99_999, log);
      expect(refreshed).toHaveLength(0);
      await refreshAfterBulkInsert(t.db, 'accounts', 100_000, log);
      expect(refreshed).toHaveLength(1);
    } else {
      await refreshAfterBulkInsert(t.db, 'accounts', 1000, log);
      expect(refreshed).toHaveLength(1);
    }
  });
});
