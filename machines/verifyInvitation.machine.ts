/**
 * Verify / reset-password page (docs/DESIGN.md §6 "Invitation", "Reset", §7 fixed points):
 * check the signed link → password form → save → done with the flow code
 * (`sc` setup complete, `cp` changed password).
 *
 * Injected: actors checkLink, savePassword (`createVerifyActors({ call })`, the endpoints of contract/account.ts).
 */
import { assign, fromPromise, setup } from 'xstate';
import * as account from '../contract/account';
import type { Call } from '../contract/endpoint';
import { isCallFailure, notProvided, toErrorInfo, type ErrorInfo } from './shared';

export type VerifyFlow = 'verify' | 'reset';
export type FlowCode = 'sc' | 'cp';

export interface VerifyInvitationInput {
  flow: VerifyFlow;
  admin: boolean;
  /** The `url` query parameter: the full signed API link. */
  url: string | null;
}
export interface VerifyInvitationContext extends VerifyInvitationInput {
  flowCode: FlowCode | null;
  error: ErrorInfo | null;
}
export type VerifyInvitationEvent =
  | { type: 'SUBMIT'; password: string; password_confirmation: string }
  | { type: 'RETRY' };
export type VerifyInvitationTag = 'loading' | 'route:verify-form' | 'route:verify-invalid' | 'route:verify-done' | 'route:verify-unavailable';

export interface CheckLinkInput { flow: VerifyFlow; admin: boolean; url: string }
export interface SavePasswordInput extends CheckLinkInput { password: string; password_confirmation: string }

/** A `url` that is not a signed invitation link of the expected kind: refused like an expired link. */
export class UnknownLinkError extends Error {
  constructor() {
    super('not a signed link');
    this.name = 'UnknownLinkError';
  }
}

/** The `token`, `expires` and `signature` of a full signed link whose path is `path`; null for anything else. */
export function signedLinkParams(url: string, path: string): { token?: string; expires?: string; signature?: string } | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return null;
  }
  if (parsed.pathname !== path) return null;
  const params: { token?: string; expires?: string; signature?: string } = {};
  for (const name of ['token', 'expires', 'signature'] as const) {
    const value = parsed.searchParams.get(name);
    if (value !== null) params[name] = value;
  }
  return params;
}

export function createVerifyActors(deps: { call: Call }) {
  const { call } = deps;
  return {
    checkLink: fromPromise<void, CheckLinkInput>(async ({ input }) => {
      const endpoints = account.byKind[input.admin ? 'admin' : 'user'];
      if (input.flow === 'reset') {
        await call(endpoints.checkResetToken, { body: { url: input.url } });
        return;
      }
      // the invitation link is the signed GET of its endpoint: checked with its own parameters
      const query = signedLinkParams(input.url, endpoints.checkInvitationLink.path);
      if (!query) throw new UnknownLinkError();
      await call(endpoints.checkInvitationLink, { query });
    }),
    savePassword: fromPromise<{ flow: FlowCode }, SavePasswordInput>(async ({ input }) => {
      const endpoints = account.byKind[input.admin ? 'admin' : 'user'];
      const body = { url: input.url, password: input.password, password_confirmation: input.password_confirmation };
      const response = input.flow === 'verify' ? await call(endpoints.finishInvitation, { body }) : await call(endpoints.resetPassword, { body });
      return { flow: response.data.flow };
    }),
  };
}

export const verifyInvitationMachine = setup({
  types: {
    context: {} as VerifyInvitationContext,
    events: {} as VerifyInvitationEvent,
    input: {} as VerifyInvitationInput,
    tags: {} as VerifyInvitationTag,
  },
  actors: {
    checkLink: fromPromise<void, CheckLinkInput>(async () => notProvided('checkLink')),
    savePassword: fromPromise<{ flow: FlowCode }, SavePasswordInput>(async () => notProvided('savePassword')),
  },
  actions: {
    setError: assign((_, params: { error: unknown }) => ({ error: toErrorInfo(params.error, 'validation_failed') })),
    setLinkInvalid: assign({ error: { code: 'link_invalid' as const } }),
    clearError: assign({ error: null }),
    setFlowCode: assign((_, params: { flow: FlowCode }) => ({ flowCode: params.flow, error: null })),
  },
  guards: {
    hasUrl: ({ context }) => Boolean(context.url),
    /** 403/404/410: expired or tampered signature. */
    isLinkRejected: (_, params: { error: unknown }) =>
      params.error instanceof UnknownLinkError || (isCallFailure(params.error) && [403, 404, 410].includes(params.error.status ?? 0)),
    isValidationError: (_, params: { error: unknown }) => isCallFailure(params.error) && params.error.status === 422,
  },
}).createMachine({
  id: 'verifyInvitation',
  context: ({ input }) => ({ ...input, flowCode: null, error: null }),
  initial: 'start',
  states: {
    start: {
      always: [{ guard: 'hasUrl', target: 'checking' }, { target: 'invalid', actions: 'setLinkInvalid' }],
    },
    checking: {
      tags: ['loading'],
      invoke: {
        id: 'checkLink',
        src: 'checkLink',
        input: ({ context }) => ({ flow: context.flow, admin: context.admin, url: context.url ?? '' }),
        onDone: { target: 'form', actions: 'clearError' },
        onError: [
          { guard: { type: 'isLinkRejected', params: ({ event }) => ({ error: event.error }) }, target: 'invalid', actions: 'setLinkInvalid' },
          { target: 'unavailable', actions: { type: 'setError', params: ({ event }) => ({ error: event.error }) } },
        ],
      },
    },
    unavailable: {
      tags: ['route:verify-unavailable'],
      on: { RETRY: { target: 'checking', actions: 'clearError' } },
    },
    form: {
      tags: ['route:verify-form'],
      on: { SUBMIT: 'saving' },
    },
    saving: {
      tags: ['route:verify-form', 'loading'],
      invoke: {
        id: 'savePassword',
        src: 'savePassword',
        input: ({ context, event }) => ({
          flow: context.flow,
          admin: context.admin,
          url: context.url ?? '',
          password: event.type === 'SUBMIT' ? event.password : '',
          password_confirmation: event.type === 'SUBMIT' ? event.password_confirmation : '',
        }),
        onDone: { target: 'done', actions: { type: 'setFlowCode', params: ({ event }) => ({ flow: event.output.flow }) } },
        onError: [
          { guard: { type: 'isLinkRejected', params: ({ event }) => ({ error: event.error }) }, target: 'invalid', actions: 'setLinkInvalid' },
          { target: 'form', actions: { type: 'setError', params: ({ event }) => ({ error: event.error }) } },
        ],
      },
    },
    invalid: { type: 'final', tags: ['route:verify-invalid'] },
    done: { type: 'final', tags: ['route:verify-done'] },
  },
});

export type VerifyInvitationMachine = typeof verifyInvitationMachine;
