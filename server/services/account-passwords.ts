import { nowIso } from '../db/index';
import type { Account } from '../db/schema';
import { AppError } from '../errors';
import { NO_CONTROL } from '../../contract/domain/formats';
import { passwordSchema } from '../../contract/domain/password-policy';
import { newPasswordBody as contractPasswordBody, passwordBodies } from '../../contract/account';
import { revokeAccountGrantsDb } from '../oidc/grants';
import { wakeLogoutDeliveries } from '../oidc/backchannel-logout';
import { recordAudit } from './admin/audit';
import type { Actor, ClockedHost, Deps } from './deps';
import { hashPassword, verifyPassword } from './passwords';
import { consumeToken } from './signed-links';
import { isCommonPassword } from './common-passwords';
import { checkWithLockout, recordSuccess, throttleKeys } from './throttle';
import type { z } from 'zod';

/**
 * Setting passwords, shared by invitation, reset, expired-password, change-password and the admin
 * "set a user's password". Every path enforces the policy of contract/domain/password-policy.ts through the
 * bodies of contract/account.ts built with `serverPasswordSchema` (zod: 422 with field codes, including the
 * server-only `password_common`) and `assertDiffersFromCurrent`.
 */

export { NO_CONTROL };

/**
 * The shared policy plus the server-only rule: not a common or breached password (422 `password_common`,
 * server/services/common-passwords.ts; the list stays out of the SPA bundle).
 */
export const serverPasswordSchema = passwordSchema.superRefine((value, ctx) => {
  if (value.length > 0 && isCommonPassword(value)) ctx.addIssue({ code: 'custom', message: 'password_common', params: { code: 'password_common' } });
});

/** `{password, password_confirmation}` fields plus `extra`, with the confirmation rule, under the server's password rule. */
export function newPasswordBody<T extends z.ZodRawShape>(extra: T) {
  return contractPasswordBody(extra, serverPasswordSchema);
}

/** The contract's new-password bodies under the server's password rule (routes put them in place of the contract's). */
export const serverPasswordBodies = passwordBodies(serverPasswordSchema);

/** 422 `password: ['password_same_as_current']` when the account's current password equals the new one. */
export async function assertDiffersFromCurrent(account: Pick<Account, 'password_hash'>, password: string): Promise<void> {
  if (account.password_hash && (await verifyPassword(account.password_hash, password))) {
    throw new AppError(422, 'validation_failed', { fields: { password: ['password_same_as_current'] } });
  }
}

export interface SetPasswordOptions {
  /** single-use token to consume in the same transaction (403 invalid_link when already used) */
  tokenId?: string;
  /** set email_verified_at when still empty (the link came by mail: invitation, reset link) */
  markVerified?: boolean;
  /** end the account's sessions: all, or all but this grant */
  endSessions: 'all' | { exceptGrantId: string | undefined } | 'none';
}

/**
 * Hashes and stores the new password, consumes the token and ends sessions (queuing the service apps' back-channel
 * logout tokens) in one transaction, then clears the account's lockout counters.
 */
export async function setAccountPassword(deps: ClockedHost, account: Pick<Account, 'id' | 'email_verified_at' | 'type' | 'email_normalized'>, password: string, opts: SetPasswordOptions): Promise<void> {
  const hash = await hashPassword(password);
  const db = deps.db.kysely;
  const endSessions = opts.endSessions;
  await db.transaction().execute(async (trx) => {
    if (opts.tokenId && !(await consumeToken(trx, opts.tokenId, deps.clock.nowIso()))) throw new AppError(403, 'invalid_link');
    const now = deps.clock.nowIso();
    await trx
      .updateTable('accounts')
      .set({
        password_hash: hash,
        password_changed_at: now,
        updated_at: now,
        ...(opts.markVerified && !account.email_verified_at ? { email_verified_at: now } : {}),
      })
      .where('id', '=', account.id)
      .execute();
    // the sessions end with the old password, in the same transaction; the service apps of the ended sessions get
    // their logout tokens queued (back-channel logout: a reset or a change elsewhere signs the person out there too)
    if (endSessions === 'all') await revokeAccountGrantsDb(trx, account.id, { reason: 'password_changed' });
    else if (endSessions !== 'none') await revokeAccountGrantsDb(trx, account.id, { reason: 'password_changed', ...(endSessions.exceptGrantId ? { exceptGrantId: endSessions.exceptGrantId } : {}) });
  });
  if (endSessions !== 'none') wakeLogoutDeliveries(db);
  await recordSuccess(deps, [throttleKeys.account(account.id), throttleKeys.otp(account.id), throttleKeys.email(account.type, account.email_normalized)]);
}

export function displayName(a: Pick<Account, 'first_name' | 'last_name' | 'email'>): string {
  return `${a.first_name} ${a.last_name}`.trim() || a.email;
}

/** The "your password was changed" notice; a mail failure is logged, never fails the request. */
export async function notifyPasswordChanged(deps: Pick<Deps, 'mailer' | 'log'>, account: Pick<Account, 'email' | 'locale' | 'first_name' | 'last_name'>): Promise<void> {
  try {
    await deps.mailer.send({ to: account.email, template: 'password_changed', locale: account.locale, params: { name: displayName(account) } });
  } catch (err) {
    deps.log.error({ err: err instanceof Error ? err.message : String(err) }, 'password_changed mail failed');
  }
}

/** Change password (own), set a user's password and mark a user's e-mail verified (admins). */
export function createAccountPasswordsService(deps: Deps) {
  const db = deps.db.kysely;
  const userById = (id: string) => db.selectFrom('accounts').selectAll().where('id', '=', id).where('type', '=', 'user').executeTakeFirst();

  return {
    /**
     * The signed-in account changes its password: the current one must match (wrong guesses count like failed
     * sign-ins), the new one must differ; the account's other sessions end (`keepGrantId` stays) and a notice is mailed.
     */
    async changePassword(actor: Actor, keepGrantId: string | undefined, input: { current_password: string; password: string }): Promise<void> {
      const accountId = actor.id;
      if (!accountId) throw new AppError(401, 'unauthorized');
      const { current_password, password } = input;
      // the slot is reserved before the password is checked: parallel guesses evaluate at most the limit
      const fresh = await db.selectFrom('accounts').selectAll().where('id', '=', accountId).executeTakeFirstOrThrow();
      const hash = fresh.password_hash;
      if (!(await checkWithLockout(deps, [throttleKeys.account(accountId)], async () => Boolean(hash) && verifyPassword(hash ?? '', current_password)))) {
        throw new AppError(422, 'validation_failed', { fields: { current_password: ['given_password_invalid'] } });
      }
      if (current_password === password) throw new AppError(422, 'validation_failed', { fields: { password: ['password_same_as_current'] } });
      await setAccountPassword(deps, fresh, password, { endSessions: { exceptGrantId: keepGrantId } });
      await notifyPasswordChanged(deps, fresh);
    },

    /** An admin sets a user's password: all of that user's sessions end (audited, the user is mailed). */
    async setUserPassword(actor: Actor, userId: string, password: string): Promise<{ id: string }> {
      const user = await userById(userId);
      if (!user) throw new AppError(404, 'not_found');
      await assertDiffersFromCurrent(user, password);
      await setAccountPassword(deps, user, password, { endSessions: 'all' });
      await recordAudit(db, actor, 'user.password_set', 'user', user.id, null, null);
      await notifyPasswordChanged(deps, user);
      return { id: user.id };
    },

    /** An admin marks a user's e-mail as verified (once; audited). */
    async verifyUserManually(actor: Actor, userId: string): Promise<{ id: string; email_verified_at: string }> {
      const now = nowIso();
      const user = await db.selectFrom('accounts').select(['id', 'email_verified_at']).where('id', '=', userId).where('type', '=', 'user').executeTakeFirst();
      if (!user) throw new AppError(404, 'not_found');
      if (user.email_verified_at) return { id: user.id, email_verified_at: user.email_verified_at };
      await db.transaction().execute(async (trx) => {
        await trx.updateTable('accounts').set({ email_verified_at: now, updated_at: now }).where('id', '=', user.id).where('email_verified_at', 'is', null).execute();
        await recordAudit(trx, actor, 'user.verified_manually', 'user', user.id, null, null);
      });
      return { id: user.id, email_verified_at: now };
    },
  };
}
export type AccountPasswordsService = ReturnType<typeof createAccountPasswordsService>;
