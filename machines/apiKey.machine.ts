/**
 * A technical user's API key on the user page (docs/SPEC.md "API keys"): generate (replacing a key asks first) →
 * the new key shown once, until the admin says it is stored → revoke (asks first). Failures stay on the card in
 * their own words (no toast over the buttons).
 *
 * Injected: actors generateKey, revokeKey (`createApiKeyActors({ call })`, contract/account.ts generateApiKey and
 * revokeApiKey); action `keyChanged` (the user's page is stale: current key, history).
 */
import { assign, fromPromise, setup } from 'xstate';
import * as account from '../contract/account';
import type { Call } from '../contract/endpoint';
import { toMachineError, type MachineError } from './errors';
import { notProvided } from './shared';

export interface ApiKeyInput {
  userId: string;
  hasKey: boolean;
}
export interface ApiKeyContext extends ApiKeyInput {
  /** The new key, while it is shown (once). */
  key: string | null;
  /** The last thing that happened, for the card's status line. */
  notice: 'revoked' | 'no_key' | null;
  error: MachineError | null;
}
export type ApiKeyEvent =
  | { type: 'GENERATE' }
  | { type: 'REVOKE' }
  | { type: 'CONFIRM' }
  | { type: 'DISMISS' }
  | { type: 'ACKNOWLEDGE' }
  /** The user's page was reloaded: whether the user has a key now. */
  | { type: 'KEY_STATUS'; hasKey: boolean };
export type ApiKeyScreen = 'screen:apikey.card' | 'screen:apikey.confirm-replace' | 'screen:apikey.confirm-revoke' | 'screen:apikey.shown';
export type ApiKeyTag = ApiKeyScreen | 'busy';

export function createApiKeyActors(deps: { call: Call }) {
  const { call } = deps;
  return {
    generateKey: fromPromise<{ apiKey: string }, { userId: string }>(async ({ input }) => ({
      apiKey: (await call(account.generateApiKey, { params: { id: input.userId } })).data.api_key,
    })),
    revokeKey: fromPromise<{ revoked: boolean }, { userId: string }>(async ({ input }) => ({
      revoked: (await call(account.revokeApiKey, { params: { id: input.userId } })).data.revoked,
    })),
  };
}

export const apiKeyMachine = setup({
  types: {
    context: {} as ApiKeyContext,
    events: {} as ApiKeyEvent,
    input: {} as ApiKeyInput,
    tags: {} as ApiKeyTag,
  },
  actors: {
    generateKey: fromPromise<{ apiKey: string }, { userId: string }>(async () => notProvided('generateKey')),
    revokeKey: fromPromise<{ revoked: boolean }, { userId: string }>(async () => notProvided('revokeKey')),
  },
  actions: {
    keyChanged: () => {},
    setKey: assign((_, params: { key: string }) => ({ key: params.key, hasKey: true, notice: null, error: null })),
    forgetKey: assign({ key: null }),
    setRevoked: assign((_, params: { revoked: boolean }) => ({ hasKey: false, notice: params.revoked ? ('revoked' as const) : ('no_key' as const), error: null })),
    setHasKey: assign((_, params: { hasKey: boolean }) => ({ hasKey: params.hasKey })),
    setError: assign((_, params: { error: unknown }) => ({ error: toMachineError(params.error), notice: null })),
    clearFeedback: assign({ error: null, notice: null }),
  },
  guards: {
    hasKey: ({ context }) => context.hasKey,
  },
}).createMachine({
  id: 'apiKey',
  context: ({ input }) => ({ ...input, key: null, notice: null, error: null }),
  initial: 'card',
  states: {
    card: {
      tags: ['screen:apikey.card'],
      on: {
        GENERATE: [
          { guard: 'hasKey', target: 'confirmingReplace', actions: 'clearFeedback' },
          { target: 'generating', actions: 'clearFeedback' },
        ],
        REVOKE: { guard: 'hasKey', target: 'confirmingRevoke', actions: 'clearFeedback' },
        KEY_STATUS: { actions: { type: 'setHasKey', params: ({ event }) => ({ hasKey: event.hasKey }) } },
      },
    },
    // the dialog opens over the card
    confirmingReplace: {
      tags: ['screen:apikey.card', 'screen:apikey.confirm-replace'],
      on: { CONFIRM: 'generating', DISMISS: 'card' },
    },
    generating: {
      tags: ['screen:apikey.card', 'busy'],
      invoke: {
        id: 'generateKey',
        src: 'generateKey',
        input: ({ context }) => ({ userId: context.userId }),
        onDone: { target: 'shown', actions: [{ type: 'setKey', params: ({ event }) => ({ key: event.output.apiKey }) }, 'keyChanged'] },
        onError: { target: 'card', actions: { type: 'setError', params: ({ event }) => ({ error: event.error }) } },
      },
    },
    shown: {
      tags: ['screen:apikey.shown'],
      on: { ACKNOWLEDGE: { target: 'card', actions: 'forgetKey' } },
    },
    confirmingRevoke: {
      tags: ['screen:apikey.card', 'screen:apikey.confirm-revoke'],
      on: { CONFIRM: 'revoking', DISMISS: 'card' },
    },
    revoking: {
      tags: ['screen:apikey.card', 'busy'],
      invoke: {
        id: 'revokeKey',
        src: 'revokeKey',
        input: ({ context }) => ({ userId: context.userId }),
        onDone: { target: 'card', actions: [{ type: 'setRevoked', params: ({ event }) => ({ revoked: event.output.revoked }) }, 'keyChanged'] },
        onError: { target: 'card', actions: { type: 'setError', params: ({ event }) => ({ error: event.error }) } },
      },
    },
  },
});

export type ApiKeyMachine = typeof apiKeyMachine;
