import { describe, expect, it } from 'vitest';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { TOTP, Secret } from 'otpauth';
import { describeEachDb, type TestApp } from '../../helpers/app';
import { createAccount } from '../../helpers/auth';
import { randomUUID } from 'node:crypto';
import { sha256Hex } from '../../../server/services/server-secrets';
import {
  consumeRecoveryCode,
  RECOVERY_CODE_BITS,
  createTotpSecret,
  enableTotp,
  generateRecoveryCodes,
  sendSmsCode,
  verifySmsCode,
  verifyTotp,
} from '../../../server/services/two-factor';
import { setSmsSender, twilioSmsSender } from '../../../server/services/sms';
import { AppError } from '../../../server/errors';

let n = 0;
const email = (p: string) => `${p}-${++n}-${Date.now()}@example.test`;

const codeAt = (secret: string, timestamp: number) =>
  TOTP.generate({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30, timestamp });

/** Captures SMS bodies instead of writing the outbox. */
function captureSms(t: TestApp) {
  const sent: { to: string; body: string }[] = [];
  setSmsSender(t.app, { send: async (to, body) => void sent.push({ to, body }) });
  return { sent, lastCode: () => /\b(\d{6})\b/.exec(sent.at(-1)?.body ?? '')?.[1] ?? '' };
}

const wrong = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0');

describeEachDb('two-factor services', (get) => {
  describe('TOTP', () => {
    it('accepts the current step and ±1, refuses ±2', async () => {
      const T = Date.UTC(2030, 0, 1, 12, 0, 15); // mid-step, so ±30 s stays in the neighbouring steps
      for (const [offset, ok] of [[0, true], [30_000, true], [-30_000, true], [60_000, false], [-60_000, false]] as const) {
        const acc = await createAccount(get(), { type: 'user', email: email('totp') });
        const { secret } = await createTotpSecret(get().app, acc);
        expect(await verifyTotp(get().app, acc, codeAt(secret, T + offset), T), `offset ${offset}`).toBe(ok);
      }
    });

    it('refuses a replayed code and any earlier step', async () => {
      const T = Date.UTC(2030, 0, 1, 12, 0, 15);
      const acc = await createAccount(get(), { type: 'user', email: email('replay') });
      const { secret } = await createTotpSecret(get().app, acc);
      const code = codeAt(secret, T);
      expect(await verifyTotp(get().app, acc, code, T)).toBe(true);
      expect(await verifyTotp(get().app, acc, code, T)).toBe(false);
      expect(await verifyTotp(get().app, acc, codeAt(secret, T - 30_000), T)).toBe(false);
      expect(await verifyTotp(get().app, acc, codeAt(secret, T + 30_000), T)).toBe(true);
    });

    it('one code used 10 times in parallel passes exactly once', async () => {
      const T = Date.UTC(2030, 0, 2, 12, 0, 15);
      const acc = await createAccount(get(), { type: 'user', email: email('race') });
      const { secret } = await createTotpSecret(get().app, acc);
      const code = codeAt(secret, T);
      const results = await Promise.all(Array.from({ length: 10 }, () => verifyTotp(get().app, acc, code, T)));
      expect(results.filter(Boolean).length).toBe(1);
    });

    it('stores the secret encrypted and refuses a new secret while 2FA is active', async () => {
      const acc = await createAccount(get(), { type: 'user', email: email('enc') });
      const { secret, otpauth_url } = await createTotpSecret(get().app, acc);
      expect(otpauth_url).toMatch(/^otpauth:\/\/totp\/.*secret=/);
      const row = await get().db.kysely.selectFrom('accounts').select('two_factor_secret').where('id', '=', acc.id).executeTakeFirstOrThrow();
      expect(row.two_factor_secret).not.toContain(secret);
      expect(row.two_factor_secret?.startsWith('v1.')).toBe(true);
      const codes = await enableTotp(get().app, acc, codeAt(secret, Date.now()));
      expect(codes).toHaveLength(10);
      await expect(createTotpSecret(get().app, acc)).rejects.toMatchObject({ status: 409, code: 'two_factor_already_enabled' });
    });
  });

  describe('SMS codes', () => {
    it('5 wrong tries kill the code, even for the right code afterwards', async () => {
      const sms = captureSms(get());
      const acc = await createAccount(get(), { type: 'user', email: email('sms5'), phone: '+41790000001' });
      await sendSmsCode(get().app, acc, 'sms_enable');
      const code = sms.lastCode();
      expect(code).toMatch(/^\d{6}$/);
      for (let i = 0; i < 5; i++) expect(await verifySmsCode(get().app, acc, 'sms_enable', wrong(code))).toBe(false);
      expect(await verifySmsCode(get().app, acc, 'sms_enable', code)).toBe(false);
    });

    it('4 wrong tries then the right one passes, once', async () => {
      const sms = captureSms(get());
      const acc = await createAccount(get(), { type: 'user', email: email('sms4'), phone: '+41790000002' });
      await sendSmsCode(get().app, acc, 'sms_enable');
      const code = sms.lastCode();
      for (let i = 0; i < 4; i++) expect(await verifySmsCode(get().app, acc, 'sms_enable', wrong(code))).toBe(false);
      expect(await verifySmsCode(get().app, acc, 'sms_enable', code)).toBe(true);
      expect(await verifySmsCode(get().app, acc, 'sms_enable', code)).toBe(false);
    });

    it('20 parallel wrong guesses claim at most 5 tries', async () => {
      const sms = captureSms(get());
      const acc = await createAccount(get(), { type: 'user', email: email('smspar'), phone: '+41790000009' });
      await sendSmsCode(get().app, acc, 'sms_enable');
      const code = sms.lastCode();
      await Promise.all(Array.from({ length: 20 }, () => verifySmsCode(get().app, acc, 'sms_enable', wrong(code))));
      const row = await get().db.kysely.selectFrom('otp_challenges').select('attempts').where('account_id', '=', acc.id).executeTakeFirstOrThrow();
      expect(row.attempts).toBe(5);
    });

    it('expires after 10 minutes, is bound to purpose and interaction, and is stored hashed', async () => {
      const sms = captureSms(get());
      const acc = await createAccount(get(), { type: 'user', email: email('smsexp'), phone: '+41790000003' });
      await sendSmsCode(get().app, acc, 'sms_login', 'interaction-1');
      const code = sms.lastCode();
      const row = await get().db.kysely.selectFrom('otp_challenges').selectAll().where('account_id', '=', acc.id).executeTakeFirstOrThrow();
      expect(row.code_hash).not.toContain(code);
      const ttl = Date.parse(row.expires_at) - Date.parse(row.sent_at);
      expect(ttl).toBe(10 * 60_000);
      expect(await verifySmsCode(get().app, acc, 'sms_enable', code, 'interaction-1')).toBe(false);
      expect(await verifySmsCode(get().app, acc, 'sms_login', code, 'interaction-2')).toBe(false);
      expect(await verifySmsCode(get().app, acc, 'sms_login', code)).toBe(false);
      await get().db.kysely.updateTable('otp_challenges').set({ expires_at: new Date(Date.now() - 1000).toISOString() }).where('id', '=', row.id).execute();
      expect(await verifySmsCode(get().app, acc, 'sms_login', code, 'interaction-1')).toBe(false);
    });

    it('resend: at most one per 30 s (429 with retry-after); a new code kills the previous one', async () => {
      const sms = captureSms(get());
      const acc = await createAccount(get(), { type: 'user', email: email('smsrl'), phone: '+41790000004' });
      await sendSmsCode(get().app, acc, 'sms_enable');
      const first = sms.lastCode();
      const err = await sendSmsCode(get().app, acc, 'sms_enable').catch((e: unknown) => e);
      expect(err).toBeInstanceOf(AppError);
      expect((err as AppError).status).toBe(429);
      expect(Number((err as AppError).headers?.['retry-after'])).toBeGreaterThan(0);
      expect(sms.sent).toHaveLength(1);
      // the 30 s window passes
      await get().db.kysely.deleteFrom('rate_counters').where('key', '=', `rate:sms30:sms_enable:${acc.id}`).execute();
      await sendSmsCode(get().app, acc, 'sms_enable');
      const second = sms.lastCode();
      if (first !== second) expect(await verifySmsCode(get().app, acc, 'sms_enable', first)).toBe(false);
      expect(await verifySmsCode(get().app, acc, 'sms_enable', second)).toBe(true);
    });

    it('the 30 s resend window is per purpose: the sign-in SMS right after enrolling goes out', async () => {
      const sms = captureSms(get());
      const acc = await createAccount(get(), { type: 'user', email: email('smsp'), phone: '+41790000006' });
      await sendSmsCode(get().app, acc, 'sms_enable');
      await sendSmsCode(get().app, acc, 'sms_login', 'uid-1');
      expect(sms.sent).toHaveLength(2);
      await expect(sendSmsCode(get().app, acc, 'sms_login', 'uid-1')).rejects.toMatchObject({ status: 429 });
    });

    it('at most 5 per hour', async () => {
      captureSms(get());
      const acc = await createAccount(get(), { type: 'user', email: email('smsh'), phone: '+41790000005' });
      for (let i = 0; i < 5; i++) {
        await sendSmsCode(get().app, acc, 'sms_enable');
        await get().db.kysely.deleteFrom('rate_counters').where('key', '=', `rate:sms30:sms_enable:${acc.id}`).execute();
      }
      await expect(sendSmsCode(get().app, acc, 'sms_enable')).rejects.toMatchObject({ status: 429 });
    });

    it('needs a phone', async () => {
      const acc = await createAccount(get(), { type: 'user', email: email('nophone') });
      await expect(sendSmsCode(get().app, acc, 'sms_enable')).rejects.toMatchObject({ status: 422, code: 'phone_required' });
    });
  });

  describe('recovery codes', () => {
    it('10 codes, each works once, stored hashed; new codes replace the old', async () => {
      const acc = await createAccount(get(), { type: 'user', email: email('rc') });
      const codes = await generateRecoveryCodes(get().app, acc.id);
      expect(codes).toHaveLength(10);
      expect(new Set(codes).size).toBe(10);
      const rows = await get().db.kysely.selectFrom('recovery_codes').select('code_hash').where('account_id', '=', acc.id).execute();
      for (const c of codes) expect(rows.some((r) => r.code_hash.includes(c.replace(/-/g, '')))).toBe(false);
      const [a, b] = codes as [string, string];
      expect(await consumeRecoveryCode(get().app, acc, a)).toBe(true);
      expect(await consumeRecoveryCode(get().app, acc, a)).toBe(false);
      expect(await consumeRecoveryCode(get().app, acc, b.toUpperCase().replace(/-/g, ' '))).toBe(true);
      const other = await createAccount(get(), { type: 'user', email: email('rc2') });
      expect(await consumeRecoveryCode(get().app, other, codes[2] ?? '')).toBe(false);
      const results = await Promise.all(Array.from({ length: 8 }, () => consumeRecoveryCode(get().app, acc, codes[3] ?? '')));
      expect(results.filter(Boolean).length).toBe(1);
      const fresh = await generateRecoveryCodes(get().app, acc.id);
      expect(await consumeRecoveryCode(get().app, acc, codes[4] ?? '')).toBe(false);
      expect(await consumeRecoveryCode(get().app, acc, fresh[0] ?? '')).toBe(true);
    });

    it('short codes (issue 29): XXXXX-XXXXX from an unambiguous alphabet, 50 bits each; typed in any case, with spaces, dashes or look-alikes', async () => {
      const acc = await createAccount(get(), { type: 'user', email: email('rc-short') });
      const codes = await generateRecoveryCodes(get().app, acc.id);
      for (const code of codes) expect(code).toMatch(/^[0-9A-HJKMNP-TV-Z]{5}-[0-9A-HJKMNP-TV-Z]{5}$/);
      expect(RECOVERY_CODE_BITS).toBe(50);
      const [a, b, c] = codes as [string, string, string];
      expect(await consumeRecoveryCode(get().app, acc, ` ${a.toLowerCase().replace('-', ' ')} `)).toBe(true);
      expect(await consumeRecoveryCode(get().app, acc, b.replace('-', ''))).toBe(true);
      // look-alikes of 0 and 1 typed as letters still match (Crockford): the alphabet has no O, I or L of its own
      const withLookAlikes = c.replace(/0/g, 'O').replace(/1/g, 'l');
      expect(await consumeRecoveryCode(get().app, acc, withLookAlikes)).toBe(true);
      expect(await consumeRecoveryCode(get().app, acc, 'ZZZZZ-ZZZZZ')).toBe(false);
      expect(await consumeRecoveryCode(get().app, acc, 'not a code')).toBe(false);
    });

    it('stored as salted argon2id hashes (50 bits need a password hash, ASVS 6.5.2), never as the bare SHA-256', async () => {
      const acc = await createAccount(get(), { type: 'user', email: email('rc-salt') });
      const codes = await generateRecoveryCodes(get().app, acc.id);
      const rows = await get().db.kysely.selectFrom('recovery_codes').select('code_hash').where('account_id', '=', acc.id).execute();
      expect(rows).toHaveLength(10);
      for (const row of rows) expect(row.code_hash).toMatch(/^\$argon2id\$v=19\$m=19456,p=1,t=2\$[A-Za-z0-9+/]{22}\$/);
      expect(new Set(rows.map((r) => r.code_hash.split('$')[4])).size).toBe(10);
      for (const code of codes) expect(rows.some((r) => r.code_hash === sha256Hex(code.replace('-', '')))).toBe(false);
    });

    it('codes of the old format (32 hex digits, unsalted SHA-256) keep working once each', async () => {
      const acc = await createAccount(get(), { type: 'user', email: email('rc-old') });
      await generateRecoveryCodes(get().app, acc.id);
      const old = '0f3a9c1e-77b2d4a0-5e6f8a9b-c0d1e2f3';
      await get()
        .db.kysely.insertInto('recovery_codes')
        .values({ id: randomUUID(), account_id: acc.id, code_hash: sha256Hex(old.replace(/-/g, '')), used_at: null, created_at: new Date().toISOString() })
        .execute();
      expect(await consumeRecoveryCode(get().app, acc, old.toUpperCase().replace(/-/g, ' '))).toBe(true);
      expect(await consumeRecoveryCode(get().app, acc, old)).toBe(false);
    });
  });
});

describe('twilio adapter', () => {
  it('POSTs the form with basic auth to the Messages endpoint', async () => {
    const seen: { url?: string; auth?: string; type?: string; body: string }[] = [];
    const server = createServer((req: IncomingMessage, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        seen.push({ url: req.url, auth: req.headers.authorization, type: req.headers['content-type'], body });
        res.writeHead(seen.length === 1 ? 201 : 400, { 'content-type': 'application/json' }).end('{}');
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const { port } = server.address() as AddressInfo;
    const silent = { info: () => undefined } as unknown as Parameters<typeof twilioSmsSender>[1];
    const sender = twilioSmsSender({ accountSid: 'AC123', authToken: 'tok', from: '+15550001', baseUrl: `http://127.0.0.1:${port}` }, silent);
    await sender.send('+41790000000', 'Your code is 123456');
    await expect(sender.send('+41790000000', 'x')).rejects.toThrow(/400/);
    server.close();
    expect(seen[0]?.url).toBe('/2010-04-01/Accounts/AC123/Messages.json');
    expect(seen[0]?.auth).toBe('Basic ' + Buffer.from('AC123:tok').toString('base64'));
    expect(seen[0]?.type).toContain('application/x-www-form-urlencoded');
    expect(Object.fromEntries(new URLSearchParams(seen[0]?.body))).toEqual({ To: '+41790000000', From: '+15550001', Body: 'Your code is 123456' });
  });
});
