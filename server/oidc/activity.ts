import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';
import { nowIso } from '../db/index';
import { upstreamSignInOf, type UpstreamSignIn } from './upstream-sessions';

/**
 * A sign-in waiting for its browser (kept in the interaction result by finishSignIn, server/services/sign-in.ts):
 * it is recorded in auth_activities only when the provider completes the authorization with it
 * (loadExistingGrant, server/oidc/provider.ts), so a result the browser never picks up (an SSO callback opened in
 * another browser, a resume URL never followed) is no sign-in in the activity log or the dashboard chart.
 */
export interface PendingActivity {
  id: string;
  accountId: string;
  ip: string;
  origin: string | null;
  userAgent: string | null;
  /** The client's country from IAM_PLACE_HEADER (server/lib/client-info.ts placeOf), else null. */
  place?: string | null;
  /** An SSO sign-in: the upstream provider and its ID token, remembered with the session for the upstream sign-out. */
  upstream?: UpstreamSignIn | undefined;
}

export function pendingActivityOf(result: unknown): PendingActivity | null {
  const raw = (result as { activity?: unknown } | undefined)?.activity;
  if (!raw || typeof raw !== 'object') return null;
  const a = raw as Record<string, unknown>;
  if (typeof a.id !== 'string' || typeof a.accountId !== 'string' || typeof a.ip !== 'string') return null;
  return {
    id: a.id,
    accountId: a.accountId,
    ip: a.ip,
    origin: typeof a.origin === 'string' ? a.origin : null,
    userAgent: typeof a.userAgent === 'string' ? a.userAgent : null,
    place: typeof a.place === 'string' ? a.place : null,
    upstream: upstreamSignInOf(a.upstream),
  };
}

/** Records the completed sign-in with its grant (once: the id is the pending activity's). */
export async function recordCompletedSignIn(db: Kysely<Database>, activity: PendingActivity, clientId: string, grantId: string): Promise<void> {
  await db
    .insertInto('auth_activities')
    .values({
      id: activity.id,
      account_id: activity.accountId,
      client_id: clientId || null,
      session_ref: grantId,
      logged_in_at: nowIso(),
      logged_out_at: null,
      ip_address: activity.ip,
      origin: activity.origin !== null ? activity.origin.slice(0, 500) : null,
      user_agent: (activity.userAgent ?? '').slice(0, 500) || null,
    })
    .onConflict((oc) => oc.column('id').doNothing())
    .execute();
}
