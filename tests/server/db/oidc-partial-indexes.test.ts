import { expect, it } from 'vitest';
import { sql, type Kysely, type RawBuilder } from 'kysely';
import { describeEachDb, type TestApp } from '../../helpers/app';
import type { Database } from '../../../server/db/schema';

/**
 * Migration 0013 (issue 15, CPU per sign-in): the lookup indexes of oidc_models hold only the rows that have the value,
 * so the provider's writes of rows without it (most of a sign-in's) touch fewer index pages; the lookups by value
 * still use them.
 */
const COLUMNS = ['grant_id', 'uid', 'user_code', 'account_id'] as const;
const nameOf = (t: TestApp, c: (typeof COLUMNS)[number]) => {
  const short = c === 'grant_id' ? 'grant' : c === 'account_id' ? 'account' : c;
  return t.db.dialect === 'postgres' ? `oidc_models_${short}_nn_idx` : `oidc_models_${short}_idx`;
};

/** Index name → definition, for the indexes of oidc_models. */
async function definitions(t: TestApp): Promise<Map<string, string>> {
  if (t.db.dialect === 'postgres') {
    const r = await sql<{ name: string; def: string }>`select indexname as name, indexdef as def from pg_indexes where schemaname = current_schema() and tablename = 'oidc_models'`.execute(t.db.kysely);
    return new Map(r.rows.map((x) => [x.name, x.def]));
  }
  const r = await sql<{ name: string; def: string | null }>`select name, sql as def from sqlite_master where type = 'index' and tbl_name = 'oidc_models'`.execute(t.db.kysely);
  return new Map(r.rows.map((x) => [x.name, x.def ?? '']));
}

/** The plan of `query` as text (PostgreSQL: with sequential scans off, so a tiny table still shows whether an index can serve). */
async function plan(t: TestApp, query: RawBuilder<unknown>): Promise<string> {
  if (t.db.dialect === 'postgres') {
    return t.db.kysely.transaction().execute(async (trx: Kysely<Database>) => {
      await sql`set local enable_seqscan = off`.execute(trx);
      const r = await sql<Record<string, string>>`explain ${query}`.execute(trx);
      return r.rows.map((x) => Object.values(x).join(' ')).join('\n');
    });
  }
  const r = await sql<{ detail: string }>`explain query plan ${query}`.execute(t.db.kysely);
  return r.rows.map((x) => x.detail).join('\n');
}

describeEachDb('oidc_models lookup indexes hold only the rows with the value', (get) => {
  it('the grant, uid, user code and account indexes are partial (… is not null); the full ones are gone', async () => {
    const t = get();
    const defs = await definitions(t);
    for (const c of COLUMNS) {
      const def = defs.get(nameOf(t, c)) ?? '';
      expect(def.toLowerCase().replace(/"/g, ''), nameOf(t, c)).toMatch(new RegExp(`where \\(?${c} is not null\\)?$`));
    }
    if (t.db.dialect === 'postgres') for (const old of ['oidc_models_grant_idx', 'oidc_models_uid_idx', 'oidc_models_user_code_idx', 'oidc_models_account_idx']) expect(defs.has(old), old).toBe(false);
  });

  it('the lookups by value still use them', async () => {
    const t = get();
    const uses = async (c: (typeof COLUMNS)[number], query: RawBuilder<unknown>) => expect(await plan(t, query), c).toContain(nameOf(t, c));
    // the adapter's findByUid / findByUserCode, revokeByGrantId, revokeGrantRows, revokeAccountGrants
    await uses('uid', sql`select payload from oidc_models where model = ${'Session'} and uid = ${'u1'}`);
    await uses('user_code', sql`select payload from oidc_models where model = ${'DeviceCode'} and user_code = ${'c1'}`);
    await uses('grant_id', sql`delete from oidc_models where model = ${'RefreshToken'} and grant_id = ${'g1'}`);
    await uses('grant_id', sql`delete from oidc_models where grant_id = ${'g1'} or (model = ${'Grant'} and id = ${'g1'})`);
    await uses('grant_id', sql`select id from oidc_models where grant_id in (${'g1'}, ${'g2'})`);
    await uses('account_id', sql`select id from oidc_models where account_id = ${'a1'} and model in (${'Session'}, ${'Grant'})`);
  });
});
