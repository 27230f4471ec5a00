/**
 * The SMS that turns SMS two-factor off (docs/SPEC.md §4 "Two-factor"): SMS codes are sent on request only, so
 * with SMS two-factor on, the profile's "Turn off with: One time password" offers "Send code by SMS":
 * ready → sending → sent (it may be asked for again) | back to ready with the reason ("Please wait 30 seconds …"
 * when asked for within the server's 30 s window, a network error).
 *
 * Its own machine beside twoFactorSetup (which owns enabled → disabling): the code can be asked for any number of
 * times, and as states of twoFactorSetup this cycle multiplied that machine's simple paths eightfold (6 770 → 57 398).
 *
 * Injected: actor sendCode (`createDisableCodeActors({ call })`, contract/account.ts sendEnrollmentSms: with SMS
 * two-factor on, the server sends the code that confirms turning it off).
 */
import { assign, fromPromise, setup } from 'xstate';
import * as account from '../contract/account';
import type { Call } from '../contract/endpoint';
import { toMachineError, type MachineError } from './errors';
import { notProvided } from './shared';

export interface DisableCodeInput {
  phone: string;
}
export interface DisableCodeContext extends DisableCodeInput {
  error: MachineError | null;
}
export type DisableCodeEvent = { type: 'SEND' };
/** `screen:2fa-code.*` on the element with the button (data-screen); `busy` while the request runs. */
export const DISABLE_CODE_SCREENS = ['screen:2fa-code.ready', 'screen:2fa-code.sent'] as const;
export type DisableCodeScreen = (typeof DISABLE_CODE_SCREENS)[number];
export type DisableCodeTag = DisableCodeScreen | 'busy';

export function createDisableCodeActors(deps: { call: Call }) {
  const { call } = deps;
  return {
    sendCode: fromPromise<void, void>(async () => {
      await call(account.sendEnrollmentSms);
    }),
  };
}

export const disableCodeMachine = setup({
  types: {
    context: {} as DisableCodeContext,
    events: {} as DisableCodeEvent,
    input: {} as DisableCodeInput,
    tags: {} as DisableCodeTag,
  },
  actors: {
    sendCode: fromPromise<void, void>(async () => notProvided('sendCode')),
  },
  actions: {
    setError: assign((_, params: { error: unknown }) => ({ error: toMachineError(params.error) })),
    clearError: assign({ error: null }),
  },
}).createMachine({
  id: 'disableCode',
  context: ({ input }) => ({ ...input, error: null }),
  initial: 'ready',
  states: {
    ready: {
      tags: ['screen:2fa-code.ready'],
      on: { SEND: 'sending' },
    },
    sending: {
      tags: ['screen:2fa-code.ready', 'busy'],
      entry: 'clearError',
      invoke: {
        id: 'sendCode',
        src: 'sendCode',
        onDone: 'sent',
        onError: { target: 'ready', actions: { type: 'setError', params: ({ event }) => ({ error: event.error }) } },
      },
    },
    sent: {
      tags: ['screen:2fa-code.sent'],
      on: { SEND: 'sending' },
    },
  },
});

export type DisableCodeMachine = typeof disableCodeMachine;
