import { expect, it } from 'vitest';
import { CompiledQuery } from 'kysely';
import { describeEachDb } from '../../helpers/app';
import { countQuery } from '../../../server/services/admin/users';

/**
 * SQLite, several filters (migration 0009): the walk of one filter's index checks the other filters on the index
 * entry (a covering index), without reading the account row.
 */
describeEachDb('admin users: filter combinations read the index only (SQLite)', (get) => {
  it('counts status + locale, and auth type + locale, on a covering index', async () => {
    const t = get();
    if (t.kind !== 'sqlite') return;
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
