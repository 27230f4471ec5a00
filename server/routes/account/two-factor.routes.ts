import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Account } from '../../db/schema';
import { AppError } from '../../errors';
import { errorResponses } from '../../lib/openapi';
import { requireAccount } from '../../plugins/app/auth';
import { verifyPassword } from '../../services/passwords';
import { checkWithLockout, throttleKeys } from '../../services/throttle';
import {
  createTotpSecret,
  disableTwoFactor,
  enableSms,
  enableTotp,
  isTwoFactorEnabled,
  sendEnrollmentSms,
  verifySmsCode,
  verifyTotp,
} from '../../services/two-factor';

/**
 * Two-factor enrollment for the signed-in account (user or admin). The sign-in steps
 * (`/2fa/google/validate-otp`, `/2fa/sms/verify`, `/2fa/validate-recovery-code`, `/admin/2fa/validate-otp`)
 * and `/2fa/sms/resend` live in routes/auth/login.routes.ts.
 */
const tags = ['two-factor'];
const otpBody = z.object({ one_time_password: z.string().max(64).optional() });
const recoveryCodes = z.object({ data: z.object({ recovery_codes: z.array(z.string()) }) });

const otpRequired = () => new AppError(422, 'validation_failed', { fields: { one_time_password: ['otp_required'] } });
const otpInvalid = () => new AppError(422, 'validation_failed', { fields: { one_time_password: ['otp_invalid'] } });

async function fresh(app: FastifyInstance, request: FastifyRequest): Promise<Account> {
  const id = request.auth?.account.id;
  if (!id) throw new AppError(401, 'unauthorized');
  const account = await app.db.kysely.selectFrom('accounts').selectAll().where('id', '=', id).executeTakeFirst();
  if (!account) throw new AppError(401, 'unauthorized');
  return account;
}

/** Runs a second-factor check under the per-account otp lockout: wrong answers count, 5 lock for 15 minutes. */
async function guarded(app: FastifyInstance, account: Account, check: () => Promise<boolean>, onWrong: () => AppError): Promise<void> {
  // the slot is reserved before the code is checked: parallel codes evaluate at most the limit
  if (!(await checkWithLockout(app, [throttleKeys.otp(account.id)], check))) throw onWrong();
}

const routes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/2fa/google/secret',
    {
      onRequest: requireAccount,
      schema: {
        tags,
        summary: 'Starts authenticator-app enrollment: a new secret (pending until enabled) and its otpauth:// URL for the QR code',
        security: [{ bearer: [] }],
        response: { 200: z.object({ data: z.object({ secret: z.string(), otpauth_url: z.string() }) }), ...errorResponses(401, 403, 409) },
      },
    },
    async (request) => ({ data: await createTotpSecret(app, await fresh(app, request)) }),
  );

  app.post(
    '/2fa/google/enable',
    {
      onRequest: requireAccount,
      schema: {
        tags,
        summary: 'Confirms authenticator-app enrollment with a current code; returns 10 recovery codes (shown once)',
        security: [{ bearer: [] }],
        body: otpBody,
        response: { 200: recoveryCodes, ...errorResponses(401, 403, 409, 422, 429) },
      },
    },
    async (request) => {
      const code = request.body.one_time_password?.trim();
      if (!code) throw otpRequired();
      const account = await fresh(app, request);
      let codes: string[] | null = null;
      await guarded(
        app,
        account,
        async () => (codes = await enableTotp(app, account, code)) !== null,
        otpInvalid,
      );
      return { data: { recovery_codes: codes ?? [] } };
    },
  );

  app.post(
    '/2fa/sms/send',
    {
      onRequest: requireAccount,
      schema: {
        tags,
        summary: 'Sends an SMS code to the profile phone: the enrollment code, or (SMS 2FA active) the code that confirms disabling',
        security: [{ bearer: [] }],
        response: { 200: z.object({ data: z.object({ status: z.literal('sent') }) }), ...errorResponses(401, 403, 409, 422, 429) },
      },
    },
    async (request) => {
      const account = await fresh(app, request);
      if (isTwoFactorEnabled(account) && account.two_factor_method !== 'SMS') throw new AppError(409, 'two_factor_already_enabled');
      await sendEnrollmentSms(app, account);
      return { data: { status: 'sent' as const } };
    },
  );

  app.post(
    '/2fa/sms/enable',
    {
      onRequest: requireAccount,
      schema: {
        tags,
        summary: 'Confirms SMS enrollment with the code sent; returns 10 recovery codes (shown once)',
        security: [{ bearer: [] }],
        body: otpBody,
        response: { 200: recoveryCodes, ...errorResponses(401, 403, 409, 422, 429) },
      },
    },
    async (request) => {
      const code = request.body.one_time_password?.trim();
      if (!code) throw otpRequired();
      const account = await fresh(app, request);
      if (isTwoFactorEnabled(account)) throw new AppError(409, 'two_factor_already_enabled');
      let codes: string[] | null = null;
      await guarded(app, account, async () => (codes = await enableSms(app, account, code)) !== null, otpInvalid);
      return { data: { recovery_codes: codes ?? [] } };
    },
  );

  app.post(
    '/2fa/disable',
    {
      onRequest: requireAccount,
      schema: {
        tags,
        summary: 'Turns 2FA off; needs a fresh code (authenticator, or the SMS from /2fa/sms/send) or the current password',
        security: [{ bearer: [] }],
        body: z.object({ one_time_password: z.string().max(64).optional(), password: z.string().max(200).optional() }).nullish(),
        response: { 200: z.object({ data: z.object({ enabled: z.literal(false) }) }), ...errorResponses(401, 403, 422, 429) },
      },
    },
    async (request) => {
      const account = await fresh(app, request);
      const code = request.body?.one_time_password?.trim();
      const password = request.body?.password;
      if (isTwoFactorEnabled(account)) {
        if (password) {
          // a locked second factor cannot be side-stepped with the password; a password guess also counts on the account key
          const hash = account.password_hash;
          if (!(await checkWithLockout(app, [throttleKeys.otp(account.id), throttleKeys.account(account.id)], async () => Boolean(hash) && (await verifyPassword(hash ?? '', password))))) {
            throw new AppError(422, 'validation_failed', { fields: { password: ['given_password_invalid'] } });
          }
        } else if (code) {
          await guarded(
            app,
            account,
            () => (account.two_factor_method === 'GOOGLE' ? verifyTotp(app, account, code) : verifySmsCode(app, account, 'sms_disable', code)),
            otpInvalid,
          );
        } else {
          throw otpRequired();
        }
      }
      // also cancels a pending (unconfirmed) enrollment
      await disableTwoFactor(app, account.id);
      return { data: { enabled: false as const } };
    },
  );
};
export default routes;
