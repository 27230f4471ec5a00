/**
 * Graph model of the passkey registration machine: the profile's Passkeys card and the enrolment a sign-in requires.
 * The browser's ceremony fails the ways a person meets (machines/webauthn.ts): cancelled (or the browser gave up),
 * the authenticator already holds one of the account's passkeys, a browser that cannot do passkeys; the machine's own
 * time-out; and the server's answers per step.
 */
import type { AnyMachineSnapshot, EventObject } from 'xstate';
import type { PasskeyView } from '../contract/passkeys';
import { passkeyRegistrationMachine, type CeremonyOptions, type PasskeyRegistrationContext, type PasskeyRegistrationEvent } from './passkeyRegistration.machine';
import { CallFailureError } from './testing/failure';
import { afterEvent, doneEvent, errorEvent, stateKey, type MachineModel } from './testing/graph';

export const OPTIONS: CeremonyOptions = { challenge: 'Y2hhbGxlbmdl', timeout: 120_000, rp: { id: 'iam.test', name: 'IAM' } };
export const CREDENTIAL = { id: 'cred-1', rawId: 'cred-1', type: 'public-key', clientExtensionResults: {}, response: { clientDataJSON: 'e30', attestationObject: 'o2Nm' } } as const;
export const PASSKEY: PasskeyView = { id: 'pk-1', name: 'Chrome on Linux', created_at: '2026-11-29T10:00:00.000Z', last_used_at: null, kind: 'swk', backup_eligible: true, backed_up: true };
export const SIGNED_IN = { status: 'complete', redirect_to: 'https://iam.test/op/interaction/uid-1/login' } as const;

/** A rejected ceremony as @simplewebauthn/browser gives it: the DOMException's name, and the code the walk names it by. */
export function ceremonyFailure(name: string, code: string): Error {
  return Object.assign(new Error(`${name} (virtual authenticator)`), { name, code });
}
export const passkeyRegistrationErrors = {
  cancelled: ceremonyFailure('NotAllowedError', 'passkey_cancelled'),
  alreadyRegistered: ceremonyFailure('InvalidStateError', 'passkey_already_registered'),
  unsupported: ceremonyFailure('SecurityError', 'passkey_unsupported'),
  limit: new CallFailureError({ kind: 'http', status: 409, code: 'passkey_limit_reached', message: 'Too many passkeys' }),
  challenge: new CallFailureError({ kind: 'http', status: 400, code: 'passkey_challenge_invalid', message: 'challenge' }),
  network: new CallFailureError({ kind: 'network', message: 'fetch failed' }),
  interactionExpired: new CallFailureError({ kind: 'http', status: 400, code: 'interaction_expired', message: 'expired' }),
};

function events(snapshot: AnyMachineSnapshot): EventObject[] {
  const c = snapshot.context as PasskeyRegistrationContext;
  const value = stateKey(snapshot.value);
  const user: PasskeyRegistrationEvent[] = [{ type: 'START' }, { type: 'SUBMIT', name: 'Chrome on Linux' }, { type: 'CANCEL' }, { type: 'DISMISS' }];
  const enrolment = c.mode === 'enrolment';
  const outcomes: Record<string, EventObject[]> = {
    requestingOptions: enrolment
      ? [doneEvent('getOptions', OPTIONS), errorEvent('getOptions', passkeyRegistrationErrors.interactionExpired)]
      : [doneEvent('getOptions', OPTIONS), errorEvent('getOptions', passkeyRegistrationErrors.limit), errorEvent('getOptions', passkeyRegistrationErrors.network)],
    prompting: [
      doneEvent('createCredential', CREDENTIAL),
      errorEvent('createCredential', passkeyRegistrationErrors.cancelled),
      ...(enrolment ? [] : [errorEvent('createCredential', passkeyRegistrationErrors.alreadyRegistered), errorEvent('createCredential', passkeyRegistrationErrors.unsupported)]),
      afterEvent('ceremonyTimeout', 'passkeyRegistration.prompting'),
    ],
    saving: enrolment
      ? [doneEvent('save', { kind: 'signed_in', result: SIGNED_IN }), errorEvent('save', passkeyRegistrationErrors.interactionExpired)]
      : [doneEvent('save', { kind: 'added', passkey: PASSKEY }), errorEvent('save', passkeyRegistrationErrors.challenge)],
  };
  return [...user, ...(outcomes[value] ?? [])];
}

export const passkeyRegistrationModel: MachineModel<typeof passkeyRegistrationMachine> = {
  name: 'passkeyRegistration',
  title: 'Registering a passkey (profile card; the enrolment a sign-in requires): name, browser prompt, cancel, time-out, saved',
  machine: passkeyRegistrationMachine,
  scenarios: [
    { name: 'profile', input: { mode: 'profile', defaultName: 'Chrome on Linux' } },
    { name: 'enrolment at sign-in', input: { mode: 'enrolment', defaultName: 'Chrome on Linux', interaction: 'uid-1', admin: true } },
  ],
  events,
  strategy: 'shortest',
  injectedActions: ['cancelCeremony', 'passkeyAdded'],
  expectedStates: ['card', 'naming', 'requestingOptions', 'prompting', 'saving', 'added', 'signedIn', 'failed'],
  finalStates: ['added', 'signedIn', 'failed'],
  serializeState: (snapshot) => {
    const c = snapshot.context as PasskeyRegistrationContext;
    return JSON.stringify([stateKey(snapshot.value), c.mode, c.added !== null, c.result !== null, c.error?.code ?? null]);
  },
};
