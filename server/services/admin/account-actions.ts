import { hitRateLimit } from '../throttle';
import type { Account } from '../../db/schema';
import { AppError } from '../../errors';
import { actorOpts, sendInvitation } from '../invitations';
import { revokeAccountGrantsDb } from '../../oidc/grants';
import { wakeLogoutDeliveries } from '../../oidc/backchannel-logout';
import type { Actor, Deps } from '../deps';
import { recordAudit } from './audit';

/**
 * What an admin does to a user or an admin account alike (the users and admins services): delete it, end its
 * sessions, send its invitation again.
 */

/** Deletes a user or an admin account after ending its sessions and grants (users and admins services). */
export async function deleteAccount(deps: Deps, actor: Actor, account: Account): Promise<void> {
  const db = deps.db.kysely;
  await db.transaction().execute(async (trx) => {
    // its sessions end with it; the service apps' logout tokens are queued in the same transaction
    await revokeAccountGrantsDb(trx, account.id, { reason: 'account_deleted' });
    await trx.deleteFrom('accounts').where('id', '=', account.id).execute();
    await recordAudit(trx, actor, `${account.type}.delete`, account.type, account.id, account, null, deps.clock.nowIso());
  });
  wakeLogoutDeliveries(db);
}

/**
 * Signs a user out everywhere (an admin's "End sessions"): every session and grant ends, the service apps get their
 * back-channel logout tokens queued in the same transaction as the audit record. Returns the number of grants ended.
 */
export async function endSessions(deps: Deps, actor: Actor, account: Account): Promise<number> {
  const db = deps.db.kysely;
  const ended = await db.transaction().execute(async (trx) => {
    const n = await revokeAccountGrantsDb(trx, account.id, { reason: 'sessions_ended' });
    await recordAudit(trx, actor, `${account.type}.sessions_ended`, account.type, account.id, null, { grants_ended: n }, deps.clock.nowIso());
    return n;
  });
  wakeLogoutDeliveries(db);
  return ended;
}

/** Invitation mails one recipient can be resent per hour (a first invitation at creation does not count). */
export const INVITATION_RESENDS_PER_HOUR = 3;

/** Sends the invitation again (409 for SSO accounts and for accounts already verified). */
export async function reinvite(deps: Deps, actor: Actor, account: Account): Promise<boolean> {
  if (account.auth_type === 'SSO') throw new AppError(409, 'invitation_not_applicable');
  if (account.password_hash || account.email_verified_at) throw new AppError(409, 'already_verified');
  // per recipient, whoever resends (issue 28 finding 5c): 3 an hour, then 429 invitation_resend_limited with Retry-After
  await hitRateLimit(deps, `invite:${account.id}`, INVITATION_RESENDS_PER_HOUR, 3600_000, 'invitation_resend_limited');
  await sendInvitation(deps, account, actorOpts(actor.id));
  await recordAudit(deps.db.kysely, actor, `${account.type}.invite`, account.type, account.id, null, { email: account.email }, deps.clock.nowIso());
  return true;
}
