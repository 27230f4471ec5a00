/** Graph model of the verify / reset-password machine. */
import type { AnyMachineSnapshot, EventObject } from 'xstate';
import { CallFailureError } from './testing/failure';
import { verifyInvitationMachine, type VerifyInvitationContext, type VerifyInvitationEvent, type VerifyInvitationInput } from './verifyInvitation.machine';
import { doneEvent, errorEvent, stateKey, type MachineModel } from './testing/graph';

export const SIGNED_URL = 'https://iam.test/api/user/verify/abc?expires=1&signature=sig';

export const verifyErrors = {
  expired: new CallFailureError({ kind: 'http', status: 403, code: 'invalid_signature', message: 'Invalid signature' }),
  notFound: new CallFailureError({ kind: 'http', status: 404, code: 'not_found', message: 'Not found' }),
  network: new CallFailureError({ kind: 'network', message: 'fetch failed' }),
  weakPassword: new CallFailureError({ kind: 'http', status: 422, code: 'validation_failed', message: 'invalid', fields: { password: ['password_too_short'] } }),
  server: new CallFailureError({ kind: 'http', status: 500, code: 'internal', message: 'Error ocurred, please try again' }),
};

function events(snapshot: AnyMachineSnapshot): EventObject[] {
  const c = snapshot.context as VerifyInvitationContext;
  const user: VerifyInvitationEvent[] = [
    { type: 'SUBMIT', password: 'Str0ng-Password!', password_confirmation: 'Str0ng-Password!' },
    { type: 'RETRY' },
  ];
  return [
    ...user,
    doneEvent('checkLink', undefined),
    errorEvent('checkLink', verifyErrors.expired),
    errorEvent('checkLink', verifyErrors.notFound),
    errorEvent('checkLink', verifyErrors.network),
    doneEvent('savePassword', { flow: c.flow === 'verify' ? 'sc' : 'cp' }),
    errorEvent('savePassword', verifyErrors.weakPassword),
    errorEvent('savePassword', verifyErrors.expired),
    errorEvent('savePassword', verifyErrors.server),
  ];
}

const base: VerifyInvitationInput = { flow: 'verify', admin: false, url: SIGNED_URL };

export const verifyInvitationModel: MachineModel<typeof verifyInvitationMachine> = {
  name: 'verifyInvitation',
  title: 'Verify invitation / reset password (signed link check, password form, flow code)',
  machine: verifyInvitationMachine,
  scenarios: [
    { name: '/verify/verify?url=… (user invitation)', input: base },
    { name: '/verify/admin?url=… (admin invitation)', input: { ...base, admin: true } },
    { name: '/reset-password?url=…', input: { ...base, flow: 'reset' } },
    { name: '/verify/verify without url', input: { ...base, url: null } },
  ],
  events,
  strategy: 'simple',
  injectedActions: [],
  expectedStates: ['checking', 'unavailable', 'form', 'saving', 'invalid', 'done'],
  finalStates: ['invalid', 'done'],
  serializeState: (snapshot) => {
    const c = snapshot.context as VerifyInvitationContext;
    return JSON.stringify([stateKey(snapshot.value), c.error?.code ?? null, c.error?.status ?? null, c.flowCode]);
  },
};
