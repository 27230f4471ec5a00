import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Account, AccountType } from '../../db/schema';
import { AppError } from '../../errors';
import { errorResponses } from '../../lib/openapi';
import { requireAccount, resolveAuth } from '../../plugins/app/auth';
import { findAccountByEmail, normalizeEmail } from '../../services/accounts';
import { verifyAgainstDummy, verifyPassword } from '../../services/passwords';
import { signInOutcome } from '../../lib/metrics';
import { reserveAttempt, throttleKeys, type AttemptReservation } from '../../services/throttle';
import { consumeRecoveryCode, isTwoFactorEnabled, sendEnrollmentSms, sendSmsCode, verifySmsCode, verifyTotp } from '../../services/two-factor';
import {
  assertInteractionType,
  endGrant,
  finishSignIn,
  loadInteraction,
  notifyInactiveSignIn,
  passwordExpired,
  passwordExpiredAnswer,
  pendingOf,
  setPending,
  type LoadedInteraction,
  type PendingSignIn,
} from '../../services/sign-in';

const interactionUid = z.string().trim().min(1).max(100).regex(/^[A-Za-z0-9_-]+$/);
const loginBody = z.object({ email: z.string().trim().min(1).max(254), password: z.string().min(1).max(200), interaction: interactionUid });
const passwordExpiredResult = z.object({ status: z.literal('password_expired'), reset_token: z.string() });
const complete = z.object({ status: z.literal('complete'), redirect_to: z.string() });
const loginResponse = z.object({
  data: z.union([
    complete,
    z.object({ status: z.literal('two_factor_required'), method: z.enum(['GOOGLE', 'SMS']) }),
    passwordExpiredResult,
  ]),
});
/** After the second factor: signed in, or (password too old) the token to set a new one first. */
const secondFactorResponse = z.object({ data: z.union([complete, passwordExpiredResult]) });
const otpBody = z.object({ one_time_password: z.string().max(20).optional(), interaction: interactionUid });

const invalidCredentials = () => new AppError(401, 'invalid_credentials');

/** reserveAttempt, counting the locked answers in iam_sign_ins_total{outcome="locked"}. */
async function reserveSignIn(app: FastifyInstance, keys: string[]): Promise<AttemptReservation> {
  try {
    return await reserveAttempt(app, keys);
  } catch (err) {
    if (err instanceof AppError && err.status === 429) signInOutcome('locked');
    throw err;
  }
}

/** Counts the outcome in iam_sign_ins_total and passes the answer through. */
function outcome<T extends { status: string }>(result: T): T {
  signInOutcome(result.status === 'complete' ? 'success' : result.status);
  return result;
}
const otpInvalid = () => new AppError(422, 'otp_invalid', { fields: { one_time_password: ['otp_invalid'] } });

/**
 * The password step. The attempt reserves its lockout slots (e-mail, account, ip) BEFORE the password is
 * checked, so parallel guesses evaluate at most the limit and a locked answer is the same whatever the password.
 * Order once the password is right: the second factor when enabled (the expired-password token and the inactive
 * answer come only after it), else inactive accounts get the wrong-password answer (+ a mail to the owner),
 * else the expired-password token, else the sign-in completes.
 */
async function passwordStep(app: FastifyInstance, request: FastifyRequest, type: AccountType, body: z.infer<typeof loginBody>) {
  const interaction = await loadInteraction(app, body.interaction);
  assertInteractionType(interaction, type);
  const account = await findAccountByEmail(app.db.kysely, type, body.email);
  const email = normalizeEmail(body.email);
  // as many keys (and statements) for unknown e-mails as for accounts: no enumeration by time
  const keys = [throttleKeys.email(type, email), throttleKeys.account(account?.id ?? `unknown:${type}:${email}`), throttleKeys.ip(request.ip)];
  const slot = await reserveSignIn(app, keys);
  // unknown accounts, accounts without a password and SSO accounts get the same answer in similar time
  const ok = account?.password_hash && account.auth_type === 'CREDENTIALS' ? await verifyPassword(account.password_hash, body.password) : await verifyAgainstDummy(body.password);
  if (!account || !ok) {
    await slot.fail();
    signInOutcome('invalid_credentials');
    throw invalidCredentials();
  }
  const method = isTwoFactorEnabled(account) ? account.two_factor_method : null;
  if (account.status !== 'ACTIVE' && !method) {
    // no oracle: the right password of an inactive account is answered and counted like a wrong one
    await slot.fail();
    notifyInactiveSignIn(app, account);
    signInOutcome('inactive');
    throw invalidCredentials();
  }
  await slot.succeed();
  if (method === 'GOOGLE' || method === 'SMS') {
    await setPending(interaction, { accountId: account.id, type, method, passwordAt: Math.floor(Date.now() / 1000), amr: ['pwd'] });
    if (method === 'SMS') await sendSmsCode(app, account, 'sms_login', interaction.uid);
    return outcome({ status: 'two_factor_required' as const, method });
  }
  if (passwordExpired(app, account)) return outcome(await passwordExpiredAnswer(app, account));
  return outcome(await finishSignIn(app, request, interaction, account, ['pwd']));
}

/** Loads the pending second-factor sign-in of an interaction (never from the client's word). */
async function pendingStep(app: FastifyInstance, uid: string, opts: { type?: AccountType; method?: 'GOOGLE' | 'SMS' }): Promise<{ interaction: LoadedInteraction; pending: PendingSignIn; account: Account }> {
  const interaction = await loadInteraction(app, uid);
  const pending = pendingOf(interaction);
  if (!pending) throw new AppError(400, 'interaction_expired');
  if (opts.type && pending.type !== opts.type) throw new AppError(400, 'interaction_invalid');
  if (opts.method && pending.method !== opts.method) throw new AppError(400, 'two_factor_method_mismatch');
  const account = await app.db.kysely.selectFrom('accounts').selectAll().where('id', '=', pending.accountId).executeTakeFirst();
  if (!account) throw new AppError(400, 'interaction_expired');
  // an inactive account is told so only after its second factor passed (secondFactor), never before
  return { interaction, pending, account };
}

async function secondFactor(
  app: FastifyInstance,
  request: FastifyRequest,
  uid: string,
  code: string | undefined,
  field: 'one_time_password' | 'recovery_code',
  opts: { type?: AccountType; method?: 'GOOGLE' | 'SMS' },
  verify: (account: Account, code: string, interactionUid: string) => Promise<boolean>,
) {
  if (!code || !code.trim()) throw new AppError(422, 'otp_required', { fields: { [field]: ['otp_required'] } });
  const { interaction, pending, account } = await pendingStep(app, uid, opts);
  // the slot is reserved before the code is checked: parallel codes evaluate at most the limit
  const slot = await reserveSignIn(app, [throttleKeys.otp(account.id), throttleKeys.ip(request.ip)]);
  if (!(await verify(account, code.trim(), interaction.uid))) {
    await slot.fail();
    signInOutcome(field === 'recovery_code' ? 'recovery_code_invalid' : 'otp_invalid');
    if (field === 'recovery_code') throw new AppError(422, 'recovery_code_invalid', { fields: { recovery_code: ['recovery_code_invalid'] } });
    throw otpInvalid();
  }
  await slot.succeed();
  // every factor passed: now the account state may be told, and an old password must be changed first
  if (account.status !== 'ACTIVE') {
    signInOutcome('inactive');
    throw new AppError(403, 'account_inactive');
  }
  if (passwordExpired(app, account)) return { data: outcome(await passwordExpiredAnswer(app, account)) };
  return { data: outcome(await finishSignIn(app, request, interaction, account, [...pending.amr, field === 'recovery_code' ? 'kba' : pending.method === 'SMS' ? 'sms' : 'otp'])) };
}

/**
 * Sign-in endpoints of the OIDC interaction (docs/DESIGN.md §6): password, then the second factor when enabled.
 * The interaction remembers the account and the passed password step server-side.
 */
const routes: FastifyPluginAsyncZod = async (app) => {
  const tags = ['authentication'];
  for (const [url, type] of [
    ['/login', 'user'],
    ['/admin/login', 'admin'],
  ] as const) {
    app.post(
      url,
      {
        schema: {
          tags,
          summary: `Sign in ${type === 'admin' ? 'an admin' : 'a user'} within an OIDC interaction`,
          body: loginBody,
          response: { 200: loginResponse, ...errorResponses(400, 401, 403, 422, 429) },
        },
      },
      async (request) => ({ data: await passwordStep(app, request, type, request.body) }),
    );
  }

  const otpRoutes = [
    ['/2fa/google/validate-otp', 'user', 'GOOGLE'],
    ['/admin/2fa/validate-otp', 'admin', undefined],
  ] as const;
  for (const [url, type, method] of otpRoutes) {
    app.post(
      url,
      { schema: { tags, summary: 'Second factor: authenticator app code during sign-in', body: otpBody, response: { 200: secondFactorResponse, ...errorResponses(400, 403, 422, 429) } } },
      async (request) =>
        secondFactor(app, request, request.body.interaction, request.body.one_time_password, 'one_time_password', { type, method: method ?? undefined }, async (account, code, uid) =>
          account.two_factor_method === 'SMS' ? verifySmsCode(app, account, 'sms_login', code, uid) : verifyTotp(app, account, code),
        ),
    );
  }

  app.post(
    '/2fa/sms/verify',
    { schema: { tags, summary: 'Second factor: SMS code during sign-in', body: otpBody, response: { 200: secondFactorResponse, ...errorResponses(400, 403, 422, 429) } } },
    async (request) =>
      secondFactor(app, request, request.body.interaction, request.body.one_time_password, 'one_time_password', { method: 'SMS' }, (account, code, uid) => verifySmsCode(app, account, 'sms_login', code, uid)),
  );

  app.post(
    '/2fa/validate-recovery-code',
    {
      schema: {
        tags,
        summary: 'Second factor: a recovery code instead of the one-time password',
        body: z.object({ recovery_code: z.string().max(64).optional(), interaction: interactionUid }),
        response: { 200: secondFactorResponse, ...errorResponses(400, 403, 422, 429) },
      },
    },
    async (request) =>
      secondFactor(app, request, request.body.interaction, request.body.recovery_code, 'recovery_code', {}, (account, code) => consumeRecoveryCode(app, account, code)),
  );

  app.post(
    '/2fa/sms/resend',
    {
      schema: {
        tags,
        summary: 'Sends the SMS code again: the sign-in code with `interaction`, else (signed in) the enrollment code',
        body: z.object({ interaction: interactionUid.optional() }).nullish(),
        response: { 200: z.object({ data: z.object({ status: z.literal('sent') }) }), ...errorResponses(400, 401, 403, 422, 429) },
      },
    },
    async (request) => {
      const uid = request.body?.interaction;
      if (uid) {
        const { interaction, account } = await pendingStep(app, uid, { method: 'SMS' });
        await sendSmsCode(app, account, 'sms_login', interaction.uid);
      } else {
        const ctx = await resolveAuth(request);
        if (!ctx) throw new AppError(401, 'unauthorized');
        // enrollment code, or the code that confirms disabling when SMS 2FA is already on
        await sendEnrollmentSms(app, ctx.account);
      }
      return { data: { status: 'sent' as const } };
    },
  );

  app.post(
    '/logout',
    {
      onRequest: requireAccount,
      schema: {
        tags,
        summary: 'Ends the current session server-side (then go to the end-session endpoint)',
        security: [{ bearer: [] }],
        response: { 200: z.object({ data: z.object({ status: z.literal('logged_out') }) }), ...errorResponses(401) },
      },
    },
    async (request) => {
      const grantId = request.auth?.grantId;
      if (grantId) await endGrant(app, grantId);
      return { data: { status: 'logged_out' as const } };
    },
  );
};
export default routes;
