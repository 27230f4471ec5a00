/** QA words for a technical user's API key (machines/apiKey.machine.ts). */
import type { MachineQa } from './testing/qa';

export const apiKeyQa: MachineQa = {
  machine: 'apiKey',
  scenarios: {
    'technical user without a key': 'Sign in as a super admin, create a technical user and open its user page.',
    'technical user with a key': 'Sign in as a super admin, open the user page of a technical user who has an API key.',
  },
  steps: {
    start: 'The "API key" card shows.',
    GENERATE: 'Press "Generate API key".',
    REVOKE: 'Press "Revoke API key".',
    CONFIRM: 'Confirm in the dialog.',
    DISMISS: 'Press "Cancel" in the dialog.',
    ACKNOWLEDGE: 'Press "I have stored the key".',
    KEY_STATUS: 'Another admin generates or revokes this user\'s key; reload the page.',
    'generateKey succeeds': 'Press "Generate API key" (confirm first when a key exists): the server makes a new key.',
    'generateKey fails not_technical': 'Press "Generate API key" for a user who is no longer technical.',
    'generateKey fails network': 'Press "Generate API key" while the server cannot be reached.',
    'revokeKey succeeds': 'Confirm "Revoke API key": the key stops working.',
    'revokeKey fails not_found': 'Confirm "Revoke API key" for a user deleted in the meantime.',
    'revokeKey fails network': 'Confirm "Revoke API key" while the server cannot be reached.',
  },
  screens: {
    'screen:apikey.card':
      'The "API key" card with "Generate API key" (and "Revoke API key" when a key exists), the current key\'s prefix and the key history. A failure reads in its own words on the card, not in a toast over the buttons; after a revoke it says "API key revoked".',
    'screen:apikey.confirm-replace': 'A dialog "Generate a new API key?" says the current key stops working immediately.',
    'screen:apikey.confirm-revoke': 'A dialog "Revoke the API key?" says calls with this key stop working and the user is told by e-mail.',
    'screen:apikey.shown': 'The new key in a copy box, shown once, with "I have stored the key"; no toast covers the buttons.',
  },
};
