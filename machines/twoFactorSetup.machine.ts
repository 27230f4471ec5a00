/**
 * Two-factor setup on the profile page (docs/SPEC.md §4 "Two-factor", docs/DESIGN.md §7):
 * status → authenticator (secret + QR → confirm code) or SMS (phone → send →
 * code, resend after a 60 s cooldown → confirm) → recovery codes shown once →
 * enabled; disable with a one-time password or the password. Cancel only where a screen offers it (the
 * QR and SMS-code screens, no request running).
 *
 * Injected: actors createSecret, enableAuthenticator, sendSmsCode,
 * resendSmsCode, enableSms, disableTwoFactor (`createTwoFactorActors({ call })`, the contract's
 * endpoints of contract/account.ts and the SMS resend of contract/auth.ts).
 */
import { assign, fromPromise, setup } from 'xstate';
import * as account from '../contract/account';
import * as auth from '../contract/auth';
import type { Call } from '../contract/endpoint';
import { toMachineError, type MachineError } from './errors';
import { notProvided } from './shared';

export const SMS_RESEND_COOLDOWN_MS = 60_000;
/** docs/SPEC.md §5: phone starts with + followed only by digits. */
export const PHONE_PATTERN = /^\+\d+$/;

export type TwoFactorMethod = 'GOOGLE' | 'SMS';

export interface TwoFactorSetupInput {
  enabled: boolean;
  method: TwoFactorMethod | null;
  phone: string | null;
}
export interface TwoFactorSetupContext extends TwoFactorSetupInput {
  secret: string | null;
  otpauthUrl: string | null;
  /** Shown once, cleared when acknowledged. */
  recoveryCodes: string[] | null;
  disableWith: 'one_time_password' | 'password' | null;
  error: MachineError | null;
}
export type TwoFactorSetupEvent =
  | { type: 'CHOOSE_AUTHENTICATOR' }
  | { type: 'CHOOSE_SMS' }
  | { type: 'PHONE_UPDATED'; phone: string | null }
  | { type: 'SUBMIT_CODE'; code: string }
  | { type: 'RESEND_CODE' }
  | { type: 'CANCEL' }
  | { type: 'ACKNOWLEDGE' }
  | { type: 'DISABLE'; one_time_password?: string; password?: string };
/**
 * Screens (machines/testing/qa.ts): every non-transient state has exactly one `screen:2fa.*` tag, the screen the
 * two-factor section shows (its root carries `data-screen="<tag>"`); `loading` while a request runs (the screen
 * stays, its buttons are busy); `sms:can-resend` once the resend cooldown is over.
 */
export const TWO_FACTOR_SCREENS = ['screen:2fa.off', 'screen:2fa.authenticator', 'screen:2fa.sms-code', 'screen:2fa.recovery-codes', 'screen:2fa.on'] as const;
export type TwoFactorScreen = (typeof TWO_FACTOR_SCREENS)[number];
export type TwoFactorSetupTag = 'loading' | 'sms:can-resend' | TwoFactorScreen;

export interface SecretOutput { secret: string; otpauth_url: string }
export interface CodeInput { one_time_password: string }
export type DisableInput = { one_time_password: string } | { password: string };

export function createTwoFactorActors(deps: { call: Call }) {
  const { call } = deps;
  return {
    createSecret: fromPromise<SecretOutput, void>(async () => (await call(account.createTotpSecret)).data),
    enableAuthenticator: fromPromise<{ recovery_codes: string[] }, CodeInput>(async ({ input }) =>
      (await call(account.enableTotp, { body: { one_time_password: input.one_time_password } })).data),
    sendSmsCode: fromPromise<void, void>(async () => {
      await call(account.sendEnrollmentSms);
    }),
    resendSmsCode: fromPromise<void, void>(async () => {
      await call(auth.resendSms);
    }),
    enableSms: fromPromise<{ recovery_codes: string[] }, CodeInput>(async ({ input }) =>
      (await call(account.enableSms, { body: { one_time_password: input.one_time_password } })).data),
    disableTwoFactor: fromPromise<void, DisableInput>(async ({ input }) => {
      await call(account.disableTwoFactor, { body: { ...input } });
    }),
  };
}

const codeInput = ({ event }: { event: TwoFactorSetupEvent }): CodeInput => ({ one_time_password: event.type === 'SUBMIT_CODE' ? event.code : '' });

export const twoFactorSetupMachine = setup({
  types: {
    context: {} as TwoFactorSetupContext,
    events: {} as TwoFactorSetupEvent,
    input: {} as TwoFactorSetupInput,
    tags: {} as TwoFactorSetupTag,
  },
  actors: {
    createSecret: fromPromise<SecretOutput, void>(async () => notProvided('createSecret')),
    enableAuthenticator: fromPromise<{ recovery_codes: string[] }, CodeInput>(async () => notProvided('enableAuthenticator')),
    sendSmsCode: fromPromise<void, void>(async () => notProvided('sendSmsCode')),
    resendSmsCode: fromPromise<void, void>(async () => notProvided('resendSmsCode')),
    enableSms: fromPromise<{ recovery_codes: string[] }, CodeInput>(async () => notProvided('enableSms')),
    disableTwoFactor: fromPromise<void, DisableInput>(async () => notProvided('disableTwoFactor')),
  },
  actions: {
    setError: assign((_, params: { error: unknown }) => ({ error: toMachineError(params.error) })),
    setPhoneRequired: assign({ error: { code: 'phone_required' as const, retryable: false } }),
    clearError: assign({ error: null }),
    setPhone: assign((_, params: { phone: string | null }) => ({ phone: params.phone, error: null })),
    setSecret: assign((_, params: SecretOutput) => ({ secret: params.secret, otpauthUrl: params.otpauth_url, error: null })),
    clearSecret: assign({ secret: null, otpauthUrl: null, error: null }),
    setEnabled: assign((_, params: { method: TwoFactorMethod; recoveryCodes: string[] }) => ({
      enabled: true,
      method: params.method,
      recoveryCodes: params.recoveryCodes,
      secret: null,
      otpauthUrl: null,
      error: null,
    })),
    forgetRecoveryCodes: assign({ recoveryCodes: null }),
    setDisableWith: assign((_, params: { with: 'one_time_password' | 'password' }) => ({ disableWith: params.with, error: null })),
    setDisabled: assign({ enabled: false, method: null, disableWith: null, error: null }),
  },
  guards: {
    isEnabled: ({ context }) => context.enabled,
    hasValidPhone: ({ context }) => context.phone !== null && PHONE_PATTERN.test(context.phone),
  },
  delays: { smsResendCooldown: SMS_RESEND_COOLDOWN_MS },
}).createMachine({
  id: 'twoFactorSetup',
  context: ({ input }) => ({ ...input, secret: null, otpauthUrl: null, recoveryCodes: null, disableWith: null, error: null }),
  initial: 'start',
  states: {
    start: { always: [{ guard: 'isEnabled', target: 'enabled' }, { target: 'disabled' }] },
    disabled: {
      id: 'disabled',
      tags: ['screen:2fa.off'],
      on: {
        CHOOSE_AUTHENTICATOR: { target: 'authenticator', actions: 'clearError' },
        CHOOSE_SMS: [{ guard: 'hasValidPhone', target: 'sms', actions: 'clearError' }, { actions: 'setPhoneRequired' }],
        PHONE_UPDATED: { actions: { type: 'setPhone', params: ({ event }) => ({ phone: event.phone }) } },
      },
    },
    authenticator: {
      initial: 'creatingSecret',
      states: {
        creatingSecret: {
          tags: ['loading', 'screen:2fa.off'],
          invoke: {
            id: 'createSecret',
            src: 'createSecret',
            onDone: { target: 'qr', actions: { type: 'setSecret', params: ({ event }) => event.output } },
            onError: { target: '#disabled', actions: { type: 'setError', params: ({ event }) => ({ error: event.error }) } },
          },
        },
        qr: {
          tags: ['screen:2fa.authenticator'],
          on: { SUBMIT_CODE: 'enabling', CANCEL: { target: '#disabled', actions: 'clearSecret' } },
        },
        enabling: {
          tags: ['loading', 'screen:2fa.authenticator'],
          invoke: {
            id: 'enableAuthenticator',
            src: 'enableAuthenticator',
            input: codeInput,
            onDone: {
              target: '#recoveryCodes',
              actions: { type: 'setEnabled', params: ({ event }) => ({ method: 'GOOGLE' as const, recoveryCodes: event.output.recovery_codes }) },
            },
            onError: { target: 'qr', actions: { type: 'setError', params: ({ event }) => ({ error: event.error }) } },
          },
        },
      },
    },
    sms: {
      initial: 'sending',
      states: {
        sending: {
          tags: ['loading', 'screen:2fa.off'],
          invoke: {
            id: 'sendSmsCode',
            src: 'sendSmsCode',
            onDone: 'code',
            onError: { target: '#disabled', actions: { type: 'setError', params: ({ event }) => ({ error: event.error }) } },
          },
        },
        code: {
          tags: ['screen:2fa.sms-code'],
          initial: 'cooldown',
          on: { SUBMIT_CODE: 'enabling', CANCEL: { target: '#disabled', actions: 'clearError' } },
          states: {
            cooldown: { after: { smsResendCooldown: 'ready' } },
            ready: { tags: ['sms:can-resend'], on: { RESEND_CODE: { target: '#twoFactorSetup.sms.resending', actions: 'clearError' } } },
          },
        },
        resending: {
          tags: ['loading', 'screen:2fa.sms-code'],
          invoke: {
            id: 'resendSmsCode',
            src: 'resendSmsCode',
            onDone: 'code',
            onError: { target: 'code.ready', actions: { type: 'setError', params: ({ event }) => ({ error: event.error }) } },
          },
        },
        enabling: {
          tags: ['loading', 'screen:2fa.sms-code'],
          invoke: {
            id: 'enableSms',
            src: 'enableSms',
            input: codeInput,
            onDone: {
              target: '#recoveryCodes',
              actions: { type: 'setEnabled', params: ({ event }) => ({ method: 'SMS' as const, recoveryCodes: event.output.recovery_codes }) },
            },
            onError: { target: 'code.ready', actions: { type: 'setError', params: ({ event }) => ({ error: event.error }) } },
          },
        },
      },
    },
    recoveryCodes: {
      id: 'recoveryCodes',
      tags: ['screen:2fa.recovery-codes'],
      on: { ACKNOWLEDGE: { target: 'enabled', actions: 'forgetRecoveryCodes' } },
    },
    enabled: {
      tags: ['screen:2fa.on'],
      on: {
        DISABLE: {
          target: 'disabling',
          actions: { type: 'setDisableWith', params: ({ event }) => ({ with: event.password !== undefined ? ('password' as const) : ('one_time_password' as const) }) },
        },
      },
    },
    disabling: {
      tags: ['loading', 'screen:2fa.on'],
      invoke: {
        id: 'disableTwoFactor',
        src: 'disableTwoFactor',
        input: ({ event }) =>
          event.type === 'DISABLE' && event.password !== undefined ? { password: event.password } : { one_time_password: event.type === 'DISABLE' ? (event.one_time_password ?? '') : '' },
        onDone: { target: 'disabled', actions: 'setDisabled' },
        onError: {
          target: 'enabled',
          actions: {
            type: 'setError',
            params: ({ event }) => ({ error: event.error }),
          },
        },
      },
    },
  },
});

export type TwoFactorSetupMachine = typeof twoFactorSetupMachine;
