import { randomBytes } from 'node:crypto';
import { expect, it } from 'vitest';
import { describeEachDb } from '../../helpers/app';
import { createAccount, startAuthorize } from '../../helpers/auth';
import { loadConfig } from '../../../server/config';

/** Small ASVS 5.0 checks that SECURITY.md cites and no other test covered. */
describeEachDb('ASVS extras', (get) => {
  it('6.2.8: the password is verified exactly as typed (no trimming, no case folding, no truncation)', async () => {
    const t = get();
    const pw = 'Exact-Passw0rd!x';
    const email = `exact.${randomBytes(3).toString('hex')}@example.com`;
    await createAccount(t, { type: 'user', email, password: pw });
    const login = async (password: string) => {
      const s = await startAuthorize(t);
      return (await t.app.inject({ method: 'POST', url: '/api/login', headers: { cookie: s.jar.header() }, payload: { email, password, interaction: s.interaction } })).statusCode;
    };
    // in rounds under the lockout limit (5): a success clears the counter
    for (const round of [[`${pw} `, ` ${pw}`, pw.toUpperCase()], [pw.toLowerCase(), pw.slice(0, -1), `${pw}x`]]) {
      for (const wrong of round) expect(await login(wrong), JSON.stringify(wrong)).toBe(401);
      expect(await login(pw)).toBe(200);
    }
  });

  it('10.6.1 / 10.4.4 / 10.4.6: the provider offers only the code response type, S256 PKCE and no implicit or password grant', async () => {
    const d = (await get().app.inject({ method: 'GET', url: '/oidc/.well-known/openid-configuration' })).json<Record<string, string[]>>();
    expect(d.response_types_supported).toEqual(['code']);
    expect(d.code_challenge_methods_supported).toEqual(['S256']);
    expect(d.grant_types_supported).not.toContain('implicit');
    expect(d.grant_types_supported).not.toContain('password');
  });
});

it('7.1.1 / 7.3 / 10.4.8: the documented session lifetimes are the defaults (access 10 min, refresh idle 14 days, absolute 30 days)', () => {
  expect(loadConfig({}).auth).toMatchObject({ accessTokenTtlSeconds: 600, refreshIdleSeconds: 14 * 86400, refreshAbsoluteSeconds: 30 * 86400 });
});
