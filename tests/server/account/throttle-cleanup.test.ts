import { expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { describeEachDb } from '../../helpers/app';
import { pruneExpiredCounters, recordFailure, startCounterCleanup, throttleKeys } from '../../../server/services/throttle';

const MIN = 60_000;

describeEachDb('expired throttle counters are deleted, in bounded batches', (get) => {
  const seed = async (tag: string) => {
    const { db } = get();
    const now = Date.now();
    const rows = [
      // window over, never locked
      ...Array.from({ length: 5 }, (_, i) => ({ key: `rate:${tag}:old${i}`, count: 3, reset_at: now - MIN, locked_until: 0 })),
      // window and lock both over
      { key: `account:${tag}:unlocked`, count: 5, reset_at: now - 20 * MIN, locked_until: now - MIN },
      // window over but still locked: kept
      { key: `account:${tag}:locked`, count: 5, reset_at: now - MIN, locked_until: now + 10 * MIN },
      // window still open: kept
      { key: `ip:${tag}:open`, count: 2, reset_at: now + 10 * MIN, locked_until: 0 },
    ];
    await db.kysely.insertInto('rate_counters').values(rows).execute();
    return rows;
  };
  const keysOf = async (tag: string) =>
    (await get().db.kysely.selectFrom('rate_counters').select('key').where('key', 'like', `%:${tag}:%`).orderBy('key').execute()).map((r) => r.key);

  it('deletes at most `batch` expired rows per call and never a live or locked one', async () => {
    const tag = randomUUID().slice(0, 8);
    await seed(tag);
    expect(await pruneExpiredCounters(get().app, { batch: 4 })).toBe(4);
    expect(await keysOf(tag)).toHaveLength(4);
    expect(await pruneExpiredCounters(get().app, { batch: 4 })).toBe(2);
    expect(await pruneExpiredCounters(get().app, { batch: 4 })).toBe(0);
    expect(await keysOf(tag)).toEqual([`account:${tag}:locked`, `ip:${tag}:open`]);
  });

  it('a key whose expired counter was deleted counts again from 1', async () => {
    const { app, db } = get();
    const key = throttleKeys.account(randomUUID());
    await recordFailure(app, [key]);
    await recordFailure(app, [key]);
    await db.kysely.updateTable('rate_counters').set({ reset_at: Date.now() - 1 }).where('key', '=', key).execute();
    expect(await pruneExpiredCounters(app, { batch: 1000 })).toBeGreaterThanOrEqual(1);
    expect(await db.kysely.selectFrom('rate_counters').select('key').where('key', '=', key).execute()).toEqual([]);
    expect((await recordFailure(app, [key]))[0]?.count).toBe(1);
  });

  it('the periodic cleanup runs a bounded number of batches per round until stopped', async () => {
    const tag = randomUUID().slice(0, 8);
    await seed(tag);
    const stop = startCounterCleanup(get().app, { everyMs: 20, batch: 2, maxBatches: 1 });
    try {
      for (let i = 0; i < 100 && (await keysOf(tag)).length > 2; i++) await sleep(20);
    } finally {
      stop();
    }
    expect(await keysOf(tag)).toEqual([`account:${tag}:locked`, `ip:${tag}:open`]);
  });
});
