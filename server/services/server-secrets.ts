import { createCipheriv, createDecipheriv, createHash, createHmac, hkdfSync, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Db } from '../db/index';
import type { ServiceHost } from './deps';
import { nowIso } from '../db/index';

/**
 * Server-side secrets kept in `app_settings` (generated once, shared by every instance through the
 * database): the HMAC key for signed links and SMS code hashes, and the key that encrypts TOTP secrets.
 * `IAM_ENCRYPTION_KEY` (env), when set, is mixed into the encryption key so a database dump alone
 * does not reveal TOTP secrets. A key check value (`encryption_key_check`, a known marker encrypted with the key)
 * tells at start whether this instance's key is the one the stored secrets were encrypted with
 * (`checkEncryptionKey`); `npm run keys:rotate-encryption` re-encrypts them under a new key (server/cli).
 */
/** Per database (the app and its services share one `Db`, so they share the cache). */
const cache = new WeakMap<Db, Map<string, Promise<Buffer>>>();

async function loadSecret(deps: ServiceHost, name: string): Promise<Buffer> {
  const db = deps.db.kysely;
  const key = `secret:${name}`;
  // concurrent first calls (or instances) race on the insert; the primary key keeps exactly one
  await db
    .insertInto('app_settings')
    .values({ key, value: randomBytes(32).toString('base64'), updated_at: nowIso() })
    .onConflict((oc) => oc.column('key').doNothing())
    .execute();
  const row = await db.selectFrom('app_settings').select('value').where('key', '=', key).executeTakeFirstOrThrow();
  return Buffer.from(row.value, 'base64');
}

export function serverSecret(deps: ServiceHost, name: string): Promise<Buffer> {
  let m = cache.get(deps.db);
  if (!m) cache.set(deps.db, (m = new Map()));
  let p = m.get(name);
  if (!p) {
    p = loadSecret(deps, name);
    p.catch(() => m?.delete(name));
    m.set(name, p);
  }
  return p;
}

export const sha256Hex = (s: string): string => createHash('sha256').update(s).digest('hex');

export async function hmacHex(deps: ServiceHost, name: string, data: string): Promise<string> {
  return createHmac('sha256', await serverSecret(deps, name)).update(data).digest('hex');
}

/** Constant-time string comparison (equal-length buffers; different lengths are unequal). */
export function safeEqual(a: string, b: string): boolean {
  const ba = Buffer.from(a, 'utf8');
  const bb = Buffer.from(b, 'utf8');
  if (ba.length !== bb.length) {
    // still spend a comparison so the length difference is the only signal
    timingSafeEqual(ba, ba);
    return false;
  }
  return timingSafeEqual(ba, bb);
}

/** The TOTP encryption key: HKDF of the database's `secret:encryption` and IAM_ENCRYPTION_KEY (may be empty). */
export function deriveEncryptionKey(base: Buffer, pepper: string): Buffer {
  return Buffer.from(hkdfSync('sha256', base, Buffer.from(pepper, 'utf8'), 'iam-totp-secret-v1', 32));
}

async function encryptionKey(deps: ServiceHost): Promise<Buffer> {
  return deriveEncryptionKey(await serverSecret(deps, 'encryption'), deps.config.encryptionPepper);
}

/** AES-256-GCM with `key`, output `v1.<iv>.<tag>.<ciphertext>` (base64url). */
export function encryptWith(key: Buffer, plain: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const ct = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return ['v1', iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), ct.toString('base64url')].join('.');
}

/** Null when the value is not ours or does not authenticate with `key`. */
export function decryptWith(key: Buffer, value: string): string | null {
  const [v, iv, tag, ct] = value.split('.');
  if (v !== 'v1' || !iv || !tag || ct === undefined) return null;
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(ct, 'base64url')), decipher.final()]).toString('utf8');
  } catch {
    return null;
  }
}

/** AES-256-GCM, output `v1.<iv>.<tag>.<ciphertext>` (base64url). */
export async function encryptText(deps: ServiceHost, plain: string): Promise<string> {
  return encryptWith(await encryptionKey(deps), plain);
}

/** Null when the value is not ours or does not authenticate. */
export async function decryptText(deps: ServiceHost, value: string): Promise<string | null> {
  const [v] = value.split('.', 1);
  if (v !== 'v1') return null;
  return decryptWith(await encryptionKey(deps), value);
}

// ---------------------------------------------------------------- key check (issue 30.5)

/** `app_settings` key of the key check value: ENCRYPTION_CHECK_MARKER encrypted with the TOTP encryption key. */
export const ENCRYPTION_CHECK_SETTING = 'encryption_key_check';
export const ENCRYPTION_CHECK_MARKER = 'iam-encryption-key-check-v1';

export type EncryptionKeyStatus = 'unchecked' | 'ok' | 'mismatch';
interface KeyState {
  status: EncryptionKeyStatus;
  checkedAt: number;
  /** decrypt failures of stored TOTP secrets: the first of a minute is logged, the rest counted into the next line */
  failures: { windowStart: number; suppressed: number };
}
const keyStates = new WeakMap<Db, KeyState>();
const stateOf = (db: Db): KeyState => {
  let s = keyStates.get(db);
  if (!s) keyStates.set(db, (s = { status: 'unchecked', checkedAt: 0, failures: { windowStart: 0, suppressed: 0 } }));
  return s;
};

/** What the last key check found on this database handle (readiness reads it). */
export function encryptionKeyStatus(db: Db): { status: EncryptionKeyStatus; checkedAt: number } {
  const s = stateOf(db);
  return { status: s.status, checkedAt: s.checkedAt };
}

export const ENCRYPTION_KEY_MISMATCH_LOG =
  'IAM_ENCRYPTION_KEY does not decrypt the TOTP secrets stored in this database (key check failed): every authenticator-app sign-in fails as otp_invalid and readiness answers 503 encryption_key_mismatch. Start this instance with the IAM_ENCRYPTION_KEY the secrets were encrypted with (docs/OPERATIONS.md, "Encryption key")';

/**
 * Checks that this instance's TOTP encryption key is the one the stored secrets were encrypted with: decrypts the key
 * check value; where there is none yet (a new database, or one of a release without it), decrypts one stored TOTP
 * secret instead and, when that works or there is none, writes the check value with this key. A mismatch logs one
 * error line (at the change from another state). `reload` reads the database's part of the key again first.
 */
export async function checkEncryptionKey(deps: ServiceHost, opts: { reload?: boolean } = {}): Promise<EncryptionKeyStatus> {
  if (opts.reload) cache.get(deps.db)?.delete('encryption');
  const db = deps.db.kysely;
  const readCheck = async () => (await db.selectFrom('app_settings').select('value').where('key', '=', ENCRYPTION_CHECK_SETTING).executeTakeFirst())?.value;
  let stored = await readCheck();
  let ok: boolean;
  if (stored !== undefined) ok = (await decryptText(deps, stored)) === ENCRYPTION_CHECK_MARKER;
  else {
    const sample = await db.selectFrom('accounts').select('two_factor_secret').where('two_factor_secret', 'is not', null).limit(1).executeTakeFirst();
    ok = !sample?.two_factor_secret || (await decryptText(deps, sample.two_factor_secret)) !== null;
    if (ok) {
      await db
        .insertInto('app_settings')
        .values({ key: ENCRYPTION_CHECK_SETTING, value: await encryptText(deps, ENCRYPTION_CHECK_MARKER), updated_at: nowIso() })
        .onConflict((oc) => oc.column('key').doNothing())
        .execute();
      // another instance may have written it first, with its own key
      stored = await readCheck();
      ok = stored !== undefined && (await decryptText(deps, stored)) === ENCRYPTION_CHECK_MARKER;
    }
  }
  const state = stateOf(deps.db);
  const before = state.status;
  state.status = ok ? 'ok' : 'mismatch';
  state.checkedAt = Date.now();
  if (!ok && before !== 'mismatch') deps.log.error({ variable: 'IAM_ENCRYPTION_KEY', check: ENCRYPTION_CHECK_SETTING }, ENCRYPTION_KEY_MISMATCH_LOG);
  if (ok && before === 'mismatch') deps.log.info('IAM_ENCRYPTION_KEY decrypts the stored TOTP secrets again (key check passed)');
  return state.status;
}

const FAILURE_LOG_WINDOW_MS = 60_000;

/**
 * A stored TOTP secret did not decrypt (verifyTotp): one error line a minute at most (with the number of failures
 * since the last line), naming IAM_ENCRYPTION_KEY, and the key check runs again so readiness follows.
 */
export async function reportDecryptFailure(deps: ServiceHost, accountId: string): Promise<void> {
  const state = stateOf(deps.db);
  const now = Date.now();
  const f = state.failures;
  if (now - f.windowStart < FAILURE_LOG_WINDOW_MS) {
    f.suppressed++;
    return;
  }
  const earlier = f.suppressed;
  f.windowStart = now;
  f.suppressed = 0;
  const status = await checkEncryptionKey(deps, { reload: true }).catch(() => state.status);
  const why =
    status === 'ok'
      ? 'the key check passes, so this stored secret is damaged (the account must enroll its authenticator again)'
      : 'IAM_ENCRYPTION_KEY is not the key the TOTP secrets were encrypted with; the sign-in failed as otp_invalid';
  deps.log.error(
    { variable: 'IAM_ENCRYPTION_KEY', accountId, keyCheck: status, failuresSinceLastLine: earlier },
    `a stored TOTP secret could not be decrypted: ${why}${earlier > 0 ? ` (${earlier} more failures in the last minute not logged)` : ''}`,
  );
}
