import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb, migrateToLatest, type Db, type WatchedTable } from '../../../server/db/index';
import { accountRow } from '../../../server/services/accounts';

/**
 * server/db/index.ts: Db.onWrite (what the auth cache is emptied on) and the SQLite statement cache. On SQLite
 * (the statement cache is SQLite's; onWrite is the same kysely plugin on both dialects).
 */
describe('createDb (SQLite)', () => {
  let dir: string;
  let db: Db;
  beforeAll(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'iam-db-'));
    db = createDb({ sqliteFile: path.join(dir, 'iam.sqlite') });
    await migrateToLatest(db);
  });
  afterAll(async () => {
    await db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const newAccount = () => accountRow({ type: 'user', email: `w-${randomUUID().slice(0, 8)}@example.com`, first_name: 'W', last_name: 'W', locale: 'en', status: 'ACTIVE', auth_type: 'CREDENTIALS', technical: 0 });

  /** The tables onWrite reported while `fn` ran. */
  async function seen(fn: () => Promise<unknown>): Promise<WatchedTable[]> {
    const got: WatchedTable[] = [];
    const off = db.onWrite((t) => got.push(t));
    try {
      await fn();
    } finally {
      off();
    }
    return got;
  }

  it('onWrite reports UPDATE/DELETE/upsert of accounts and DELETE of oidc_models, before and after the statement, in transactions too', async () => {
    const row = newAccount();
    expect(await seen(() => db.kysely.insertInto('accounts').values(row).execute())).toEqual([]);
    expect(await seen(() => db.kysely.selectFrom('accounts').selectAll().where('id', '=', row.id).execute())).toEqual([]);
    expect(await seen(() => db.kysely.updateTable('accounts').set({ first_name: 'X' }).where('id', '=', row.id).execute())).toEqual(['accounts', 'accounts']);
    expect(
      await seen(() =>
        db.kysely
          .insertInto('accounts')
          .values(row)
          .onConflict((oc) => oc.column('id').doUpdateSet({ first_name: 'Y' }))
          .execute(),
      ),
    ).toEqual(['accounts', 'accounts']);
    expect(await seen(() => db.kysely.deleteFrom('oidc_models').where('id', '=', 'none').execute())).toEqual(['oidc_models', 'oidc_models']);
    // other tables, and inserts into oidc_models (sessions, tokens), are not reported
    expect(await seen(() => db.kysely.updateTable('oidc_models').set({ consumed_at: 1 }).where('id', '=', 'none').execute())).toEqual([]);
    expect(
      await seen(() =>
        db.kysely.transaction().execute(async (trx) => {
          await trx.updateTable('accounts as a').set({ last_name: 'Z' }).where('a.id', '=', row.id).execute();
          await trx.deleteFrom('accounts').where('id', '=', row.id).execute();
        }),
      ),
    ).toEqual(['accounts', 'accounts', 'accounts', 'accounts']);
  });

  it('statements prepared once answer every later use with its own parameters, streamed or not', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const row = newAccount();
      ids.push(row.id);
      await db.kysely.insertInto('accounts').values(row).execute();
    }
    for (const id of ids) expect((await db.kysely.selectFrom('accounts').select('id').where('id', '=', id).execute()).map((r) => r.id)).toEqual([id]);
    const query = () => db.kysely.selectFrom('accounts').select('id').where('id', 'in', ids).orderBy('id');
    const streamed: string[] = [];
    for await (const r of query().stream()) streamed.push(r.id);
    expect(streamed).toEqual([...ids].sort());
    expect((await query().execute()).map((r) => r.id)).toEqual([...ids].sort());
  });
});
