import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { nowIso } from '../db/index';
import type { Account } from '../db/schema';
import { issueToken, LINK_PATHS, signedApiLink } from './signed-links';

/** The SPA page an invitation mail links to: its `url` parameter is the full signed API link. */
export function invitationPageUrl(app: FastifyInstance, type: Account['type'], signedLink: string): string {
  return `${app.config.appUrl}/verify/${type === 'admin' ? 'admin' : 'user'}?url=${encodeURIComponent(signedLink)}`;
}

/**
 * Issues a single-use invitation (older invitations of the account stop working) and mails the link
 * in the account's locale (templates `invitation` / `admin_invitation`). Returns nothing; the token
 * only ever leaves the server inside the mail.
 */
export async function sendInvitation(app: FastifyInstance, account: Pick<Account, 'id' | 'type' | 'email' | 'first_name' | 'last_name' | 'locale'>, opts: { actorId?: string } = {}): Promise<void> {
  const hours = app.config.invitationTtlHours;
  const { token, expiresAt } = await app.db.kysely.transaction().execute(async (trx) => {
    const issued = await issueToken(trx, account.id, 'invitation', hours * 3600_000);
    await trx
      .insertInto('audit_log')
      .values({
        id: randomUUID(),
        actor_id: opts.actorId ?? null,
        actor_email: null,
        action: 'invitation.sent',
        target_type: account.type,
        target_id: account.id,
        before: null,
        after: null,
        ip_address: null,
        created_at: nowIso(),
      })
      .execute();
    return issued;
  });
  const apiLink = await signedApiLink(app, LINK_PATHS.invitation[account.type], token, expiresAt);
  const name = `${account.first_name} ${account.last_name}`.trim() || account.email;
  await app.mailer.send({
    to: account.email,
    template: account.type === 'admin' ? 'admin_invitation' : 'invitation',
    locale: account.locale,
    params: { name, link: invitationPageUrl(app, account.type, apiLink), expires_hours: hours },
  });
}
