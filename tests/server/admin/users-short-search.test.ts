import { beforeAll, expect, it } from 'vitest';
import { CompiledQuery } from 'kysely';
import { describeEachDb, type TestApp } from '../../helpers/app';
import { accountRow } from '../../../server/services/accounts';
import { ftsProbeVia, listAccounts, pageQuery, shortSearchVia, SHORT_PROBE_ROWS } from '../../../server/services/admin/user-search';
import * as shortSearchMigration from '../../../server/db/migrations/0008_short_search';
import { actors, type Actors } from './fixtures';

interface Row {
  id: string;
}
interface Meta {
  total: number;
  total_is_lower_bound: boolean;
  next_cursor: string | null;
}

/**
 * 1–2 character searches (issue 15): a rare term goes through the short-term index (SQLite: FTS5 vocabulary +
 * expression indexes on the last two characters; PostgreSQL: GIN over 1–2 character grams), a common one walks.
 * Either way the answer is exactly the rows whose search_text contains the term (LIKE, case-insensitive as the
 * longer searches): at the start, in the middle, in the last two characters, across fields, none.
 */
describeEachDb('admin users: short search terms', (get) => {
  let who: Actors;
  const list = async (query: string): Promise<{ rows: Row[]; meta: Meta }> => {
    const res = await get().app.inject({ method: 'GET', url: `/api/admin/users?${query}`, headers: who.manager.headers });
    expect(res.statusCode, res.body).toBe(200);
    return { rows: res.json().data as Row[], meta: res.json().meta as Meta };
  };
  /** Every user whose search_text holds the term, newest first (the reference: a substring test in JS). */
  const expected = async (t: TestApp, term: string, locale?: string): Promise<string[]> => {
    const all = await t.db.kysely.selectFrom('accounts').select(['id', 'search_text', 'locale']).where('type', '=', 'user').orderBy('created_at', 'desc').orderBy('id', 'desc').execute();
    return all.filter((a) => a.search_text.includes(term.toLowerCase()) && (!locale || a.locale === locale)).map((a) => a.id);
  };
  /** All ids of a search, following next_cursor. */
  const allOf = async (query: string, size: number): Promise<{ ids: string[]; first: Meta }> => {
    let r = await list(`${query}&size=${size}`);
    const first = r.meta;
    const ids = r.rows.map((u) => u.id);
    for (let page = 2; r.meta.next_cursor; page++) {
      r = await list(`${query}&size=${size}&page=${page}&cursor=${r.meta.next_cursor}`);
      ids.push(...r.rows.map((u) => u.id));
    }
    return { ids, first };
  };

  const specials = [
    { email: 'qa@short.test', first_name: 'Jo', last_name: 'Zq', locale: 'fr' },
    { email: 'mqk@short.test', first_name: 'Ann', last_name: 'Vuq', locale: 'de' },
    { email: 'be1@short.test', first_name: 'Ann', last_name: 'Bé', locale: 'fr' },
    { email: 'ev@short.test', first_name: 'Éva', last_name: 'Kj', locale: 'fr' },
    { email: 'max@short.test', first_name: 'Max', last_name: 'Grüß', locale: 'it' },
  ];

  beforeAll(async () => {
    who = await actors(get());
    const t = get();
    // the special rows are the oldest, so the newest SHORT_PROBE_ROWS rows (fillers) hold none of their rare letters
    const rows = specials.map((s, i) => ({
      ...accountRow({ type: 'user', ...s, auth_type: 'CREDENTIALS', status: 'ACTIVE', technical: 0 }),
      created_at: new Date(Date.UTC(2020, 0, 1 + i)).toISOString(),
    }));
    for (let i = 0; i < SHORT_PROBE_ROWS + 100; i++) {
      rows.push({
        ...accountRow({ type: 'user', email: `f${i}@fill.test`, first_name: 'Ann', last_name: 'Row', locale: 'en', auth_type: 'CREDENTIALS', status: 'ACTIVE', technical: 0 }),
        created_at: new Date(Date.UTC(2021, 0, 1) + i * 1000).toISOString(),
      });
    }
    for (let i = 0; i < rows.length; i += 500) await t.db.kysely.insertInto('accounts').values(rows.slice(i, i + 500)).execute();
    // an admin with the same rare letters is not a user
    await t.db.kysely.insertInto('accounts').values(accountRow({ type: 'admin', email: 'qq@admin.short.test', first_name: 'Qa', last_name: 'Zq', admin_role: 'manager', auth_type: 'CREDENTIALS', status: 'ACTIVE', technical: 0, locale: 'en' })).execute();
    if (t.kind === 'postgres') await t.db.kysely.executeQuery(CompiledQuery.raw('analyze accounts'));
  });

  it('answers exactly the rows holding a rare short term, wherever it sits, none, and with filters', async () => {
    const t = get();
    // start, middle, last two characters, across the e-mail and the names, accents, none at all
    for (const term of ['q', 'Q', 'qa', 'zq', 'uq', 'mq', 'é', 'bé', 'BÉ', 'év', 'k', 'kj', 'j', 'z', 'ü', 'ß', 'üß', 'qx', '~', '1@', '@s']) {
      const want = await expected(t, term);
      const { ids, first } = await allOf(`search=${encodeURIComponent(term)}`, 2);
      expect(ids, term).toEqual(want);
      expect(first, term).toMatchObject({ total: want.length, total_is_lower_bound: false });
      // the same through the other sort (offset pages)
      if (want.length <= 100) {
        const byEmail = (await list(`search=${encodeURIComponent(term)}&sort=email&size=100`)).rows.map((u) => u.id);
        expect([...byEmail].sort(), term).toEqual([...want].sort());
      }
    }
    for (const [term, locale] of [['q', 'fr'], ['é', 'fr'], ['ü', 'it'], ['q', 'it']] as const) {
      const want = await expected(t, term, locale);
      const { ids, first } = await allOf(`search=${encodeURIComponent(term)}&locale=${locale}`, 1);
      expect(ids, `${term} ${locale}`).toEqual(want);
      expect(first.total).toBe(want.length);
    }
  });

  it('takes the index for a rare short term and walks for a common one, with the same answers as LIKE', async () => {
    const t = get();
    expect(await shortSearchVia(t.db, 'user', { search: 'q' })).toBe('short');
    expect(await shortSearchVia(t.db, 'user', { search: 'qx' })).toBe('short');
    expect(await shortSearchVia(t.db, 'user', { search: 'é' })).toBe('short');
    // every filler holds "n", "ro" and "@f": a page is found in the first rows
    expect(await shortSearchVia(t.db, 'user', { search: 'n' })).toBe('scan');
    expect(await shortSearchVia(t.db, 'user', { search: 'ro' })).toBe('scan');
    // not a short term / outside the characters the index serves
    expect(await shortSearchVia(t.db, 'user', { search: 'row' })).toBeUndefined();
    expect(await shortSearchVia(t.db, 'user', { search: 'ø\u0301' })).toBeUndefined();
    const plan = async (term: string) => {
      const c = pageQuery(t.db, 'user', { search: term }, 10, 0, 'desc', 'short').compile();
      const prefix = t.kind === 'postgres' ? 'explain ' : 'explain query plan ';
      // a table of 2 000 rows is read whole on PostgreSQL whatever the indexes: ask for the plan without that choice
      const out = await t.db.kysely.transaction().execute(async (trx) => {
        if (t.kind === 'postgres') await trx.executeQuery(CompiledQuery.raw('set local enable_seqscan = off'));
        return trx.executeQuery<Record<string, unknown>>(CompiledQuery.raw(prefix + c.sql, [...c.parameters]));
      });
      return out.rows.map((r) => String(r['QUERY PLAN'] ?? r.detail)).join('\n');
    };
    if (t.kind === 'postgres') {
      expect(await plan('q')).toContain('accounts_search_grams_idx');
    } else {
      const p = await plan('q');
      expect(p).toContain('accounts_fts');
      expect(p).toContain('accounts_search_end2_idx');
      expect(p).toContain('accounts_search_end1_idx');
      expect(await plan('qa')).toContain('accounts_search_end2_idx');
    }
    // the common terms walk and still answer LIKE's rows (counted up to the threshold: exact here)
    for (const term of ['n', 'ro', '@f']) {
      const want = await expected(t, term);
      const r = await list(`search=${encodeURIComponent(term)}&size=100&count=exact`);
      expect(r.meta.total, term).toBe(want.length);
      expect(r.rows.map((u) => u.id)).toEqual(want.slice(0, 100));
    }
  });

  it('a search with filters answers the same rows whether it drives from the FTS5 matches or probes them (SQLite)', async () => {
    const t = get();
    // make a few fillers inactive / French so that the filters select something
    const fill = await t.db.kysely.selectFrom('accounts').select('id').where('email', 'like', 'f1%@fill.test').execute();
    await t.db.kysely.updateTable('accounts').set({ status: 'INACTIVE' }).where('id', 'in', fill.filter((_, i) => i % 2 === 0).map((r) => r.id)).execute();
    await t.db.kysely.updateTable('accounts').set({ locale: 'fr' }).where('id', 'in', fill.filter((_, i) => i % 3 === 0).map((r) => r.id)).execute();
    if (t.kind === 'sqlite') {
      // "fill.test" matches 2 100 rows, more than an eighth of the English or inactive rows: probe
      expect(await ftsProbeVia(t.db, 'user', { search: 'fill.test', locale: 'en' })).toBe('probe');
      // "short.test" matches 5: drive from the matches
      expect(await ftsProbeVia(t.db, 'user', { search: 'short.test', locale: 'en' })).toBeUndefined();
      expect(await ftsProbeVia(t.db, 'user', { search: 'fill.test' })).toBeUndefined();
    }
    const all = await t.db.kysely.selectFrom('accounts').select(['id', 'search_text', 'locale', 'status']).where('type', '=', 'user').orderBy('created_at', 'desc').orderBy('id', 'desc').execute();
    for (const [search, filter, keep] of [
      ['fill.test', 'locale=fr', (a: (typeof all)[number]) => a.locale === 'fr'],
      ['fill.test', 'status=INACTIVE&locale=fr', (a: (typeof all)[number]) => a.locale === 'fr' && a.status === 'INACTIVE'],
      ['f1', 'status=INACTIVE', (a: (typeof all)[number]) => a.status === 'INACTIVE'],
      ['short.test', 'locale=fr', (a: (typeof all)[number]) => a.locale === 'fr'],
    ] as const) {
      const want = all.filter((a) => a.search_text.includes(search) && keep(a)).map((a) => a.id);
      const { ids, first } = await allOf(`search=${search}&${filter}`, 40);
      expect(ids, `${search} ${filter}`).toEqual(want);
      expect(first.total).toBe(want.length);
      const offsetPage = (await list(`search=${search}&${filter}&size=7&page=3`)).rows.map((u) => u.id);
      expect(offsetPage).toEqual(want.slice(14, 21));
      // the probe route answers offset pages from one walk: same rows, totals and cursors as the other routes
      const lastPage = Math.max(1, Math.ceil(want.length / 7));
      for (const p of [1, 2, lastPage, lastPage + 1]) {
        const r = await list(`search=${search}&${filter}&size=7&page=${p}`);
        expect(r.rows.map((u) => u.id), `${search} ${filter} page ${p}`).toEqual(want.slice((p - 1) * 7, p * 7));
        expect(r.meta).toMatchObject({ total: want.length, total_is_lower_bound: false });
        expect(Boolean(r.meta.next_cursor), `${search} ${filter} page ${p} next`).toBe(p * 7 < want.length);
        if (r.meta.next_cursor) expect((await list(`search=${search}&${filter}&size=7&page=${p + 1}&cursor=${r.meta.next_cursor}`)).rows.map((u) => u.id)).toEqual(want.slice(p * 7, (p + 1) * 7));
      }
      const oldest = (await list(`search=${search}&${filter}&size=7&page=2&sort=created_at`)).rows.map((u) => u.id);
      expect(oldest).toEqual([...want].reverse().slice(7, 14));
    }
    if (t.kind === 'sqlite') {
      // one request on the probe route evaluates the FTS5 phrase once (the match count that chose the route is kept
      // a minute): the count and the page come from the same walk
      const seen: string[] = [];
      const executor = t.db.kysely.getExecutor();
      const counting = {
        ...t.db,
        kysely: t.db.kysely.withPlugin({
          transformQuery: ({ node, queryId }) => {
            seen.push(executor.compileQuery(node, queryId).sql);
            return node;
          },
          transformResult: async ({ result }) => result,
        }),
      };
      const f = { search: 'fill.test', status: 'INACTIVE', locale: 'fr' } as const;
      const first = await listAccounts(counting, 'user', f, { page: 1, size: 7 });
      seen.length = 0;
      const again = await listAccounts(counting, 'user', f, { page: 2, size: 7 });
      expect(seen.filter((q) => q.includes('accounts_fts match')), seen.join('\n')).toHaveLength(1);
      expect(again.total).toBe(first.total);
      expect(first.total).toBeGreaterThan(14);
    }
  });

  it('finds rows that existed before the migration (its indexes are built for them)', async () => {
    const t = get();
    await shortSearchMigration.down(t.db.kysely);
    const old = { ...accountRow({ type: 'user', email: 'old@short.test', first_name: 'Quentin', last_name: 'Ox', locale: 'en', auth_type: 'CREDENTIALS', status: 'ACTIVE', technical: 0 }), created_at: '2019-06-01T00:00:00.000Z' };
    await t.db.kysely.insertInto('accounts').values(old).execute();
    await shortSearchMigration.up(t.db.kysely);
    for (const term of ['qu', 'ox', 'x']) {
      const want = await expected(t, term);
      expect(want, term).toContain(old.id);
      expect((await allOf(`search=${term}`, 5)).ids, term).toEqual(want);
    }
    // and rows written after it (the index follows inserts, updates and deletes)
    const added = accountRow({ type: 'user', email: 'new@short.test', first_name: 'Ann', last_name: 'Roq', locale: 'en', auth_type: 'CREDENTIALS', status: 'ACTIVE', technical: 0 });
    await t.db.kysely.insertInto('accounts').values(added).execute();
    expect((await allOf('search=oq', 5)).ids).toEqual([added.id]);
    await t.db.kysely.updateTable('accounts').set({ last_name: 'Rox', search_text: 'new@short.test ann rox' }).where('id', '=', added.id).execute();
    expect((await allOf('search=oq', 5)).ids).toEqual([]);
    expect((await allOf('search=ox', 5)).ids).toContain(added.id);
    await t.db.kysely.deleteFrom('accounts').where('id', '=', added.id).execute();
    expect((await allOf('search=ox', 5)).ids).not.toContain(added.id);
  });
});
