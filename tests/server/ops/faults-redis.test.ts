import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setTimeout as sleep } from 'node:timers/promises';
import { createTestApp, type TestApp } from '../../helpers/app';
import { createRedisServer, percentile, type OwnRedis } from '../../helpers/faults';
import { assertNotLocked, throttleKeys } from '../../../server/services/throttle';
import { unavailableDependency } from '../../../server/plugins/app/errors';
import { registry } from '../../../server/lib/metrics';

/**
 * Redis of the test's own, stopped and started again: requests that need it (throttle counters) answer a fast,
 * localized 503; the rest keeps working; readiness reports it and stays 200; everything recovers without a restart.
 */
describe('Redis outage (own redis-server)', () => {
  let redis: OwnRedis;
  let t: TestApp;
  const figures: Record<string, number> = {};

  beforeAll(async () => {
    redis = await createRedisServer();
    await redis.start();
    t = await createTestApp('sqlite', { REDIS_URL: redis.url, IAM_REDIS_TIMEOUT_MS: '500', IAM_HEALTH_TIMEOUT_MS: '1000' });
  }, 30_000);
  afterAll(async () => {
    await t?.close();
    await redis?.stop();
    console.info('fault figures (redis):', JSON.stringify(figures));
  });

  const forgot = (lang = 'en', i = 0) =>
    t.app.inject({ method: 'POST', url: '/api/forgot-password', headers: { 'accept-language': lang }, payload: { email: `nobody${i}@example.com` } });

  it('while Redis is down: throttled routes 503 fast and localized, others work, ready says so; then it recovers', async () => {
    expect((await forgot()).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: '/api/health/ready' })).json().data.redis).toBe('ok');

    await redis.stop();
    await sleep(200);
    const ms: number[] = [];
    for (let i = 0; i < 20; i++) {
      const t0 = performance.now();
      const res = await forgot(i % 2 ? 'it' : 'en', i);
      ms.push(performance.now() - t0);
      expect(res.statusCode).toBe(503);
      expect(res.json().error.code).toBe('service_unavailable');
      expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
      if (i % 2) expect(res.json().error.message).toMatch(/servizio/i);
      expect(res.body).not.toMatch(/ECONN|Stream|writeable|redis/i);
    }
    figures.redis_down_503_p50_ms = Math.round(percentile(ms, 50));
    figures.redis_down_503_p99_ms = Math.round(percentile(ms, 99));
    expect(Math.max(...ms)).toBeLessThan(5000);

    // the sign-in lock check is a typed dependency failure (→ 503), never a 500
    const err = await assertNotLocked(t.app, [throttleKeys.email('user', 'a@example.com')]).then(
      () => null,
      (e: unknown) => e,
    );
    expect(unavailableDependency(err)).toBe('redis');

    // not everything: routes that do not need Redis answer (the global per-IP limit fails open)
    expect((await t.app.inject({ method: 'GET', url: '/api/languages' })).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: '/api/health/live' })).statusCode).toBe(200);
    // readiness means "can this instance serve": Redis is reported, the instance stays in the pool
    const ready = await t.app.inject({ method: 'GET', url: '/api/health/ready' });
    expect(ready.statusCode).toBe(200);
    expect(ready.json().data).toMatchObject({ status: 'degraded', redis: 'unavailable' });
    expect((await t.app.inject({ method: 'GET', url: '/api/health' })).json().data.redis).toBe('unavailable');

    // nothing half-written: the counters live in Redis only, none fell back into the database
    expect(await t.db.kysely.selectFrom('rate_counters').selectAll().execute()).toEqual([]);

    await redis.start();
    const t0 = performance.now();
    for (;;) {
      const r = await t.app.inject({ method: 'GET', url: '/api/health/ready' });
      if (r.json().data.status === 'ok' && (await forgot('en', 99)).statusCode === 200) break;
      if (performance.now() - t0 > 20_000) throw new Error('no recovery within 20 s');
      await sleep(50);
    }
    figures.redis_recovery_ms = Math.round(performance.now() - t0);

    const metrics = await registry.metrics();
    expect(metrics).toMatch(/iam_redis_errors_total\{client="throttle"\} [1-9]/);
    expect(metrics).toMatch(/iam_dependency_unavailable_total\{dependency="redis"\} [1-9]/);
  }, 60_000);
});
