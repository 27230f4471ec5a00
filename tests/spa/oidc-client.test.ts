import { describe, expect, it } from 'vitest';
import { createOidcClient } from '../../src/api/oidc';
import type { Http } from '../../src/api';

describe('the code exchange', () => {
  it('happens once per code, however often the callback screen asks (StrictMode mounts it twice in development)', async () => {
    const sent: string[] = [];
    const http = (async (_url: string, init?: { body?: unknown }) => {
      sent.push(String(init?.body));
      return { access_token: `t${sent.length}` };
    }) as unknown as Http;
    const oidc = createOidcClient(http);
    const input = { tokenEndpoint: '/oidc/token', code: 'c1', codeVerifier: 'v', clientId: 'portal', redirectUri: 'http://app.test/login' };
    const [a, b] = await Promise.all([oidc.exchangeCode(input), oidc.exchangeCode(input)]);
    expect(sent).toHaveLength(1);
    expect([a.access_token, b.access_token]).toEqual(['t1', 't1']);
    await oidc.exchangeCode({ ...input, code: 'c2' });
    expect(sent).toHaveLength(2);
  });
});
