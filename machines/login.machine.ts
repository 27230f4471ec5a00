/**
 * Login statechart (docs/DESIGN.md §6 steps 2–5): credentials → complete | two-factor
 * (authenticator OTP, SMS code with resend cooldown, recovery code) |
 * password expired. With 2FA on, the server answers `password_expired` only
 * after the second factor, so every second-factor step can end there too. Without an `interaction` uid (user opened /login
 * directly) it first starts the authorization (injected `startAuthorization`,
 * normally `startAuthorization()` from ssoCallback.machine).
 *
 * Injected: actors startAuthorization, submitCredentials, verifyOtp,
 * verifySmsCode, resendSmsCode, verifyRecoveryCode (`createLoginActors({ call })`, contract/auth.ts);
 * action redirect (browser goes to `redirect_to`).
 */
import { assign, fromPromise, setup } from 'xstate';
import * as auth from '../contract/auth';
import type { LoginResult, SecondFactorResult, TwoFactorMethod } from '../contract/auth';
import type { Call } from '../contract/endpoint';
import { notProvided, toErrorInfo, type ErrorCode, type ErrorInfo } from './shared';

export const SMS_RESEND_COOLDOWN_MS = 60_000;

export type { LoginResult, SecondFactorResult, TwoFactorMethod };

export interface LoginInput {
  admin: boolean;
  /** OIDC interaction uid from `?interaction=`; null when /login was opened directly. */
  interaction: string | null;
}
export interface LoginContext extends LoginInput {
  email: string;
  method: TwoFactorMethod | null;
  resetToken: string | null;
  redirectTo: string | null;
  error: ErrorInfo | null;
}

export type LoginEvent =
  | { type: 'SUBMIT'; email: string; password: string }
  | { type: 'SUBMIT_CODE'; code: string }
  | { type: 'SUBMIT_RECOVERY_CODE'; recoveryCode: string }
  | { type: 'USE_RECOVERY_CODE' }
  | { type: 'USE_ONE_TIME_PASSWORD' }
  | { type: 'RESEND_CODE' }
  | { type: 'RETRY' };

export type LoginTag = 'loading' | 'route:login' | 'route:two-factor' | 'route:expired-password' | 'two-factor:otp' | 'two-factor:sms' | 'two-factor:recovery' | 'sms:can-resend';

export interface CredentialsInput { admin: boolean; email: string; password: string; interaction: string }
export interface CodeInput { admin: boolean; code: string; interaction: string }
export interface RecoveryInput { admin: boolean; recoveryCode: string; interaction: string }
export interface ResendInput { admin: boolean; interaction: string }
export interface StartAuthorizationInput { admin: boolean }

/** Real actors: the sign-in endpoints of contract/auth.ts through the injected typed client (`call`). */
export function createLoginActors(deps: { call: Call; startAuthorization: (input: StartAuthorizationInput) => Promise<void> }) {
  const { call } = deps;
  return {
    startAuthorization: fromPromise<void, StartAuthorizationInput>(({ input }) => deps.startAuthorization(input)),
    submitCredentials: fromPromise<LoginResult, CredentialsInput>(async ({ input }) => {
      const body = { email: input.email, password: input.password, interaction: input.interaction };
      return (await (input.admin ? call(auth.adminLogin, { body }) : call(auth.login, { body }))).data;
    }),
    verifyOtp: fromPromise<SecondFactorResult, CodeInput>(async ({ input }) => {
      const body = { one_time_password: input.code, interaction: input.interaction };
      return (await (input.admin ? call(auth.adminValidateOtp, { body }) : call(auth.validateOtp, { body }))).data;
    }),
    verifySmsCode: fromPromise<SecondFactorResult, CodeInput>(async ({ input }) =>
      (await call(auth.verifySms, { body: { one_time_password: input.code, interaction: input.interaction } })).data,
    ),
    resendSmsCode: fromPromise<void, ResendInput>(async ({ input }) => {
      await call(auth.resendSms, { body: { interaction: input.interaction } });
    }),
    verifyRecoveryCode: fromPromise<SecondFactorResult, RecoveryInput>(async ({ input }) =>
      (await call(auth.validateRecoveryCode, { body: { recovery_code: input.recoveryCode, interaction: input.interaction } })).data,
    ),
  };
}

/** Where a second factor's answer leads: the redirect, or the expired-password page (old password, 2FA passed). */
const secondFactorDone = [
  {
    guard: { type: 'isComplete', params: ({ event }: { event: { output: SecondFactorResult } }) => ({ result: event.output }) },
    target: '#login.leaving',
    actions: [
      { type: 'setRedirect', params: ({ event }: { event: { output: SecondFactorResult } }) => ({ url: event.output.status === 'complete' ? event.output.redirect_to : '' }) },
      { type: 'redirect', params: ({ event }: { event: { output: SecondFactorResult } }) => ({ url: event.output.status === 'complete' ? event.output.redirect_to : '' }) },
    ],
  },
  {
    guard: { type: 'isPasswordExpired', params: ({ event }: { event: { output: SecondFactorResult } }) => ({ result: event.output }) },
    target: '#login.passwordExpired',
    actions: { type: 'setPasswordExpired', params: ({ event }: { event: { output: SecondFactorResult } }) => ({ resetToken: event.output.status === 'password_expired' ? event.output.reset_token : '' }) },
  },
] as const;

export const loginMachine = setup({
  types: {
    context: {} as LoginContext,
    events: {} as LoginEvent,
    input: {} as LoginInput,
    tags: {} as LoginTag,
  },
  actors: {
    startAuthorization: fromPromise<void, StartAuthorizationInput>(async () => notProvided('startAuthorization')),
    submitCredentials: fromPromise<LoginResult, CredentialsInput>(async () => notProvided('submitCredentials')),
    verifyOtp: fromPromise<SecondFactorResult, CodeInput>(async () => notProvided('verifyOtp')),
    verifySmsCode: fromPromise<SecondFactorResult, CodeInput>(async () => notProvided('verifySmsCode')),
    resendSmsCode: fromPromise<void, ResendInput>(async () => notProvided('resendSmsCode')),
    verifyRecoveryCode: fromPromise<SecondFactorResult, RecoveryInput>(async () => notProvided('verifyRecoveryCode')),
  },
  actions: {
    redirect: (_, _params: { url: string }) => notProvided('redirect'),
    setEmail: assign((_, params: { email: string }) => ({ email: params.email, error: null })),
    setError: assign((_, params: { error: unknown; invalid: ErrorCode }) => ({ error: toErrorInfo(params.error, params.invalid) })),
    clearError: assign({ error: null }),
    setTwoFactor: assign((_, params: { method: TwoFactorMethod }) => ({ method: params.method, error: null })),
    setPasswordExpired: assign((_, params: { resetToken: string }) => ({ resetToken: params.resetToken, error: null })),
    setRedirect: assign((_, params: { url: string }) => ({ redirectTo: params.url, error: null })),
  },
  guards: {
    hasInteraction: ({ context }) => Boolean(context.interaction),
    isSms: ({ context }) => context.method === 'SMS',
    isComplete: (_, params: { result: LoginResult | SecondFactorResult }) => params.result.status === 'complete',
    isTwoFactorRequired: (_, params: { result: LoginResult }) => params.result.status === 'two_factor_required',
    isPasswordExpired: (_, params: { result: LoginResult | SecondFactorResult }) => params.result.status === 'password_expired',
  },
  delays: {
    smsResendCooldown: SMS_RESEND_COOLDOWN_MS,
  },
}).createMachine({
  id: 'login',
  context: ({ input }) => ({ ...input, email: '', method: null, resetToken: null, redirectTo: null, error: null }),
  initial: 'start',
  states: {
    start: {
      always: [{ guard: 'hasInteraction', target: 'credentials' }, { target: 'authorizing' }],
    },
    authorizing: {
      tags: ['loading'],
      invoke: {
        id: 'startAuthorization',
        src: 'startAuthorization',
        input: ({ context }) => ({ admin: context.admin }),
        // the browser is on its way to the authorization endpoint
        onDone: 'leaving',
        onError: { target: 'authorizationFailed', actions: { type: 'setError', params: ({ event }) => ({ error: event.error, invalid: 'unexpected' as const }) } },
      },
    },
    authorizationFailed: {
      tags: ['route:login'],
      on: { RETRY: { target: 'authorizing', actions: 'clearError' } },
    },
    credentials: {
      tags: ['route:login'],
      on: {
        SUBMIT: { target: 'submitting', actions: { type: 'setEmail', params: ({ event }) => ({ email: event.email }) } },
      },
    },
    submitting: {
      tags: ['route:login', 'loading'],
      invoke: {
        id: 'submitCredentials',
        src: 'submitCredentials',
        input: ({ context, event }) => ({
          admin: context.admin,
          email: context.email,
          password: event.type === 'SUBMIT' ? event.password : '',
          interaction: context.interaction ?? '',
        }),
        onDone: [
          {
            guard: { type: 'isComplete', params: ({ event }) => ({ result: event.output }) },
            target: 'leaving',
            actions: [
              { type: 'setRedirect', params: ({ event }) => ({ url: event.output.status === 'complete' ? event.output.redirect_to : '' }) },
              { type: 'redirect', params: ({ context }) => ({ url: context.redirectTo ?? '' }) },
            ],
          },
          {
            guard: { type: 'isTwoFactorRequired', params: ({ event }) => ({ result: event.output }) },
            target: 'twoFactor',
            actions: { type: 'setTwoFactor', params: ({ event }) => ({ method: event.output.status === 'two_factor_required' ? event.output.method : 'GOOGLE' }) },
          },
          {
            guard: { type: 'isPasswordExpired', params: ({ event }) => ({ result: event.output }) },
            target: 'passwordExpired',
            actions: { type: 'setPasswordExpired', params: ({ event }) => ({ resetToken: event.output.status === 'password_expired' ? event.output.reset_token : '' }) },
          },
          { target: 'credentials', actions: { type: 'setError', params: { error: null, invalid: 'unexpected' as const } } },
        ],
        onError: { target: 'credentials', actions: { type: 'setError', params: ({ event }) => ({ error: event.error, invalid: 'invalid_credentials' as const }) } },
      },
    },
    twoFactor: {
      tags: ['route:two-factor'],
      initial: 'choose',
      states: {
        choose: { always: [{ guard: 'isSms', target: 'sms' }, { target: 'otp' }] },
        otp: {
          initial: 'entering',
          tags: ['two-factor:otp'],
          on: { USE_RECOVERY_CODE: { target: 'recovery', actions: 'clearError' } },
          states: {
            entering: { on: { SUBMIT_CODE: 'verifying' } },
            verifying: {
              tags: ['loading'],
              invoke: {
                id: 'verifyOtp',
                src: 'verifyOtp',
                input: ({ context, event }) => ({ admin: context.admin, code: event.type === 'SUBMIT_CODE' ? event.code : '', interaction: context.interaction ?? '' }),
                onDone: secondFactorDone,
                onError: { target: 'entering', actions: { type: 'setError', params: ({ event }) => ({ error: event.error, invalid: 'invalid_otp' as const }) } },
              },
            },
          },
        },
        sms: {
          initial: 'cooldown',
          tags: ['two-factor:sms'],
          on: { USE_RECOVERY_CODE: { target: 'recovery', actions: 'clearError' } },
          states: {
            // the server sent a code with the two_factor_required answer; resend is possible after the cooldown
            cooldown: {
              after: { smsResendCooldown: 'ready' },
              on: { SUBMIT_CODE: 'verifying' },
            },
            ready: {
              tags: ['sms:can-resend'],
              on: { SUBMIT_CODE: 'verifying', RESEND_CODE: { target: 'resending', actions: 'clearError' } },
            },
            resending: {
              tags: ['loading'],
              invoke: {
                id: 'resendSmsCode',
                src: 'resendSmsCode',
                input: ({ context }) => ({ admin: context.admin, interaction: context.interaction ?? '' }),
                onDone: 'cooldown',
                onError: { target: 'ready', actions: { type: 'setError', params: ({ event }) => ({ error: event.error, invalid: 'unexpected' as const }) } },
              },
            },
            verifying: {
              tags: ['loading'],
              invoke: {
                id: 'verifySmsCode',
                src: 'verifySmsCode',
                input: ({ context, event }) => ({ admin: context.admin, code: event.type === 'SUBMIT_CODE' ? event.code : '', interaction: context.interaction ?? '' }),
                onDone: secondFactorDone,
                onError: { target: 'ready', actions: { type: 'setError', params: ({ event }) => ({ error: event.error, invalid: 'invalid_otp' as const }) } },
              },
            },
          },
        },
        recovery: {
          initial: 'entering',
          tags: ['two-factor:recovery'],
          on: { USE_ONE_TIME_PASSWORD: { target: 'choose', actions: 'clearError' } },
          states: {
            entering: { on: { SUBMIT_RECOVERY_CODE: 'verifying' } },
            verifying: {
              tags: ['loading'],
              invoke: {
                id: 'verifyRecoveryCode',
                src: 'verifyRecoveryCode',
                input: ({ context, event }) => ({
                  admin: context.admin,
                  recoveryCode: event.type === 'SUBMIT_RECOVERY_CODE' ? event.recoveryCode : '',
                  interaction: context.interaction ?? '',
                }),
                onDone: secondFactorDone,
                onError: { target: 'entering', actions: { type: 'setError', params: ({ event }) => ({ error: event.error, invalid: 'invalid_recovery_code' as const }) } },
              },
            },
          },
        },
      },
    },
    passwordExpired: { type: 'final', tags: ['route:expired-password'] },
    /** Browser redirect in progress (to `redirect_to` or the authorization endpoint). */
    leaving: { type: 'final', tags: ['loading'] },
  },
});

export type LoginMachine = typeof loginMachine;
