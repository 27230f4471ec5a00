import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';
import { createAdapterClass } from './adapter';

/**
 * Which upstream identity provider a provider session (its `sid`) was signed in through, with the upstream's ID token
 * (the `id_token_hint` of the upstream sign-out). Written when an SSO sign-in completes at the provider
 * (loadExistingGrant, server/oidc/provider.ts); read and removed when the person signs out (POST /api/logout), so the
 * sign-out can continue at the upstream's end_session_endpoint (server/services/sso.ts endSessionUrl). Kept in the
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

/** The upstream sign-in of one of the ended provider sessions (`sessionUids`, from SignInService.endGrant), removed from the store (a sign-out uses it once). */
export async function takeUpstreamSignIn(db: Kysely<Database>, sessionUids: readonly string[]): Promise<UpstreamSignIn | undefined> {
  const Store = createAdapterClass(db);
  const store = new Store(MODEL);
  for (const uid of sessionUids) {
    const found = upstreamSignInOf(await store.find(uid));
    if (found) {
      await store.destroy(uid);
      return found;
    }
  }
  return undefined;
}
