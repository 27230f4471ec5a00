import { beforeAll, expect, it } from 'vitest';
import { describeEachDb } from '../../helpers/app';
import { accountRow } from '../../../server/services/accounts';
import { seedUsers } from '../../../server/cli/seed';
import { USER_COUNT_EXACT_BELOW } from '../../../contract/admin/users';
import { actors, type Actors } from './fixtures';

interface Row {
  id: string;
  created_at: string;
  email: string;
  locale: string;
}
interface Meta {
  page: number;
  size: number;
  total: number;
  total_is_lower_bound: boolean;
  next_cursor: string | null;
  prev_cursor: string | null;
}

/**
 * Keyset (cursor) paging of GET /api/admin/users and its bounded totals (issue 15): pages by cursor are disjoint
 * and complete in both directions, also across rows with the same created_at; totals are exact below
 * USER_COUNT_EXACT_BELOW and a lower bound above it unless `count=exact`.
 */
describeEachDb('admin users: keyset pages and bounded totals', (get) => {
  let who: Actors;
  const list = async (query: string): Promise<{ rows: Row[]; meta: Meta }> => {
    const res = await get().app.inject({ method: 'GET', url: `/api/admin/users?${query}`, headers: who.manager.headers });
    expect(res.statusCode, res.body).toBe(200);
    return { rows: res.json().data as Row[], meta: res.json().meta as Meta };
  };

  beforeAll(async () => {
    who = await actors(get());
    // 45 users in 5 bursts sharing one created_at each (ties broken by id), locales alternating
    const rows = [];
    for (let i = 0; i < 45; i++) {
      const at = new Date(Date.UTC(2030, 0, 1 + Math.floor(i / 9))).toISOString();
      rows.push({
        ...accountRow({ type: 'user', email: `tie${i}@keyset.test`, first_name: 'Tie', last_name: `Keyset${i}`, locale: i % 2 ? 'fr' : 'de', auth_type: 'CREDENTIALS', status: 'ACTIVE', technical: 0 }),
        created_at: at,
        updated_at: at,
      });
    }
    await get().db.kysely.insertInto('accounts').values(rows).execute();
  });

  /** Follows next_cursor from the first page to the end, then prev_cursor back to the start. */
  async function walk(query: string, size: number): Promise<{ forward: string[]; backward: string[]; pages: Meta[] }> {
    const forward: string[] = [];
    const pages: Meta[] = [];
    let r = await list(`${query}&size=${size}`);
    let page = 1;
    for (;;) {
      forward.push(...r.rows.map((u) => u.id));
      pages.push(r.meta);
      expect(r.meta.page).toBe(page);
      if (!r.meta.next_cursor) break;
      page++;
      r = await list(`${query}&size=${size}&page=${page}&cursor=${r.meta.next_cursor}`);
    }
    // and back from the last page
    const backward: string[] = [...r.rows.map((u) => u.id)].reverse();
    while (r.meta.prev_cursor) {
      page--;
      r = await list(`${query}&size=${size}&page=${page}&cursor=${r.meta.prev_cursor}`);
      backward.push(...[...r.rows.map((u) => u.id)].reverse());
    }
    expect(page).toBe(1);
    return { forward, backward: backward.reverse(), pages };
  }

  it('pages by cursor without duplicates or gaps, across equal created_at, forwards and backwards, in both orders', async () => {
    for (const sort of ['-created_at', 'created_at']) {
      const all = (await list(`search=keyset.test&size=100&sort=${sort}`)).rows.map((u) => u.id);
      expect(all).toHaveLength(45);
      for (const size of [1, 4, 9, 10]) {
        const { forward, backward, pages } = await walk(`search=keyset.test&sort=${sort}`, size);
        expect(forward).toEqual(all);
        expect(backward).toEqual(all);
        expect(new Set(forward).size).toBe(45);
        expect(pages[0]?.prev_cursor).toBeNull();
        expect(pages.at(-1)?.next_cursor).toBeNull();
      }
      // the offset pages are the same pages
      const offsetPage3 = (await list(`search=keyset.test&size=4&page=3&sort=${sort}`)).rows.map((u) => u.id);
      expect(offsetPage3).toEqual(all.slice(8, 12));
    }
  });

  it('keeps filters on cursor pages and gives cursors on offset pages too', async () => {
    const all = (await list('search=keyset.test&locale=fr&size=100')).rows;
    expect(all).toHaveLength(22);
    expect(all.every((u) => u.locale === 'fr')).toBe(true);
    const { forward } = await walk('search=keyset.test&locale=fr', 5);
    expect(forward).toEqual(all.map((u) => u.id));
    // an offset page in the middle: its cursors lead to its neighbours
    const p3 = await list('search=keyset.test&locale=fr&size=5&page=3');
    const p4 = await list(`search=keyset.test&locale=fr&size=5&page=4&cursor=${p3.meta.next_cursor}`);
    const p2 = await list(`search=keyset.test&locale=fr&size=5&page=2&cursor=${p3.meta.prev_cursor}`);
    expect(p4.rows.map((u) => u.id)).toEqual(all.slice(15, 20).map((u) => u.id));
    expect(p2.rows.map((u) => u.id)).toEqual(all.slice(5, 10).map((u) => u.id));
  });

  it('refuses a malformed cursor and a cursor with a sort it cannot follow (422, not 500)', async () => {
    for (const q of ['cursor=nonsense', `cursor=${Buffer.from('x|y|z').toString('base64url')}`, `sort=email&cursor=${Buffer.from('a|2030-01-01T00:00:00.000Z|id').toString('base64url')}`]) {
      const res = await get().app.inject({ method: 'GET', url: `/api/admin/users?${q}`, headers: who.manager.headers });
      expect(res.statusCode).toBe(422);
      expect(res.json().error).toMatchObject({ code: 'validation_failed', fields: { cursor: ['invalid'] } });
    }
    const badCount = await get().app.inject({ method: 'GET', url: '/api/admin/users?count=maybe', headers: who.manager.headers });
    expect(badCount.statusCode).toBe(422);
  });

  it('counts exactly below the threshold and answers a lower bound above it, exact on request', async () => {
    const small = await list('search=keyset.test');
    expect(small.meta).toMatchObject({ total: 45, total_is_lower_bound: false });
    await seedUsers(get().db, { users: USER_COUNT_EXACT_BELOW + 5, tx: 5000 });
    // unfiltered totals are always exact (maintained counter)
    const plain = await list('');
    expect(plain.meta.total_is_lower_bound).toBe(false);
    expect(plain.meta.total).toBeGreaterThan(USER_COUNT_EXACT_BELOW);
    const exactAll = plain.meta.total;
    // every seeded e-mail has an '@': a filter matching them all is counted up to the threshold
    const bounded = await list('search=%40');
    expect(bounded.meta).toMatchObject({ total: USER_COUNT_EXACT_BELOW, total_is_lower_bound: true });
    expect(bounded.rows).toHaveLength(10);
    expect(bounded.meta.next_cursor).not.toBeNull();
    const exact = await list('search=%40&count=exact');
    expect(exact.meta).toMatchObject({ total: exactAll, total_is_lower_bound: false });
    // a 3-character term (trigram index) and a filter alone likewise
    const seeded = await list('search=example&count=exact');
    expect(seeded.meta.total).toBeGreaterThanOrEqual(USER_COUNT_EXACT_BELOW + 5);
    expect((await list('search=example')).meta).toMatchObject({ total: USER_COUNT_EXACT_BELOW, total_is_lower_bound: true });
    const active = await list('status=ACTIVE&count=exact');
    expect(active.meta.total_is_lower_bound).toBe(false);
    const activeBounded = await list('status=ACTIVE');
    if (active.meta.total > USER_COUNT_EXACT_BELOW) expect(activeBounded.meta).toMatchObject({ total: USER_COUNT_EXACT_BELOW, total_is_lower_bound: true });
    else expect(activeBounded.meta).toMatchObject({ total: active.meta.total, total_is_lower_bound: false });
    const few = await list('search=keyset.test&locale=de&count=exact');
    expect(few.meta).toMatchObject({ total: 23, total_is_lower_bound: false });
    // an offset page past what the bounded count saw still answers its rows; the last one makes the total exact
    const exactSeeded = seeded.meta.total;
    const lastPage = Math.ceil(exactSeeded / 10);
    const beyond = await list(`search=example&page=${lastPage - 1}&size=10`);
    expect(beyond.rows).toHaveLength(10);
    expect(beyond.meta).toMatchObject({ total: (lastPage - 1) * 10, total_is_lower_bound: true });
    const deep = await list(`search=example&page=${lastPage}&size=10`);
    expect(deep.rows).toHaveLength(exactSeeded - (lastPage - 1) * 10);
    expect(deep.meta).toMatchObject({ total: exactSeeded, total_is_lower_bound: false, next_cursor: null });
  });
});
