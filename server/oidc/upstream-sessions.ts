import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';
import { createAdapterClass } from './adapter';

/**
 * Which upstream identity provider a provider session (its `sid`) was signed in through, with the upstream's ID token
 * (the `id_token_hint` of the upstream sign-out). Written when an SSO sign-in completes at the provider
 * (loadExistingGrant, server/oidc/provider.ts); read and removed when the person signs out — in the portal (POST
 * /api/logout) or through an app's RP-initiated logout at this provider (server/oidc/upstream-logout.ts) — so the
 * sign-out can continue at the upstream's end_session_endpoint (server/services/sso-upstream.ts). Kept in the
 * provider's store (oidc_models, model `UpstreamSignIn`), expiring with the session.
 */
export interface UpstreamSignIn {
  provider: string;
  idToken: string;
}

const MODEL = 'UpstreamSignIn';

export function upstreamSignInOf(raw: unknown): UpstreamSignIn | undefined {
  if (!raw || typeof raw !== 'object') return undefined;
  const r = raw as Record<string, unknown>;
  return typeof r.provider === 'string' && typeof r.idToken === 'string' ? { provider: r.provider, idToken: r.idToken } : undefined;
}

export async function rememberUpstreamSignIn(db: Kysely<Database>, sessionUid: string, upstream: UpstreamSignIn, ttlSeconds: number): Promise<void> {
  const Store = createAdapterClass(db);
  await new Store(MODEL).upsert(sessionUid, { ...upstream }, ttlSeconds);
}

/**
 * Deletes one row of the provider's store and answers its payload when it was there and live: of several requests
 * taking the same row at the same moment, one gets it (DELETE … RETURNING), so what it stands for happens once.
 */
export async function takeStored(db: Kysely<Database>, model: string, id: string): Promise<unknown> {
  const row = await db.deleteFrom('oidc_models').where('model', '=', model).where('id', '=', id).returning(['payload', 'expires_at']).executeTakeFirst();
  if (!row || (row.expires_at !== null && Number(row.expires_at) <= Math.floor(Date.now() / 1000))) return undefined;
  try {
    return JSON.parse(row.payload) as unknown;
  } catch {
    return undefined;
  }
}

/**
 * The upstream sign-in of one of the ended provider sessions (`sessionUids`: from SignInService.endGrant, or the
 * session an RP-initiated logout ended), removed from the store: a sign-out uses it once, also when two sign-outs of
 * the same session arrive together.
 */
export async function takeUpstreamSignIn(db: Kysely<Database>, sessionUids: readonly string[]): Promise<UpstreamSignIn | undefined> {
  for (const uid of sessionUids) {
    const found = upstreamSignInOf(await takeStored(db, MODEL, uid));
    if (found) return found;
  }
  return undefined;
}

/** The upstream sign-in of a live provider session (`sessionUid`), left in the store. */
export async function findUpstreamSignIn(db: Kysely<Database>, sessionUid: string): Promise<UpstreamSignIn | undefined> {
  const Store = createAdapterClass(db);
  return upstreamSignInOf(await new Store(MODEL).find(sessionUid));
}
