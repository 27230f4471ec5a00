import { randomBytes } from 'node:crypto';
import { decodeJwt } from 'jose';
import { TOTP } from 'otpauth';
import { expect, it } from 'vitest';
import { describeEachDb, type TestApp } from '../../helpers/app';
import { createAccount, exchangeCode, followToCode, pathOf, startAuthorize, type AuthorizeStart } from '../../helpers/auth';
import { seedServiceApp } from '../../helpers/service-app';
import { createTotpSecret, enableTotp } from '../../../server/services/two-factor';

/**
 * Step-up (issue 31.6): an app asking for `urn:iam:acr:mfa` (or `mfa`) in `acr_values` gets a sign-in with two factors
 * or an error, never a password-only sign-in; tokens carry the acr actually reached.
 */
const PW = 'Correct-Horse1!x';
const unescape = (s: string) => s.replace(/&#(\d+);/g, (_, c: string) => String.fromCharCode(Number(c)));

async function login(t: TestApp, start: AuthorizeStart, email: string) {
  const res = await t.app.inject({ method: 'POST', url: '/api/login', headers: { cookie: start.jar.header() }, payload: { email, password: PW, interaction: start.interaction } });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ data: { status: string; redirect_to?: string; method?: string } }>().data;
}

async function otpStep(t: TestApp, start: AuthorizeStart, code: string) {
  const res = await t.app.inject({ method: 'POST', url: '/api/2fa/google/validate-otp', headers: { cookie: start.jar.header() }, payload: { one_time_password: code, interaction: start.interaction } });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ data: { status: string; redirect_to: string } }>().data;
}

async function withTotp(t: TestApp, email: string) {
  const acct = await createAccount(t, { type: 'user', email, password: PW });
  const { secret } = await createTotpSecret(t.app, acct);
  const totp = new TOTP({ secret, digits: 6, period: 30 });
  await enableTotp(t.app, acct, totp.generate());
  // the next window's code: the one just used for enabling is spent
  return { acct, nextCode: () => totp.generate({ timestamp: Date.now() + 30_000 }) };
}

const mail = (p: string) => `${p}-${randomBytes(3).toString('hex')}@example.com`;

describeEachDb('step-up: acr_values asking for two factors', (get) => {
  it('an account with a second factor is asked for it and the tokens say acr mfa (URN and short form)', async () => {
    const t = get();
    for (const acr of ['urn:iam:acr:mfa', 'mfa']) {
      const email = mail('stepup-mfa');
      const { acct, nextCode } = await withTotp(t, email);
      const sa = await seedServiceApp(t, { members: [acct.id] });
      const start = await startAuthorize(t, { client: sa.name, redirectUri: sa.redirectUri, scope: 'openid', extra: { acr_values: acr } });
      expect(start.interaction, acr).toBeTruthy();
      expect((await login(t, start, email)).status).toBe('two_factor_required');
      const done = await otpStep(t, start, nextCode());
      const { code } = await followToCode(t, start, done.redirect_to);
      expect(code, acr).toBeTruthy();
      const claims = decodeJwt((await exchangeCode(t, start, String(code))).idToken);
      expect(claims).toMatchObject({ acr: 'urn:iam:acr:mfa' });
      expect(claims.amr).toContain('otp');
    }
  });

  it('an account without a second factor cannot reach it: a localized page says why, the app gets unmet_authentication_requirements', async () => {
    const t = get();
    const email = mail('stepup-none');
    const acct = await createAccount(t, { type: 'user', email, password: PW });
    const sa = await seedServiceApp(t, { members: [acct.id] });
    const start = await startAuthorize(t, { client: sa.name, redirectUri: sa.redirectUri, scope: 'openid', extra: { acr_values: 'urn:iam:acr:mfa' } });
    const data = await login(t, start, email);
    expect(data.status).toBe('complete');
    expect(data.redirect_to).toBe(`${t.config.appUrl}/api/oidc-pages/denied/${start.interaction}`);

    const page = async (lang: string) => {
      const res = await t.app.inject({ method: 'GET', url: pathOf(String(data.redirect_to)), headers: { cookie: start.jar.header(), 'accept-language': lang } });
      expect(res.statusCode).toBe(403);
      return unescape(res.body);
    };
    const display = (await t.db.kysely.selectFrom('service_apps').select('display_name').where('id', '=', sa.id).executeTakeFirstOrThrow()).display_name;
    const en = await page('en');
    expect(en).toContain(`${display} requires two-factor authentication`);
    expect(en).toContain(`id="denied-profile" href="${t.config.appUrl}/profile"`);
    expect(en).not.toContain('no role');
    expect(await page('de')).toContain(`${display} verlangt die Zwei-Faktor-Authentifizierung`);
    expect(await page('fr')).toContain('exige l’authentification à deux facteurs');
    expect(await page('it')).toContain('richiede l’autenticazione a due fattori');

    const continueUrl = new URL(String(/id="denied-continue" href="([^"]+)"/.exec(en)?.[1]), t.config.appUrl).href;
    const r = await followToCode(t, start, continueUrl);
    expect(r.code).toBeUndefined();
    expect(r.error).toBe('unmet_authentication_requirements');
    // no sign-in was recorded for the app
    const activities = await t.db.kysely.selectFrom('auth_activities').select('id').where('account_id', '=', acct.id).execute();
    expect(activities).toHaveLength(0);
  });

  it('a session reached with the password only signs in again with both factors when an app asks; without the ask it stays silent', async () => {
    const t = get();
    const email = mail('stepup-session');
    const acct = await createAccount(t, { type: 'user', email, password: PW });
    const sa = await seedServiceApp(t, { members: [acct.id] });
    // password-only sign-in (no second factor yet): session acr pwd
    const first = await startAuthorize(t, { client: sa.name, redirectUri: sa.redirectUri, scope: 'openid' });
    const one = await followToCode(t, first, String((await login(t, first, email)).redirect_to));
    expect(decodeJwt((await exchangeCode(t, first, String(one.code))).idToken)).toMatchObject({ acr: 'urn:iam:acr:pwd' });

    // then the person turns on a second factor
    const { secret } = await createTotpSecret(t.app, acct);
    const totp = new TOTP({ secret, digits: 6, period: 30 });
    await enableTotp(t.app, acct, totp.generate());

    // same browser, no ask: the session answers at once (no sign-in page)
    const silent = await startAuthorize(t, { client: sa.name, redirectUri: sa.redirectUri, scope: 'openid', jar: first.jar });
    expect(silent.interaction).toBeUndefined();
    expect(silent.location.startsWith(`${sa.redirectUri}?`), silent.location).toBe(true);
    expect(new URL(silent.location).searchParams.get('code')).toBeTruthy();

    // same browser, the app asks for two factors: the sign-in page, password then the code
    const stepUp = await startAuthorize(t, { client: sa.name, redirectUri: sa.redirectUri, scope: 'openid', jar: first.jar, extra: { acr_values: 'mfa' } });
    expect(stepUp.interaction, stepUp.location).toBeTruthy();
    expect(stepUp.location).toContain('/login?');
    expect((await login(t, stepUp, email)).status).toBe('two_factor_required');
    const done = await otpStep(t, stepUp, totp.generate({ timestamp: Date.now() + 30_000 }));
    const two = await followToCode(t, stepUp, done.redirect_to);
    expect(decodeJwt((await exchangeCode(t, stepUp, String(two.code))).idToken)).toMatchObject({ acr: 'urn:iam:acr:mfa' });

    // the session now holds two factors: the next ask is answered without a sign-in page
    const again = await startAuthorize(t, { client: sa.name, redirectUri: sa.redirectUri, scope: 'openid', jar: stepUp.jar, extra: { acr_values: 'urn:iam:acr:mfa' } });
    expect(again.interaction, again.location).toBeUndefined();
    expect(again.location.startsWith(`${sa.redirectUri}?`), again.location).toBe(true);
  });
});
