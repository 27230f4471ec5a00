import { beforeAll, expect, it, vi } from 'vitest';
import { describeEachDb } from '../../helpers/app';
import { createImportService, importJobsSettled } from '../../../server/services/admin/import';
import type { Actor as ServiceActor } from '../../../server/services/deps';
import { actors, type Actors } from './fixtures';

interface Row {
  id: string;
  email: string;
  created_at: string;
}
interface Meta {
  page: number;
  next_cursor: string | null;
  prev_cursor: string | null;
}

/** Rows of an import job: more than two batches of 1000. */
const ROWS = 2500;
const SIZE = 100;

/**
 * Imported users are created when their batch is inserted: no created_at ahead of the clock (issue 15: they were
 * stamped "now + 1 ms per row", up to ROWS ms in the future). The list's (created_at, id) order stays total across
 * the batches' shared timestamps: every page walk, by cursor and by page number, in both orders, shows each imported
 * user exactly once.
 */
describeEachDb('users import: created_at never in the future, list order total', (get) => {
  let who: Actors;
  let imported: Set<string>;
  /** the clock during the import: it stands still, so a row stamped ahead of it shows whatever the machine's speed */
  let clock: string;
  const list = async (query: string): Promise<{ rows: Row[]; meta: Meta }> => {
    const res = await get().app.inject({ method: 'GET', url: `/api/admin/users?${query}`, headers: who.manager.headers });
    expect(res.statusCode, res.body).toBe(200);
    return { rows: res.json().data as Row[], meta: res.json().meta as Meta };
  };
  /** Imported ids in a walk's order, each one checked to appear once. */
  const onceEach = (ids: string[]): string[] => {
    const mine = ids.filter((id) => imported.has(id));
    expect(new Set(ids).size).toBe(ids.length);
    expect(mine).toHaveLength(imported.size);
    return mine;
  };

  beforeAll(async () => {
    const t = get();
    who = await actors(t);
    const actor: ServiceActor = { id: who.superAdmin.account.id, email: who.superAdmin.account.email, ip: '203.0.113.9' };
    const service = createImportService(t.app.deps);
    const csv = ['email,first_name,last_name,locale,auth_type', ...Array.from({ length: ROWS }, (_, i) => `row${i}@created-at.test,Row,Number${i},en,CREDENTIALS`)].join('\n');
    const parsed = await service.read(Buffer.from(csv));
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      vi.setSystemTime(new Date());
      clock = new Date().toISOString();
      const answer = await service.importFile(actor, parsed, { dryRun: false, sendInvitations: false, async: true });
      expect(answer.kind).toBe('job');
      await importJobsSettled(t.app.deps);
    } finally {
      vi.useRealTimers();
    }
    const rows = await t.db.kysely.selectFrom('accounts').select(['id', 'created_at']).where('email_normalized', 'like', '%@created-at.test').execute();
    expect(rows).toHaveLength(ROWS);
    imported = new Set(rows.map((r) => r.id));
  }, 120_000);

  it('stamps no imported user later than the clock of its import', async () => {
    const rows = await get().db.kysely.selectFrom('accounts').select(['email', 'created_at', 'updated_at']).where('email_normalized', 'like', '%@created-at.test').execute();
    expect(rows.filter((r) => r.created_at > clock || r.updated_at > clock)).toEqual([]);
    expect(rows.filter((r) => r.created_at > new Date().toISOString())).toEqual([]);
  });

  it('pages by cursor, forwards and backwards, in both orders: every imported user once', async () => {
    for (const sort of ['-created_at', 'created_at']) {
      const forward: string[] = [];
      let r = await list(`sort=${sort}&size=${SIZE}`);
      let page = 1;
      for (;;) {
        forward.push(...r.rows.map((u) => u.id));
        if (!r.meta.next_cursor) break;
        page++;
        r = await list(`sort=${sort}&size=${SIZE}&page=${page}&cursor=${r.meta.next_cursor}`);
      }
      const backward: string[] = [...r.rows.map((u) => u.id)].reverse();
      while (r.meta.prev_cursor) {
        page--;
        r = await list(`sort=${sort}&size=${SIZE}&page=${page}&cursor=${r.meta.prev_cursor}`);
        backward.push(...[...r.rows.map((u) => u.id)].reverse());
      }
      expect(page).toBe(1);
      const fwd = onceEach(forward);
      expect(onceEach(backward.reverse())).toEqual(fwd);
    }
  });

  it('pages by page number, first to last and last to first, in both orders: every imported user once, same order as the cursors', async () => {
    const orders: Record<string, string[]> = {};
    for (const sort of ['-created_at', 'created_at']) {
      const first = await list(`sort=${sort}&size=${SIZE}&count=exact`);
      const total = (await get().app.inject({ method: 'GET', url: `/api/admin/users?sort=${sort}&size=1&count=exact`, headers: who.manager.headers })).json().meta.total as number;
      const pages = Math.ceil(total / SIZE);
      const up: string[] = [...first.rows.map((u) => u.id)];
      for (let p = 2; p <= pages; p++) up.push(...(await list(`sort=${sort}&size=${SIZE}&page=${p}`)).rows.map((u) => u.id));
      const down: string[][] = [];
      for (let p = pages; p >= 1; p--) down.unshift((await list(`sort=${sort}&size=${SIZE}&page=${p}`)).rows.map((u) => u.id));
      expect(up).toHaveLength(total);
      expect(down.flat()).toEqual(up);
      orders[sort] = onceEach(up);
    }
    // the two orders are each other's reverse
    expect(orders['created_at']).toEqual([...(orders['-created_at'] ?? [])].reverse());
  });
});
