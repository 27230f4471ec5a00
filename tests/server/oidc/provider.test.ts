import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { decodeJwt, decodeProtectedHeader } from 'jose';
import { TOTP } from 'otpauth';
import { describeEachDb, type TestApp } from '../../helpers/app';
import { CookieJar, createAccount, exchangeCode, followToCode, notATotpCode, pkcePair, refresh, signIn, startAuthorize } from '../../helpers/auth';
import { revokeAccountGrants } from '../../../server/oidc/grants';
import { createTotpSecret, enableTotp } from '../../../server/services/two-factor';
import { nowIso } from '../../../server/db/index';

const PW = 'Correct-Horse1!x';
let n = 0;
const email = (p = 'u') => `${p}${++n}-${randomUUID().slice(0, 6)}@example.com`;

async function user(t: TestApp, extra: Parameters<typeof createAccount>[1] extends infer O ? Partial<O> : never = {}) {
  const e = email();
  const a = await createAccount(t, { type: 'user', email: e, password: PW, ...extra });
  return { ...a, email: e };
}

const api = (t: TestApp, url: string, authorization: string) => t.app.inject({ method: 'GET', url, headers: { authorization } });

describeEachDb('OIDC provider and sign-in', (get) => {
  it('publishes discovery and JWKS; /api/config names the same endpoints', async () => {
    const t = get();
    const disco = await t.app.inject({ method: 'GET', url: '/oidc/.well-known/openid-configuration' });
    expect(disco.statusCode).toBe(200);
    const d = disco.json();
    expect(d.issuer).toBe('http://localhost:3000/oidc');
    expect(d.code_challenge_methods_supported).toEqual(['S256']);
    const cfg = (await t.app.inject({ method: 'GET', url: '/api/config' })).json().data;
    for (const k of ['issuer', 'authorization_endpoint', 'token_endpoint', 'end_session_endpoint', 'jwks_uri', 'userinfo_endpoint', 'revocation_endpoint']) expect(cfg[k]).toBe(d[k]);
    const jwks = await t.app.inject({ method: 'GET', url: '/oidc/jwks' });
    expect(jwks.json().keys.length).toBeGreaterThanOrEqual(1);
    expect(jwks.json().keys[0].d).toBeUndefined();
  });

  it('refuses a missing or plain PKCE challenge and an unregistered redirect URI', async () => {
    const t = get();
    const base = { client_id: 'portal', redirect_uri: 'http://localhost:3000/login', response_type: 'code', scope: 'openid', state: 'x'.repeat(40) };
    const missing = await t.app.inject({ method: 'GET', url: `/oidc/auth?${new URLSearchParams(base).toString()}` });
    expect(String(missing.headers.location)).toContain('error=invalid_request');
    const plain = await t.app.inject({ method: 'GET', url: `/oidc/auth?${new URLSearchParams({ ...base, code_challenge: pkcePair().verifier, code_challenge_method: 'plain' }).toString()}` });
    expect(String(plain.headers.location)).toContain('error=invalid_request');
    const ok = await startAuthorize(t);
    expect(ok.interaction).toBeTruthy();
    expect(ok.location).toMatch(/^http:\/\/localhost:3000\/login\?interaction=/);
    const wrong = await t.app.inject({ method: 'GET', url: `/oidc/auth?${new URLSearchParams({ ...base, redirect_uri: 'http://localhost:3000/login/evil', code_challenge: pkcePair().challenge, code_challenge_method: 'S256' }).toString()}` });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.headers.location).toBeUndefined();
    expect(wrong.body).toContain('redirect_uri');
    expect(wrong.body).not.toMatch(/<script>|<style>/); // CSP-friendly error page
  });

  it('refuses a code exchange without the matching code_verifier', async () => {
    const t = get();
    const u = await user(t);
    const start = await startAuthorize(t);
    const login = await t.app.inject({ method: 'POST', url: '/api/login', headers: { cookie: start.jar.header() }, payload: { email: u.email, password: PW, interaction: start.interaction } });
    const { code } = await followToCode(t, start, login.json().data.redirect_to);
    await expect(exchangeCode(t, { ...start, verifier: pkcePair().verifier }, code ?? '')).rejects.toThrow(/invalid_grant/);
  });

  it('issues a JWT access token whose aud is the client id; user and admin APIs check the account type', async () => {
    const t = get();
    const u = await user(t);
    const tokens = await signIn(t, { email: u.email, password: PW });
    const claims = decodeJwt(tokens.accessToken);
    expect(claims.aud).toBe('portal');
    expect(claims.sub).toBe(u.id);
    expect(decodeProtectedHeader(tokens.accessToken).typ).toBe('at+jwt');
    expect(claims.exp! - claims.iat!).toBe(600);
    const me = await api(t, '/api/user?with=subscriptions', tokens.authorization);
    expect(me.statusCode).toBe(200);
    expect(me.json().data).toMatchObject({ auth_user: { id: u.id, email: u.email, type: 'user', technical: false, subscriptions: [] }, '2fa': { enabled: false, method: null }, sso_login: false });
    expect((await api(t, '/api/admin', tokens.authorization)).statusCode).toBe(403);

    const adminEmail = email('a');
    await createAccount(t, { type: 'admin', email: adminEmail, password: PW, admin_role: 'manager' });
    const at = await signIn(t, { email: adminEmail, password: PW, client: 'admin-console' });
    expect(decodeJwt(at.accessToken).aud).toBe('admin-console');
    const admin = await api(t, '/api/admin', at.authorization);
    expect(admin.statusCode).toBe(200);
    expect(admin.json().data.auth_user).toMatchObject({ email: adminEmail, role: 'manager', type: 'admin' });
    expect((await api(t, '/api/user', at.authorization)).statusCode).toBe(403);
  });

  it('a token with a forged signature or a foreign audience is refused', async () => {
    const t = get();
    const u = await user(t);
    const tokens = await signIn(t, { email: u.email, password: PW });
    const [h, p] = tokens.accessToken.split('.');
    const forged = `${h}.${p}.${Buffer.from('nope').toString('base64url')}`;
    expect((await api(t, '/api/user', `Bearer ${forged}`)).json().error.code).toBe('invalid_token');
    expect((await api(t, '/api/user', 'Bearer not-a-token')).statusCode).toBe(401);
  });

  it('a user cannot sign in to admin-console and an admin cannot sign in to portal', async () => {
    const t = get();
    const u = await user(t);
    // the admin login looks up admins only: same answer as a wrong password
    const adminStart = await startAuthorize(t, { client: 'admin-console' });
    expect(adminStart.location).toContain('/admin/login?interaction=');
    const r1 = await t.app.inject({ method: 'POST', url: '/api/admin/login', headers: { cookie: adminStart.jar.header() }, payload: { email: u.email, password: PW, interaction: adminStart.interaction } });
    expect(r1.statusCode).toBe(401);
    expect(r1.json().error.code).toBe('invalid_credentials');
    // the user login refuses an admin-console interaction
    const r2 = await t.app.inject({ method: 'POST', url: '/api/login', headers: { cookie: adminStart.jar.header() }, payload: { email: u.email, password: PW, interaction: adminStart.interaction } });
    expect(r2.statusCode).toBe(400);
    expect(r2.json().error.code).toBe('interaction_invalid');
    // a live portal session does not open admin-console
    const jar = new CookieJar();
    const s = await startAuthorize(t, { jar });
    const login = await t.app.inject({ method: 'POST', url: '/api/login', headers: { cookie: s.jar.header() }, payload: { email: u.email, password: PW, interaction: s.interaction } });
    expect((await followToCode(t, s, login.json().data.redirect_to)).code).toBeTruthy();
    const again = await startAuthorize(t, { jar });
    expect(again.location).toContain('code='); // the session gives portal a code at once
    const cross = await startAuthorize(t, { jar, client: 'admin-console' });
    expect(cross.location).toContain('error=access_denied');

    const adminEmail = email('a');
    await createAccount(t, { type: 'admin', email: adminEmail, password: PW });
    const p = await startAuthorize(t);
    const r3 = await t.app.inject({ method: 'POST', url: '/api/login', headers: { cookie: p.jar.header() }, payload: { email: adminEmail, password: PW, interaction: p.interaction } });
    expect(r3.statusCode).toBe(401);
  });

  it('unknown accounts and inactive accounts (right password, no 2FA) get the same answer as a wrong password', async () => {
    const t = get();
    const u = await user(t);
    const s = await startAuthorize(t);
    const wrong = await t.app.inject({ method: 'POST', url: '/api/login', headers: { cookie: s.jar.header() }, payload: { email: u.email, password: 'Wrong-Horse1!xx', interaction: s.interaction } });
    const unknown = await t.app.inject({ method: 'POST', url: '/api/login', headers: { cookie: s.jar.header() }, payload: { email: email('nobody'), password: PW, interaction: s.interaction } });
    expect(wrong.statusCode).toBe(401);
    expect(unknown.statusCode).toBe(401);
    expect(unknown.json().error).toEqual(wrong.json().error);
    expect(wrong.json().error).toMatchObject({ code: 'invalid_credentials', message: 'Given password is invalid' });

    const inactive = await user(t, { status: 'INACTIVE' });
    const bad = await t.app.inject({ method: 'POST', url: '/api/login', headers: { cookie: s.jar.header() }, payload: { email: inactive.email, password: 'Wrong-Horse1!xx', interaction: s.interaction } });
    expect(bad.statusCode).toBe(401);
    const good = await t.app.inject({ method: 'POST', url: '/api/login', headers: { cookie: s.jar.header() }, payload: { email: inactive.email, password: PW, interaction: s.interaction } });
    // no oracle for deactivated accounts (docs/ACCOUNT-SECURITY.md): the owner is told by mail
    expect(good.statusCode).toBe(401);
    expect(good.json().error).toEqual(bad.json().error);

    const sso = await user(t, { auth_type: 'SSO', provider: 'corp' });
    const ssoLogin = await t.app.inject({ method: 'POST', url: '/api/login', headers: { cookie: s.jar.header() }, payload: { email: sso.email, password: PW, interaction: s.interaction } });
    expect(ssoLogin.statusCode).toBe(401);
    // an interaction no browser was ever given: no browser holds it
    const unknownUid = await t.app.inject({ method: 'POST', url: '/api/login', headers: { cookie: s.jar.header() }, payload: { email: u.email, password: PW, interaction: 'doesnotexist' } });
    expect(unknownUid.statusCode).toBe(403);
    expect(unknownUid.json().error.code).toBe('interaction_foreign_browser');
  });

  it('a password flagged for change answers password_expired with a reset token', async () => {
    const t = get();
    const u = await user(t);
    await t.db.kysely.updateTable('accounts').set({ password_changed_at: null }).where('id', '=', u.id).execute();
    const s = await startAuthorize(t);
    const res = await t.app.inject({ method: 'POST', url: '/api/login', headers: { cookie: s.jar.header() }, payload: { email: u.email, password: PW, interaction: s.interaction } });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.status).toBe('password_expired');
    expect(res.json().data.reset_token).toMatch(/^[A-Za-z0-9_-]{20,}$/);
    const row = await t.db.kysely.selectFrom('one_time_tokens').selectAll().where('account_id', '=', u.id).where('purpose', '=', 'expired_password').executeTakeFirst();
    expect(row?.used_at).toBeNull();
  });

  it('records the sign-in (client, ip, user agent, grant) and the sign-out on logout; the token fails at once', async () => {
    const t = get();
    const u = await user(t);
    const tokens = await signIn(t, { email: u.email, password: PW });
    const gid = decodeJwt(tokens.accessToken).gid as string;
    const act = await t.db.kysely.selectFrom('auth_activities').selectAll().where('account_id', '=', u.id).executeTakeFirstOrThrow();
    expect(act).toMatchObject({ client_id: 'portal', session_ref: gid, logged_out_at: null });
    expect(act.ip_address).toBeTruthy();
    expect((await api(t, '/api/user', tokens.authorization)).statusCode).toBe(200);
    const out = await t.app.inject({ method: 'POST', url: '/api/logout', headers: { authorization: tokens.authorization } });
    expect(out.statusCode).toBe(200);
    const after = await api(t, '/api/user', tokens.authorization);
    expect(after.statusCode).toBe(401);
    expect(after.json().error.code).toBe('invalid_token');
    expect((await refresh(t, tokens.refreshToken)).statusCode).toBe(400);
    const closed = await t.db.kysely.selectFrom('auth_activities').select('logged_out_at').where('id', '=', act.id).executeTakeFirstOrThrow();
    expect(closed.logged_out_at).not.toBeNull();
  });

  it('refresh tokens rotate; reusing a spent one revokes the whole grant', async () => {
    const t = get();
    const u = await user(t);
    const tokens = await signIn(t, { email: u.email, password: PW });
    const r1 = await refresh(t, tokens.refreshToken);
    expect(r1.statusCode).toBe(200);
    const b1 = r1.json();
    expect(b1.refresh_token).not.toBe(tokens.refreshToken);
    expect(decodeJwt(b1.access_token).aud).toBe('portal');
    expect((await api(t, '/api/user', `Bearer ${b1.access_token}`)).statusCode).toBe(200);
    // replay of the spent token
    const replay = await refresh(t, tokens.refreshToken);
    expect(replay.statusCode).toBe(400);
    expect(replay.json().error).toBe('invalid_grant');
    // the grant is dead: the rotated refresh token and every access token fail
    expect((await refresh(t, b1.refresh_token)).statusCode).toBe(400);
    expect((await api(t, '/api/user', `Bearer ${b1.access_token}`)).statusCode).toBe(401);
    expect((await api(t, '/api/user', tokens.authorization)).statusCode).toBe(401);
    // a refresh token is bound to its client
    const t2 = await signIn(t, { email: u.email, password: PW });
    expect((await refresh(t, t2.refreshToken, 'admin-console')).statusCode).toBe(400);
  });

  it('10 parallel refreshes of one token: at most one succeeds, then the grant is dead', async () => {
    const t = get();
    const u = await user(t);
    const tokens = await signIn(t, { email: u.email, password: PW });
    const results = await Promise.all(Array.from({ length: 10 }, () => refresh(t, tokens.refreshToken)));
    const ok = results.filter((r) => r.statusCode === 200);
    expect(ok.length).toBeLessThanOrEqual(1);
    expect(results.filter((r) => r.statusCode === 400).every((r) => r.json().error === 'invalid_grant')).toBe(true);
    for (const r of ok) {
      expect((await refresh(t, r.json().refresh_token)).statusCode).toBe(400);
      expect((await api(t, '/api/user', `Bearer ${r.json().access_token}`)).statusCode).toBe(401);
    }
    expect((await api(t, '/api/user', tokens.authorization)).statusCode).toBe(401);
    console.info(`[${t.kind}] refresh race: ${ok.length} of 10 succeeded, grant revoked`);
  });

  it('disabling an account (INACTIVE + revokeAccountGrants) ends its sessions at once', async () => {
    const t = get();
    const u = await user(t);
    const a = await signIn(t, { email: u.email, password: PW });
    const b = await signIn(t, { email: u.email, password: PW });
    const other = await user(t);
    const c = await signIn(t, { email: other.email, password: PW });
    await t.db.kysely.updateTable('accounts').set({ status: 'INACTIVE' }).where('id', '=', u.id).execute();
    expect((await api(t, '/api/user', a.authorization)).json().error.code).toBe('account_inactive');
    expect(await revokeAccountGrants(t.app, u.id)).toBe(2);
    await t.db.kysely.updateTable('accounts').set({ status: 'ACTIVE' }).where('id', '=', u.id).execute();
    // even re-activated, the old tokens stay dead
    expect((await api(t, '/api/user', a.authorization)).statusCode).toBe(401);
    expect((await api(t, '/api/user', b.authorization)).statusCode).toBe(401);
    expect((await refresh(t, a.refreshToken)).statusCode).toBe(400);
    expect((await api(t, '/api/user', c.authorization)).statusCode).toBe(200);
  });

  it('revokeAccountGrants keeps the caller grant with exceptGrantId', async () => {
    const t = get();
    const u = await user(t);
    const a = await signIn(t, { email: u.email, password: PW });
    const b = await signIn(t, { email: u.email, password: PW });
    expect(await revokeAccountGrants(t.app, u.id, { exceptGrantId: decodeJwt(a.accessToken).gid as string })).toBe(1);
    expect((await api(t, '/api/user', a.authorization)).statusCode).toBe(200);
    expect((await refresh(t, a.refreshToken)).statusCode).toBe(200);
    expect((await api(t, '/api/user', b.authorization)).statusCode).toBe(401);
  });

  it('a service app admits only users holding one of its allowed roles through a subscription', async () => {
    const t = get();
    const db = t.db.kysely;
    const now = nowIso();
    const roleId = randomUUID();
    const otherRole = randomUUID();
    const subId = randomUUID();
    const appId = randomUUID();
    const k = ++n;
    const name = `crm${k}`;
    await db.insertInto('roles').values([{ id: roleId, name: `CRM_USER${k}`, description: '', created_at: now, updated_at: now }, { id: otherRole, name: `OTHER_X${k}`, description: '', created_at: now, updated_at: now }]).execute();
    await db.insertInto('subscriptions').values({ id: subId, name: `SUB_A${k}`, description: 'sub', created_at: now, updated_at: now }).execute();
    await db.insertInto('subscription_roles').values([{ subscription_id: subId, role_id: roleId }, { subscription_id: subId, role_id: otherRole }]).execute();
    await db.insertInto('service_apps').values({ id: appId, name, display_name: 'CRM', url: 'https://crm.example.com', path: '/callback', client_type: 'public', client_secret: null, created_at: now, updated_at: now }).execute();
    await db.insertInto('service_app_roles').values({ service_app_id: appId, role_id: roleId }).execute();
    const allowed = await user(t);
    const denied = await user(t);
    await db.insertInto('role_subscriptions').values({ account_id: allowed.id, subscription_id: subId, role_id: roleId, created_at: now }).execute();
    await db.insertInto('role_subscriptions').values({ account_id: denied.id, subscription_id: subId, role_id: otherRole, created_at: now }).execute();

    const run = async (e: string) => {
      const s = await startAuthorize(t, { client: name, redirectUri: 'https://crm.example.com/callback' });
      expect(s.location).toContain('type=sso');
      const login = await t.app.inject({ method: 'POST', url: '/api/login', headers: { cookie: s.jar.header() }, payload: { email: e, password: PW, interaction: s.interaction } });
      expect(login.statusCode).toBe(200);
      let to: string = login.json().data.redirect_to;
      // a refused person first sees the product's "no access" page, whose Continue link resumes to the app
      if (to.includes('/api/oidc-pages/denied/')) {
        const page = await t.app.inject({ method: 'GET', url: new URL(to).pathname });
        expect(page.statusCode).toBe(403);
        to = new URL(String(/id="denied-continue" href="([^"]+)"/.exec(page.body)?.[1]).replace(/&#(\d+);/g, (_, c: string) => String.fromCharCode(Number(c))), t.config.appUrl).href;
      }
      return followToCode(t, s, to).then(async (r) => ({ ...r, tokens: r.code ? await exchangeCode(t, s, r.code) : undefined }));
    };
    const ok = await run(allowed.email);
    expect(ok.code).toBeTruthy();
    expect(decodeJwt(ok.tokens!.accessToken).aud).toBe(name);
    expect((await run(denied.email)).error).toBe('access_denied');

    const me = await api(t, '/api/user?with=subscriptions', (await signIn(t, { email: allowed.email, password: PW })).authorization);
    expect(me.json().data.auth_user.subscriptions).toEqual([
      { id: subId, name: `SUB_A${k}`, description: 'sub', roles: [{ id: roleId, name: `CRM_USER${k}` }], service_apps: [{ id: appId, name, display_name: 'CRM', url: 'https://crm.example.com', path: '/callback', launch_url: 'https://crm.example.com/' }] },
    ]);
    // deleting the app takes effect at once
    await db.deleteFrom('service_apps').where('id', '=', appId).execute();
    expect((await api(t, '/api/user', `Bearer ${ok.tokens!.accessToken}`)).statusCode).toBe(401);
    const gone = await t.app.inject({ method: 'GET', url: `/oidc/auth?client_id=${name}&response_type=code&scope=openid&redirect_uri=https://crm.example.com/callback&code_challenge=${pkcePair().challenge}&code_challenge_method=S256` });
    expect(gone.statusCode).toBe(400);
  });

  it('two-factor sign-in: TOTP, wrong code, recovery code', async () => {
    const t = get();
    const u = await user(t);
    const { secret } = await createTotpSecret(t.app, u);
    const totp = new TOTP({ secret, digits: 6, period: 30 });
    const codes = await enableTotp(t.app, u, totp.generate());
    expect(codes).toBeTruthy();
    // next step's code (the current one was just used to enroll and counts as a replay)
    const next = () => totp.generate({ timestamp: Date.now() + 30_000 });

    const s = await startAuthorize(t);
    const login = await t.app.inject({ method: 'POST', url: '/api/login', headers: { cookie: s.jar.header() }, payload: { email: u.email, password: PW, interaction: s.interaction } });
    expect(login.json().data).toEqual({ status: 'two_factor_required', method: 'GOOGLE' });
    const wrongCode = notATotpCode((timestamp) => totp.generate({ timestamp }));
    const bad = await t.app.inject({ method: 'POST', url: '/api/2fa/google/validate-otp', headers: { cookie: s.jar.header() }, payload: { one_time_password: wrongCode, interaction: s.interaction } });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().error.fields).toEqual({ one_time_password: ['otp_invalid'] });
    expect(bad.json().error.message).toBe('One time password is invalid');
    const empty = await t.app.inject({ method: 'POST', url: '/api/2fa/google/validate-otp', headers: { cookie: s.jar.header() }, payload: { one_time_password: '', interaction: s.interaction } });
    expect(empty.json().error.fields).toEqual({ one_time_password: ['otp_required'] });
    // the second factor without a passed password step is refused
    const fresh = await startAuthorize(t);
    const skip = await t.app.inject({ method: 'POST', url: '/api/2fa/google/validate-otp', headers: { cookie: fresh.jar.header() }, payload: { one_time_password: next(), interaction: fresh.interaction } });
    expect(skip.statusCode).toBe(400);
    // the resume URL is not handed out before the second factor: following it yields no code
    const good = await t.app.inject({ method: 'POST', url: '/api/2fa/google/validate-otp', headers: { cookie: s.jar.header() }, payload: { one_time_password: next(), interaction: s.interaction } });
    expect(good.statusCode).toBe(200);
    const { code } = await followToCode(t, s, good.json().data.redirect_to);
    const tokens = await exchangeCode(t, s, code ?? '');
    expect((await api(t, '/api/user', tokens.authorization)).json().data['2fa']).toEqual({ enabled: true, method: 'GOOGLE' });

    // recovery code instead, single use
    const r = await startAuthorize(t);
    await t.app.inject({ method: 'POST', url: '/api/login', headers: { cookie: r.jar.header() }, payload: { email: u.email, password: PW, interaction: r.interaction } });
    const rc = await t.app.inject({ method: 'POST', url: '/api/2fa/validate-recovery-code', headers: { cookie: r.jar.header() }, payload: { recovery_code: codes![0], interaction: r.interaction } });
    expect(rc.statusCode).toBe(200);
    expect((await followToCode(t, r, rc.json().data.redirect_to)).code).toBeTruthy();
    const r2 = await startAuthorize(t);
    await t.app.inject({ method: 'POST', url: '/api/login', headers: { cookie: r2.jar.header() }, payload: { email: u.email, password: PW, interaction: r2.interaction } });
    const reuse = await t.app.inject({ method: 'POST', url: '/api/2fa/validate-recovery-code', headers: { cookie: r2.jar.header() }, payload: { recovery_code: codes![0], interaction: r2.interaction } });
    expect(reuse.statusCode).toBe(422);
  });

  it('two-factor sign-in by SMS: code bound to the sign-in, resend, wrong codes, single use', async () => {
    const t = get();
    const phone = `+4176${String(Date.now()).slice(-7)}`;
    const u = await user(t, { phone, two_factor_method: 'SMS', two_factor_confirmed_at: nowIso() });
    const smsTo = () =>
      (existsSync(path.join(t.dataDir, 'outbox', 'sms.log')) ? readFileSync(path.join(t.dataDir, 'outbox', 'sms.log'), 'utf8') : '')
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as { to: string; body: string })
        .filter((m) => m.to === phone)
        .map((m) => /\b(\d{6})\b/.exec(m.body)?.[1] ?? '');
    const s = await startAuthorize(t);
    const login = await t.app.inject({ method: 'POST', url: '/api/login', headers: { cookie: s.jar.header() }, payload: { email: u.email, password: PW, interaction: s.interaction } });
    expect(login.json().data).toEqual({ status: 'two_factor_required', method: 'SMS' });
    const [first] = smsTo();
    expect(first).toMatch(/^\d{6}$/);
    // a code sent for another sign-in does not finish this one
    const other = await startAuthorize(t);
    await t.db.kysely.deleteFrom('rate_counters').execute();
    await t.app.inject({ method: 'POST', url: '/api/login', headers: { cookie: other.jar.header() }, payload: { email: u.email, password: PW, interaction: other.interaction } });
    const otherCode = smsTo().at(-1)!;
    // (random codes: one time in a million the other sign-in's code is this one's too, and then it is right)
    if (otherCode !== first) {
      const cross = await t.app.inject({ method: 'POST', url: '/api/2fa/sms/verify', headers: { cookie: s.jar.header() }, payload: { one_time_password: otherCode, interaction: s.interaction } });
      expect(cross.statusCode).toBe(422);
      expect(cross.json().error.fields).toEqual({ one_time_password: ['otp_invalid'] });
    }
    // resend within the sign-in gives a new code that works once
    await t.db.kysely.deleteFrom('rate_counters').execute();
    const resend = await t.app.inject({ method: 'POST', url: '/api/2fa/sms/resend', headers: { cookie: s.jar.header() }, payload: { interaction: s.interaction } });
    expect(resend.json()).toEqual({ data: { status: 'sent' } });
    const resent = smsTo().at(-1)!;
    const ok = await t.app.inject({ method: 'POST', url: '/api/2fa/sms/verify', headers: { cookie: s.jar.header() }, payload: { one_time_password: resent, interaction: s.interaction } });
    expect(ok.statusCode).toBe(200);
    const { code } = await followToCode(t, s, ok.json().data.redirect_to);
    const tokens = await exchangeCode(t, s, code ?? '');
    expect((await api(t, '/api/user', tokens.authorization)).json().data['2fa']).toEqual({ enabled: true, method: 'SMS' });
  });

  it('locks the e-mail after repeated wrong passwords (429), even for the right password', async () => {
    const t = get();
    const u = await user(t);
    const s = await startAuthorize(t);
    const codes: number[] = [];
    for (let i = 0; i < 6; i++) {
      const r = await t.app.inject({ method: 'POST', url: '/api/login', headers: { cookie: s.jar.header() }, payload: { email: u.email, password: 'Wrong-Horse1!xx', interaction: s.interaction } });
      codes.push(r.statusCode);
    }
    expect(codes.slice(0, 5)).toEqual([401, 401, 401, 401, 401]);
    expect(codes[5]).toBe(429);
    const right = await t.app.inject({ method: 'POST', url: '/api/login', headers: { cookie: s.jar.header() }, payload: { email: u.email, password: PW, interaction: s.interaction } });
    expect(right.statusCode).toBe(429);
    expect(right.headers['retry-after']).toBeTruthy();
  });

  it('the adapter honours expiry and cleans expired rows up', async () => {
    const t = get();
    const { createAdapterClass, cleanupExpired } = await import('../../../server/oidc/adapter');
    const Adapter = createAdapterClass(t.db.kysely);
    const a = new Adapter('Interaction');
    await a.upsert('short', { uid: 'short-uid' }, 1);
    await a.upsert('long', { uid: 'long-uid' }, 3600);
    expect(await a.findByUid('long-uid')).toBeTruthy();
    await t.db.kysely.updateTable('oidc_models').set({ expires_at: Math.floor(Date.now() / 1000) - 1 }).where('id', '=', 'short').execute();
    expect(await a.find('short')).toBeUndefined();
    expect(await cleanupExpired(t.db.kysely)).toBeGreaterThanOrEqual(1);
    expect(await t.db.kysely.selectFrom('oidc_models').select('id').where('id', '=', 'short').executeTakeFirst()).toBeUndefined();
    expect(await a.find('long')).toBeTruthy();
  });
});
