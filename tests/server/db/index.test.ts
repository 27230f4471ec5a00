import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import SQLite from 'better-sqlite3';
import { Kysely, SqliteDialect, sql } from 'kysely';
import { cachedStatements, createDb, migrateToLatest, type Db, type WatchedTable } from '../../../server/db/index';
import { accountRow } from '../../../server/services/accounts';

/**
 * server/db/index.ts: Db.onWrite (server/db/write-watch.ts: what the auth cache is emptied on) and the SQLite
 * statement cache (server/db/statement-cache.ts). On SQLite (the statement cache is SQLite's; onWrite is the same
 * kysely plugin on both dialects).
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

  it('onWrite reports UPDATE/DELETE/upsert of accounts, DELETE of oidc_models and INSERT into revoked_access_tokens, before and after the statement, in transactions too', async () => {
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
    // revoking an access token (server/oidc/revocation.ts)
    expect(await seen(() => db.kysely.insertInto('revoked_access_tokens').values({ jti: randomUUID(), client_id: 'portal', expires_at: 1, revoked_at: '' }).execute())).toEqual(['revoked_access_tokens', 'revoked_access_tokens']);
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

describe('cachedStatements (the SQLite statement cache behind kysely)', () => {
  interface T {
    t: { id: number; v: string };
  }
  /** An in-memory database with table t(id primary key, v), its cache, and the count of real prepares. */
  function setup(max: number) {
    const raw = new SQLite(':memory:');
    raw.exec('create table t (id integer primary key, v text not null)');
    let prepares = 0;
    const prepare = raw.prepare.bind(raw);
    raw.prepare = ((text: string) => {
      prepares++;
      return prepare(text);
    }) as typeof raw.prepare;
    const cache = cachedStatements(raw, max);
    const k = new Kysely<T>({ dialect: new SqliteDialect({ database: cache }) });
    return { k, cache, prepares: () => prepares };
  }

  it('prepares a query once and reuses the statement with new parameters', async () => {
    const { k, prepares } = setup(10);
    await k.insertInto('t').values({ id: 1, v: 'a' }).execute();
    await k.insertInto('t').values({ id: 2, v: 'b' }).execute();
    const before = prepares();
    for (const [id, v] of [[1, 'a'], [2, 'b'], [1, 'a']] as const) expect(await k.selectFrom('t').select('v').where('id', '=', id).executeTakeFirst()).toEqual({ v });
    expect(prepares() - before).toBe(1);
    await k.destroy();
  });

  it('keeps at most `max` statements, the most recently used', async () => {
    const { k, cache, prepares } = setup(2);
    const q = (col: 'id' | 'v') => k.selectFrom('t').select(col).execute();
    await q('id'); // [id]
    await q('v'); // [id, v]
    await q('id'); // [v, id]: id used last
    const before = prepares();
    await sql`select 1 as one`.execute(k); // evicts v, the least recently used
    expect(cache.size).toBe(2);
    await q('id');
    expect(prepares() - before).toBe(1); // id was kept
    await q('v');
    expect(prepares() - before).toBe(2); // v was not
    expect(cache.size).toBe(2);
    await k.destroy();
  });

  it('works inside transactions: rolled back and committed writes through cached statements', async () => {
    const { k } = setup(10);
    const insert = (db: Kysely<T>, id: number) => db.insertInto('t').values({ id, v: `v${id}` }).execute();
    await insert(k, 1); // cached before the transactions
    await expect(
      k.transaction().execute(async (tx) => {
        await insert(tx, 2);
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    await k.transaction().execute(async (tx) => {
      await insert(tx, 3);
      expect((await tx.selectFrom('t').select('id').orderBy('id').execute()).map((r) => r.id)).toEqual([1, 3]);
    });
    // a second rollback of the same cached BEGIN/ROLLBACK statements
    await expect(k.transaction().execute(async (tx) => Promise.reject(new Error(`no ${String(await insert(tx, 4))}`)))).rejects.toThrow();
    expect((await k.selectFrom('t').select('id').orderBy('id').execute()).map((r) => r.id)).toEqual([1, 3]);
    await k.destroy();
  });

  it('a failed run does not poison its statement; SQL that does not prepare is not cached', async () => {
    const { k, cache, prepares } = setup(10);
    await k.insertInto('t').values({ id: 1, v: 'a' }).execute();
    await expect(k.insertInto('t').values({ id: 1, v: 'dup' }).execute()).rejects.toThrow(/UNIQUE|constraint/i);
    const before = prepares();
    await k.insertInto('t').values({ id: 2, v: 'b' }).execute(); // the same statement, now fine
    expect(prepares() - before).toBe(0);
    const size = cache.size;
    await expect(sql`select nope from t`.execute(k)).rejects.toThrow(/no such column/);
    expect(cache.size).toBe(size);
    expect((await k.selectFrom('t').select('v').orderBy('id').execute()).map((r) => r.v)).toEqual(['a', 'b']);
    await k.destroy();
  });
});
