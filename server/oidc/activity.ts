import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';
import { nowIso } from '../db/index';
import type { PendingActivity } from './interaction-result';

/**
 * A sign-in waiting for its browser (kept in the interaction result by finishSignIn, server/services/sign-in.ts;
 * its shape in server/oidc/interaction-result.ts): it is recorded in auth_activities only when the provider completes
 * the authorization with it (loadExistingGrant, server/oidc/provider.ts), so a result the browser never picks up (an
 * SSO callback opened in another browser, a resume URL never followed) is no sign-in in the activity log or the
 * dashboard chart.
 */
export type { PendingActivity } from './interaction-result';

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
