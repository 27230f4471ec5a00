import { expect, it } from 'vitest';
import { describeEachDb, type TestApp } from '../../helpers/app';
import { createAccount, followToCode, startAuthorize, type AuthorizeStart } from '../../helpers/auth';

/** Issue 10 F (RFC 9700 §4.8): an authorization code does not survive a failed redemption (wrong PKCE verifier, wrong redirect_uri). */
const PASSWORD = 'Str0ng!Passw0rd#';
let n = 0;

async function codeFor(t: TestApp): Promise<{ start: AuthorizeStart; code: string }> {
  const acc = await createAccount(t, { type: 'user', email: `burn-${++n}-${Date.now()}@example.test`, password: PASSWORD });
  const start = await startAuthorize(t);
  const login = await t.app.inject({ method: 'POST', url: '/api/login', headers: { cookie: start.jar.header() }, payload: { email: acc.email, password: PASSWORD, interaction: start.interaction } });
  const { code } = await followToCode(t, start, login.json().data.redirect_to as string);
  return { start, code: code ?? '' };
}

const redeem = (t: TestApp, start: AuthorizeStart, code: string, over: Record<string, string> = {}) =>
  t.app.inject({
    method: 'POST',
    url: '/oidc/token',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({ grant_type: 'authorization_code', code, redirect_uri: start.redirectUri, client_id: start.client, code_verifier: start.verifier, ...over }).toString(),
  });

describeEachDb('authorization codes are single-try', (get) => {
  it('a wrong PKCE verifier consumes the code: the right verifier afterwards is refused', async () => {
    const t = get();
    const { start, code } = await codeFor(t);
    const wrong = await redeem(t, start, code, { code_verifier: 'x'.repeat(64) });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().error).toBe('invalid_grant');
    const right = await redeem(t, start, code);
    expect(right.statusCode).toBe(400);
    expect(right.json().error).toBe('invalid_grant');
  });

  it('so does a wrong redirect_uri', async () => {
    const t = get();
    const { start, code } = await codeFor(t);
    expect((await redeem(t, start, code, { redirect_uri: `${start.redirectUri}x` })).statusCode).toBe(400);
    expect((await redeem(t, start, code)).statusCode).toBe(400);
  });

  it('an untouched code still redeems once (control)', async () => {
    const t = get();
    const { start, code } = await codeFor(t);
    const ok = await redeem(t, start, code);
    expect(ok.statusCode).toBe(200);
    expect((await redeem(t, start, code)).statusCode).toBe(400);
  });
});
