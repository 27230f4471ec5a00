/** Graph model of the invitation-resend machine (user page "Send invitation", and the user list's row icon). */
import type { AnyMachineSnapshot, EventObject } from 'xstate';
import { invitationResendMachine, type InvitationResendContext, type InvitationResendEvent } from './invitationResend.machine';
import { CallFailureError } from './testing/failure';
import { doneEvent, errorEvent, stateKey, type MachineModel } from './testing/graph';

export const INVITEE_ID = '00000000-0000-4000-8000-000000000009';
export const inviteErrors = {
  alreadyVerified: new CallFailureError({ kind: 'http', status: 409, code: 'already_verified', message: 'The account is already verified' }),
  network: new CallFailureError({ kind: 'network', message: 'fetch failed' }),
};

function events(snapshot: AnyMachineSnapshot): EventObject[] {
  const user: InvitationResendEvent[] = [{ type: 'SEND' }, { type: 'RETRY' }];
  const outcomes: EventObject[] =
    stateKey(snapshot.value) === 'sending' ? [doneEvent('sendInvitation', undefined), errorEvent('sendInvitation', inviteErrors.alreadyVerified), errorEvent('sendInvitation', inviteErrors.network)] : [];
  return [...user, ...outcomes];
}

export const invitationResendModel: MachineModel<typeof invitationResendMachine> = {
  name: 'invitationResend',
  title: 'Send the invitation e-mail again (sent, or failed in its own words; try again only when it can help)',
  machine: invitationResendMachine,
  scenarios: [{ name: 'user page of a user who has not verified yet', input: { userId: INVITEE_ID } }],
  events,
  strategy: 'simple',
  injectedActions: ['userChanged', 'announceSent', 'announceFailed'],
  expectedStates: ['ready', 'sending', 'sent', 'failed'],
  finalStates: ['sent', 'failed'],
  serializeState: (snapshot) => JSON.stringify([stateKey(snapshot.value), (snapshot.context as InvitationResendContext).error?.code ?? null]),
};
