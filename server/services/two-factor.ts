import { randomInt, randomUUID } from 'node:crypto';
import { epochMs, type Actor, type ClockedHost, type Deps } from './deps';
import type { Kysely, Transaction } from 'kysely';
import { Secret, TOTP } from 'otpauth';
import type { Account, Database, OtpChallengesTable } from '../db/schema';
import { AppError, otpInvalid, otpRequired } from '../errors';
import { translate, isLanguage } from '../i18n/index';
import { decryptText, encryptText, hmacHex, reportDecryptFailure, safeEqual, sha256Hex } from './server-secrets';
import { checkWithLockout, hitRateLimit, throttleKeys } from './throttle';
import { hashPassword, verifyPassword } from './passwords';
import { smsSenderFor } from './sms';

/**
 * Second factors: TOTP (authenticator app, SHA1 / 6 digits / 30 s, ±1 step, replay refused), SMS codes
 * (6 digits, hashed, 10 min, bound to purpose + interaction, 5 tries, single use, resend limits) and
 * recovery codes (10, hashed, single use).
 *
 * 2FA is ACTIVE only when `two_factor_method` is set AND `two_factor_confirmed_at` is not null. A GOOGLE
 * method with a null confirmed_at is a pending enrollment (secret issued, not yet confirmed).
 */
export type SmsPurpose = OtpChallengesTable['purpose'];

export const TOTP_PERIOD = 30;
export const TOTP_DIGITS = 6;
export const SMS_CODE_TTL_MS = 10 * 60_000;
export const SMS_MAX_ATTEMPTS = 5;
export const SMS_RESEND_MIN_INTERVAL_MS = 30_000;
export const SMS_MAX_PER_HOUR = 5;
export const RECOVERY_CODE_COUNT = 10;

export function isTwoFactorEnabled(account: Pick<Account, 'two_factor_method' | 'two_factor_confirmed_at'>): boolean {
  return Boolean(account.two_factor_method && account.two_factor_confirmed_at);
}

const normalizeCode = (code: string) => code.replace(/[\s-]/g, '');

function totpFor(issuer: string, secretBase32: string, label = 'account'): TOTP {
  return new TOTP({ issuer, label, algorithm: 'SHA1', digits: TOTP_DIGITS, period: TOTP_PERIOD, secret: Secret.fromBase32(secretBase32) });
}

// ---------------------------------------------------------------- TOTP

/**
 * Starts (or restarts) authenticator enrollment: a new secret, stored encrypted and pending until
 * confirmed by `enableTotp`. Refused (409 `two_factor_already_enabled`) while 2FA is active.
 */
export async function createTotpSecret(deps: ClockedHost, account: Account): Promise<{ secret: string; otpauth_url: string }> {
  const secret = new Secret({ size: 20 }).base32;
  const stored = await encryptText(deps, secret);
  const r = await deps.db.kysely
    .updateTable('accounts')
    .set({ two_factor_method: 'GOOGLE', two_factor_secret: stored, two_factor_confirmed_at: null, two_factor_last_step: null, updated_at: deps.clock.nowIso() })
    .where('id', '=', account.id)
    .where('two_factor_confirmed_at', 'is', null)
    .executeTakeFirst();
  if (Number(r.numUpdatedRows) !== 1) throw new AppError(409, 'two_factor_already_enabled');
  return { secret, otpauth_url: totpFor(deps.config.totpIssuer, secret, account.email).toString() };
}

/**
 * Checks a TOTP code against the account's (active or pending) secret. Accepts the current step ±1
 * and refuses any step <= the last accepted one (replay), recording the step with a conditional
 * UPDATE so two parallel uses of one code cannot both pass.
 */
export async function verifyTotp(deps: ClockedHost, account: Pick<Account, 'id'>, code: string, now = epochMs(deps.clock)): Promise<boolean> {
  const token = normalizeCode(code);
  if (!/^\d{6}$/.test(token)) return false;
  const row = await deps.db.kysely
    .selectFrom('accounts')
    .select(['two_factor_method', 'two_factor_secret'])
    .where('id', '=', account.id)
    .executeTakeFirst();
  if (!row || row.two_factor_method !== 'GOOGLE' || !row.two_factor_secret) return false;
  const secret = await decryptText(deps, row.two_factor_secret);
  if (!secret) {
    // a wrong IAM_ENCRYPTION_KEY (or a damaged value): not silent (docs/OPERATIONS.md, "Encryption key")
    await reportDecryptFailure(deps, account.id);
    return false;
  }
  const totp = totpFor(deps.config.totpIssuer, secret);
  const delta = totp.validate({ token, timestamp: now, window: 1 });
  if (delta === null) return false;
  const step = totp.counter({ timestamp: now }) + delta;
  const r = await deps.db.kysely
    .updateTable('accounts')
    .set({ two_factor_last_step: step })
    .where('id', '=', account.id)
    .where((eb) => eb.or([eb('two_factor_last_step', 'is', null), eb('two_factor_last_step', '<', step)]))
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

/** Confirms a pending authenticator enrollment with a valid code; returns fresh recovery codes, or null when the code is wrong. */
export async function enableTotp(deps: ClockedHost, account: Account, code: string): Promise<string[] | null> {
  const current = await deps.db.kysely.selectFrom('accounts').select(['two_factor_method', 'two_factor_confirmed_at']).where('id', '=', account.id).executeTakeFirst();
  if (!current || current.two_factor_confirmed_at) throw new AppError(409, 'two_factor_already_enabled');
  if (current.two_factor_method !== 'GOOGLE') throw new AppError(409, 'two_factor_not_started');
  if (!(await verifyTotp(deps, account, code))) return null;
  const recovery = await newRecoveryCodeSet();
  return deps.db.kysely.transaction().execute(async (trx) => {
    const now = deps.clock.nowIso();
    const r = await trx
      .updateTable('accounts')
      .set({ two_factor_confirmed_at: now, updated_at: now })
      .where('id', '=', account.id)
      .where('two_factor_method', '=', 'GOOGLE')
      .where('two_factor_confirmed_at', 'is', null)
      .executeTakeFirst();
    if (Number(r.numUpdatedRows) !== 1) throw new AppError(409, 'two_factor_already_enabled');
    return writeRecoveryCodes(trx, account.id, recovery, now);
  });
}

// ---------------------------------------------------------------- SMS

/**
 * Sends a 6-digit code by SMS for `purpose` (bound to `interactionUid` when given). Earlier open codes
 * of the same purpose die; at most 1 send per 30 s per purpose (so the sign-in SMS right after
 * enrolling is not refused) and 5 per hour per account across purposes (429 otherwise);
 * 422 `phone_required` without a phone.
 */
export async function sendSmsCode(deps: ClockedHost, account: Account, purpose: SmsPurpose, interactionUid?: string): Promise<void> {
  if (!account.phone || !/^\+[0-9]{4,15}$/.test(account.phone)) throw new AppError(422, 'phone_required', { fields: { phone: ['phone_required'] } });
  await hitRateLimit(deps, `sms30:${purpose}:${account.id}`, 1, SMS_RESEND_MIN_INTERVAL_MS);
  await hitRateLimit(deps, `smsh:${account.id}`, SMS_MAX_PER_HOUR, 3600_000);
  const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
  const id = randomUUID();
  const codeHash = await hmacHex(deps, 'otp', `${id}:${code}`);
  const now = deps.clock.now();
  await deps.db.kysely.transaction().execute(async (trx) => {
    await trx
      .updateTable('otp_challenges')
      .set({ consumed_at: now.toISOString() })
      .where('account_id', '=', account.id)
      .where('purpose', '=', purpose)
      .where('consumed_at', 'is', null)
      .execute();
    await trx
      .insertInto('otp_challenges')
      .values({
        id,
        account_id: account.id,
        purpose,
        interaction_uid: interactionUid ?? null,
        code_hash: codeHash,
        attempts: 0,
        expires_at: new Date(now.getTime() + SMS_CODE_TTL_MS).toISOString(),
        sent_at: now.toISOString(),
        consumed_at: null,
      })
      .execute();
  });
  const lang = isLanguage(account.locale) ? account.locale : 'en';
  try {
    await smsSenderFor(deps).send(account.phone, translate(lang, 'sms.code', { code, minutes: SMS_CODE_TTL_MS / 60_000 }));
  } catch (err) {
    deps.log.error({ err: err instanceof Error ? err.message : String(err) }, 'sms send failed');
    throw new AppError(502, 'sms_send_failed', { cause: err });
  }
}

/**
 * Checks an SMS code: the newest open challenge of that purpose (and interaction), not expired, with
 * tries left. Each try is claimed atomically (at most 5, then the code is dead); a match consumes it.
 */
export async function verifySmsCode(deps: ClockedHost, account: Pick<Account, 'id'>, purpose: SmsPurpose, code: string, interactionUid?: string): Promise<boolean> {
  const given = normalizeCode(code);
  if (!/^\d{6}$/.test(given)) return false;
  const db = deps.db.kysely;
  const nowS = deps.clock.nowIso();
  let q = db
    .selectFrom('otp_challenges')
    .select(['id', 'code_hash'])
    .where('account_id', '=', account.id)
    .where('purpose', '=', purpose)
    .where('consumed_at', 'is', null)
    .where('expires_at', '>', nowS)
    .where('attempts', '<', SMS_MAX_ATTEMPTS);
  q = interactionUid === undefined ? q.where('interaction_uid', 'is', null) : q.where('interaction_uid', '=', interactionUid);
  const ch = await q.orderBy('sent_at', 'desc').limit(1).executeTakeFirst();
  if (!ch) return false;
  const claim = await db
    .updateTable('otp_challenges')
    .set((eb) => ({ attempts: eb('attempts', '+', 1) }))
    .where('id', '=', ch.id)
    .where('consumed_at', 'is', null)
    .where('attempts', '<', SMS_MAX_ATTEMPTS)
    .where('expires_at', '>', nowS)
    .executeTakeFirst();
  if (Number(claim.numUpdatedRows) !== 1) return false;
  const expected = await hmacHex(deps, 'otp', `${ch.id}:${given}`);
  if (!safeEqual(expected, ch.code_hash)) return false;
  const used = await db.updateTable('otp_challenges').set({ consumed_at: deps.clock.nowIso() }).where('id', '=', ch.id).where('consumed_at', 'is', null).executeTakeFirst();
  return Number(used.numUpdatedRows) === 1;
}

/** Confirms SMS enrollment with the `sms_enable` code; returns recovery codes, or null when the code is wrong. */
export async function enableSms(deps: ClockedHost, account: Account, code: string): Promise<string[] | null> {
  if (isTwoFactorEnabled(account)) throw new AppError(409, 'two_factor_already_enabled');
  if (!(await verifySmsCode(deps, account, 'sms_enable', code))) return null;
  const recovery = await newRecoveryCodeSet();
  return deps.db.kysely.transaction().execute(async (trx) => {
    const now = deps.clock.nowIso();
    const r = await trx
      .updateTable('accounts')
      .set({ two_factor_method: 'SMS', two_factor_secret: null, two_factor_confirmed_at: now, two_factor_last_step: null, updated_at: now })
      .where('id', '=', account.id)
      .where('two_factor_confirmed_at', 'is', null)
      .executeTakeFirst();
    if (Number(r.numUpdatedRows) !== 1) throw new AppError(409, 'two_factor_already_enabled');
    return writeRecoveryCodes(trx, account.id, recovery, now);
  });
}

/** Turns 2FA off: method, secret, recovery codes and open SMS codes go. */
export async function disableTwoFactor(deps: ClockedHost, accountId: string): Promise<void> {
  await deps.db.kysely.transaction().execute(async (trx) => {
    await trx
      .updateTable('accounts')
      .set({ two_factor_method: null, two_factor_secret: null, two_factor_confirmed_at: null, two_factor_last_step: null, updated_at: deps.clock.nowIso() })
      .where('id', '=', accountId)
      .execute();
    await trx.deleteFrom('recovery_codes').where('account_id', '=', accountId).execute();
    await trx.deleteFrom('otp_challenges').where('account_id', '=', accountId).execute();
  });
}

// ---------------------------------------------------------------- recovery codes

/**
 * Recovery codes (issue 29: 10 codes of 35 characters wrapped on phones and were hard to type).
 *
 * Now: `XXXXX-XXXXX`, 10 characters from Crockford's base32 alphabet (digits and capitals without I, L, O, U, so
 * nothing reads as another character), drawn with `randomInt` (uniform). Entropy: 10 × log2(32) = 50 bits per code;
 * a guess hits one of the 10 unused codes of a set with probability 10 / 2^50 = 2^-46.7. Before: 128 bits per code
 * (32 hex digits), 124.7 bits per set. Online, 50 bits are ample: the code is checked after the
 * password, under the per-account lockout of IAM_LOCKOUT_MAX_FAILURES = 5 per 15 minutes, and the per-IP one), so a
 * 50 % chance needs ~2^46 guesses, at most ~480 a day per account: about 3 × 10^8 years. Offline, after a database leak, 50
 * bits are not enough for a plain hash (ASVS 6.5.2 allows SHA-256 only from 112 bits), so the new codes are stored
 * as argon2id hashes with their own salt (the password parameters, through the same hash gate), checked against the
 * account's unused codes (at most 10).
 *
 * Input is forgiving: spaces and dashes are ignored, any case, and the look-alikes O → 0, I and L → 1 (Crockford).
 * Codes of the old format (32 hex digits = 128 bits, SHA-256, looked up by hash) keep working until they are used or
 * replaced.
 */
export const RECOVERY_CODE_ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
export const RECOVERY_CODE_LENGTH = 10;
/** Bits of one code (docs/ACCOUNT-SECURITY.md). */
export const RECOVERY_CODE_BITS = RECOVERY_CODE_LENGTH * Math.log2(RECOVERY_CODE_ALPHABET.length);

export function newRecoveryCode(): string {
  const chars = Array.from({ length: RECOVERY_CODE_LENGTH }, () => RECOVERY_CODE_ALPHABET[randomInt(RECOVERY_CODE_ALPHABET.length)]);
  return `${chars.slice(0, 5).join('')}-${chars.slice(5).join('')}`;
}

/** What a person typed → the stored form's input, or null when it cannot be a code of either format. */
export function normalizeRecoveryCode(input: string): { format: 'v2' | 'hex'; code: string } | null {
  const compact = input.replace(/[\s\-\u2010-\u2015\u2212]/g, '');
  if (/^[0-9a-fA-F]{32}$/.test(compact)) return { format: 'hex', code: compact.toLowerCase() };
  const code = compact.toUpperCase().replace(/O/g, '0').replace(/[IL]/g, '1');
  if (code.length === RECOVERY_CODE_LENGTH && [...code].every((c) => RECOVERY_CODE_ALPHABET.includes(c))) return { format: 'v2', code };
  return null;
}

interface RecoveryCodeSet {
  codes: string[];
  hashes: string[];
}

/** 10 distinct new codes and their argon2id hashes (hashed before any transaction opens: hashing takes a while). */
async function newRecoveryCodeSet(): Promise<RecoveryCodeSet> {
  const unique = new Set<string>();
  while (unique.size < RECOVERY_CODE_COUNT) unique.add(newRecoveryCode());
  const codes = [...unique];
  // one at a time: ten at once would fill the hash gate's queue (IAM_HASH_QUEUE) and be refused with a 503
  const hashes: string[] = [];
  for (const code of codes) hashes.push(await hashPassword(normalizeRecoveryCode(code)!.code));
  return { codes, hashes };
}

async function writeRecoveryCodes(db: Kysely<Database> | Transaction<Database>, accountId: string, set: RecoveryCodeSet, now: string): Promise<string[]> {
  await db.deleteFrom('recovery_codes').where('account_id', '=', accountId).execute();
  await db
    .insertInto('recovery_codes')
    .values(set.hashes.map((hash) => ({ id: randomUUID(), account_id: accountId, code_hash: hash, used_at: null, created_at: now })))
    .execute();
  return set.codes;
}

/** 10 new recovery codes (shown once); the old ones stop working. */
export async function generateRecoveryCodes(deps: ClockedHost, accountId: string): Promise<string[]> {
  const set = await newRecoveryCodeSet();
  return deps.db.kysely.transaction().execute((trx) => writeRecoveryCodes(trx, accountId, set, deps.clock.nowIso()));
}

/** Uses one recovery code: true once per code (conditional update, so parallel uses cannot both pass). */
export async function consumeRecoveryCode(deps: ClockedHost, account: Pick<Account, 'id'>, code: string): Promise<boolean> {
  const normalized = normalizeRecoveryCode(code);
  if (!normalized) return false;
  const db = deps.db.kysely;
  let id: string | undefined;
  if (normalized.format === 'hex') {
    // old format: a 128-bit secret looked up by its SHA-256 (timing reveals nothing usable about it)
    id = (
      await db.selectFrom('recovery_codes').select('id').where('account_id', '=', account.id).where('code_hash', '=', sha256Hex(normalized.code)).where('used_at', 'is', null).executeTakeFirst()
    )?.id;
  } else {
    const unused = await db.selectFrom('recovery_codes').select(['id', 'code_hash']).where('account_id', '=', account.id).where('used_at', 'is', null).execute();
    // one at a time through the hash gate, stopping at the match
    for (const row of unused) {
      if (row.code_hash.startsWith('$argon2') && (await verifyPassword(row.code_hash, normalized.code))) {
        id = row.id;
        break;
      }
    }
  }
  if (!id) return false;
  const r = await db.updateTable('recovery_codes').set({ used_at: deps.clock.nowIso() }).where('id', '=', id).where('used_at', 'is', null).executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

/**
 * The SMS sent by `/api/2fa/sms/send` and the enrollment branch of `/api/2fa/sms/resend` (no
 * `interaction`): the code that confirms disabling when SMS 2FA is active, else the enrollment code.
 */
export function enrollmentSmsPurpose(account: Pick<Account, 'two_factor_method' | 'two_factor_confirmed_at'>): SmsPurpose {
  return isTwoFactorEnabled(account) && account.two_factor_method === 'SMS' ? 'sms_disable' : 'sms_enable';
}

export async function sendEnrollmentSms(deps: ClockedHost, account: Account): Promise<void> {
  await sendSmsCode(deps, account, enrollmentSmsPurpose(account));
}

// ---------------------------------------------------------------- enrollment of the signed-in account

/**
 * Two-factor enrollment of the signed-in account (user or admin): authenticator app or SMS, recovery codes, disable.
 * Every code is checked under the per-account otp lockout (wrong answers count, 5 lock for 15 minutes).
 */
export function createTwoFactorService(deps: Deps) {
  const db = deps.db.kysely;

  /** The acting account as stored now (401 when it is gone). */
  async function fresh(actor: Actor): Promise<Account> {
    if (!actor.id) throw new AppError(401, 'unauthorized');
    const account = await db.selectFrom('accounts').selectAll().where('id', '=', actor.id).executeTakeFirst();
    if (!account) throw new AppError(401, 'unauthorized');
    return account;
  }

  /** Runs a second-factor check under the per-account otp lockout. */
  async function guarded(account: Account, check: () => Promise<boolean>): Promise<void> {
    // the slot is reserved before the code is checked: parallel codes evaluate at most the limit
    if (!(await checkWithLockout(deps, [throttleKeys.otp(account.id)], check))) throw otpInvalid();
  }

  return {
    /** A new pending authenticator secret and its otpauth:// URL. */
    async startAuthenticator(actor: Actor): Promise<{ secret: string; otpauth_url: string }> {
      return createTotpSecret(deps, await fresh(actor));
    },

    /** Confirms the authenticator with a current code: the recovery codes (shown once). */
    async enableAuthenticator(actor: Actor, oneTimePassword: string | undefined): Promise<string[]> {
      const code = oneTimePassword?.trim();
      if (!code) throw otpRequired();
      const account = await fresh(actor);
      let codes: string[] | null = null;
      await guarded(account, async () => (codes = await enableTotp(deps, account, code)) !== null);
      return codes ?? [];
    },

    /** The enrollment SMS, or (SMS 2FA active) the code that confirms disabling. */
    async sendEnrollmentSms(actor: Actor): Promise<void> {
      const account = await fresh(actor);
      if (isTwoFactorEnabled(account) && account.two_factor_method !== 'SMS') throw new AppError(409, 'two_factor_already_enabled');
      await sendEnrollmentSms(deps, account);
    },

    /** Confirms SMS enrollment with the code sent: the recovery codes (shown once). */
    async enableSms(actor: Actor, oneTimePassword: string | undefined): Promise<string[]> {
      const code = oneTimePassword?.trim();
      if (!code) throw otpRequired();
      const account = await fresh(actor);
      if (isTwoFactorEnabled(account)) throw new AppError(409, 'two_factor_already_enabled');
      let codes: string[] | null = null;
      await guarded(account, async () => (codes = await enableSms(deps, account, code)) !== null);
      return codes ?? [];
    },

    /** Turns 2FA off with a fresh code or the current password (also cancels a pending enrollment). */
    async disable(actor: Actor, proof: { one_time_password?: string | undefined; password?: string | undefined } | null | undefined): Promise<void> {
      const account = await fresh(actor);
      const code = proof?.one_time_password?.trim();
      const password = proof?.password;
      if (isTwoFactorEnabled(account)) {
        if (password) {
          // a locked second factor cannot be side-stepped with the password; a password guess also counts on the account key
          const hash = account.password_hash;
          if (!(await checkWithLockout(deps, [throttleKeys.otp(account.id), throttleKeys.account(account.id)], async () => Boolean(hash) && (await verifyPassword(hash ?? '', password))))) {
            throw new AppError(422, 'validation_failed', { fields: { password: ['given_password_invalid'] } });
          }
        } else if (code) {
          await guarded(account, () => (account.two_factor_method === 'GOOGLE' ? verifyTotp(deps, account, code) : verifySmsCode(deps, account, 'sms_disable', code)));
        } else {
          throw otpRequired();
        }
      }
      await disableTwoFactor(deps, account.id);
    },
  };
}
export type TwoFactorService = ReturnType<typeof createTwoFactorService>;
