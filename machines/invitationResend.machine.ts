/**
 * Sending a not yet verified user's invitation e-mail again, from the user page (docs/SPEC.md "Invitation"):
 * ready → sending → sent (it may be sent again) | failed, in the failure's own words; "Try again" only when trying
 * again can help. A refusal that says the page is stale (already verified, an SSO account, the user gone) reloads it.
 *
 * Injected: actor sendInvitation (`createInvitationResendActors({ call })`, contract/admin/users.ts inviteUser);
 * actions `userChanged` (the user's page is stale), `announceSent` / `announceFailed` (where the outcome is not shown
 * beside the button: the user list's row icon announces it in a toast; the user page shows it inline and leaves them out).
 */
import { assign, fromPromise, setup } from 'xstate';
// method and path only: contract/admin/users.ts builds its zod schemas on import (contract/routes-admin.ts)
import { adminUsers as users } from '../contract/routes-admin';
import type { Call } from '../contract/endpoint';
import { toMachineError, type MachineError } from './errors';
import { notProvided } from './shared';

export interface InvitationResendInput {
  userId: string;
}
export interface InvitationResendContext extends InvitationResendInput {
  error: MachineError | null;
}
export type InvitationResendEvent = { type: 'SEND' } | { type: 'RETRY' };
export type InvitationResendScreen = 'screen:invite.ready' | 'screen:invite.sent' | 'screen:invite.failed';
export type InvitationResendTag = InvitationResendScreen | 'busy';

/** Refusals that mean the page shows an outdated user. */
const STALE_CODES = ['already_verified', 'invitation_not_applicable', 'user_not_found'];

export function createInvitationResendActors(deps: { call: Call }) {
  const { call } = deps;
  return {
    sendInvitation: fromPromise<void, { userId: string }>(async ({ input }) => {
      await call(users.inviteUser, { params: { id: input.userId } });
    }),
  };
}

export const invitationResendMachine = setup({
  types: {
    context: {} as InvitationResendContext,
    events: {} as InvitationResendEvent,
    input: {} as InvitationResendInput,
    tags: {} as InvitationResendTag,
  },
  actors: {
    sendInvitation: fromPromise<void, { userId: string }>(async () => notProvided('sendInvitation')),
  },
  actions: {
    userChanged: () => {},
    announceSent: () => {},
    announceFailed: (_, _params: { error: unknown }) => {},
    setError: assign((_, params: { error: unknown }) => ({ error: toMachineError(params.error) })),
    clearError: assign({ error: null }),
  },
  guards: {
    canRetry: ({ context }) => context.error?.retryable === true,
    isStale: (_, params: { error: unknown }) => STALE_CODES.includes(toMachineError(params.error).code),
  },
}).createMachine({
  id: 'invitationResend',
  context: ({ input }) => ({ ...input, error: null }),
  initial: 'ready',
  states: {
    ready: {
      tags: ['screen:invite.ready'],
      on: { SEND: 'sending' },
    },
    sending: {
      tags: ['screen:invite.ready', 'busy'],
      entry: 'clearError',
      invoke: {
        id: 'sendInvitation',
        src: 'sendInvitation',
        input: ({ context }) => ({ userId: context.userId }),
        onDone: { target: 'sent', actions: 'announceSent' },
        onError: [
          {
            guard: { type: 'isStale', params: ({ event }) => ({ error: event.error }) },
            target: 'failed',
            actions: [{ type: 'setError', params: ({ event }) => ({ error: event.error }) }, 'userChanged', { type: 'announceFailed', params: ({ event }) => ({ error: event.error }) }],
          },
          { target: 'failed', actions: [{ type: 'setError', params: ({ event }) => ({ error: event.error }) }, { type: 'announceFailed', params: ({ event }) => ({ error: event.error }) }] },
        ],
      },
    },
    sent: {
      tags: ['screen:invite.sent'],
      on: { SEND: 'sending' },
    },
    failed: {
      tags: ['screen:invite.failed'],
      on: { RETRY: { guard: 'canRetry', target: 'sending' } },
    },
  },
});

export type InvitationResendMachine = typeof invitationResendMachine;
