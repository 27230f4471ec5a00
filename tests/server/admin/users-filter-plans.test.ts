import { beforeAll, expect, it } from 'vitest';
import { CompiledQuery } from 'kysely';
import { randomUUID } from 'node:crypto';
import { describeEachDb } from '../../helpers/app';
import { accountRow } from '../../../server/services/accounts';
import { ensureCatalog } from '../../../server/cli/seed';
import { countQuery, listAccounts, pageQuery, searchVia, shortSearchVia, windowQuery, type ListAnswer, type UserFilters } from '../../../server/services/admin/user-search';

/**
 * Several filters (migrations 0009 SQLite, 0010 PostgreSQL): the walk of one filter's index checks the other filters
 * on the index entry (a covering index), without reading the account row; since 0011 the entry also carries
 * search_text, so a short (1–2 character) search with filters is checked there too. Whatever the plan, the answer is
 * the reference's: every combination below is compared, page by page and with its total, with a filter in JS.
 */
describeEachDb('admin users: filter combinations read the index only', (get) => {
  interface Ref {
    id: string;
    search_text: string;
    status: string;
    locale: string;
    auth_type: string;
    technical: number;
    roles: Set<string>;
  }
  let all: Ref[] = [];
  let roleIds: string[] = [];

  beforeAll(async () => {
    const t = get();
    const catalog = await ensureCatalog(t.db);
    roleIds = [...new Set(catalog.flatMap((c) => c.roleIds))];
    // deterministic mix: names with and without "ro", every filter value, a role for about a third
    const first = ['Rosa', 'Anna', 'Bruno', 'Mia', 'Jonas', 'Karo'];
    const last = ['Rossi', 'Keller', 'Moro', 'Weber', 'Brown', 'Ng'];
    const locales = ['en', 'de', 'fr', 'it'] as const;
    const rows = [];
    const subs: { account_id: string; subscription_id: string; role_id: string; created_at: string }[] = [];
    for (let i = 0; i < 2600; i++) {
      const row = {
        ...accountRow({
          type: 'user',
          email: `u${i}@plan${i % 7}.test`,
          first_name: first[i % first.length] ?? '',
          last_name: last[(i * 7) % last.length] ?? '',
          locale: locales[(i * 3) % 4] ?? 'en',
          status: i % 5 === 0 ? 'INACTIVE' : 'ACTIVE',
          auth_type: i % 3 === 0 ? 'SSO' : 'CREDENTIALS',
          technical: i % 11 === 0 ? 1 : 0,
        }),
        id: randomUUID(),
        // some share a timestamp (the id breaks the tie)
        created_at: new Date(Date.UTC(2023, 0, 1) + Math.floor(i / 2) * 60_000).toISOString(),
      };
      rows.push(row);
      const c = catalog[i % 4];
      if (c && i % 4 !== 3) for (const r of c.roleIds) subs.push({ account_id: row.id, subscription_id: c.subscriptionId, role_id: r, created_at: row.created_at });
    }
    for (let i = 0; i < rows.length; i += 500) await t.db.kysely.insertInto('accounts').values(rows.slice(i, i + 500)).execute();
    for (let i = 0; i < subs.length; i += 500) await t.db.kysely.insertInto('role_subscriptions').values(subs.slice(i, i + 500)).execute();
    // an admin that matches everything is never a user
    await t.db.kysely.insertInto('accounts').values(accountRow({ type: 'admin', email: 'ro@plan.admin.test', first_name: 'Ro', last_name: 'Rossi', admin_role: 'manager', auth_type: 'SSO', status: 'INACTIVE', technical: 0, locale: 'it' })).execute();
    await t.db.kysely.executeQuery(CompiledQuery.raw(t.kind === 'postgres' ? 'vacuum analyze accounts, role_subscriptions' : 'analyze'));
    const held = new Map<string, Set<string>>();
    for (const s of subs) held.set(s.account_id, (held.get(s.account_id) ?? new Set()).add(s.role_id));
    const users = await t.db.kysely.selectFrom('accounts').select(['id', 'search_text', 'status', 'locale', 'auth_type', 'technical']).where('type', '=', 'user').orderBy('created_at', 'desc').orderBy('id', 'desc').execute();
    all = users.map((u) => ({ ...u, technical: Number(u.technical), roles: held.get(u.id) ?? new Set() }));
  });

  const reference = (f: UserFilters): string[] =>
    all
      .filter(
        (a) =>
          (!f.search || a.search_text.includes(f.search.toLowerCase())) &&
          (!f.status || a.status === f.status) &&
          (!f.locale || a.locale === f.locale) &&
          (!f.auth_type || a.auth_type === f.auth_type) &&
          (f.technical === undefined || a.technical === (f.technical ? 1 : 0)) &&
          (!f.role || a.roles.has(f.role)),
      )
      .map((a) => a.id);

  it('answers the reference rows and totals for short searches and role filters with other filters', async () => {
    const t = get();
    const role = roleIds[0] ?? '';
    const combos: UserFilters[] = [];
    // 1–2 characters (short route), 3+ dense enough to walk the list ('ross', 'moro') or not, and none
    for (const search of ['ro', 'r', 'os', 'zz', 'ross', 'moro', 'rosa ross', 'zzz', undefined]) {
      for (const filters of [
        { status: 'INACTIVE', locale: 'it' },
        { status: 'INACTIVE' },
        { locale: 'de', auth_type: 'SSO' },
        { auth_type: 'SSO', technical: true },
        { technical: false, locale: 'fr' },
        { role, locale: 'de', auth_type: 'SSO' },
        { role, status: 'INACTIVE', locale: 'it' },
        { role },
      ] as const) {
        if (search || 'role' in filters) combos.push({ ...filters, ...(search ? { search } : {}) });
      }
    }
    for (const f of combos) {
      const want = reference(f);
      const label = JSON.stringify(f);
      // every page by cursor, and an offset page in the middle
      const ids: string[] = [];
      let page: ListAnswer = await listAccounts(t.db, 'user', f, { page: 1, size: 50 });
      expect({ total: page.total, lower: page.totalIsLowerBound }, label).toEqual({ total: want.length, lower: false });
      ids.push(...page.rows.map((r) => r.id));
      for (let p = 2; page.nextCursor; p++) {
        page = await listAccounts(t.db, 'user', f, { page: p, size: 50, cursor: page.nextCursor });
        ids.push(...page.rows.map((r) => r.id));
      }
      expect(ids, label).toEqual(want);
      const mid = Math.max(1, Math.ceil(want.length / 2 / 7));
      expect((await listAccounts(t.db, 'user', f, { page: mid, size: 7 })).rows.map((r) => r.id), `${label} page ${mid}`).toEqual(want.slice((mid - 1) * 7, mid * 7));
      expect((await listAccounts(t.db, 'user', f, { page: 1, size: 7, count: 'exact' })).total, label).toBe(want.length);
    }
  });

  it('counts a dense short term with filters on the covering index (search_text on the entry)', async () => {
    const t = get();
    const f = { search: 'ro', status: 'INACTIVE', locale: 'it' } as const;
    expect(await shortSearchVia(t.db, 'user', f)).toBe('scan');
    const c = windowQuery(t.db, 'user', f, 'ro', 20_000).compile();
    const plan = await t.db.kysely.transaction().execute(async (trx) => {
      if (t.kind === 'postgres') {
        await trx.executeQuery(CompiledQuery.raw('set local enable_seqscan = off'));
        await trx.executeQuery(CompiledQuery.raw('set local enable_bitmapscan = off'));
      }
      return trx.executeQuery<Record<string, unknown>>(CompiledQuery.raw(`${t.kind === 'postgres' ? 'explain' : 'explain query plan'} ${c.sql}`, [...c.parameters]));
    });
    const text = plan.rows.map((r) => String(r['QUERY PLAN'] ?? r.detail)).join('\n');
    expect(text).toMatch(t.kind === 'postgres' ? /Index Only Scan( Backward)? using accounts_type_(status|locale)_cover_idx/ : /USING COVERING INDEX accounts_type_(status|locale)_created_idx/);
  });

  it('a common term of 3+ characters walks the list order instead of sorting every match (both databases)', async () => {
    const t = get();
    // "ross": about a third of the list matches, a page is found within a few rows of the walk
    const dense = { search: 'ross' } as const;
    const count = { total: reference(dense).length, lowerBound: false };
    expect(await searchVia(t.db, 'user', dense, count, 10)).toBe('scan');
    // a term no row holds: the search index answers at once
    expect(await searchVia(t.db, 'user', { search: 'zzz' }, { total: 0, lowerBound: false }, 10)).toBe('index');
    if (t.kind !== 'postgres') return;
    // PostgreSQL's planner estimates any LIKE '%term%' at ~100 rows and would take the trigram bitmap, then read and
    // sort every match: the walk's condition is one no index holds, so the page walks accounts_type_created_idx
    // (a table this small is cheaper read whole and sorted: ask for the plans without those choices)
    const plan = async (q: { compile(): CompiledQuery }, bitmaps: boolean) => {
      const c = q.compile();
      return t.db.kysely.transaction().execute(async (trx) => {
        await trx.executeQuery(CompiledQuery.raw('set local enable_seqscan = off'));
        if (!bitmaps) await trx.executeQuery(CompiledQuery.raw('set local enable_bitmapscan = off'));
        const r = await trx.executeQuery<{ 'QUERY PLAN': string }>(CompiledQuery.raw(`explain ${c.sql}`, [...c.parameters]));
        return r.rows.map((row) => row['QUERY PLAN']).join('\n');
      });
    };
    const walked = await plan(pageQuery(t.db, 'user', dense, 10, 0, 'desc', 'scan'), false);
    expect(walked).toMatch(/Index Scan Backward using accounts_type_created_idx/);
    expect(walked).not.toMatch(/accounts_search_trgm_idx/);
    // the other route still uses the trigram index
    expect(await plan(pageQuery(t.db, 'user', { search: 'zzz' }, 10, 0), true)).toMatch(/accounts_search_trgm_idx/);
  });

  it('probes the role holders by the account rowid on SQLite (migration 0012), by a join on the id on PostgreSQL', async () => {
    const t = get();
    const f = { role: roleIds[0] ?? '', locale: 'de', auth_type: 'SSO' } as const;
    for (const q of [countQuery(t.db, 'user', f), pageQuery(t.db, 'user', f, 10, 0)]) {
      const c = q.compile();
      if (t.kind === 'postgres') {
        // no account_rowid there: the holders are matched on account_id
        expect(c.sql).toContain('"role_subscriptions"."account_id" = "accounts"."id"');
        continue;
      }
      await t.db.kysely.executeQuery(CompiledQuery.raw('analyze'));
      const plan = await t.db.kysely.executeQuery<{ detail: string }>(CompiledQuery.raw(`explain query plan ${c.sql}`, [...c.parameters]));
      // an integer probe per walked entry (the entry carries the rowid), not a seek by the 36-character text id
      expect(plan.rows.map((r) => r.detail).join('\n')).toMatch(/SEARCH role_subscriptions( EXISTS)? USING COVERING INDEX role_subscriptions_role_rowid_idx \(role_id=\? AND account_rowid=\?\)/);
    }
  });

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
        expect(plan.rows.map((r) => r['QUERY PLAN']).join('\n'), JSON.stringify(f)).toMatch(/Index Only Scan using accounts_type_(status|locale|auth|technical)_cover_idx/);
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
