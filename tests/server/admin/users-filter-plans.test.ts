import { expect, it } from 'vitest';
import { CompiledQuery } from 'kysely';
import { describeEachDb } from '../../helpers/app';
import { countQuery } from '../../../server/services/admin/users';

/**
 * Several filters (migrations 0009 SQLite, 0010 PostgreSQL): the walk of one filter's index checks the other filters
 * on the index entry (a covering index), without reading the account row.
 */
describeEachDb('admin users: filter combinations read the index only', (get) => {
  it('counts status + locale, and auth type + locale, on a covering index', async () => {
    const t = get();
    if (t.kind === 'postgres') {
      // INCLUDE columns (0010): an index-only scan once the visibility map is set (a small table is read whole
      // otherwise: ask for the plan without that choice)
      await t.db.kysely.executeQuery(CompiledQuery.raw('vacuum analyze accounts'));
      for (const f of [{ auth_type: 'SSO', locale: 'de' }, { status: 'INACTIVE', locale: 'it', technical: false }] as const) {
        const c = countQuery(t.db, 'user', f).compile();
        const plan = await t.db.kysely.transaction().execute(async (trx) => {
          await trx.executeQuery(CompiledQuery.raw('set local enable_seqscan = off'));
          await trx.executeQuery(CompiledQuery.raw('set local enable_bitmapscan = off'));
          return trx.executeQuery<{ 'QUERY PLAN': string }>(CompiledQuery.raw(`explain ${c.sql}`, [...c.parameters]));
        });
        expect(plan.rows.map((r) => r['QUERY PLAN']).join('\n'), JSON.stringify(f)).toMatch(/Index Only Scan using accounts_type_(status|locale|auth|technical)_created_idx/);
      }
      return;
    }
    await t.db.kysely.executeQuery(CompiledQuery.raw('analyze'));
    for (const f of [
      { status: 'INACTIVE', locale: 'it' },
      { auth_type: 'SSO', locale: 'de', technical: false },
      { locale: 'fr', status: 'INACTIVE', auth_type: 'CREDENTIALS' },
    ] as const) {
      const c = countQuery(t.db, 'user', f).compile();
      const plan = await t.db.kysely.executeQuery<{ detail: string }>(CompiledQuery.raw(`explain query plan ${c.sql}`, [...c.parameters]));
      expect(plan.rows.map((r) => r.detail).join('\n'), JSON.stringify(f)).toMatch(/USING COVERING INDEX accounts_type_(status|locale|auth|technical)_created_idx/);
    }
  });
});
