import { describe, expect, it } from 'vitest';
import { describeEachDb, createTestApp } from '../../helpers/app';
import { hashQueue, lockouts, registry, setKeysInUse, signInOutcome } from '../../../server/lib/metrics';
import { HashGate } from '../../../server/services/passwords';

const TOKEN = 'metrics-token-0123456789abcdef';

describeEachDb(
  'request ids and metrics',
  (get) => {
    it('every answer carries x-request-id; a plain caller id is kept, anything else replaced', async () => {
      const a = await get().app.inject({ method: 'GET', url: '/api/languages' });
      expect(a.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
      const b = await get().app.inject({ method: 'GET', url: '/api/languages', headers: { 'x-request-id': 'lb-abc.123' } });
      expect(b.headers['x-request-id']).toBe('lb-abc.123');
      const c = await get().app.inject({ method: 'GET', url: '/api/languages', headers: { 'x-request-id': 'evil\u0000id with spaces' } });
      expect(c.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
      // errors too, and the 404 of an unknown route
      const d = await get().app.inject({ method: 'GET', url: '/api/nope' });
      expect(d.statusCode).toBe(404);
      expect(d.headers['x-request-id']).toBeTypeOf('string');
    });

    it('GET /metrics needs the bearer token', async () => {
      const none = await get().app.inject({ method: 'GET', url: '/metrics' });
      expect(none.statusCode).toBe(401);
      const wrong = await get().app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${TOKEN}x` } });
      expect(wrong.statusCode).toBe(401);
      const ok = await get().app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } });
      expect(ok.statusCode).toBe(200);
      expect(ok.headers['content-type']).toContain('text/plain');
    });

    it('counts requests by route template and status, with latency histograms and the named helpers', async () => {
      await get().app.inject({ method: 'GET', url: '/api/languages' });
      await get().app.inject({ method: 'GET', url: '/api/admin/users/00000000-0000-0000-0000-000000000000' });
      signInOutcome('invalid_credentials');
      lockouts.inc('account');
      hashQueue.setDepth(3);
      hashQueue.refused();
      setKeysInUse(['kid-a', 'kid-b']);
      setKeysInUse(['kid-b']);
      const text = (await get().app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } })).body;
      expect(text).toMatch(/iam_http_requests_total\{method="GET",route="\/api\/languages",status="200"\} \d+/);
      // the route template, not the raw URL (bounded label values)
      expect(text).toMatch(/route="\/api\/admin\/users\/:id",status="401"/);
      expect(text).not.toContain('00000000-0000-0000-0000-000000000000');
      expect(text).toMatch(/iam_http_request_duration_seconds_bucket\{le="0\.005",method="GET",route="\/api\/languages",status="200"\}/);
      expect(text).toMatch(/iam_sign_ins_total\{outcome="invalid_credentials"\} [1-9]/);
      expect(text).toMatch(/iam_lockouts_total\{kind="account"\} [1-9]/);
      expect(text).toMatch(/iam_password_hash_queue_depth 3/);
      expect(text).toMatch(/iam_password_hash_refusals_total [1-9]/);
      expect(text).toContain('iam_signing_keys_in_use{kid="kid-b"} 1');
      expect(text).not.toContain('kid="kid-a"');
      expect(text).toMatch(/iam_db_pool_connections\{state="in_use"\}/);
      // prom-client's process metrics, the event-loop-delay ones included, are registered when /metrics is exposed
      // (only then: BENCHMARKS.md "Idle server")
      expect(text).toMatch(/iam_process_cpu_seconds_total \d/);
      expect(text).toMatch(/iam_nodejs_heap_size_used_bytes \d/);
      expect(text).toMatch(/iam_nodejs_eventloop_lag_p99_seconds \S+/);
    });
  },
  { IAM_METRICS_TOKEN: TOKEN },
);

describe('metrics exposure', () => {
  it('without IAM_METRICS_TOKEN there is no /metrics on the main port', async () => {
    const t = await createTestApp('sqlite');
    try {
      const res = await t.app.inject({ method: 'GET', url: '/metrics' });
      expect(res.statusCode).toBe(404);
      expect(res.body).not.toContain('iam_http_requests_total');
    } finally {
      await t.close();
    }
  });

  it('the password-hash gate reports its queue depth and refusals', async () => {
    const value = async (name: string) => (await registry.getSingleMetric(name)?.get())?.values[0]?.value ?? 0;
    const refusedBefore = await value('iam_password_hash_refusals_total');
    const gate = new HashGate(1, 1);
    let release: () => void = () => {};
    const first = gate.run(() => new Promise<void>((r) => (release = r)));
    const second = gate.run(async () => undefined);
    await new Promise((r) => setImmediate(r));
    expect(await value('iam_password_hash_queue_depth')).toBe(1);
    await expect(gate.run(async () => undefined)).rejects.toMatchObject({ status: 503 });
    expect(await value('iam_password_hash_refusals_total')).toBe(refusedBefore + 1);
    release();
    await Promise.all([first, second]);
    expect(await value('iam_password_hash_queue_depth')).toBe(0);
  });

  it('a short IAM_METRICS_TOKEN is refused at start', async () => {
    const { loadConfig, ConfigError } = await import('../../../server/config');
    expect(() => loadConfig({ IAM_METRICS_TOKEN: 'short' })).toThrow(ConfigError);
  });
});
