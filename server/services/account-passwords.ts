import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { nowIso } from '../db/index';
import type { Account } from '../db/schema';
import { AppError } from '../errors';
import { passwordSchema } from '../../contract/domain/password-policy';
import { revokeAccountGrants } from '../oidc/grants';
import { hashPassword, verifyPassword } from './passwords';
import { consumeToken } from './signed-links';
import { isCommonPassword } from './common-passwords';
import { recordSuccess, throttleKeys } from './throttle';

/**
 * Setting passwords, shared by invitation, reset, expired-password, change-password and the admin
 * "set a user's password". Every path enforces the policy of src/domain/password-policy.ts through
 * `newPasswordBody` (zod: 422 with field codes, including the server-only `password_common`) and `assertDiffersFromCurrent`.
 */

/** Ids and keys from clients: no control characters (PostgreSQL refuses NUL in text; that must be a 422, not a 5xx). */
// eslint-disable-next-line no-control-regex
export const NO_CONTROL = /^[^\u0000-\u001f\u007f]+$/;

/**
 * The shared policy plus the server-only rule: not a common or breached password (422 `password_common`,
 * server/services/common-passwords.ts; the list stays out of the SPA bundle).
 */
export const serverPasswordSchema = passwordSchema.superRefine((value, ctx) => {
  if (value.length > 0 && isCommonPassword(value)) ctx.addIssue({ code: 'custom', message: 'password_common', params: { code: 'password_common' } });
});

/** `{password, password_confirmation}` fields plus `extra`, with the confirmation rule ('Passwords do not match'). */
export function newPasswordBody<T extends z.ZodRawShape>(extra: T) {
  return z
    .object({ ...extra, password: serverPasswordSchema, password_confirmation: z.string().max(200) })
    .superRefine((v, ctx) => {
      const { password, password_confirmation } = v as { password: string; password_confirmation: string };
      if (password !== password_confirmation) {
        ctx.addIssue({ code: 'custom', path: ['password_confirmation'], message: 'password_mismatch', params: { code: 'password_mismatch' } });
      }
    });
}

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
 * Hashes and stores the new password (and consumes the token) in one transaction, then ends sessions
 * and clears the account's lockout counters.
 */
export async function setAccountPassword(app: FastifyInstance, account: Pick<Account, 'id' | 'email_verified_at' | 'type' | 'email_normalized'>, password: string, opts: SetPasswordOptions): Promise<void> {
  const hash = await hashPassword(password);
  await app.db.kysely.transaction().execute(async (trx) => {
    if (opts.tokenId && !(await consumeToken(trx, opts.tokenId))) throw new AppError(403, 'invalid_link');
    const now = nowIso();
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
  });
  if (opts.endSessions === 'all') await revokeAccountGrants(app, account.id);
  else if (opts.endSessions !== 'none') await revokeAccountGrants(app, account.id, opts.endSessions.exceptGrantId ? { exceptGrantId: opts.endSessions.exceptGrantId } : {});
  await recordSuccess(app, [throttleKeys.account(account.id), throttleKeys.otp(account.id), throttleKeys.email(account.type, account.email_normalized)]);
}

export function displayName(a: Pick<Account, 'first_name' | 'last_name' | 'email'>): string {
  return `${a.first_name} ${a.last_name}`.trim() || a.email;
}

/** The "your password was changed" notice; a mail failure is logged, never fails the request. */
export async function notifyPasswordChanged(app: FastifyInstance, account: Pick<Account, 'email' | 'locale' | 'first_name' | 'last_name'>): Promise<void> {
  try {
    await app.mailer.send({ to: account.email, template: 'password_changed', locale: account.locale, params: { name: displayName(account) } });
  } catch (err) {
    app.log.error({ err: err instanceof Error ? err.message : String(err) }, 'password_changed mail failed');
  }
}
