/**
 * Verify / reset-password page (docs/DESIGN.md §6 "Invitation", "Reset", §7 fixed points):
 * check the signed link → password form → save → done with the flow code
 * (`sc` setup complete, `cp` changed password) → the sign-in page.
 *
 * Screens follow the `screen:verify.*` tags (machines/verifyInvitation.qa.ts says what each shows);
 * the machine leaves the page itself through the injected `navigate` action (states tagged `exit`).
 *
 * Injected: actors checkLink, savePassword (`createVerifyActors({ call })`, the endpoints of contract/account.ts);
 * action navigate (`{ to, search? }`: a page of the route tree, e.g. `/login`, `/forgot-password` with `type=admin`).
 */
import { assign, fromPromise, setup } from 'xstate';
import * as account from '../contract/account';
import type { Call } from '../contract/endpoint';
import type { PageTarget } from './navigation';
import { toMachineError, type MachineError } from './errors';
import { isCallFailure, loginPath, notProvided } from './shared';

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
  error: MachineError | null;
}
export type VerifyInvitationEvent =
  | { type: 'SUBMIT'; password: string; password_confirmation: string }
  /** The form refused the input before sending it (policy or confirmation): the person stays on the form. */
  | { type: 'INPUT_REJECTED'; fields: string[] }
  | { type: 'RETRY' }
  | { type: 'SIGN_IN' }
  | { type: 'FORGOT_PASSWORD' };

/** The screens of the verify / reset pages (`data-screen` on each screen's root). */
export const VERIFY_SCREENS = {
  checking: 'screen:verify.checking',
  unavailable: 'screen:verify.unavailable',
  form: 'screen:verify.form',
  invalid: 'screen:verify.invalid',
  done: 'screen:verify.done',
  /** `exit`: where the machine sends the person (rendered by other pages). */
  toSignIn: 'screen:verify.to-sign-in',
  toForgotPassword: 'screen:verify.to-forgot-password',
} as const;
export type VerifyScreen = (typeof VERIFY_SCREENS)[keyof typeof VERIFY_SCREENS];
export type VerifyInvitationTag = 'loading' | 'exit' | VerifyScreen;

export interface CheckLinkInput { flow: VerifyFlow; admin: boolean; url: string }
export interface SavePasswordInput extends CheckLinkInput { password: string; password_confirmation: string }

/** A `url` that is not a signed invitation link of the expected kind: refused like an expired link. */
export class UnknownLinkError extends Error {
  readonly code = 'not_a_signed_link';
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
    setError: assign((_, params: { error: unknown }) => ({ error: toMachineError(params.error) })),
    setLinkInvalid: assign({ error: { code: 'invalid_link' as const, retryable: false } }),
    clearError: assign({ error: null }),
    setFlowCode: assign((_, params: { flow: FlowCode }) => ({ flowCode: params.flow, error: null })),
    navigate: (_, _params: PageTarget) => notProvided('navigate'),
  },
  guards: {
    /**
     * A link worth asking the server about: an invitation link must be a signed link of this page's kind
     * (a user link on the admin page is refused here, without a request); reset links go to the server as they are.
     */
    isCandidateLink: ({ context }) =>
      context.url !== null &&
      context.url !== '' &&
      (context.flow === 'reset' || signedLinkParams(context.url, account.byKind[context.admin ? 'admin' : 'user'].checkInvitationLink.path) !== null),
    /** 403/404/410: expired or tampered signature. */
    isLinkRejected: (_, params: { error: unknown }) =>
      params.error instanceof UnknownLinkError || (isCallFailure(params.error) && [403, 404, 410].includes(params.error.status ?? 0)),
    isValidationError: (_, params: { error: unknown }) => isCallFailure(params.error) && params.error.status === 422,
    isReset: ({ context }) => context.flow === 'reset',
  },
}).createMachine({
  id: 'verifyInvitation',
  context: ({ input }) => ({ ...input, flowCode: null, error: null }),
  initial: 'start',
  states: {
    start: {
      always: [{ guard: 'isCandidateLink', target: 'checking' }, { target: 'invalid', actions: 'setLinkInvalid' }],
    },
    checking: {
      tags: ['screen:verify.checking', 'loading'],
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
      tags: ['screen:verify.unavailable'],
      on: { RETRY: { target: 'checking', actions: 'clearError' } },
    },
    form: {
      tags: ['screen:verify.form'],
      on: { SUBMIT: 'saving', INPUT_REJECTED: { actions: 'clearError' } },
    },
    saving: {
      tags: ['screen:verify.form', 'loading'],
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
    invalid: {
      tags: ['screen:verify.invalid'],
      on: { SIGN_IN: 'toSignIn', FORGOT_PASSWORD: { guard: 'isReset', target: 'toForgotPassword' } },
    },
    done: {
      tags: ['screen:verify.done'],
      on: { SIGN_IN: 'toSignIn' },
    },
    toSignIn: {
      type: 'final',
      tags: ['screen:verify.to-sign-in', 'exit'],
      entry: { type: 'navigate', params: ({ context }) => ({ to: loginPath(context.admin) }) },
    },
    toForgotPassword: {
      type: 'final',
      tags: ['screen:verify.to-forgot-password', 'exit'],
      entry: { type: 'navigate', params: ({ context }) => ({ to: '/forgot-password', ...(context.admin ? { search: { type: 'admin' } } : {}) }) },
    },
  },
});

export type VerifyInvitationMachine = typeof verifyInvitationMachine;
