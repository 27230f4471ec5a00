import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { describeEachDb, createTestApp, type TestApp } from '../../helpers/app';
import { createRedisServer, type OwnRedis } from '../../helpers/faults';
import { assertNotLocked, clearLock, hitRateLimit, listLocks, recordFailure, recordSuccess, throttleKeys } from '../../../server/services/throttle';
import { AppError } from '../../../server/errors';

async function expect429(p: Promise<unknown>, code: string): Promise<AppError> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(AppError);
  const e = err as AppError;
  expect(e.status).toBe(429);
  expect(e.code).toBe(code);
  expect(Number(e.headers?.['retry-after'])).toBeGreaterThan(0);
  return e;
}

function throttleSuite(get: () => TestApp) {
  it('20 parallel failures on one account count exactly the limit (5) and lock it', async () => {
    const app = get().app;
    const key = throttleKeys.account(randomUUID());
    await assertNotLocked(app, [key]);
    const results = await Promise.all(Array.from({ length: 20 }, () => recordFailure(app, [key])));
    const counts = results.map((r) => r[0]?.count ?? 0);
    expect(Math.max(...counts)).toBe(5);
    // every count 1..5 was handed out exactly once: no lost or doubled increments
    for (let n = 1; n <= 4; n++) expect(counts.filter((c) => c === n).length).toBe(1);
    expect(counts.filter((c) => c === 5).length).toBe(16);
    const e = await expect429(assertNotLocked(app, [key, throttleKeys.ip('10.0.0.1')]), 'account_locked');
    expect(Number(e.headers?.['retry-after'])).toBeGreaterThan(14 * 60);
    const locks = await listLocks(app, key);
    expect(locks).toEqual([expect.objectContaining({ key, failures: 5 })]);
  });

  it('4 failures do not lock; a success clears the account counter but not the ip counter', async () => {
    const app = get().app;
    const key = throttleKeys.account(randomUUID());
    const ip = throttleKeys.ip('10.1.0.1');
    for (let i = 0; i < 4; i++) await recordFailure(app, [key, ip]);
    await assertNotLocked(app, [key, ip]);
    await recordSuccess(app, [key, ip]);
    const [a, b] = await recordFailure(app, [key, ip]);
    expect(a?.count).toBe(1);
    expect(b?.count).toBe(5);
  });

  it('ip keys lock after 50 failures with too_many_requests', async () => {
    const app = get().app;
    const ip = throttleKeys.ip('192.0.2.1');
    await Promise.all(Array.from({ length: 60 }, () => recordFailure(app, [ip])));
    await expect429(assertNotLocked(app, [ip]), 'too_many_requests');
    expect((await listLocks(app, 'ip:')).find((l) => l.key === ip)?.failures).toBe(50);
  });

  it('clearLock lifts a lock', async () => {
    const app = get().app;
    const key = throttleKeys.account(randomUUID());
    for (let i = 0; i < 5; i++) await recordFailure(app, [key]);
    await expect429(assertNotLocked(app, [key]), 'account_locked');
    expect(await clearLock(app, key)).toBe(true);
    await assertNotLocked(app, [key]);
    expect(await clearLock(app, key)).toBe(false);
  });

  it('hitRateLimit lets `limit` hits through, race-free, then 429', async () => {
    const app = get().app;
    const key = `test:${randomUUID()}`;
    const results = await Promise.allSettled(Array.from({ length: 12 }, () => hitRateLimit(app, key, 3, 60_000)));
    expect(results.filter((r) => r.status === 'fulfilled').length).toBe(3);
  });

  it('an expired window starts counting again', async () => {
    const app = get().app;
    if (app.config.redisUrl) return;
    const key = `misc:${randomUUID()}`;
    await recordFailure(app, [key]);
    await recordFailure(app, [key]);
    await app.db.kysely.updateTable('rate_counters').set({ reset_at: Date.now() - 1 }).where('key', '=', key).execute();
    expect((await recordFailure(app, [key]))[0]?.count).toBe(1);
  });
}

describeEachDb('throttle (database store)', (get) => throttleSuite(get));

describe('throttle (redis store)', () => {
  let redis: OwnRedis | undefined;
  let t: TestApp | undefined;
  beforeAll(async () => {
    // started only once it answers PING: an app that meets a Redis still starting fails fast (503) for a while
    redis = await createRedisServer();
    await redis.start();
    t = await createTestApp('sqlite', { REDIS_URL: redis.url });
  });
  afterAll(async () => {
    await t?.close();
    await redis?.stop();
  });
  const get = () => {
    if (!t) throw new Error('not ready');
    return t;
  };
  it('keeps no counters in the database when redis is configured', async () => {
    const key = throttleKeys.account(randomUUID());
    await recordFailure(get().app, [key]);
    expect(await get().db.kysely.selectFrom('rate_counters').selectAll().where('key', '=', key).executeTakeFirst()).toBeUndefined();
    await clearLock(get().app, key);
  });
  throttleSuite(get);
});
