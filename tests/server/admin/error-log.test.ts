import { beforeAll, describe, expect, it } from 'vitest';
import { describeEachDb } from '../../helpers/app';
import { actors, type Actors } from './fixtures';
import { LOGGED_ERROR_CODES, OIDC_ERROR_CODES } from '../../../contract/admin/logs';
import { ERROR_CODES } from '../../../contract/errors';
import type { ErrorLogsTable } from '../../../server/db/schema';

/** An error-log row as the tests read it: the table's columns without id and time. */
type Row = Omit<ErrorLogsTable, 'id' | 'created_at'>;

describeEachDb('error log: client errors are recorded', (get) => {
  let who: Actors;
  beforeAll(async () => {
    who = await actors(get());
  });
  const errorsOf = async (code: string): Promise<Row[]> => {
    const res = await get().app.inject({ method: 'GET', url: `/api/admin/logs/errors?code=${code}&size=100`, headers: who.superAdmin.headers });
    expect(res.statusCode).toBe(200);
    return res.json().data as Row[];
  };

  it('records a 403 with the signed-in admin e-mail, the URL and an English message', async () => {
    const res = await get().app.inject({ method: 'GET', url: '/api/admin/roles?secret=abc', headers: { ...who.manager.headers, locale: 'de' } });
    expect(res.statusCode).toBe(403);
    const rows = await errorsOf('forbidden');
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ error_code: 'forbidden', status: 403, method: 'GET', url: '/api/admin/roles', user_email: who.manager.account.email });
    expect(rows[0]?.message).toMatch(/[a-z]/i);
    expect(rows[0]?.message).not.toContain('abc');
  });

  it('records 422 validation_failed with field names and codes, never the values sent', async () => {
    const res = await get().app.inject({
      method: 'POST',
      url: '/api/admin/users',
      headers: who.superAdmin.headers,
      payload: { email: 'not-a-mail-SECRETVALUE', first_name: 'A', last_name: 'B', locale: 'en', auth_type: 'CREDENTIALS' },
    });
    expect(res.statusCode).toBe(422);
    const [row] = await errorsOf('validation_failed');
    expect(row).toMatchObject({ status: 422, method: 'POST', url: '/api/admin/users', user_email: who.superAdmin.account.email });
    expect(row?.message).toContain('email');
    expect(row?.message).not.toContain('SECRETVALUE');
  });

  it('records 409 from a service and 401 without a user', async () => {
    const body = { email: 'dup.errorlog@example.com', first_name: 'A', last_name: 'B', locale: 'en', auth_type: 'CREDENTIALS' };
    expect((await get().app.inject({ method: 'POST', url: '/api/admin/users', headers: who.superAdmin.headers, payload: body })).statusCode).toBe(201);
    expect((await get().app.inject({ method: 'POST', url: '/api/admin/users', headers: who.superAdmin.headers, payload: body })).statusCode).toBe(409);
    const [dup] = await errorsOf('email_taken');
    expect(dup).toMatchObject({ status: 409, url: '/api/admin/users', user_email: who.superAdmin.account.email });
    expect(dup?.message).toContain('email: email_taken');
    expect((await get().app.inject({ method: 'GET', url: '/api/admin/users' })).statusCode).toBe(401);
    const unauth = await errorsOf('unauthorized');
    expect(unauth.find((r) => r.url === '/api/admin/users')).toMatchObject({ status: 401, user_email: null });
  });

  it('keeps secret path parameters out of the URL', async () => {
    const res = await get().app.inject({ method: 'GET', url: '/api/setup/TOPSECRETTOKEN123' });
    expect(res.statusCode).toBe(403);
    const [row] = await errorsOf('invalid_link');
    expect(row?.url).toBe('/api/setup/:token');
  });

  it('offers in the filter exactly the codes that can be logged (not the 503-only ones)', () => {
    expect(LOGGED_ERROR_CODES).toContain('validation_failed');
    expect(LOGGED_ERROR_CODES).toContain('forbidden');
    expect(LOGGED_ERROR_CODES).not.toContain('service_unavailable');
    // the API's codes but the 5 answered only with 503, and the OAuth codes of the provider at /oidc
    expect(LOGGED_ERROR_CODES.length).toBe(new Set([...ERROR_CODES, ...OIDC_ERROR_CODES]).size - 5);
  });
}, { IAM_RATE_LIMIT_PER_MINUTE: '100000' });

describeEachDb('error log: a flood of client errors is capped per route and code', (get) => {
  let who: Actors;
  beforeAll(async () => {
    who = await actors(get());
  });

  it('records at most the route burst of 50 identical failures, and each route gets its own bucket', async () => {
    for (let i = 0; i < 50; i++) {
      const res = await get().app.inject({ method: 'GET', url: `/api/admin/users/${'missing-' + i}`, headers: who.superAdmin.headers });
      expect(res.statusCode).toBe(404);
    }
    for (let i = 0; i < 10; i++) expect((await get().app.inject({ method: 'GET', url: '/api/admin/roles', headers: who.manager.headers })).statusCode).toBe(403);
    const rows = await get().db.kysely.selectFrom('error_logs').select(['error_code', 'url']).where('status', '<', 500).execute();
    expect(rows.filter((r) => r.error_code === 'user_not_found')).toHaveLength(3);
    expect(rows.filter((r) => r.error_code === 'forbidden')).toHaveLength(3);
    expect(get().app.services.errorLog.stats().dropped).toBe(54);
  });
}, { IAM_RATE_LIMIT_PER_MINUTE: '100000', IAM_ERROR_LOG_ROUTE_BURST: '3', IAM_ERROR_LOG_ROUTE_PER_MINUTE: '0' });

describeEachDb('error log: a flood over many routes is capped per minute', (get) => {
  it('records at most IAM_ERROR_LOG_CLIENT_PER_MINUTE client errors whatever the routes', async () => {
    const urls = ['/api/admin/users', '/api/admin/roles', '/api/admin/admins', '/api/admin/logs/errors', '/api/user', '/api/admin/subscriptions'];
    for (let round = 0; round < 5; round++) for (const url of urls) expect((await get().app.inject({ method: 'GET', url })).statusCode).toBe(401);
    const rows = await get().db.kysely.selectFrom('error_logs').select('id').where('status', '<', 500).execute();
    expect(rows).toHaveLength(4);
  });
}, { IAM_RATE_LIMIT_PER_MINUTE: '100000', IAM_ERROR_LOG_CLIENT_PER_MINUTE: '4' });

describeEachDb('error log: retention', (get) => {
  it('deletes rows older than the retention and all but the newest IAM_ERROR_LOG_MAX_ROWS', async () => {
    const db = get().db.kysely;
    const now = Date.now();
    const at = (msAgo: number) => new Date(now - msAgo).toISOString();
    const row = (id: string, created_at: string) => ({ id, error_code: 'forbidden', status: 403, method: 'GET', url: '/api/x', message: 'm', user_email: null, created_at });
    await db.insertInto('error_logs').values(Array.from({ length: 5 }, (_, i) => row(`old-${i}`, at(8 * 86_400_000 + i)))).execute();
    await db.insertInto('error_logs').values(Array.from({ length: 130 }, (_, i) => row(`new-${String(i).padStart(3, '0')}`, at(1000 * (i + 1))))).execute();
    const deleted = await get().app.services.errorLog.prune();
    expect(deleted).toBe(35);
    const left = await db.selectFrom('error_logs').select('id').orderBy('created_at', 'desc').execute();
    expect(left).toHaveLength(100);
    // the newest 100 stay: new-000 (1 s ago) … new-099
    expect(left[0]?.id).toBe('new-000');
    expect(left.at(-1)?.id).toBe('new-099');
    expect(await get().app.services.errorLog.prune()).toBe(0);
  });
}, { IAM_ERROR_LOG_RETENTION_DAYS: '7', IAM_ERROR_LOG_MAX_ROWS: '100' });

describe('error log service with a manual clock', () => {
  it('refills a route bucket over time and resets the minute cap', async () => {
    const { createErrorLogService } = await import('../../../server/services/error-log');
    const written: unknown[] = [];
    let t = Date.parse('2026-01-01T00:00:00Z');
    const insert = { values: () => ({ execute: async () => void written.push(1) }) };
    const svc = createErrorLogService({
      db: { kysely: { insertInto: () => insert } } as never,
      config: { errorLog: { routeBurst: 2, routePerMinute: 2, clientPerMinute: 3, retentionDays: 30, maxRows: 1000 } } as never,
      clock: { now: () => new Date(t), nowIso: () => new Date(t).toISOString() },
      log: { error: () => undefined, warn: () => undefined } as never,
    });
    const e = (route: string) => ({ status: 403, code: 'forbidden', method: 'GET', route, params: {}, path: route, message: 'm', userEmail: null });
    expect(await svc.record(e('/a'))).toBe(true);
    expect(await svc.record(e('/a'))).toBe(true);
    expect(await svc.record(e('/a'))).toBe(false); // bucket empty
    t += 30_000; // half a minute: one token back
    expect(await svc.record(e('/a'))).toBe(true);
    expect(await svc.record(e('/b'))).toBe(false); // the minute's cap of 3 is reached
    t += 30_000; // a new minute
    expect(await svc.record(e('/b'))).toBe(true);
    expect(await svc.record({ ...e('/a'), status: 500, code: 'internal_error' })).toBe(true); // server errors are not sampled
    expect(svc.stats()).toEqual({ recorded: 5, dropped: 2 });
  });
});
