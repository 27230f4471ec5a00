import type { Account, AccountType } from '../db/schema';
import { AppError } from '../errors';
import { assertDiffersFromCurrent, displayName, setAccountPassword } from './account-passwords';
import { recordAudit } from './admin/audit';
import type { Deps } from './deps';
import { checkSignedLink, issueToken, LINK_PATHS, parseSignedUrl, signedApiLink, type LinkParams, type ValidLink } from './signed-links';

/** The SPA page an invitation mail links to: its `url` parameter is the full signed API link. */
export function invitationPageUrl(deps: Pick<Deps, 'config'>, type: Account['type'], signedLink: string): string {
  return `${deps.config.appUrl}/verify/${type === 'admin' ? 'admin' : 'user'}?url=${encodeURIComponent(signedLink)}`;
}

/** sendInvitation's actor option (none for the system). */
export const actorOpts = (actorId: string | null): { actorId?: string } => (actorId ? { actorId } : {});

/**
 * Issues a single-use invitation (older invitations of the account stop working) and mails the link
 * in the account's locale (templates `invitation` / `admin_invitation`). Returns nothing; the token
 * only ever leaves the server inside the mail.
 */
export async function sendInvitation(deps: Pick<Deps, 'db' | 'config' | 'mailer' | 'log' | 'clock'>, account: Pick<Account, 'id' | 'type' | 'email' | 'first_name' | 'last_name' | 'locale'>, opts: { actorId?: string } = {}): Promise<void> {
  const hours = deps.config.invitationTtlHours;
  const { token, expiresAt } = await deps.db.kysely.transaction().execute(async (trx) => {
    const issued = await issueToken(trx, account.id, 'invitation', hours * 3600_000, deps.clock);
    // the sender by id only, as before: callers pass just the acting admin's id
    await recordAudit(trx, { id: opts.actorId ?? null, email: null, ip: null }, 'invitation.sent', account.type, account.id, null, null);
    return issued;
  });
  const apiLink = await signedApiLink(deps, LINK_PATHS.invitation[account.type], token, expiresAt);
  await deps.mailer.send({
    to: account.email,
    template: account.type === 'admin' ? 'admin_invitation' : 'invitation',
    locale: account.locale,
    params: { name: displayName(account), link: invitationPageUrl(deps, account.type, apiLink), expires_hours: hours },
  });
}

/** Checking an invitation link and finishing it: the password is set once (flow `sc`). */
export function createInvitationsService(deps: Deps) {
  /** The invitation carried by a full signed URL (the SPA page's `url` parameter): 403 `invalid_link` unless valid. */
  async function fromUrl(type: AccountType, url: string): Promise<ValidLink> {
    const path = LINK_PATHS.invitation[type];
    const parsed = parseSignedUrl(url, [path]);
    if (!parsed) throw new AppError(403, 'invalid_link');
    return checkSignedLink(deps, path, parsed, 'invitation', type);
  }

  return {
    /** The e-mail of a valid invitation link; 403 `invalid_link` otherwise. */
    async checkLink(type: AccountType, link: LinkParams): Promise<{ email: string }> {
      const { account } = await checkSignedLink(deps, LINK_PATHS.invitation[type], link, 'invitation', type);
      return { email: account.email };
    },

    /** Sets the password from the invitation link (consumed), marks the e-mail verified and ends every session. */
    async finish(type: AccountType, url: string, password: string): Promise<void> {
      const { tokenId, account } = await fromUrl(type, url);
      await assertDiffersFromCurrent(account, password);
      await setAccountPassword(deps, account, password, { tokenId, markVerified: true, endSessions: 'all' });
    },
  };
}
export type InvitationsService = ReturnType<typeof createInvitationsService>;
