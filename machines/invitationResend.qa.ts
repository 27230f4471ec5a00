/** QA words for sending an invitation again (machines/invitationResend.machine.ts). */
import type { MachineQa } from './testing/qa';

export const invitationResendQa: MachineQa = {
  machine: 'invitationResend',
  scenarios: {
    'user page of a user who has not verified yet': 'Sign in as a super admin, add a user (credentials) and open their user page.',
  },
  steps: {
    start: 'The user page shows "Send invitation".',
    SEND: 'Press "Send invitation".',
    RETRY: 'Press "Try again".',
    'sendInvitation succeeds': 'Press "Send invitation": the server sends the mail.',
    'sendInvitation fails already_verified': 'Someone verifies the user meanwhile; press "Send invitation".',
    'sendInvitation fails network': 'Press "Send invitation" while the server cannot be reached.',
  },
  screens: {
    'screen:invite.ready': 'The "Send invitation" button beside the user\'s name.',
    'screen:invite.sent': '"Invitation sent to <e-mail>" beside the button; the user receives the invitation mail.',
    'screen:invite.failed':
      'The reason in its own words beside the button ("This account is already verified"); "Try again" only when the server was not reached or busy.',
  },
};
