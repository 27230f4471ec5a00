import { randomBytes } from 'node:crypto';
import { decodeJwt } from 'jose';
import { TOTP } from 'otpauth';
import { expect, it } from 'vitest';
import { describeEachDb, type TestApp } from '../../helpers/app';
import { createAccount, exchangeCode, followToCode, signIn, startAuthorize, type AuthorizeStart, type Tokens } from '../../helpers/auth';
import { SoftAuthenticator, type CeremonyOverrides, type PasskeyJSON } from '../../helpers/webauthn';
import { createTotpSecret, enableTotp } from '../../../server/services/two-factor';

/**
 * Passkeys (issue 33) over HTTP with a software authenticator producing real attestations and assertions
 * (tests/helpers/webauthn.ts): registration from the profile, passwordless sign-in and second factor within an OIDC
 * interaction, and every rule the ceremonies enforce: single-use challenges bound to their interaction (and browser)
 * or session, origin and RP id, user verification, the sign counter, removed credentials, and the admin setting that
 * makes a person enrol at sign-in.
 */
const PW = 'Correct-Horse1!x';
const ORIGIN = 'http://localhost:3000';
const mail = (p: string) => `${p}-${randomBytes(3).toString('hex')}@example.com`;
type Options = { challenge: string; user: { id: string }; rpId?: string; allowCredentials?: { id: string }[]; authenticatorSelection?: { userVerification?: string; residentKey?: string } };

async function post(t: TestApp, url: string, payload: unknown, headers: Record<string, string> = {}) {
  return t.app.inject({ method: 'POST', url, headers, payload: payload as Record<string, unknown> });
}

async function registrationOptions(t: TestApp, tokens: Tokens): Promise<Options> {
  const res = await post(t, '/api/passkeys/registration-options', undefined, { authorization: tokens.authorization });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ data: { options: Options } }>().data.options;
}

async function register(t: TestApp, tokens: Tokens, auth: SoftAuthenticator, name = 'Laptop', o?: CeremonyOverrides) {
  const options = await registrationOptions(t, tokens);
  return post(t, '/api/passkeys', { name, credential: auth.create(options, o) }, { authorization: tokens.authorization });
}

/** A person with a password and (after signing in once with it) one passkey. */
async function personWithPasskey(t: TestApp, auth = new SoftAuthenticator({ origin: ORIGIN })) {
  const email = mail('pk');
  const account = await createAccount(t, { type: 'user', email, password: PW });
  const tokens = await signIn(t, { email, password: PW });
  const res = await register(t, tokens, auth);
  expect(res.statusCode, res.body).toBe(201);
  return { account, email, tokens, auth, passkey: res.json<{ data: { id: string; kind: string; backup_eligible: boolean } }>().data };
}

async function signInOptions(t: TestApp, start: AuthorizeStart, purpose: 'sign_in' | 'second_factor' = 'sign_in'): Promise<Options> {
  const res = await post(t, '/api/passkeys/authentication-options', { interaction: start.interaction, purpose }, { cookie: start.jar.header() });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ data: { options: Options } }>().data.options;
}

const passkeySignIn = (t: TestApp, start: AuthorizeStart, credential: PasskeyJSON, cookie = start.jar.header()) =>
  post(t, '/api/passkeys/sign-in', { interaction: start.interaction, credential }, { cookie });

async function tokensOf(t: TestApp, start: AuthorizeStart, redirectTo: string) {
  const { code } = await followToCode(t, start, redirectTo);
  expect(code).toBeTruthy();
  return exchangeCode(t, start, String(code));
}

async function audit(t: TestApp, action: string, targetId: string) {
  return t.db.kysely.selectFrom('audit_log').selectAll().where('action', '=', action).where('target_id', '=', targetId).execute();
}

describeEachDb('passkeys', (get) => {
  it('registers a passkey from the profile, lists, renames and removes it (audited), stores BE/BS and the counter', async () => {
    const t = get();
    const { account, tokens, passkey } = await personWithPasskey(t, new SoftAuthenticator({ origin: ORIGIN, backupEligible: true }));
    expect(passkey).toMatchObject({ kind: 'swk', backup_eligible: true });
    const row = await t.db.kysely.selectFrom('passkeys').selectAll().where('id', '=', passkey.id).executeTakeFirstOrThrow();
    expect({ be: Number(row.backup_eligible), bs: Number(row.backed_up), counter: Number(row.counter), attachment: row.attachment }).toEqual({ be: 1, bs: 1, counter: 0, attachment: 'platform' });
    const list = await t.app.inject({ method: 'GET', url: '/api/passkeys', headers: { authorization: tokens.authorization } });
    expect(list.json<{ data: { id: string; name: string; last_used_at: string | null }[] }>().data).toEqual([expect.objectContaining({ id: passkey.id, name: 'Laptop', last_used_at: null })]);
    const renamed = await t.app.inject({ method: 'PATCH', url: `/api/passkeys/${passkey.id}`, headers: { authorization: tokens.authorization }, payload: { name: 'Work laptop' } });
    expect(renamed.json<{ data: { name: string } }>().data.name).toBe('Work laptop');
    const del = await t.app.inject({ method: 'DELETE', url: `/api/passkeys/${passkey.id}`, headers: { authorization: tokens.authorization } });
    expect(del.statusCode).toBe(200);
    expect(await t.db.kysely.selectFrom('passkeys').select('id').where('account_id', '=', account.id).execute()).toEqual([]);
    expect((await audit(t, 'passkey.registered', account.id)).length).toBe(1);
    expect((await audit(t, 'passkey.renamed', account.id)).length).toBe(1);
    expect((await audit(t, 'passkey.removed', account.id)).length).toBe(1);
    const again = await t.app.inject({ method: 'DELETE', url: `/api/passkeys/${passkey.id}`, headers: { authorization: tokens.authorization } });
    expect(again.json<{ error: { code: string } }>().error.code).toBe('passkey_not_found');
  });

  it('signs in without a password: amr swk + mfa, acr mfa; last use, counter and BS are updated', async () => {
    const t = get();
    const { auth, passkey } = await personWithPasskey(t);
    const start = await startAuthorize(t);
    const options = await signInOptions(t, start);
    // discoverable: nothing listed, user verification required
    expect(options.allowCredentials ?? []).toEqual([]);
    expect(options.rpId).toBe('localhost');
    const res = await passkeySignIn(t, start, auth.get(options));
    expect(res.statusCode, res.body).toBe(200);
    const data = res.json<{ data: { status: string; redirect_to: string } }>().data;
    expect(data.status).toBe('complete');
    const claims = decodeJwt((await tokensOf(t, start, data.redirect_to)).idToken);
    expect(claims).toMatchObject({ acr: 'urn:iam:acr:mfa' });
    expect(claims.amr).toEqual(['swk', 'mfa']);
    const row = await t.db.kysely.selectFrom('passkeys').selectAll().where('id', '=', passkey.id).executeTakeFirstOrThrow();
    expect(Number(row.counter)).toBe(1);
    expect(row.last_used_at).not.toBeNull();
  });

  it('a device-bound security key (cross-platform, not backup-eligible) is the second factor after a password: amr pwd + hwk + mfa', async () => {
    const t = get();
    const { email, auth, passkey } = await personWithPasskey(t, new SoftAuthenticator({ origin: ORIGIN, attachment: 'cross-platform' }));
    expect(passkey.kind).toBe('hwk');
    const start = await startAuthorize(t);
    const login = await post(t, '/api/login', { email, password: PW, interaction: start.interaction }, { cookie: start.jar.header() });
    expect(login.json<{ data: unknown }>().data).toEqual({ status: 'two_factor_required', method: 'PASSKEY', passkey: true });
    // no code to type for an account whose only second factor is a passkey
    const otp = await post(t, '/api/2fa/google/validate-otp', { one_time_password: '123456', interaction: start.interaction }, { cookie: start.jar.header() });
    expect(otp.json<{ error: { code: string } }>().error.code).toBe('two_factor_method_mismatch');
    const options = await signInOptions(t, start, 'second_factor');
    expect(options.allowCredentials?.map((c) => c.id)).toEqual([...auth.credentials.keys()]);
    const res = await post(t, '/api/2fa/passkey/verify', { interaction: start.interaction, credential: auth.get(options) }, { cookie: start.jar.header() });
    expect(res.statusCode, res.body).toBe(200);
    const claims = decodeJwt((await tokensOf(t, start, res.json<{ data: { redirect_to: string } }>().data.redirect_to)).idToken);
    expect(claims.amr).toEqual(['pwd', 'hwk', 'mfa']);
    expect(claims.acr).toBe('urn:iam:acr:mfa');
  });

  it("another person's passkey is not a second factor", async () => {
    const t = get();
    const { email } = await personWithPasskey(t);
    const other = await personWithPasskey(t);
    const start = await startAuthorize(t);
    await post(t, '/api/login', { email, password: PW, interaction: start.interaction }, { cookie: start.jar.header() });
    const options = await signInOptions(t, start, 'second_factor');
    // the other person's authenticator signs this sign-in's challenge
    const res = await post(t, '/api/2fa/passkey/verify', { interaction: start.interaction, credential: other.auth.get(options) }, { cookie: start.jar.header() });
    expect(res.statusCode).toBe(401);
    expect(res.json<{ error: { code: string } }>().error.code).toBe('passkey_unknown');
  });

  it('an account with an authenticator app is offered its passkey next to the code', async () => {
    const t = get();
    const { account, email } = await personWithPasskey(t);
    const { secret } = await createTotpSecret(t.app, account);
    await enableTotp(t.app, account, new TOTP({ secret, digits: 6, period: 30 }).generate());
    const start = await startAuthorize(t);
    const login = await post(t, '/api/login', { email, password: PW, interaction: start.interaction }, { cookie: start.jar.header() });
    expect(login.json<{ data: unknown }>().data).toEqual({ status: 'two_factor_required', method: 'GOOGLE', passkey: true });
  });

  it('a challenge is single use: the same answer again is refused (passkey_challenge_invalid)', async () => {
    const t = get();
    const { auth } = await personWithPasskey(t);
    const start = await startAuthorize(t);
    const answer = auth.get(await signInOptions(t, start));
    expect((await passkeySignIn(t, start, answer)).statusCode).toBe(200);
    // the same answer again, in the same interaction and browser: its challenge is spent
    const replay = await passkeySignIn(t, start, answer);
    expect(replay.statusCode).toBe(400);
    expect(replay.json<{ error: { code: string } }>().error.code).toBe('passkey_challenge_invalid');
  });

  it("a challenge is bound to its interaction and browser: another interaction's challenge is refused, another browser is refused before anything", async () => {
    const t = get();
    const { auth } = await personWithPasskey(t);
    const a = await startAuthorize(t);
    const b = await startAuthorize(t);
    const answerForA = auth.get(await signInOptions(t, a));
    // presented within interaction b (b's browser): not b's challenge
    const cross = await passkeySignIn(t, b, answerForA);
    expect(cross.json<{ error: { code: string } }>().error.code).toBe('passkey_challenge_invalid');
    // within a, but from b's browser (no binding cookie of a): refused first, the challenge is not spent
    const foreign = await passkeySignIn(t, a, answerForA, b.jar.header());
    expect(foreign.statusCode).toBe(403);
    expect(foreign.json<{ error: { code: string } }>().error.code).toBe('interaction_foreign_browser');
    const optionsForeign = await post(t, '/api/passkeys/authentication-options', { interaction: a.interaction, purpose: 'sign_in' }, { cookie: b.jar.header() });
    expect(optionsForeign.statusCode).toBe(403);
    // the right browser still can
    expect((await passkeySignIn(t, a, answerForA)).statusCode).toBe(200);
  });

  it('an expired challenge is refused', async () => {
    const t = get();
    const { auth } = await personWithPasskey(t);
    const start = await startAuthorize(t);
    const options = await signInOptions(t, start);
    await t.db.kysely.updateTable('webauthn_challenges').set({ expires_at: Date.now() - 1 }).where('challenge', '=', options.challenge).execute();
    expect((await passkeySignIn(t, start, auth.get(options))).json<{ error: { code: string } }>().error.code).toBe('passkey_challenge_invalid');
  });

  it('a registration challenge is bound to the session that asked: another session of the same account is refused', async () => {
    const t = get();
    const { email, tokens, auth } = await personWithPasskey(t);
    // a second session of the same person (password + the passkey as second factor)
    const start = await startAuthorize(t);
    await post(t, '/api/login', { email, password: PW, interaction: start.interaction }, { cookie: start.jar.header() });
    const sf = await post(t, '/api/2fa/passkey/verify', { interaction: start.interaction, credential: auth.get(await signInOptions(t, start, 'second_factor')) }, { cookie: start.jar.header() });
    const other = await tokensOf(t, start, sf.json<{ data: { redirect_to: string } }>().data.redirect_to);
    const options = await registrationOptions(t, tokens);
    const res = await post(t, '/api/passkeys', { name: 'Phone', credential: new SoftAuthenticator({ origin: ORIGIN }).create(options) }, { authorization: other.authorization });
    expect(res.statusCode).toBe(400);
    expect(res.json<{ error: { code: string } }>().error.code).toBe('passkey_challenge_invalid');
  });

  it('a response for another origin or another RP id is refused, at registration and at sign-in', async () => {
    const t = get();
    const { tokens, auth } = await personWithPasskey(t);
    for (const o of [{ origin: 'https://evil.example' }, { rpId: 'evil.example' }]) {
      const reg = await register(t, tokens, new SoftAuthenticator({ origin: ORIGIN }), 'Other', o);
      expect(reg.statusCode, JSON.stringify(o)).toBe(422);
      expect(reg.json<{ error: { code: string } }>().error.code).toBe('passkey_invalid');
      const start = await startAuthorize(t);
      const res = await passkeySignIn(t, start, auth.get(await signInOptions(t, start), o));
      expect(res.statusCode, JSON.stringify(o)).toBe(401);
      expect(res.json<{ error: { code: string } }>().error.code).toBe('passkey_invalid');
    }
  });

  it('user verification is required: an answer without the UV flag is refused', async () => {
    const t = get();
    const { tokens, auth } = await personWithPasskey(t);
    const options = await registrationOptions(t, tokens);
    expect(options.authenticatorSelection).toMatchObject({ userVerification: 'required', residentKey: 'required' });
    const reg = await post(t, '/api/passkeys', { name: 'No UV', credential: new SoftAuthenticator({ origin: ORIGIN }).create(options, { uv: false }) }, { authorization: tokens.authorization });
    expect(reg.json<{ error: { code: string } }>().error.code).toBe('passkey_invalid');
    const start = await startAuthorize(t);
    const res = await passkeySignIn(t, start, auth.get(await signInOptions(t, start), { uv: false }));
    expect(res.statusCode).toBe(401);
    expect(res.json<{ error: { code: string } }>().error.code).toBe('passkey_invalid');
  });

  it('a counter going backwards (cloned authenticator) is refused and audited', async () => {
    const t = get();
    const { account, auth, passkey } = await personWithPasskey(t);
    for (let i = 0; i < 2; i++) {
      const start = await startAuthorize(t);
      expect((await passkeySignIn(t, start, auth.get(await signInOptions(t, start)))).statusCode).toBe(200);
    }
    const start = await startAuthorize(t);
    const res = await passkeySignIn(t, start, auth.get(await signInOptions(t, start), { counter: 1 }));
    expect(res.statusCode).toBe(401);
    expect(res.json<{ error: { code: string } }>().error.code).toBe('passkey_invalid');
    const rows = await audit(t, 'passkey.counter_regression', account.id);
    expect(rows.length).toBe(1);
    expect(JSON.parse(String(rows[0]!.after))).toMatchObject({ passkey_id: passkey.id, counter: 1 });
    const row = await t.db.kysely.selectFrom('passkeys').select('counter').where('id', '=', passkey.id).executeTakeFirstOrThrow();
    expect(Number(row.counter)).toBe(2);
  });

  it('a removed passkey (and an unknown one) cannot sign in: passkey_unknown', async () => {
    const t = get();
    const { tokens, auth, passkey } = await personWithPasskey(t);
    await t.app.inject({ method: 'DELETE', url: `/api/passkeys/${passkey.id}`, headers: { authorization: tokens.authorization } });
    const start = await startAuthorize(t);
    const res = await passkeySignIn(t, start, auth.get(await signInOptions(t, start)));
    expect(res.statusCode).toBe(401);
    expect(res.json<{ error: { code: string } }>().error.code).toBe('passkey_unknown');
    const stranger = new SoftAuthenticator({ origin: ORIGIN });
    stranger.create({ challenge: 'x', user: { id: 'bm9ib2R5' } });
    const start2 = await startAuthorize(t);
    expect((await passkeySignIn(t, start2, stranger.get(await signInOptions(t, start2)))).json<{ error: { code: string } }>().error.code).toBe('passkey_unknown');
  });

  it("a user's passkey does not sign in to the admin console", async () => {
    const t = get();
    const { auth } = await personWithPasskey(t);
    const start = await startAuthorize(t, { client: 'admin-console' });
    const res = await passkeySignIn(t, start, auth.get(await signInOptions(t, start)));
    expect(res.json<{ error: { code: string } }>().error.code).toBe('passkey_unknown');
  });

  it("admins list a user's passkeys and remove one (audited user.passkey_removed)", async () => {
    const t = get();
    const { account, passkey } = await personWithPasskey(t);
    const adminEmail = mail('admin');
    await createAccount(t, { type: 'admin', email: adminEmail, password: PW });
    const admin = await signIn(t, { email: adminEmail, password: PW, client: 'admin-console' });
    const list = await t.app.inject({ method: 'GET', url: `/api/admin/users/${account.id}/passkeys`, headers: { authorization: admin.authorization } });
    expect(list.json<{ data: { id: string }[] }>().data.map((p) => p.id)).toEqual([passkey.id]);
    const del = await t.app.inject({ method: 'DELETE', url: `/api/admin/users/${account.id}/passkeys/${passkey.id}`, headers: { authorization: admin.authorization } });
    expect(del.statusCode, del.body).toBe(200);
    expect((await audit(t, 'user.passkey_removed', account.id)).length).toBe(1);
    const missing = await t.app.inject({ method: 'GET', url: `/api/admin/users/${randomBytes(8).toString('hex')}/passkeys`, headers: { authorization: admin.authorization } });
    expect(missing.statusCode).toBe(404);
  });

  it('an admin setting requiring a passkey for a role makes its holders enrol at sign-in; a second factor cannot skip it', async () => {
    const t = get();
    const adminEmail = mail('admin');
    await createAccount(t, { type: 'admin', email: adminEmail, password: PW });
    const admin = await signIn(t, { email: adminEmail, password: PW, client: 'admin-console' });
    const roleId = `role-${randomBytes(3).toString('hex')}`;
    const now = new Date().toISOString();
    await t.db.kysely.insertInto('roles').values({ id: roleId, name: roleId, description: '', created_at: now, updated_at: now }).execute();
    const subId = `sub-${randomBytes(3).toString('hex')}`;
    await t.db.kysely.insertInto('subscriptions').values({ id: subId, name: subId, description: '', created_at: now, updated_at: now }).execute();
    await t.db.kysely.insertInto('subscription_roles').values({ subscription_id: subId, role_id: roleId }).execute();
    const email = mail('enrol');
    const person = await createAccount(t, { type: 'user', email, password: PW });
    await t.db.kysely.insertInto('role_subscriptions').values({ account_id: person.id, subscription_id: subId, role_id: roleId, created_at: now }).execute();

    const bad = await t.app.inject({ method: 'PUT', url: '/api/admin/settings/second-factor', headers: { authorization: admin.authorization }, payload: { admins: 'none', roles: [{ role_id: 'nope', requirement: 'passkey' }] } });
    expect(bad.json<{ error: { fields: Record<string, string[]> } }>().error.fields).toEqual({ 'roles.0.role_id': ['role_unknown'] });
    const put = await t.app.inject({ method: 'PUT', url: '/api/admin/settings/second-factor', headers: { authorization: admin.authorization }, payload: { admins: 'none', roles: [{ role_id: roleId, requirement: 'passkey' }] } });
    expect(put.statusCode, put.body).toBe(200);
    expect((await t.db.kysely.selectFrom('audit_log').select('id').where('action', '=', 'settings.second_factor').execute()).length).toBeGreaterThan(0);

    const start = await startAuthorize(t);
    const login = await post(t, '/api/login', { email, password: PW, interaction: start.interaction }, { cookie: start.jar.header() });
    expect(login.json<{ data: unknown }>().data).toEqual({ status: 'enrolment_required', requirement: 'passkey' });
    // the waiting sign-in cannot be finished by a code instead
    const code = await post(t, '/api/2fa/validate-recovery-code', { recovery_code: 'AAAAA-AAAAA', interaction: start.interaction }, { cookie: start.jar.header() });
    expect(code.json<{ error: { code: string } }>().error.code).toBe('two_factor_method_mismatch');
    const optRes = await post(t, '/api/passkeys/enrolment-options', { interaction: start.interaction }, { cookie: start.jar.header() });
    expect(optRes.statusCode, optRes.body).toBe(200);
    const auth = new SoftAuthenticator({ origin: ORIGIN });
    const done = await post(t, '/api/passkeys/enrol', { interaction: start.interaction, name: 'Phone', credential: auth.create(optRes.json<{ data: { options: Options } }>().data.options) }, { cookie: start.jar.header() });
    expect(done.statusCode, done.body).toBe(200);
    const result = done.json<{ data: { status: string; redirect_to: string } }>().data;
    expect(result.status).toBe('complete');
    expect(decodeJwt((await tokensOf(t, start, result.redirect_to)).idToken).sub).toBe(person.id);
    // enrolled: the next sign-in asks for the passkey after the password
    const next = await startAuthorize(t);
    const again = await post(t, '/api/login', { email, password: PW, interaction: next.interaction }, { cookie: next.jar.header() });
    expect(again.json<{ data: { status: string } }>().data.status).toBe('two_factor_required');
    await t.app.inject({ method: 'PUT', url: '/api/admin/settings/second-factor', headers: { authorization: admin.authorization }, payload: { admins: 'none', roles: [] } });
  });
});
