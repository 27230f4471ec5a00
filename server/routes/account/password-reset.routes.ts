import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { FastifyInstance } from 'fastify';
import type { Account, AccountType } from '../../db/schema';
import { AppError } from '../../errors';
import { errorResponses } from '../../lib/openapi';
import { emailSchema } from '../../../contract/domain/formats';
import { findAccountByEmail } from '../../services/accounts';
import { assertDiffersFromCurrent, displayName, newPasswordBody, setAccountPassword } from '../../services/account-passwords';
import { checkSignedLink, issueToken, LINK_PATHS, parseSignedUrl, signedApiLink, type ValidLink } from '../../services/signed-links';
import { sha256Hex } from '../../services/server-secrets';
import { hitRateLimit } from '../../services/throttle';
import { nowIso } from '../../db/index';

const tags = ['password reset'];
export const RESET_TTL_MS = 3600_000;

/** SPA page of the reset mail: its `url` parameter is the full signed API link. */
export const resetPageUrl = (app: FastifyInstance, type: AccountType, apiLink: string) =>
  `${app.config.appUrl}${type === 'admin' ? '/admin/reset-password' : '/reset-password'}?url=${encodeURIComponent(apiLink)}`;

/** Issues a 1-hour single-use reset token (older ones die) and mails the link in the account's locale. */
export async function sendPasswordReset(app: FastifyInstance, account: Account): Promise<void> {
  const { token, expiresAt } = await app.db.kysely.transaction().execute((trx) => issueToken(trx, account.id, 'reset', RESET_TTL_MS));
  const apiLink = await signedApiLink(app, LINK_PATHS.reset[account.type], token, expiresAt);
  await app.mailer.send({
    to: account.email,
    template: 'password_reset',
    locale: account.locale,
    params: { name: displayName(account), link: resetPageUrl(app, account.type, apiLink), expires_hours: RESET_TTL_MS / 3600_000 },
  });
}

async function resetFromUrl(app: FastifyInstance, type: AccountType, url: string): Promise<ValidLink> {
  const path = LINK_PATHS.reset[type];
  const parsed = parseSignedUrl(url, [path]);
  if (!parsed) throw new AppError(403, 'invalid_link');
  return checkSignedLink(app, path, parsed, 'reset', type);
}

/** The expired-password token handed out by `/api/login` (`reset_token`, one_time_tokens purpose `expired_password`). */
async function expiredPasswordToken(app: FastifyInstance, type: AccountType, token: string): Promise<ValidLink> {
  if (!/^[A-Za-z0-9_-]{16,256}$/.test(token)) throw new AppError(403, 'invalid_link');
  const row = await app.db.kysely
    .selectFrom('one_time_tokens')
    .select(['id', 'account_id', 'purpose', 'used_at', 'expires_at'])
    .where('token_hash', '=', sha256Hex(token))
    .executeTakeFirst();
  if (!row || !row.account_id || row.purpose !== 'expired_password' || row.used_at !== null || row.expires_at <= nowIso()) throw new AppError(403, 'invalid_link');
  const account = await app.db.kysely.selectFrom('accounts').selectAll().where('id', '=', row.account_id).executeTakeFirst();
  if (!account || account.type !== type) throw new AppError(403, 'invalid_link');
  return { tokenId: row.id, account };
}

const resetBody = newPasswordBody({
  url: z.string().min(1).max(4096).optional(),
  reset_token: z.string().min(1).max(512).optional(),
});

const routes: FastifyPluginAsyncZod = async (app) => {
  for (const type of ['user', 'admin'] as const) {
    const base = type === 'admin' ? '/admin' : '';

    app.post(
      `${base}/forgot-password`,
      {
        schema: {
          tags,
          summary: `Mails a ${type} password reset link. Same answer whether or not the e-mail exists (unless IAM_FORGOT_PASSWORD_REVEAL=true)`,
          body: z.object({ email: emailSchema }),
          response: { 200: z.object({ data: z.object({ message: z.string() }) }), ...errorResponses(404, 422, 429) },
        },
      },
      async (request) => {
        const email = request.body.email.toLowerCase();
        await hitRateLimit(app, `forgot-ip:${request.ip}`, 20, 3600_000);
        await hitRateLimit(app, `forgot:${type}:${email}`, 3, 3600_000);
        const account = await findAccountByEmail(app.db.kysely, type, email);
        const eligible = account && account.status === 'ACTIVE' && account.auth_type === 'CREDENTIALS' && !account.technical;
        if (eligible) {
          // in the background, after the answer is on its way: the answer must not take longer for known
          // e-mails (started inline, the token insert, signing and mail rendering ran before the reply on SQLite)
          setImmediate(() => {
            sendPasswordReset(app, account).catch((err: unknown) =>
              app.log.error({ err: err instanceof Error ? err.message : String(err) }, 'password reset mail failed'),
            );
          });
        } else if (app.config.forgotPasswordReveal) {
          throw new AppError(404, 'email_not_found');
        }
        return { data: { message: request.t('password_reset_sent') } };
      },
    );

    app.get(
      `${base}/reset-password-link`,
      {
        schema: {
          tags,
          summary: `Checks a signed ${type} reset link (GET the full URL from the reset page's url parameter)`,
          querystring: z.object({ token: z.string().max(256).optional(), expires: z.string().max(32).optional(), signature: z.string().max(256).optional() }),
          response: { 200: z.object({ data: z.object({ valid: z.literal(true), email: z.string() }) }), ...errorResponses(403, 422) },
        },
      },
      async (request) => {
        const { account } = await checkSignedLink(app, LINK_PATHS.reset[type], request.query, 'reset', type);
        return { data: { valid: true as const, email: account.email } };
      },
    );

    app.post(
      `${base}/reset-password-token`,
      {
        schema: {
          tags,
          summary: `Checks a ${type} reset link given as {url}: 200 or 403 invalid_link`,
          body: z.object({ url: z.string().min(1).max(4096) }),
          response: { 200: z.object({ data: z.object({ valid: z.literal(true), email: z.string() }) }), ...errorResponses(403, 422) },
        },
      },
      async (request) => {
        const { account } = await resetFromUrl(app, type, request.body.url);
        return { data: { valid: true as const, email: account.email } };
      },
    );

    app.post(
      `${base}/reset-password`,
      {
        schema: {
          tags,
          summary: `Sets a new ${type} password from a reset link {url} or the expired-password {reset_token}; ends every session`,
          body: resetBody,
          response: { 200: z.object({ data: z.object({ flow: z.literal('cp') }) }), ...errorResponses(403, 422, 429) },
        },
      },
      async (request) => {
        const { url, reset_token, password } = request.body;
        if (!url && !reset_token) throw new AppError(422, 'validation_failed', { fields: { url: ['required'] } });
        const { tokenId, account } = url ? await resetFromUrl(app, type, url) : await expiredPasswordToken(app, type, reset_token ?? '');
        await assertDiffersFromCurrent(account, password);
        // a reset link came by mail, so it proves control of the address; the expired-password token does not
        await setAccountPassword(app, account, password, { tokenId, endSessions: 'all', ...(url ? { markVerified: true } : {}) });
        return { data: { flow: 'cp' as const } };
      },
    );
  }
};
export default routes;
