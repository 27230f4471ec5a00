/** The session's own REST calls (src/api/account.ts saveLocale, src/lib/session.ts fetchClientConfig) through the contract. */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { saveLocale } from '../../src/api/account';
import { createActor } from 'xstate';
import { sessionMachine } from '../../machines/session.machine';
import { bindApiSession } from '../../src/api';
import { fetchClientConfig, revokeSession } from '../../src/lib/session';

function stubFetch(answer: (url: string, init: RequestInit | undefined) => Response) {
  const calls: Array<{ url: string; method: string; body: unknown }> = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = String(input instanceof Request ? input.url : input);
      calls.push({ url, method: init?.method ?? 'GET', body: typeof init?.body === 'string' ? JSON.parse(init.body) : init?.body });
      return answer(url, init);
    }),
  );
  return calls;
}

afterEach(() => vi.unstubAllGlobals());

describe('session calls', () => {
  it.each([
    [true, '/api/admin'],
    [false, '/api/user'],
  ])('saveLocale (admin: %s) PATCHes %s with the locale and answers the saved one', async (admin, path) => {
    const calls = stubFetch(() => Response.json({ data: { locale: 'it' } }));
    await expect(saveLocale({ admin, locale: 'it' })).resolves.toEqual({ locale: 'it' });
    expect(calls).toHaveLength(1);
    expect(new URL(calls[0]!.url, 'http://app.test').pathname).toBe(path);
    expect(calls[0]).toMatchObject({ method: 'PATCH', body: { locale: 'it' } });
  });

  it('a failed locale save rejects (the session keeps the language and notes the error)', async () => {
    stubFetch(() => Response.json({ error: { code: 'unauthorized', message: 'no' } }, { status: 401 }));
    await expect(saveLocale({ admin: false, locale: 'de' })).rejects.toMatchObject({ kind: 'http', status: 401 });
  });

  it('revokeSession POSTs /api/logout with exactly the session bearer (one Authorization header, no 401 fed back)', async () => {
    const tokens = { access_token: 'at-x', refresh_token: 'rt', id_token: null, expires_at: 0, client: 'portal' };
    const session = createActor(sessionMachine, {
      input: { config: { token_endpoint: 't', end_session_endpoint: 'http://app.test/e', clients: { portal: 'portal', admin: 'admin-console' } }, origin: 'http://app.test', stored: { token: JSON.stringify(tokens), admin_session: 'false', locale: null } },
    }).start();
    bindApiSession(session);
    const headers: string[] = [];
    const calls = stubFetch((_url, init) => {
      headers.push(new Headers(init?.headers).get('authorization') ?? '');
      return Response.json({ data: { status: 'logged_out' } });
    });
    await revokeSession({ tokens });
    expect(calls).toHaveLength(1);
    expect(new URL(calls[0]!.url, 'http://app.test').pathname).toBe('/api/logout');
    expect(calls[0]!.method).toBe('POST');
    expect(headers).toEqual(['Bearer at-x']);
    stubFetch(() => Response.json({ error: { code: 'invalid_token', message: 'x' } }, { status: 401 }));
    await expect(revokeSession({ tokens })).rejects.toMatchObject({ status: 401 });
    expect(session.getSnapshot().value).toEqual({ authenticated: 'idle' });
    session.stop();
  });

  it('fetchClientConfig reads the public client configuration', async () => {
    const config = { issuer: 'http://app.test/oidc', token_endpoint: 'http://app.test/oidc/token', clients: { portal: 'portal', admin: 'admin-console' } };
    const calls = stubFetch(() => Response.json({ data: config }));
    await expect(fetchClientConfig()).resolves.toEqual(config);
    expect(new URL(calls[0]!.url, 'http://app.test').pathname).toBe('/api/config');
    expect(calls[0]!.method).toBe('GET');
  });
});
