import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { Secret, TOTP } from 'otpauth';
import { createTestApp, DB_KINDS, type TestApp } from '../../helpers/app';
import { createAccount, startAuthorize } from '../../helpers/auth';
import { testClock } from '../../helpers/clock';
import { createJobRunner, type LeasedJob } from '../../../server/services/jobs';
import { createTotpSecret, enableTotp, sendSmsCode, verifySmsCode } from '../../../server/services/two-factor';
import { assertNotLocked, recordFailure, throttleKeys } from '../../../server/services/throttle';
import { setSmsSender } from '../../../server/services/sms';
import { checkSignedLink, issueToken, LINK_PATHS, parseSignedUrl, signedApiLink } from '../../../server/services/signed-links';
import { AppError } from '../../../server/errors';
import { bootstrapFirstAdmin } from '../../../server/services/bootstrap';
import { CHALLENGE_TTL_MS } from '../../../server/services/passkeys';
import { startedImportJobRow } from '../../../server/services/admin/import';
import type { PasskeyCredentialJSON } from '../../../contract/passkeys';

/**
 * Issue 32.5, the clock: sign-in (password expiry), second factors, throttle windows and import leases decide by
 * `deps.clock`, so a test sets the time. The app's clock here stands a day (or a hundred days) behind the machine's:
 * each case passes on that clock and fails when the code reads Date.now() instead.
 */
const DAY = 86_400_000;
const MIN = 60_000;
const PW = 'Correct-Horse-1!';
let n = 0;
const email = (p: string) => `${p}-${++n}-${Date.now()}@clock.test`;
let ipSeq = 0;
const freshIp = () => `198.51.100.${(++ipSeq % 250) + 1}`;

describe('job runner: a lease is taken on its clock', () => {
  it('leaseUntil is the clock + the lease period, and moves with the clock', async () => {
    const clock = testClock(Date.UTC(2031, 5, 1));
    const runner = createJobRunner({ warn: () => undefined }, clock);
    const seen: number[] = [];
    runner.run({
      leaseMs: 30_000,
      renew: async () => true,
      onRenewError: () => undefined,
      work: async (lease: LeasedJob) => {
        seen.push(lease.leaseUntil());
        clock.advance(10_000);
        seen.push(lease.leaseUntil());
      },
    });
    await runner.settled();
    expect(seen).toEqual([Date.UTC(2031, 5, 1) + 30_000, Date.UTC(2031, 5, 1) + 40_000]);
  });
});

for (const kind of DB_KINDS) {
  describe(`decisions on deps.clock [${kind}]`, () => {
    // a day behind the machine: a deadline set on this clock is already past on Date.now()
    const clock = testClock(Date.now() - DAY);
    let t: TestApp;
    beforeAll(async () => {
      t = await createTestApp(kind, { IAM_PASSWORD_MAX_AGE_DAYS: '30' }, { clock });
    });
    afterAll(async () => {
      await t?.close();
    });

    const loginAnswer = async (mail: string, password = PW) => {
      const s = await startAuthorize(t);
      const res = await t.app.inject({ method: 'POST', url: '/api/login', headers: { cookie: s.jar.header() }, payload: { email: mail, password, interaction: s.interaction ?? '' }, remoteAddress: freshIp() });
      expect(res.statusCode, res.body).toBe(200);
      return (res.json() as { data: { status: string; reset_token?: string } }).data;
    };
    const login = async (mail: string) => (await loginAnswer(mail)).status;

    it('password expiry: a password is old by the clock, not by the machine', async () => {
      // changed 100 days before the machine's now: expired on Date.now() (30 days), 20 days old on the clock below
      const changedAt = Date.now() - 100 * DAY;
      const acc = await createAccount(t, { type: 'user', email: email('expiry'), password: PW });
      await t.db.kysely.updateTable('accounts').set({ password_changed_at: new Date(changedAt).toISOString() }).where('id', '=', acc.id).execute();
      clock.set(changedAt + 20 * DAY);
      expect(await login(acc.email)).toBe('complete');
      clock.set(changedAt + 30 * DAY - MIN);
      expect(await login(acc.email)).toBe('complete');
      clock.set(changedAt + 30 * DAY);
      expect(await login(acc.email)).toBe('password_expired');
      clock.set(Date.now() - DAY);
    });

    it("the expired password's reset token lives 30 minutes on the clock", async () => {
      const changedAt = Date.now() - 100 * DAY;
      const acc = await createAccount(t, { type: 'user', email: email('token'), password: PW });
      await t.db.kysely.updateTable('accounts').set({ password_changed_at: new Date(changedAt).toISOString() }).where('id', '=', acc.id).execute();
      const start = changedAt + 40 * DAY;
      const reset = (token: string) => t.app.inject({ method: 'POST', url: '/api/reset-password', payload: { reset_token: token, password: 'Brand-New-Horse-2!', password_confirmation: 'Brand-New-Horse-2!' } });
      clock.set(start);
      const late = await loginAnswer(acc.email);
      expect(late.status).toBe('password_expired');
      clock.set(start + 31 * MIN);
      expect((await reset(late.reset_token ?? '')).json()).toMatchObject({ error: { code: 'invalid_link' } });
      const inTime = await loginAnswer(acc.email);
      clock.set(start + 31 * MIN + 29 * MIN);
      expect((await reset(inTime.reset_token ?? '')).statusCode).toBe(200);
      // the new password counts from the clock's now: not expired at once
      expect((await loginAnswer(acc.email, 'Brand-New-Horse-2!')).status).toBe('complete');
    });

    it('a signed link is valid until its expiry on the clock', async () => {
      const acc = await createAccount(t, { type: 'user', email: email('link'), password: PW });
      const start = Date.now() - DAY;
      clock.set(start);
      const { token, expiresAt } = await issueToken(t.db.kysely, acc.id, 'reset', 60 * MIN, clock);
      const link = parseSignedUrl(await signedApiLink(t.app, LINK_PATHS.reset.user, token, expiresAt), [LINK_PATHS.reset.user]);
      if (!link) throw new Error('no link');
      clock.set(start + 59 * MIN);
      expect((await checkSignedLink(t.app, link.path, link, 'reset', 'user')).account.id).toBe(acc.id);
      clock.set(start + 61 * MIN);
      await expect(checkSignedLink(t.app, link.path, link, 'reset', 'user')).rejects.toMatchObject({ code: 'invalid_link' });
    });

    it("the first start's setup link lives 24 hours on the clock", async () => {
      const start = Date.now() - DAY;
      clock.set(start);
      const log = console.log;
      console.log = () => {};
      const { setupLink } = await bootstrapFirstAdmin(t.app).finally(() => (console.log = log));
      const token = new URL(setupLink ?? 'http://x/').searchParams.get('token') ?? '';
      const check = async () => (await t.app.inject({ method: 'GET', url: `/api/setup/${token}` })).statusCode;
      clock.set(start + 23 * 60 * MIN);
      expect(await check()).toBe(200);
      clock.set(start + 25 * 60 * MIN);
      expect(await check()).toBe(403);
    });

    it('a passkey challenge lives its 5 minutes on the clock', async () => {
      const acc = await createAccount(t, { type: 'user', email: email('passkey'), password: PW });
      const actor = { id: acc.id, email: acc.email, ip: null };
      // an answer to `challenge` that is no real ceremony: taken, it fails the verification (passkey_invalid); a
      // challenge refused before that is passkey_challenge_invalid
      const answer = (challenge: string): PasskeyCredentialJSON => ({
        id: 'AAAA',
        rawId: 'AAAA',
        type: 'public-key',
        clientExtensionResults: {},
        response: { clientDataJSON: Buffer.from(JSON.stringify({ type: 'webauthn.create', challenge, origin: t.config.appUrl })).toString('base64url'), attestationObject: 'AAAA' },
      });
      const codeOf = (p: Promise<unknown>) => p.then(
        () => 'registered',
        (e: unknown) => (e instanceof AppError ? e.code : String(e)),
      );
      const start = Date.now() - DAY;
      clock.set(start);
      const inTime = await t.app.services.passkeys.registrationOptions(acc.id, null);
      clock.set(start + CHALLENGE_TTL_MS - 1000);
      expect(await codeOf(t.app.services.passkeys.register(actor, null, 'Key', answer(inTime.challenge)))).toBe('passkey_invalid');
      const late = await t.app.services.passkeys.registrationOptions(acc.id, null);
      clock.set(start + 2 * CHALLENGE_TTL_MS);
      expect(await codeOf(t.app.services.passkeys.register(actor, null, 'Key', answer(late.challenge)))).toBe('passkey_challenge_invalid');
    });

    it('TOTP: the ±1 step window is around the clock', async () => {
      const acc = await createAccount(t, { type: 'user', email: email('totp'), password: PW });
      const { secret } = await createTotpSecret(t.app, acc);
      const codeAt = (timestamp: number) => TOTP.generate({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30, timestamp });
      const at = Math.floor((Date.now() - DAY) / 30_000) * 30_000 + 15_000; // mid-step
      clock.set(at);
      // the machine's code and one three steps ahead of the clock are outside the window
      expect(await enableTotp(t.app, acc, codeAt(Date.now()))).toBeNull();
      expect(await enableTotp(t.app, acc, codeAt(at + 90_000))).toBeNull();
      // a minute on, the previous step's code is still in the window
      clock.advance(30_000);
      expect(await enableTotp(t.app, acc, codeAt(at))).toHaveLength(10);
    });

    it('SMS code: it lives 10 minutes on the clock', async () => {
      const sent: string[] = [];
      setSmsSender(t.app, { send: async (_to, body) => void sent.push(body) });
      const acc = await createAccount(t, { type: 'user', email: email('sms'), password: PW, phone: '+41790000077' });
      const lastCode = () => /\b(\d{6})\b/.exec(sent.at(-1) ?? '')?.[1] ?? '';
      const start = Date.now() - DAY;
      clock.set(start);
      await sendSmsCode(t.app, acc, 'sms_enable');
      const row = await t.db.kysely.selectFrom('otp_challenges').select(['sent_at', 'expires_at']).where('account_id', '=', acc.id).executeTakeFirstOrThrow();
      expect(row).toEqual({ sent_at: new Date(start).toISOString(), expires_at: new Date(start + 10 * MIN).toISOString() });
      // 9 minutes on the clock: still good (on Date.now() it died a day ago)
      clock.set(start + 9 * MIN);
      expect(await verifySmsCode(t.app, acc, 'sms_enable', lastCode())).toBe(true);
      // a second code, tried after its 10 minutes on the clock (on Date.now() it would not have expired)
      clock.set(start + 20 * MIN);
      await sendSmsCode(t.app, acc, 'sms_enable');
      clock.set(start + 30 * MIN);
      expect(await verifySmsCode(t.app, acc, 'sms_enable', lastCode())).toBe(false);
    });

    it('throttle: the failure window, the lock and its retry-after run on the clock', async () => {
      const key = throttleKeys.account(randomUUID());
      const start = Date.now() - DAY;
      clock.set(start);
      // 4 failures, then the 15-minute window is over: the count starts again
      for (let i = 0; i < 4; i++) await recordFailure(t.app, [key]);
      clock.set(start + 15 * MIN);
      expect(await recordFailure(t.app, [key])).toEqual([{ key, count: 1, lockedUntil: 0 }]);
      // 5 failures within the window lock the key for 15 minutes from the fifth
      for (let i = 0; i < 4; i++) await recordFailure(t.app, [key]);
      const lockedAt = start + 15 * MIN;
      await expect(assertNotLocked(t.app, [key])).rejects.toBeInstanceOf(AppError);
      clock.set(lockedAt + 5 * MIN);
      const err = await assertNotLocked(t.app, [key]).then(
        () => null,
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(AppError);
      expect((err as AppError).code).toBe('account_locked');
      expect((err as AppError).headers).toEqual({ 'retry-after': '600' });
      clock.set(lockedAt + 15 * MIN);
      await expect(assertNotLocked(t.app, [key])).resolves.toBeUndefined();
    });

    it('import lease: a job whose lease ran out on the clock is closed as interrupted when read', async () => {
      const start = Date.now() - DAY;
      clock.set(start);
      const id = randomUUID();
      const at = new Date(start).toISOString();
      const row = { id, actorId: null, dryRun: false, sendInvitations: false, total: 10, at, owner: 'another-instance:1:dead', leaseUntil: start + MIN };
      await t.db.kysely.insertInto('import_jobs').values(startedImportJobRow(row)).execute();
      const read = () => t.app.services.usersImport.job(id, (code) => code);
      // its owner's last heartbeat was a moment ago on the clock: the job is still its owner's
      clock.set(start + MIN - 1);
      expect(await read()).toMatchObject({ status: 'running', error: null });
      // the lease has run out: whoever reads it closes it
      clock.set(start + MIN + 1);
      expect(await read()).toMatchObject({ status: 'failed', error: { code: 'import_interrupted' }, finished_at: new Date(start + MIN + 1).toISOString() });
    });
  });
}
