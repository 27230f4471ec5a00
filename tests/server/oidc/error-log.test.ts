import { describe, expect, it, vi } from 'vitest';
import { describeEachDb, type TestApp } from '../../helpers/app';
import { createAccount, startAuthorize } from '../../helpers/auth';
import { seedServiceApp } from '../../helpers/service-app';
import { redactSecrets } from '../../../server/oidc/error-log';
import { LOGGED_ERROR_CODES } from '../../../contract/admin/logs';
import type { ErrorLogsTable } from '../../../server/db/schema';

/**
 * Issue 14 (admin logs stay empty in normal use): the errors of the OIDC provider at /oidc — a refused authorization
 * request, invalid_grant and invalid_client at the token endpoint, an invalid token at userinfo — are recorded in the
 * admin error log with their OAuth code, like the API's client errors (same limits), and never with a secret.
 */
/** An error-log row as the tests read it: the table's columns without id and time. */
type Row = Omit<ErrorLogsTable, 'id' | 'created_at'>;

const rowsOf = async (t: TestApp, code: string): Promise<Row[]> =>
  (await t.db.kysely.selectFrom('error_logs').select(['error_code', 'status', 'method', 'url', 'message', 'user_email']).where('error_code', '=', code).execute()) as Row[];

/** The provider reports its errors through events: the row is written just after the answer. */
const waitForRows = async (t: TestApp, code: string, n = 1): Promise<Row[]> => {
  let rows: Row[] = [];
  await vi.waitFor(
    async () => {
      rows = await rowsOf(t, code);
      expect(rows.length).toBeGreaterThanOrEqual(n);
    },
    { timeout: 5000, interval: 25 },
  );
  return rows;
};

const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();
const FORM = { 'content-type': 'application/x-www-form-urlencoded' };
const SECRET_CODE = 'Zq9CODEx7SECRETvalue4Wk2mN8pR5tY1uI3oP6aS0dF';
const SECRET_VERIFIER = 'V3rifier-SECRET-abcdefghijklmnopqrstuvwxyz0123456789';

describeEachDb('the OIDC provider records its errors in the admin error log', (get) => {
  it('invalid_grant at the token endpoint: code, status, /oidc/token, never the code or the verifier', async () => {
    const t = get();
    const res = await t.app.inject({
      method: 'POST',
      url: '/oidc/token',
      headers: FORM,
      payload: form({ grant_type: 'authorization_code', code: SECRET_CODE, redirect_uri: `${t.config.appUrl}/login`, client_id: 'portal', code_verifier: SECRET_VERIFIER }),
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe('invalid_grant');
    const [row] = await waitForRows(t, 'invalid_grant');
    expect(row).toMatchObject({ error_code: 'invalid_grant', status: 400, method: 'POST', url: '/oidc/token', user_email: null });
    expect(row?.message).toMatch(/grant request is invalid/);
    expect(row?.message).not.toContain(SECRET_CODE);
    expect(row?.message).not.toContain('SECRET');
  });

  it('invalid_client: a wrong client secret (401) is recorded without the secret', async () => {
    const t = get();
    const app = await seedServiceApp(t, { clientType: 'confidential' });
    const wrong = 'wrong-SECRET-0123456789abcdef';
    const res = await t.app.inject({
      method: 'POST',
      url: '/oidc/token',
      headers: { ...FORM, authorization: `Basic ${Buffer.from(`${app.name}:${wrong}`).toString('base64')}` },
      payload: form({ grant_type: 'authorization_code', code: SECRET_CODE, redirect_uri: app.redirectUri }),
    });
    expect(res.statusCode).toBe(401);
    expect(res.json().error).toBe('invalid_client');
    const [row] = await waitForRows(t, 'invalid_client');
    expect(row).toMatchObject({ status: 401, method: 'POST', url: '/oidc/token' });
    expect(row?.message).toMatch(/client authentication failed/);
    for (const secret of [wrong, SECRET_CODE, app.secret ?? 'none']) expect(row?.message).not.toContain(secret);
  });

  it('a bad authorization request (unregistered redirect_uri) is one row at /oidc/auth, without the query string', async () => {
    const t = get();
    const state = 'STATE-SECRET-0123456789';
    const q = new URLSearchParams({ client_id: 'portal', redirect_uri: 'https://evil.example/cb', response_type: 'code', scope: 'openid', state, code_challenge: 'x'.repeat(43), code_challenge_method: 'S256' });
    const res = await t.app.inject({ method: 'GET', url: `/oidc/auth?${q.toString()}`, headers: { accept: 'text/html' } });
    expect(res.statusCode).toBe(400);
    const rows = await waitForRows(t, 'invalid_redirect_uri');
    // the provider reports the original error and the redirect_uri one: the answered one only
    await new Promise((r) => setTimeout(r, 100));
    expect(await t.db.kysely.selectFrom('error_logs').select('id').where('url', 'like', '/oidc/auth%').execute()).toHaveLength(1);
    expect(rows[0]).toMatchObject({ status: 400, method: 'GET', url: '/oidc/auth' });
    expect(rows[0]?.message).not.toContain(state);
    expect(rows[0]?.message).not.toContain('evil.example/cb?');
  });

  it('a resume URL keeps its interaction id out of the log (/oidc/auth/:uid)', async () => {
    const t = get();
    const uid = 'UidSECRET0123456789abcdef';
    const res = await t.app.inject({ method: 'GET', url: `/oidc/auth/${uid}`, headers: { accept: 'application/json' } });
    expect(res.statusCode).toBe(400);
    const rows = await waitForRows(t, 'invalid_request');
    const row = rows.find((r) => r.url.startsWith('/oidc/auth/'));
    expect(row).toMatchObject({ status: 400, method: 'GET', url: '/oidc/auth/:uid' });
    expect(JSON.stringify(rows)).not.toContain(uid);
  });

  it('an invalid access token at userinfo is recorded as invalid_token', async () => {
    const t = get();
    const res = await t.app.inject({ method: 'GET', url: '/oidc/me', headers: { authorization: 'Bearer a.b.c' } });
    expect(res.statusCode).toBe(401);
    const [row] = await waitForRows(t, 'invalid_token');
    expect(row).toMatchObject({ status: 401, method: 'GET', url: '/oidc/me' });
  });

  it('the admin error log API lists them with their code', async () => {
    const t = get();
    const email = `oidc-log-admin-${Date.now()}@example.com`;
    await createAccount(t, { type: 'admin', admin_role: 'super_admin', email, password: 'Str0ng!Passw0rd#' });
    const { signIn } = await import('../../helpers/auth');
    const tokens = await signIn(t, { email, password: 'Str0ng!Passw0rd#', client: 'admin-console' });
    const res = await t.app.inject({ method: 'GET', url: '/api/admin/logs/errors?code=invalid_grant', headers: { authorization: tokens.authorization } });
    expect(res.statusCode).toBe(200);
    expect(res.json().data[0]).toMatchObject({ error_code: 'invalid_grant', url: '/oidc/token', status: 400 });
    expect(LOGGED_ERROR_CODES).toEqual(expect.arrayContaining(['invalid_grant', 'invalid_client', 'invalid_redirect_uri', 'invalid_request', 'server_error']));
  });
}, { IAM_RATE_LIMIT_PER_MINUTE: '100000' });

describeEachDb('OIDC errors share the error log limits', (get) => {
  it('a flood of failing token requests writes at most the route burst', async () => {
    const t = get();
    const before = t.app.services.errorLog.stats().dropped;
    for (let i = 0; i < 10; i++) {
      const res = await t.app.inject({ method: 'POST', url: '/oidc/token', headers: FORM, payload: form({ grant_type: 'authorization_code', code: `${SECRET_CODE}${i}`, redirect_uri: `${t.config.appUrl}/login`, client_id: 'portal', code_verifier: SECRET_VERIFIER }) });
      expect(res.statusCode).toBe(400);
    }
    await vi.waitFor(() => expect(t.app.services.errorLog.stats().dropped - before).toBe(7), { timeout: 5000, interval: 25 });
    expect(await rowsOf(t, 'invalid_grant')).toHaveLength(3);
  });

  it('a started authorization still works (control): no error, no row', async () => {
    const t = get();
    const start = await startAuthorize(t);
    expect(start.interaction).toBeTruthy();
    await new Promise((r) => setTimeout(r, 50));
    expect(await t.db.kysely.selectFrom('error_logs').select('id').where('url', 'like', '/oidc/auth%').execute()).toHaveLength(0);
  });
}, { IAM_RATE_LIMIT_PER_MINUTE: '100000', IAM_ERROR_LOG_ROUTE_BURST: '3', IAM_ERROR_LOG_ROUTE_PER_MINUTE: '0' });

describe('redactSecrets', () => {
  it('replaces the secrets the request carried and token-like runs, keeps English words', () => {
    expect(redactSecrets('client authentication failed (invalid secret provided)', [])).toBe('client authentication failed (invalid secret provided)');
    expect(redactSecrets('post_logout_redirect_uri is invalid', [])).toBe('post_logout_redirect_uri is invalid');
    expect(redactSecrets('origin x not allowed abcd', ['abcd'])).toBe('origin x not allowed [redacted]');
    expect(redactSecrets('code eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiIxIn0.sig3 seen', [])).toBe('code [redacted] seen');
    expect(redactSecrets('id 0b9e7d4c-2f1a-4c55-9d0e-7a6b5c4d3e2f', [])).toBe('id [redacted]');
  });
});
