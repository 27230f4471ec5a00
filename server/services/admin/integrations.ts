import type { FastifyInstance } from 'fastify';
import type { Account } from '../../db/schema';
import { sendInvitation as sendInvitationMail } from '../invitations';
import { revokeAccountGrants as revokeGrants } from '../../oidc/grants';

/** Calls into colleagues' modules (invitations: account security; grants: OIDC). */

/** Sends the invitation mail (user: /verify/user, admin: /verify/admin). */
export async function sendInvitation(app: FastifyInstance, account: Account, actorId: string | null): Promise<boolean> {
  await sendInvitationMail(app, account, actorId ? { actorId } : {});
  return true;
}

/** Ends every session and grant of the account (deactivation, deletion). */
export async function revokeAccountGrants(app: FastifyInstance, accountId: string): Promise<void> {
  await revokeGrants(app, accountId);
}
