/**
 * QA words of registering a passkey (machines/passkeyRegistration.machine.ts): the profile's "Passkeys" card
 * (/profile, /admin/profile) and the enrolment a sign-in requires (an admin setting asks for a passkey). A browser
 * with a passkey authenticator is needed (a security key, the phone, the computer's own); the browser walk uses
 * Chromium's virtual authenticator (e2e/webauthn.ts, e2e/paths/passkeyRegistration.driver.ts).
 */
import type { MachineQa } from './testing/qa';

export const passkeyRegistrationQa: MachineQa = {
  machine: 'passkeyRegistration',
  scenarios: {
    profile: 'Sign in as a user and open the profile page; scroll to "Passkeys".',
    'enrolment at sign-in':
      'As a super admin, require a passkey for all admins (Settings → Second factor); then sign in to the admin console as an admin without a passkey.',
  },
  steps: {
    start: 'The "Passkeys" card (profile), or the page "Add a passkey to continue" (sign-in), shows.',
    START: 'Press "Add a passkey".',
    SUBMIT: 'Keep or change the name and press "Continue" (the answer does not come yet).',
    CANCEL: 'Press "Cancel".',
    DISMISS: 'Press "Done".',
    'getOptions succeeds': 'Press "Continue": the browser asks for the passkey (the answer of the authenticator does not come yet).',
    'getOptions fails network': 'Go offline and press "Continue"; go online again.',
    'getOptions fails passkey_limit_reached': 'With 20 passkeys already registered (the most an account may have), press "Continue".',
    'getOptions fails interaction_expired': 'Wait until the sign-in expires (1 hour), then press "Continue".',
    'createCredential succeeds': 'Confirm in the browser\'s prompt (touch the key, use the fingerprint or the PIN); the passkey is saved.',
    'createCredential fails passkey_cancelled': 'Close the browser\'s prompt without confirming (or refuse the fingerprint).',
    'createCredential fails passkey_already_registered': 'Use an authenticator that already holds one of this account\'s passkeys.',
    'createCredential fails passkey_unsupported': 'Use a browser or page that cannot create passkeys for this site (e.g. another host name than the configured one).',
    'after ceremonyTimeout': 'Leave the browser\'s prompt open without answering for more than two minutes.',
    'save succeeds': 'Confirm in the browser\'s prompt: the server stores the passkey.',
    'save fails passkey_challenge_invalid': 'Confirm in the browser\'s prompt after the request expired (5 minutes) or was used in another tab.',
    'save fails interaction_expired': 'Confirm in the browser\'s prompt after the sign-in expired.',
  },
  screens: {
    'screen:passkey-add.card':
      'The "Passkeys" card: each passkey with its name, kind ("Synced passkey" or "Security key"), when it was added and last used, "Rename" and "Remove"; and "Add a passkey". A failure of the last attempt reads in words.',
    'screen:passkey-add.name':
      'A "Name" field (filled with the browser and system, e.g. "Chrome on Linux"), "Continue" and (profile) "Cancel"; the last failure in words above it ("The passkey request was cancelled or timed out…", "This passkey is already registered", …).',
    'screen:passkey-add.prompt': '"Follow your browser\'s prompt to create the passkey." with "Cancel"; the browser\'s own prompt is open.',
    'screen:passkey-add.added': '"Passkey added: <name>" with "Done"; the new passkey is in the list.',
  },
};
