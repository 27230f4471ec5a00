/**
 * Registering a passkey (issue 33, docs/ACCOUNT-SECURITY.md "Passkeys"), in two places:
 *
 * - `profile`: the profile's Passkeys card. "Add a passkey" → name it (a default from the browser is offered) →
 *   creation options with a single-use challenge (POST /api/passkeys/registration-options) → the browser's prompt
 *   (`navigator.credentials.create()`) → saved (POST /api/passkeys) → "Passkey added", back to the card.
 * - `enrolment`: a sign-in whose account must have a passkey first (the login machine's `enrolment` state invokes this
 *   machine with the interaction): the same steps with the interaction's endpoints (POST /api/passkeys/enrolment-options,
 *   POST /api/passkeys/enrol), and the machine ends with the sign-in's answer (`output`), which the login machine
 *   follows (the app's redirect, or the expired-password step).
 *
 * The browser's prompt is one actor (`createCredential`); the machine stops waiting for it after the options' own
 * `timeout` (plus a grace, `ceremonyTimeout`: the browser normally gives up first, as `passkey_cancelled`) and
 * cancels it (`cancelCeremony`). A cancelled, timed-out or refused ceremony, and a failed call, come back to the name
 * step with the error in words (machines/webauthn.ts, machines/errors.ts); in `enrolment`, a sign-in that is gone
 * (expired, another browser's, the account deactivated) ends the machine with that error for the login machine.
 *
 * Injected: actors getOptions, createCredential, save (`createPasskeyRegistrationActors({ call, createPasskey })`);
 * actions cancelCeremony, passkeyAdded (the profile's list is stale).
 */
import { assign, fromPromise, setup } from 'xstate';
import type { SecondFactorResult } from '../contract/auth';
import type { Call } from '../contract/endpoint';
import type { PasskeyCredentialJSON, PasskeyView } from '../contract/passkeys';
import { passkeys } from '../contract/routes';
import { toMachineError, type MachineError } from './errors';
import { notProvided } from './shared';
import { toCeremonyError } from './webauthn';

/** What the browser is given: the server's options (contract ceremonyOptionsSchema). */
export type CeremonyOptions = Record<string, unknown> & { challenge: string; timeout?: number };
/** The machine waits this much longer than the options' `timeout` before it gives up on the browser. */
export const CEREMONY_GRACE_MS = 5_000;
/** When the options name no timeout (WebAuthn's recommended range is 5–10 minutes; the server sends 2). */
export const DEFAULT_CEREMONY_TIMEOUT_MS = 120_000;

export type PasskeyRegistrationMode = 'profile' | 'enrolment';
export interface PasskeyRegistrationInput {
  mode: PasskeyRegistrationMode;
  /** The name offered in the name field ("Chrome on Linux"); the person may change it. */
  defaultName: string;
  /** `enrolment` only: the sign-in's interaction and whether it is the admin console's. */
  interaction?: string | null;
  admin?: boolean;
}
export interface PasskeyRegistrationContext {
  mode: PasskeyRegistrationMode;
  interaction: string | null;
  admin: boolean;
  name: string;
  options: CeremonyOptions | null;
  /** The browser's answer, while it is being saved. */
  credential: PasskeyCredentialJSON | null;
  /** The passkey just added (profile), for "Passkey added: <name>". */
  added: PasskeyView | null;
  /** `enrolment`: the sign-in's answer once the passkey is registered. */
  result: SecondFactorResult | null;
  error: MachineError | null;
}
/** `enrolment`: how the machine ended, for the login machine (the sign-in's answer, or why it cannot go on). */
export type PasskeyEnrolmentOutput = { status: 'signed_in'; result: SecondFactorResult } | { status: 'failed'; error: MachineError };

export type PasskeyRegistrationEvent =
  /** "Add a passkey" (profile) */
  | { type: 'START' }
  /** the name form: "Continue" */
  | { type: 'SUBMIT'; name: string }
  /** "Cancel" on the name form or while the browser asks */
  | { type: 'CANCEL' }
  /** "Done" after "Passkey added" */
  | { type: 'DISMISS' };

export const PASSKEY_REGISTRATION_SCREENS = ['screen:passkey-add.card', 'screen:passkey-add.name', 'screen:passkey-add.prompt', 'screen:passkey-add.added'] as const;
export type PasskeyRegistrationScreen = (typeof PASSKEY_REGISTRATION_SCREENS)[number];
export type PasskeyRegistrationTag = PasskeyRegistrationScreen | 'loading';

export interface OptionsInput { mode: PasskeyRegistrationMode; interaction: string }
export interface CreateInput { options: CeremonyOptions }
export interface SaveInput { mode: PasskeyRegistrationMode; interaction: string; name: string; credential: PasskeyCredentialJSON }
export type SaveOutput = { kind: 'added'; passkey: PasskeyView } | { kind: 'signed_in'; result: SecondFactorResult };

/** Real actors: the contract's passkey endpoints through the typed client, and the browser's ceremony. */
export function createPasskeyRegistrationActors(deps: { call: Call; createPasskey: (options: CeremonyOptions) => Promise<PasskeyCredentialJSON> }) {
  const { call } = deps;
  return {
    getOptions: fromPromise<CeremonyOptions, OptionsInput>(async ({ input }) => {
      const answer =
        input.mode === 'enrolment'
          ? await call(passkeys.passkeyEnrolmentOptions, { body: { interaction: input.interaction } })
          : await call(passkeys.passkeyRegistrationOptions);
      return answer.data.options;
    }),
    createCredential: fromPromise<PasskeyCredentialJSON, CreateInput>(({ input }) => deps.createPasskey(input.options)),
    save: fromPromise<SaveOutput, SaveInput>(async ({ input }) => {
      if (input.mode === 'enrolment') {
        const answer = await call(passkeys.passkeyEnrol, { body: { interaction: input.interaction, name: input.name, credential: input.credential } });
        return { kind: 'signed_in', result: answer.data };
      }
      const answer = await call(passkeys.registerPasskey, { body: { name: input.name, credential: input.credential } });
      return { kind: 'added', passkey: answer.data };
    }),
  };
}

/** Codes after which an enrolment's sign-in cannot go on here (the login machine shows its own screen for each). */
export const ENROLMENT_GONE: readonly string[] = ['interaction_expired', 'interaction_invalid', 'interaction_foreign_browser', 'account_inactive', 'invalid_link'];

type ErrorOf = { event: { error: unknown } };
const ceremonyError = ({ event }: ErrorOf) => ({ error: toCeremonyError(event.error) });
const callError = ({ event }: ErrorOf) => ({ error: event.error });
/** A failed call: in an enrolment whose sign-in is gone, the end; otherwise back to the name step with the words. */
const onCallError = [
  { guard: { type: 'isSignInGone' as const, params: callError }, target: '#passkeyRegistration.failed', actions: { type: 'setError' as const, params: callError } },
  { target: '#passkeyRegistration.naming', actions: { type: 'setError' as const, params: callError } },
];

export const passkeyRegistrationMachine = setup({
  types: {
    context: {} as PasskeyRegistrationContext,
    events: {} as PasskeyRegistrationEvent,
    input: {} as PasskeyRegistrationInput,
    tags: {} as PasskeyRegistrationTag,
    output: {} as PasskeyEnrolmentOutput,
  },
  actors: {
    getOptions: fromPromise<CeremonyOptions, OptionsInput>(async () => notProvided('getOptions')),
    createCredential: fromPromise<PasskeyCredentialJSON, CreateInput>(async () => notProvided('createCredential')),
    save: fromPromise<SaveOutput, SaveInput>(async () => notProvided('save')),
  },
  actions: {
    /** Stops the browser's prompt (Cancel pressed, or the machine stopped waiting). */
    cancelCeremony: () => notProvided('cancelCeremony'),
    /** The profile's list of passkeys is stale. */
    passkeyAdded: () => {},
    setName: assign((_, params: { name: string }) => ({ name: params.name.trim(), error: null })),
    setOptions: assign((_, params: { options: CeremonyOptions }) => ({ options: params.options })),
    setCredential: assign((_, params: { credential: PasskeyCredentialJSON }) => ({ credential: params.credential })),
    setSaved: assign((_, params: { output: SaveOutput }) =>
      params.output.kind === 'added' ? { added: params.output.passkey, options: null, credential: null, error: null } : { result: params.output.result, options: null, credential: null, error: null },
    ),
    setError: assign((_, params: { error: unknown }) => ({ error: toMachineError(params.error), options: null, credential: null })),
    setCeremonyError: assign((_, params: { error: MachineError }) => ({ error: params.error, options: null, credential: null })),
    setTimedOut: assign({ error: { code: 'passkey_timeout', retryable: true } satisfies MachineError, options: null, credential: null }),
    clearError: assign({ error: null, options: null, credential: null }),
    reset: assign({ error: null, options: null, credential: null, added: null }),
  },
  guards: {
    isProfile: ({ context }) => context.mode === 'profile',
    isSignInGone: ({ context }, params: { error: unknown }) => context.mode === 'enrolment' && ENROLMENT_GONE.includes(toMachineError(params.error).code),
    /** Another ceremony replaced this one: not a failure to show (machines/webauthn.ts). */
    isAborted: (_, params: { error: MachineError }) => params.error.code === 'passkey_aborted',
    isAdded: (_, params: { output: SaveOutput }) => params.output.kind === 'added',
  },
  delays: {
    ceremonyTimeout: ({ context }) => (context.options?.timeout ?? DEFAULT_CEREMONY_TIMEOUT_MS) + CEREMONY_GRACE_MS,
  },
}).createMachine({
  id: 'passkeyRegistration',
  context: ({ input }) => ({
    mode: input.mode,
    interaction: input.interaction ?? null,
    admin: input.admin ?? false,
    name: input.defaultName,
    options: null,
    credential: null,
    added: null,
    result: null,
    error: null,
  }),
  initial: 'start',
  output: ({ context }): PasskeyEnrolmentOutput => (context.result ? { status: 'signed_in', result: context.result } : { status: 'failed', error: context.error ?? { code: 'unexpected', retryable: false } }),
  states: {
    start: { always: [{ guard: 'isProfile', target: 'card' }, { target: 'naming' }] },
    /** The Passkeys card with "Add a passkey". */
    card: {
      tags: ['screen:passkey-add.card'],
      on: { START: { target: 'naming', actions: 'reset' } },
    },
    /** The name field (what the passkey is called in the list), with the last failure in words. */
    naming: {
      tags: ['screen:passkey-add.name'],
      on: {
        SUBMIT: { target: 'requestingOptions', actions: { type: 'setName', params: ({ event }) => ({ name: event.name }) } },
        CANCEL: { guard: 'isProfile', target: 'card', actions: 'clearError' },
      },
    },
    requestingOptions: {
      tags: ['screen:passkey-add.name', 'loading'],
      invoke: {
        id: 'getOptions',
        src: 'getOptions',
        input: ({ context }) => ({ mode: context.mode, interaction: context.interaction ?? '' }),
        onDone: { target: 'prompting', actions: { type: 'setOptions', params: ({ event }) => ({ options: event.output }) } },
        onError: onCallError,
      },
    },
    /** The browser's own prompt is open (security key, fingerprint, phone): the card says so, with Cancel. */
    prompting: {
      tags: ['screen:passkey-add.prompt'],
      invoke: {
        id: 'createCredential',
        src: 'createCredential',
        input: ({ context }) => ({ options: context.options ?? { challenge: '' } }),
        onDone: { target: 'saving', actions: { type: 'setCredential', params: ({ event }) => ({ credential: event.output }) } },
        onError: [
          // Cancel below aborts the ceremony first; its AbortError arrives after the machine moved on
          { guard: { type: 'isAborted', params: ceremonyError }, target: 'naming', actions: 'clearError' },
          { target: 'naming', actions: { type: 'setCeremonyError', params: ceremonyError } },
        ],
      },
      after: { ceremonyTimeout: { target: 'naming', actions: ['cancelCeremony', 'setTimedOut'] } },
      on: { CANCEL: { target: 'naming', actions: ['cancelCeremony', 'clearError'] } },
    },
    saving: {
      tags: ['screen:passkey-add.prompt', 'loading'],
      invoke: {
        id: 'save',
        src: 'save',
        input: ({ context }) => ({
          mode: context.mode,
          interaction: context.interaction ?? '',
          name: context.name,
          credential: context.credential ?? ({} as PasskeyCredentialJSON),
        }),
        onDone: [
          {
            guard: { type: 'isAdded', params: ({ event }) => ({ output: event.output }) },
            target: 'added',
            actions: [{ type: 'setSaved', params: ({ event }) => ({ output: event.output }) }, 'passkeyAdded'],
          },
          { target: 'signedIn', actions: { type: 'setSaved', params: ({ event }) => ({ output: event.output }) } },
        ],
        onError: onCallError,
      },
    },
    /** Profile: "Passkey added: <name>", with Done. */
    added: {
      tags: ['screen:passkey-add.added'],
      on: { DISMISS: { target: 'card', actions: 'reset' }, START: { target: 'naming', actions: 'reset' } },
    },
    /** Enrolment: the passkey is registered and the sign-in answered (the login machine follows the answer). */
    signedIn: {
      type: 'final',
      tags: ['screen:passkey-add.prompt', 'loading'],
    },
    /** Enrolment: the sign-in cannot go on (the login machine shows why). */
    failed: { type: 'final', tags: ['screen:passkey-add.prompt', 'loading'] },
  },
});

export type PasskeyRegistrationMachine = typeof passkeyRegistrationMachine;
