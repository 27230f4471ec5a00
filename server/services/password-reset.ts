import type { Account, AccountType } from '../db/schema';
import { AppError } from '../errors';
import { findAccountByEmail } from './accounts';
import { assertDiffersFromCurrent, displayName, setAccountPassword } from './account-passwords';
import type { Deps } from './deps';
import { sha256Hex } from './server-secrets';
import { checkSignedLink, issueToken, LINK_PATHS, parseSignedUrl, signedApiLink, type LinkParams, type ValidLink } from './signed-links';
import { hitRateLimit } from './throttle';

export const RESET_TTL_MS = 3600_000;

/** SPA page of the reset mail: its `url` parameter is the full signed API link. */
export const resetPageUrl = (deps: Pick<Deps, 'config'>, type: AccountType, apiLink: string) =>
  `${deps.config.appUrl}${type === 'admin' ? '/admin/reset-password' : '/reset-password'}?url=${encodeURIComponent(apiLink)}`;

/** Issues a 1-hour single-use reset token (older ones die) and mails the link in the account's locale. */
export async function sendPasswordReset(deps: Pick<Deps, 'db' | 'config' | 'mailer' | 'log' | 'clock'>, account: Account): Promise<void> {
  const { token, expiresAt } = await deps.db.kysely.transaction().execute((trx) => issueToken(trx, account.id, 'reset', RESET_TTL_MS, deps.clock));
  const apiLink = await signedApiLink(deps, LINK_PATHS.reset[account.type], token, expiresAt);
  await deps.mailer.send({
    to: account.email,
    template: 'password_reset',
    locale: account.locale,
    params: { name: displayName(account), link: resetPageUrl(deps, account.type, apiLink), expires_hours: RESET_TTL_MS / 3600_000 },
  });
}

/** Forgot password, reset links, and the new password from a reset link or the expired-password token. */
/** Reset mails one e-mail address can be sent per hour, whatever the requesting addresses. */
export const FORGOT_PER_EMAIL_CEILING = 10;

export function createPasswordResetService(deps: Deps) {
  const db = deps.db.kysely;

  async function fromUrl(type: AccountType, url: string): Promise<ValidLink> {
    const path = LINK_PATHS.reset[type];
    const parsed = parseSignedUrl(url, [path]);
    if (!parsed) throw new AppError(403, 'invalid_link');
    return checkSignedLink(deps, path, parsed, 'reset', type);
  }

  /** The expired-password token handed out by `/api/login` (`reset_token`, one_time_tokens purpose `expired_password`). */
  async function fromExpiredPasswordToken(type: AccountType, token: string): Promise<ValidLink> {
    if (!/^[A-Za-z0-9_-]{16,256}$/.test(token)) throw new AppError(403, 'invalid_link');
    const row = await db
      .selectFrom('one_time_tokens')
      .select(['id', 'account_id', 'purpose', 'used_at', 'expires_at'])
      .where('token_hash', '=', sha256Hex(token))
      .executeTakeFirst();
    if (!row || !row.account_id || row.purpose !== 'expired_password' || row.used_at !== null || row.expires_at <= deps.clock.nowIso()) throw new AppError(403, 'invalid_link');
    const account = await db.selectFrom('accounts').selectAll().where('id', '=', row.account_id).executeTakeFirst();
    if (!account || account.type !== type) throw new AppError(403, 'invalid_link');
    return { tokenId: row.id, account };
  }

  return {
    /**
     * Mails a reset link to an eligible account (active, with credentials, not technical) in the background;
     * rate limited per address and per e-mail. Unknown e-mails get the same answer unless IAM_FORGOT_PASSWORD_REVEAL=true (404).
     */
    async forgotPassword(type: AccountType, email: string, ip: string): Promise<void> {
      const normalized = email.toLowerCase();
      // per requesting address (20 an hour); per e-mail AND address (3 an hour), so a stranger elsewhere cannot spend
      // the person's own allowance (issue 28 finding 5a); and a ceiling per e-mail over all addresses (10 an hour)
      // that bounds the mails one inbox receives: reaching it takes requests from at least 4 addresses
      // (docs/ACCOUNT-SECURITY.md "Forgot password")
      await hitRateLimit(deps, `forgot-ip:${ip}`, 20, 3600_000);
      await hitRateLimit(deps, `forgot:${type}:${normalized}:${ip}`, 3, 3600_000);
      await hitRateLimit(deps, `forgot:${type}:${normalized}`, FORGOT_PER_EMAIL_CEILING, 3600_000);
      const account = await findAccountByEmail(db, type, normalized);
      const eligible = account && account.status === 'ACTIVE' && account.auth_type === 'CREDENTIALS' && !account.technical;
      if (eligible) {
        // in the background, after the answer is on its way: the answer must not take longer for known
        // e-mails (started inline, the token insert, signing and mail rendering ran before the reply on SQLite)
        setImmediate(() => {
          sendPasswordReset(deps, account).catch((err: unknown) =>
            deps.log.error({ err: err instanceof Error ? err.message : String(err) }, 'password reset mail failed'),
          );
        });
      } else if (deps.config.forgotPasswordReveal) {
        throw new AppError(404, 'email_not_found');
      }
    },

    /** The e-mail of a valid reset link given by its parameters; 403 `invalid_link` otherwise. */
    async checkLink(type: AccountType, link: LinkParams): Promise<{ email: string }> {
      const { account } = await checkSignedLink(deps, LINK_PATHS.reset[type], link, 'reset', type);
      return { email: account.email };
    },

    /** The e-mail of a valid reset link given as a full URL; 403 `invalid_link` otherwise. */
    async checkUrl(type: AccountType, url: string): Promise<{ email: string }> {
      const { account } = await fromUrl(type, url);
      return { email: account.email };
    },

    /** Sets the new password from a reset link `url` or the expired-password `reset_token`; every session ends. */
    async reset(type: AccountType, input: { url?: string | undefined; reset_token?: string | undefined; password: string }): Promise<void> {
      const { url, reset_token, password } = input;
      if (!url && !reset_token) throw new AppError(422, 'validation_failed', { fields: { url: ['required'] } });
      const { tokenId, account } = url ? await fromUrl(type, url) : await fromExpiredPasswordToken(type, reset_token ?? '');
      await assertDiffersFromCurrent(account, password);
      // a reset link came by mail, so it proves control of the address; the expired-password token does not
      await setAccountPassword(deps, account, password, { tokenId, endSessions: 'all', ...(url ? { markVerified: true } : {}) });
    },
  };
}
export type PasswordResetService = ReturnType<typeof createPasswordResetService>;
