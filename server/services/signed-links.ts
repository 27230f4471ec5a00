import { randomBytes, randomUUID } from 'node:crypto';
import type { Kysely, Transaction } from 'kysely';
import type { Account, Database, OneTimeTokensTable } from '../db/schema';
import { AppError } from '../errors';
import { hmacHex, safeEqual, sha256Hex } from './server-secrets';
import { epochMs, systemClock, type Clock, type ClockedHost, type ServiceHost } from './deps';

/**
 * Signed, expiring, single-use links (invitation, password reset).
 *
 * The mailed link goes to an SPA page whose `url` query parameter is the full signed API link
 * `${APP_URL}${apiPath}?token=T&expires=E&signature=S` (docs/DESIGN.md §7): E is epoch seconds, S the
 * HMAC-SHA256 (server secret in app_settings) of `${apiPath}?token=T&expires=E`. The token itself is a
 * 256-bit random value stored only as its SHA-256 in `one_time_tokens` (purpose, expiry, used_at).
 */
export type LinkPurpose = OneTimeTokensTable['purpose'];
type Db = Kysely<Database> | Transaction<Database>;

export const LINK_PATHS = {
  invitation: { user: '/api/user/verify-link', admin: '/api/admin/verify-link' },
  reset: { user: '/api/reset-password-link', admin: '/api/admin/reset-password-link' },
} as const;

const signaturePayload = (apiPath: string, token: string, expires: string) => `${apiPath}?token=${token}&expires=${expires}`;

/**
 * New single-use token for an account; earlier unused tokens of the same purpose are revoked (same transaction).
 * `clock`: the services' (deps.clock); the system clock by default.
 */
export async function issueToken(db: Db, accountId: string, purpose: LinkPurpose, ttlMs: number, clock: Clock = systemClock): Promise<{ token: string; expiresAt: Date }> {
  const token = randomBytes(32).toString('base64url');
  // whole seconds, so the `expires` in the link is exactly the stored expiry
  const expiresAt = new Date(Math.floor((epochMs(clock) + ttlMs) / 1000) * 1000);
  const now = clock.nowIso();
  await db.updateTable('one_time_tokens').set({ used_at: now }).where('account_id', '=', accountId).where('purpose', '=', purpose).where('used_at', 'is', null).execute();
  await db
    .insertInto('one_time_tokens')
    .values({ id: randomUUID(), account_id: accountId, purpose, token_hash: sha256Hex(token), expires_at: expiresAt.toISOString(), used_at: null, created_at: now })
    .execute();
  return { token, expiresAt };
}

export async function signedApiLink(deps: ServiceHost, apiPath: string, token: string, expiresAt: Date): Promise<string> {
  const expires = String(Math.floor(expiresAt.getTime() / 1000));
  const signature = await hmacHex(deps, 'links', signaturePayload(apiPath, token, expires));
  const q = new URLSearchParams({ token, expires, signature });
  return `${deps.config.appUrl}${apiPath}?${q.toString()}`;
}

export interface LinkParams {
  token?: string | undefined;
  expires?: string | undefined;
  signature?: string | undefined;
}

/** Extracts the link parameters from a full signed URL if its path is one of `paths`; null otherwise. */
export function parseSignedUrl(url: string, paths: readonly string[]): (LinkParams & { path: string }) | null {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return null;
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') return null;
  if (!paths.includes(u.pathname)) return null;
  const one = (k: string) => {
    const all = u.searchParams.getAll(k);
    return all.length === 1 ? all[0] : undefined;
  };
  return { path: u.pathname, token: one('token'), expires: one('expires'), signature: one('signature') };
}

export interface ValidLink {
  tokenId: string;
  account: Account;
}

const invalid = () => new AppError(403, 'invalid_link');

/**
 * Checks signature (constant time), expiry, and that the token is open, of `purpose`, and belongs to an
 * account of `type`. Throws 403 `invalid_link` otherwise. Does not consume the token.
 */
export async function checkSignedLink(deps: ClockedHost, apiPath: string, p: LinkParams, purpose: LinkPurpose, type: Account['type']): Promise<ValidLink> {
  const { token, expires, signature } = p;
  if (!token || !expires || !signature || !/^\d{1,12}$/.test(expires) || !/^[A-Za-z0-9_-]{16,128}$/.test(token) || !/^[0-9a-f]{64}$/.test(signature)) throw invalid();
  const expected = await hmacHex(deps, 'links', signaturePayload(apiPath, token, expires));
  if (!safeEqual(expected, signature)) throw invalid();
  const nowMs = epochMs(deps.clock);
  if (Number(expires) * 1000 <= nowMs) throw invalid();
  const row = await deps.db.kysely
    .selectFrom('one_time_tokens')
    .innerJoin('accounts', 'accounts.id', 'one_time_tokens.account_id')
    .select(['one_time_tokens.id as token_id', 'one_time_tokens.expires_at', 'one_time_tokens.used_at', 'one_time_tokens.purpose', 'accounts.id as account_id'])
    .where('one_time_tokens.token_hash', '=', sha256Hex(token))
    .executeTakeFirst();
  if (!row || row.purpose !== purpose || row.used_at !== null || row.expires_at <= new Date(nowMs).toISOString()) throw invalid();
  const account = await deps.db.kysely.selectFrom('accounts').selectAll().where('id', '=', row.account_id).executeTakeFirst();
  if (!account || account.type !== type) throw invalid();
  return { tokenId: row.token_id, account };
}

/** Marks a token used, atomically: false when it was used (or expired at `now`, deps.clock's) in the meantime. */
export async function consumeToken(db: Db, tokenId: string, now: string = systemClock.nowIso()): Promise<boolean> {
  const r = await db.updateTable('one_time_tokens').set({ used_at: now }).where('id', '=', tokenId).where('used_at', 'is', null).where('expires_at', '>', now).executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}
