/**
 * QA words of the verify / reset-password machine (machines/testing/qa.ts): how a tester starts each
 * scenario, performs each step, and what each screen shows. `npm run paths -- --machine=verifyInvitation`
 * prints the numbered cases in these words; e2e/paths/verifyInvitation.driver.ts performs them in Chromium.
 */
import type { MachineQa } from './testing/qa';

export const verifyInvitationQa: MachineQa = {
  machine: 'verifyInvitation',
  scenarios: {
    'user invitation mail: /verify/user?url=…':
      'As an administrator, add a user with sign-in by password (Users → Add user); sign out and open the link of the invitation mail the user receives',
    'admin invitation mail: /verify/admin?url=…':
      'As a super administrator, add an administrator (Administrators → Add administrator); sign out and open the link of the invitation mail they receive',
    'reset mail: /reset-password?url=…':
      'For a user who has a password: on the sign-in page choose "Forgot password?", send the reset link, and open the link of the mail',
    'admin reset mail: /admin/reset-password?url=…':
      'For an administrator who has a password: on the admin sign-in page choose "Forgot password?", send the reset link, and open the link of the mail',
    'a user invitation link on the admin page: /verify/admin?url=…/api/user/verify-link…':
      'Take the link of a user invitation mail and change its page from /verify/user to /verify/admin (keep the url parameter); open it',
    'verify page without url: /verify/user': 'Open /verify/user without any url parameter',
  },
  steps: {
    start: 'Open the page (do nothing else)',
    'checkLink succeeds':
      'Wait while the link is checked; the link is valid (when the page offers "Try again", press it with the network back)',
    'checkLink fails invalid_link':
      'Use a link that is no longer valid: it has expired (invitation: its expiry passed) or was already used (reset: the password was already set with it); when the page offers "Try again", press it',
    'checkLink fails network':
      'Cut the network before the link is checked (browser devtools: offline), or press "Try again" while still offline',
    'INPUT_REJECTED mismatch': 'Type a strong password, a different one in "Confirm new password", and press the button: "Confirm new password" says "Passwords do not match", nothing is sent',
    'INPUT_REJECTED policy': 'Type a password that breaks the rules ("short") in both fields and press the button: "New password" says what is missing, nothing is sent',
    SUBMIT: 'Type a strong password (e.g. "Str0ng-Password!") in both fields and press the button; do not wait for the answer',
    'savePassword succeeds': 'Type a strong password (e.g. "Str0ng-Password!") in both fields and press the button',
    'savePassword fails validation_failed':
      'Type a common password that still meets the rules ("Password1234!") in both fields and press the button: the server refuses it, "New password" says it is too common',
    'savePassword fails invalid_link':
      'Meanwhile, let the link become unusable (use it in another tab, or let it expire); then type a strong password in both fields and press the button',
    'savePassword fails network': 'Cut the network, type a strong password in both fields and press the button: the alert "An error occurred, please try again" appears above the fields',
    SIGN_IN: 'Press "Go to sign in" (or "Back to sign in")',
    FORGOT_PASSWORD: 'Press the "forgot password" link in the text',
  },
  screens: {
    'screen:verify.checking':
      'The card "Finish your profile setup" (reset: "Choose a new password") says "Checking the link…" under a loading bar',
    'screen:verify.form':
      'The card "Finish your profile setup" (reset: "Choose a new password") with "New password", the password checklist, "Confirm new password" and the button "Save password" (reset: "Change password")',
    'screen:verify.unavailable': 'The card shows the alert "An error occurred, please try again" and the button "Try again"',
    'screen:verify.invalid':
      'The heading "Link expired or invalid" with the alert "This link is invalid or has expired"; an invitation says "Ask your administrator to send you a new invitation.", a reset link offers the forgot password page; "Back to sign in" below',
    'screen:verify.done':
      'A success mark with "Your account is ready" (reset: "Password changed") and the button "Go to sign in"',
    'screen:verify.to-sign-in': 'The sign-in page opens (/login; administrators: /admin/login) with an empty form',
    'screen:verify.to-forgot-password': 'The "Forgot password" page opens (administrators: /forgot-password?type=admin)',
  },
};
