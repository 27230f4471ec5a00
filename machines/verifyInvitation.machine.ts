/**
 * Verify / reset-password page (docs/DESIGN.md §6 "Invitation", "Reset", §7 fixed points):
 * check the signed link → password form → save → done with the flow code
 * (`sc` setup complete, `cp` changed password).
 *
 * Injected: actors checkLink, savePassword (`createVerifyActors({ http })`).
 */
import { assign, fromPromise, setup } from 'xstate';
import { isApiError } from '../src/api/errors';
import { notProvided, toErrorInfo, type ErrorInfo, type Http } from './shared';

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

export function checkLinkRequest(input: CheckLinkInput): { url: string; method: 'GET' | 'POST'; body?: Record<string, unknown> } {
  if (input.flow === 'verify') return { url: input.url, method: 'GET' };
  return { url: input.admin ? '/api/admin/reset-password-token' : '/api/reset-password-token', method: 'POST', body: { url: input.url } };
}
export function savePasswordPath(input: Pick<CheckLinkInput, 'flow' | 'admin'>): string {
  if (input.flow === 'verify') return input.admin ? '/api/admin/verify' : '/api/user/verify';
  return input.admin ? '/api/admin/reset-password' : '/api/reset-password';
}

export function createVerifyActors(deps: { http: Http }) {
  return {
    checkLink: fromPromise<void, CheckLinkInput>(async ({ input }) => {
      const { url, ...init } = checkLinkRequest(input);
      await deps.http<unknown>(url, init);
    }),
    savePassword: fromPromise<{ flow: FlowCode }, SavePasswordInput>(async ({ input }) => {
      const response = await deps.http<{ data: { flow: FlowCode } }>(savePasswordPath(input), {
        method: 'POST',
        body: { url: input.url, password: input.password, password_confirmation: input.password_confirmation },
      });
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
    isLinkRejected: (_, params: { error: unknown }) => isApiError(params.error) && [403, 404, 410].includes(params.error.status ?? 0),
    isValidationError: (_, params: { error: unknown }) => isApiError(params.error) && params.error.status === 422,
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
