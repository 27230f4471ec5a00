/** Graph model of the verify / reset-password machine (the scenarios are the link forms the mails use). */
import type { AnyMachineSnapshot, EventObject } from 'xstate';
import { CallFailureError } from './testing/failure';
import { verifyInvitationMachine, type VerifyInvitationContext, type VerifyInvitationEvent, type VerifyInvitationInput } from './verifyInvitation.machine';
import { doneEvent, errorEvent, stateKey, type MachineModel } from './testing/graph';

export const SIGNED_URL = 'https://iam.test/api/user/verify-link?token=T0k3n&expires=1&signature=sig';
export const SIGNED_ADMIN_URL = 'https://iam.test/api/admin/verify-link?token=T0k3n&expires=1&signature=sig';
export const SIGNED_RESET_URL = 'https://iam.test/api/reset-password-link?token=T0k3n&expires=1&signature=sig';
export const SIGNED_ADMIN_RESET_URL = 'https://iam.test/api/admin/reset-password-link?token=T0k3n&expires=1&signature=sig';
export const PASSWORD = 'Str0ng-Password!';

export const verifyErrors = {
  /** expired, used, tampered or of another account type: the server answers 403 invalid_link for all */
  rejected: new CallFailureError({ kind: 'http', status: 403, code: 'invalid_link', message: 'This link is invalid or has expired' }),
  network: new CallFailureError({ kind: 'network', message: 'fetch failed' }),
  /** a common password: the server's rule the form cannot check */
  weakPassword: new CallFailureError({ kind: 'http', status: 422, code: 'validation_failed', message: 'invalid', fields: { password: ['password_common'] } }),
};

function events(snapshot: AnyMachineSnapshot): EventObject[] {
  const c = snapshot.context as VerifyInvitationContext;
  const value = stateKey(snapshot.value);
  const user: Array<VerifyInvitationEvent & { qaVariant?: string }> = [
    { type: 'SUBMIT', password: PASSWORD, password_confirmation: PASSWORD },
    { type: 'INPUT_REJECTED', fields: ['password_confirmation'], qaVariant: 'mismatch' },
    { type: 'INPUT_REJECTED', fields: ['password'], qaVariant: 'policy' },
    { type: 'RETRY' },
    { type: 'SIGN_IN' },
    { type: 'FORGOT_PASSWORD' },
  ];
  const out: EventObject[] = [...user];
  if (value === 'checking') {
    out.push(doneEvent('checkLink', undefined), errorEvent('checkLink', verifyErrors.rejected), errorEvent('checkLink', verifyErrors.network));
  }
  if (value === 'saving') {
    out.push(
      doneEvent('savePassword', { flow: c.flow === 'verify' ? 'sc' : 'cp' }),
      errorEvent('savePassword', verifyErrors.weakPassword),
      errorEvent('savePassword', verifyErrors.rejected),
      errorEvent('savePassword', verifyErrors.network),
    );
  }
  return out;
}

const base: VerifyInvitationInput = { flow: 'verify', admin: false, url: SIGNED_URL };

export const verifyInvitationModel: MachineModel<typeof verifyInvitationMachine> = {
  name: 'verifyInvitation',
  title: 'Verify invitation / reset password (signed link check, password form, flow code, back to sign-in)',
  machine: verifyInvitationMachine,
  scenarios: [
    { name: 'user invitation mail: /verify/user?url=…', input: base },
    { name: 'admin invitation mail: /verify/admin?url=…', input: { ...base, admin: true, url: SIGNED_ADMIN_URL } },
    { name: 'reset mail: /reset-password?url=…', input: { ...base, flow: 'reset', url: SIGNED_RESET_URL } },
    { name: 'admin reset mail: /admin/reset-password?url=…', input: { ...base, flow: 'reset', admin: true, url: SIGNED_ADMIN_RESET_URL } },
    { name: 'a user invitation link on the admin page: /verify/admin?url=…/api/user/verify-link…', input: { ...base, admin: true } },
    { name: 'verify page without url: /verify/user', input: { ...base, url: null } },
  ],
  events,
  strategy: 'simple',
  injectedActions: ['navigate'],
  expectedStates: ['checking', 'unavailable', 'form', 'saving', 'invalid', 'done', 'toSignIn', 'toForgotPassword'],
  finalStates: ['toSignIn', 'toForgotPassword'],
  serializeState: (snapshot) => {
    const c = snapshot.context as VerifyInvitationContext;
    return JSON.stringify([stateKey(snapshot.value), c.error?.code ?? null, c.error?.status ?? null, c.flowCode]);
  },
};
