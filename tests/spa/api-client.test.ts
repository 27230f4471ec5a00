/**
 * API client + session bridge against a real HTTP server on 127.0.0.1
 * (no mocks of ofetch): single shared refresh on concurrent 401s, replay,
 * logout when the refresh fails, headers, error normalization.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createActor } from 'xstate';
import { ApiError, createApiClient } from '../../src/api/client';
import { createOidcClient } from '../../src/api/oidc';
import { asHttp, createSessionBridge, sessionImplementations } from '../../src/api/session-bridge';
import { sessionMachine } from '../../machines/session.machine';
import { toMachineError } from '../../machines/errors';
import { isCallFailure, type Tokens } from '../../machines/shared';

let server: Server;
let base = '';
const seen = { refreshBodies: [] as Array<Record<string, string>>, protectedCalls: [] as Array<{ auth?: string; locale?: string; acceptLanguage?: string }> };

function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}
async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

beforeAll(async () => {
  server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    if (url.pathname === '/oidc/token') {
      const form = Object.fromEntries(new URLSearchParams(await readBody(req)));
      seen.refreshBodies.push(form);
      if (form.grant_type === 'authorization_code') return send(res, 200, { access_token: 'at-code', refresh_token: 'rt-code', id_token: 'id-code', expires_in: 300, token_type: 'Bearer' });
      await new Promise((r) => setTimeout(r, 50)); // keep the refresh in flight while other 401s arrive
      if (form.refresh_token === 'rt-good') return send(res, 200, { access_token: 'at-2', refresh_token: 'rt-2', id_token: 'id-2', expires_in: 300, token_type: 'Bearer' });
      if (form.refresh_token === 'rt-401') return send(res, 401, { error: 'invalid_client' });
      return send(res, 400, { error: 'invalid_grant' });
    }
    if (url.pathname === '/api/protected') {
      seen.protectedCalls.push({ auth: req.headers.authorization, locale: req.headers.locale as string | undefined, acceptLanguage: req.headers['accept-language'] });
      if (req.headers.authorization !== 'Bearer at-2') return send(res, 401, { error: { code: 'unauthenticated', message: 'Unauthenticated' } });
      return send(res, 200, { data: { ok: true, n: url.searchParams.get('n') } });
    }
    if (url.pathname === '/api/slow') {
      await new Promise((r) => setTimeout(r, 400));
      return send(res, 200, { data: 'late' });
    }
    if (url.pathname === '/api/invalid') {
      return send(res, 422, { error: { code: 'validation_failed', message: 'Validation failed', fields: { email: ['invalid_email'] } } });
    }
    if (url.pathname === '/api/echo') {
      const body = await readBody(req);
      if (url.searchParams.get('status') === '204') {
        res.writeHead(204);
        return res.end();
      }
      if (url.searchParams.get('as') === 'text') {
        res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' });
        return res.end(`plain ${body}`);
      }
      return send(res, 200, { method: req.method, search: url.search, contentType: req.headers['content-type'] ?? null, accept: req.headers.accept ?? null, body });
    }
    if (url.pathname === '/api/throttled') return send(res, 429, { error: { code: 'too_many_attempts', message: 'Too many' } }, { 'retry-after': '42' });
    send(res, 404, { error: { code: 'not_found', message: 'Not found' } });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
beforeEach(() => {
  seen.refreshBodies = [];
  seen.protectedCalls = [];
});

function setup(stored: Partial<Tokens> | null, options: { timeout?: number } = {}) {
  const storage = new Map<string, string>();
  if (stored) {
    storage.set('token', JSON.stringify({ access_token: 'at-1', refresh_token: 'rt-good', id_token: 'id-1', expires_at: 0, client: 'portal', ...stored }));
    storage.set('admin_session', 'false');
  }
  const effects = { redirects: [] as string[], navigations: [] as string[], cacheCleared: 0, credentials: [] as Array<RequestCredentials | undefined> };
  const recordingFetch: typeof fetch = (input, init) => {
    effects.credentials.push(init?.credentials);
    return fetch(input, init);
  };
  const locale = { current: 'de' };
  // token endpoint client: no session loop
  const tokenClient = createApiClient({ baseURL: base, getLocale: () => locale.current, getAccessToken: () => null });
  const session = createActor(
    sessionMachine.provide(
      sessionImplementations({
        storage: { getItem: (k) => storage.get(k) ?? null, setItem: (k, v) => void storage.set(k, v), removeItem: (k) => void storage.delete(k) },
        refresh: createOidcClient(asHttp(tokenClient, { skipUnauthorized: true })).refresh,
        saveLocale: async ({ locale }) => ({ locale }),
        redirect: (url) => effects.redirects.push(url),
        navigate: (to) => effects.navigations.push(to),
        clearQueryCache: () => void effects.cacheCleared++,
        resetCachedData: () => {},
        applyLocale: () => {},
        revoke: async () => ({ upstreamLogoutUrl: null }),
      }),
    ),
    {
      input: {
        config: { token_endpoint: `${base}/oidc/token`, end_session_endpoint: `${base}/oidc/session/end`, clients: { portal: 'portal', admin: 'admin-console' } },
        origin: 'http://app.test',
        stored: { token: storage.get('token') ?? null, admin_session: storage.get('admin_session') ?? null, locale: null },
      },
    },
  ).start();
  const bridge = createSessionBridge(session);
  const api = createApiClient({ baseURL: base, getLocale: () => locale.current, timeout: options.timeout, fetch: recordingFetch, ...bridge });
  return { api, session, storage, effects, locale };
}

describe('API client + session bridge (real node:http server)', () => {
  it('the token endpoint client posts the code exchange as a form (src/api/oidc.ts)', async () => {
    const tokenClient = createApiClient({ baseURL: base, getLocale: () => 'en', getAccessToken: () => null });
    const oidc = createOidcClient(asHttp(tokenClient, { skipUnauthorized: true }));
    const answer = await oidc.exchangeCode({ tokenEndpoint: `${base}/oidc/token`, code: 'c', codeVerifier: 'v', clientId: 'portal', redirectUri: 'http://app.test/login' });
    expect(answer).toMatchObject({ access_token: 'at-code', refresh_token: 'rt-code', id_token: 'id-code', expires_in: 300 });
    expect(seen.refreshBodies).toEqual([{ grant_type: 'authorization_code', code_verifier: 'v', code: 'c', client_id: 'portal', redirect_uri: 'http://app.test/login' }]);
  });

  it("the machines recognise the client's ApiError as a failed call (toMachineError)", () => {
    const error = new ApiError({ kind: 'http', status: 429, code: 'too_many_requests', message: 'Too many', retryAfter: 42 });
    expect(isCallFailure(error)).toBe(true);
    expect(toMachineError(error)).toEqual({ code: 'too_many_requests', status: 429, retryAfter: 42, retryable: true });
    expect(toMachineError(new ApiError({ kind: 'network', message: 'fetch failed' }))).toEqual({ code: 'network', retryable: true });
    expect(isCallFailure(new Error('x'))).toBe(false);
  });

  it('concurrent 401s trigger exactly one refresh, then every request is replayed with the new token', async () => {
    const { api, session, storage } = setup({});
    const results = await Promise.all([1, 2, 3, 4, 5].map((n) => api<{ data: { ok: boolean; n: string } }>('/api/protected', { query: { n } })));
    expect(results.map((r) => r.data.n)).toEqual(['1', '2', '3', '4', '5']);
    expect(seen.refreshBodies).toEqual([{ grant_type: 'refresh_token', refresh_token: 'rt-good', client_id: 'portal' }]);
    expect(seen.protectedCalls.filter((c) => c.auth === 'Bearer at-1')).toHaveLength(5);
    expect(seen.protectedCalls.filter((c) => c.auth === 'Bearer at-2')).toHaveLength(5);
    expect(session.getSnapshot().value).toEqual({ authenticated: 'idle' });
    expect(JSON.parse(storage.get('token')!)).toMatchObject({ access_token: 'at-2', refresh_token: 'rt-2', id_token: 'id-2', client: 'portal' });
  });

  it('a 401 arriving after the refresh finished replays without a second refresh', async () => {
    const { api } = setup({});
    await api('/api/protected');
    expect(seen.refreshBodies).toHaveLength(1);
    await api('/api/protected');
    expect(seen.refreshBodies).toHaveLength(1);
  });

  it('a failing refresh logs out: all waiting requests reject with 401, tokens cleared, end-session redirect', async () => {
    const { api, session, storage, effects } = setup({ refresh_token: 'rt-bad' });
    const settled = await Promise.allSettled([api('/api/protected'), api('/api/protected'), api('/api/protected')]);
    expect(settled.map((s) => s.status)).toEqual(['rejected', 'rejected', 'rejected']);
    for (const s of settled) {
      const reason = (s as PromiseRejectedResult).reason as ApiError;
      expect(reason).toBeInstanceOf(ApiError);
      expect(reason).toMatchObject({ kind: 'http', status: 401 });
    }
    expect(seen.refreshBodies).toHaveLength(1);
    expect(session.getSnapshot().value).toBe('unauthenticated');
    expect(storage.has('token')).toBe(false);
    expect(storage.has('admin_session')).toBe(false);
    expect(effects.cacheCleared).toBe(1);
    const end = new URL(effects.redirects[0]!);
    expect(end.pathname).toBe('/oidc/session/end');
    expect(Object.fromEntries(end.searchParams)).toEqual({ id_token_hint: 'id-1', post_logout_redirect_uri: 'http://app.test/login', client_id: 'portal' });
  });

  it('a 401 on the refresh itself logs out', async () => {
    const { api, session } = setup({ refresh_token: 'rt-401' });
    await expect(api('/api/protected')).rejects.toMatchObject({ status: 401 });
    expect(seen.refreshBodies).toHaveLength(1);
    expect(session.getSnapshot().value).toBe('unauthenticated');
  });

  it('without a refresh token a 401 logs out without calling the token endpoint', async () => {
    const { api, session, effects } = setup({ refresh_token: null as unknown as string });
    await expect(api('/api/protected')).rejects.toMatchObject({ status: 401 });
    expect(seen.refreshBodies).toHaveLength(0);
    expect(session.getSnapshot().value).toBe('unauthenticated');
    expect(effects.redirects).toHaveLength(1);
  });

  it('signed out: a 401 is propagated without refresh', async () => {
    const { api } = setup(null);
    await expect(api('/api/protected')).rejects.toMatchObject({ kind: 'http', status: 401, code: 'unauthenticated' });
    expect(seen.protectedCalls[0]!.auth).toBeUndefined();
    expect(seen.refreshBodies).toHaveLength(0);
  });

  it('sends locale, Accept-Language, bearer token and credentials: include on every call', async () => {
    const { api, effects, locale } = setup({ access_token: 'at-2' });
    await api('/api/protected');
    locale.current = 'fr';
    await api('/api/protected');
    expect(seen.protectedCalls).toEqual([
      { auth: 'Bearer at-2', locale: 'de', acceptLanguage: 'de' },
      { auth: 'Bearer at-2', locale: 'fr', acceptLanguage: 'fr' },
    ]);
    expect(effects.credentials).toEqual(['include', 'include']);
  });

  it('downloads a blob through the same client (bearer, 401 → refresh → replay) and can omit credentials', async () => {
    const { api, effects } = setup({ access_token: 'at-1', refresh_token: 'rt-good' });
    const blob = await api<Blob>('/api/protected', { responseType: 'blob' });
    expect(blob.type).toBe('application/json');
    expect(JSON.parse(await blob.text())).toEqual({ data: { ok: true, n: null } });
    expect(seen.refreshBodies).toHaveLength(1);
    await api('/api/protected', { credentials: 'omit' });
    expect(effects.credentials.at(-1)).toBe('omit');
  });

  it('what the app used of ofetch: query, JSON and form bodies, answers by content type, no body on 204', async () => {
    const api = createApiClient({ baseURL: `${base}/`, getLocale: () => 'en', getAccessToken: () => null });
    type Echo = { method: string; search: string; contentType: string | null; accept: string | null; body: string };
    // relative path joined to the base; undefined left out, null and '' as empty, arrays repeated, numbers and booleans as text
    const get = await api<Echo>('api/echo', { query: { q: 'a b&c', n: 3, on: true, skip: undefined, empty: null, blank: '', role: ['x', 'y'] } });
    expect(new URLSearchParams(get.search)).toEqual(new URLSearchParams('q=a+b%26c&n=3&on=true&empty=&blank=&role=x&role=y'));
    expect(get).toMatchObject({ method: 'GET', contentType: null, body: '' });
    // a plain object goes as JSON with content-type and accept; a form as is
    expect(await api<Echo>('/api/echo', { method: 'POST', body: { a: 1, b: [true] } })).toMatchObject({ method: 'POST', contentType: 'application/json', accept: 'application/json', body: '{"a":1,"b":[true]}' });
    expect(await api<Echo>('/api/echo', { method: 'PUT', body: [1, 2] })).toMatchObject({ contentType: 'application/json', body: '[1,2]' });
    const form = await api<Echo>('/api/echo', { method: 'POST', body: new URLSearchParams({ grant_type: 'x y' }) });
    expect(form).toMatchObject({ contentType: 'application/x-www-form-urlencoded;charset=UTF-8', body: 'grant_type=x+y' });
    expect(await api<Echo>('/api/echo', { method: 'POST', body: { a: 1 }, headers: { 'content-type': 'application/merge-patch+json' } })).toMatchObject({ contentType: 'application/merge-patch+json', body: '{"a":1}' });
    // text/* answers as text, 204 as nothing, an explicit responseType wins
    expect(await api('/api/echo', { method: 'POST', body: 'hi', query: { as: 'text' } })).toBe('plain hi');
    expect(await api('/api/echo', { query: { status: 204 } })).toBeUndefined();
    expect(await api('/api/echo', { query: { as: 'text' }, responseType: 'text' })).toBe('plain ');
  });

  it('normalizes timeouts, network errors, 422 field errors and 429 retry-after', async () => {
    const { api } = setup(null, { timeout: 100 });
    await expect(api('/api/slow')).rejects.toMatchObject({ kind: 'timeout' });
    await expect(api('/api/invalid', { method: 'POST', body: {} })).rejects.toMatchObject({
      kind: 'http',
      status: 422,
      code: 'validation_failed',
      message: 'Validation failed',
      fields: { email: ['invalid_email'] },
    });
    await expect(api('/api/throttled')).rejects.toMatchObject({ kind: 'http', status: 429, retryAfter: 42 });
    const closed = createApiClient({ baseURL: 'http://127.0.0.1:9', getLocale: () => 'en', getAccessToken: () => null });
    await expect(closed('/api/anything')).rejects.toMatchObject({ kind: 'network' });
  });
});
