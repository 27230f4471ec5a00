import { createCipheriv, createDecipheriv, createHash, createHmac, hkdfSync, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Db } from '../db/index';
import type { ServiceHost } from './deps';
import { nowIso } from '../db/index';

/**
 * Server-side secrets kept in `app_settings` (generated once, shared by every instance through the
 * database): the HMAC key for signed links and SMS code hashes, and the key that encrypts TOTP secrets.
 * `IAM_ENCRYPTION_KEY` (env), when set, is mixed into the encryption key so a database dump alone
 * does not reveal TOTP secrets.
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

async function encryptionKey(deps: ServiceHost): Promise<Buffer> {
  const base = await serverSecret(deps, 'encryption');
  const pepper = deps.config.encryptionPepper;
  return Buffer.from(hkdfSync('sha256', base, Buffer.from(pepper, 'utf8'), 'iam-totp-secret-v1', 32));
}

/** AES-256-GCM, output `v1.<iv>.<tag>.<ciphertext>` (base64url). */
export async function encryptText(deps: ServiceHost, plain: string): Promise<string> {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', await encryptionKey(deps), iv);
  const ct = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return ['v1', iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), ct.toString('base64url')].join('.');
}

/** Null when the value is not ours or does not authenticate. */
export async function decryptText(deps: ServiceHost, value: string): Promise<string | null> {
  const [v, iv, tag, ct] = value.split('.');
  if (v !== 'v1' || !iv || !tag || ct === undefined) return null;
  try {
    const decipher = createDecipheriv('aes-256-gcm', await encryptionKey(deps), Buffer.from(iv, 'base64url'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(ct, 'base64url')), decipher.final()]).toString('utf8');
  } catch {
    return null;
  }
}
