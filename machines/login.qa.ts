/**
 * QA words of the login machine (machines/testing/qa.ts): how a tester starts each scenario of login.model.ts,
 * performs each step key, and checks each screen. The browser walk performs the same keys in
 * e2e/paths/login.driver.ts.
 *
 * Accounts: "an account" is a user (admins in the admin scenario) with a password; the step says which kind when it
 * matters (with an authenticator app, with SMS, deactivated, with an expired password). A step that ends while the
 * server has not answered yet ("… and the server does not answer yet") is the moment right after pressing the button.
 */
import type { MachineQa } from './testing/qa';

export const loginQa: MachineQa = {
  machine: 'login',
  scenarios: {
    '/login?interaction=uid-1': 'Sign out, open the app (/) and wait for the sign-in form of /login?interaction=… (the provider sent you back with a new interaction).',
    '/admin/login?interaction=uid-1': 'Sign out, open /admin and wait for the admin sign-in form of /admin/login?interaction=….',
    "/login?interaction=uid-1&type=sso (a service app's sign-in)":
      "Sign out, open a service app's sign-in in browser A (the app sends you to /login?interaction=…&type=sso), copy that address and open it in browser B (another browser or a private window).",
    '/login?interaction=uid-1 after a restart for this browser':
      'In a browser that blocks cookies for this site, open a /login?interaction=… address copied from another browser: the page starts a sign-in of its own, and the provider sends it back with a new interaction it again does not hold.',
    '/login opened directly (no interaction)': 'Open /login by typing the address (no ?interaction=).',
    '/expired-password without a sign-in': 'Open /expired-password by typing the address in a new tab (no sign-in before).',
    '/login?interaction=uid-1 with passkeys':
      'In a browser with a passkey authenticator (the computer\'s, a phone, a security key), sign out and open the app (/): the sign-in form of /login?interaction=…. Have an account with a passkey registered (profile → Passkeys), and one without.',
  },
  steps: {
    start: 'Open the page of the scenario.',
    'startAuthorization succeeds': 'Wait (or press "Try again" / "Sign in again" when the screen has that button): the browser goes to the sign-in provider and comes back with the sign-in form.',
    'startAuthorization fails network': 'Cut the network (browser devtools: offline) before the page starts the sign-in, or press "Try again" / "Sign in again" while offline.',
    'checkInteraction succeeds': 'Wait: the sign-in form becomes usable (this browser started the sign-in of the address).',
    'checkInteraction fails interaction_foreign_browser':
      'Copy the /login?interaction=… (or /admin/login?interaction=…) address of a sign-in started in another browser and open it here (or delete the iam_interaction_… cookie in devtools and reload).',
    'checkInteraction fails interaction_expired': 'Leave the sign-in page open until the sign-in expires (one hour), then reload it.',
    'checkInteraction fails network': 'Cut the network (devtools: offline) and reload the sign-in page: the form stays usable.',
    SUBMIT: 'Type the e-mail and password of an account and press "Sign in" while the server does not answer yet.',
    'submitCredentials succeeds complete': 'Type the e-mail and password of an active account without two-factor authentication and press "Sign in".',
    'submitCredentials succeeds two_factor_required':
      'Type the e-mail and password of an account with two-factor authentication (an authenticator app, or SMS when the next screen is the SMS one) and press "Sign in".',
    'submitCredentials succeeds password_expired': 'Type the e-mail and password of an account whose password has expired (no two-factor authentication) and press "Sign in".',
    'submitCredentials fails invalid_credentials': 'Type the e-mail of an account and a wrong password and press "Sign in".',
    'submitCredentials fails account_locked': 'Type the e-mail and password of an account that is locked after too many wrong passwords and press "Sign in".',
    'submitCredentials fails network': 'Cut the network (devtools: offline), type an e-mail and password and press "Sign in".',
    'submitCredentials fails interaction_expired': 'Leave the sign-in form open until the sign-in expires (the provider forgets it), then type an e-mail and password and press "Sign in".',
    'submitCredentials fails interaction_foreign_browser':
      'With the sign-in form open, delete the iam_interaction_… cookie (devtools: Application → Cookies), then type an e-mail and password and press "Sign in".',
    SUBMIT_CODE: 'Type a 6-digit code while the server does not answer yet.',
    'verifyOtp succeeds complete': "Type the current code of the account's authenticator app.",
    'verifyOtp succeeds password_expired': "Type the current code of the authenticator app of an account whose password has expired.",
    'verifyOtp fails otp_invalid': 'Type a wrong one-time password and press "Verify".',
    'verifyOtp fails account_locked': 'Type a one-time password after the account was locked by too many wrong codes.',
    'verifyOtp fails account_inactive': "Type the current authenticator code of an account an admin deactivated.",
    'verifyOtp fails interaction_expired': 'Leave the code screen open until the sign-in expires, then type the current code.',
    'verifySmsCode succeeds complete': 'Type the 6-digit code of the SMS that arrived on the phone.',
    'verifySmsCode fails otp_invalid': 'Type a wrong 6-digit SMS code and press "Verify".',
    RESEND_CODE: 'Press "Resend code" while the server does not answer yet.',
    'resendSmsCode succeeds': 'Press "Resend code": a new SMS arrives.',
    'resendSmsCode fails network': 'Cut the network (devtools: offline) and press "Resend code".',
    'after smsResendCooldown': 'Wait one minute on the SMS code screen.',
    USE_RECOVERY_CODE: 'Press "Use a recovery code".',
    USE_ONE_TIME_PASSWORD: 'Press "Use a one-time password instead".',
    SUBMIT_RECOVERY_CODE: 'Type a recovery code and press "Verify" while the server does not answer yet.',
    'verifyRecoveryCode succeeds complete': 'Type one of the saved recovery codes (unused) and press "Verify".',
    'verifyRecoveryCode succeeds password_expired': 'Type an unused recovery code of an account whose password has expired and press "Verify".',
    'verifyRecoveryCode fails recovery_code_invalid': 'Type a wrong (or already used) recovery code and press "Verify".',
    SUBMIT_NEW_PASSWORD: 'Type a new valid password twice and press "Change password" while the server does not answer yet.',
    'changeExpiredPassword succeeds': 'Type a new valid password twice and press "Change password".',
    'changeExpiredPassword fails validation_failed': 'Type a well-known password (e.g. "Password1234!") twice and press "Change password".',
    'changeExpiredPassword fails invalid_link': 'Leave the "Password expired" form open for more than 30 minutes (the token expires), then type a new valid password twice and press "Change password".',
    'submitCredentials succeeds enrolment_required':
      'As a super admin, require a passkey (Settings → Second factor) for the role of an account without one; type that account\'s e-mail and password and press "Sign in".',
    PASSKEY: 'Press "Sign in with a passkey" (or, on the second-factor screen, "Use your passkey" / "Use a passkey instead"); the browser\'s prompt opens and is not answered yet.',
    CANCEL: 'While the browser asks for the passkey, press "Cancel" on the page.',
    'passkeyOptions succeeds': 'Press the passkey button: the browser\'s prompt opens.',
    'passkeyOptions fails network': 'Cut the network (devtools: offline) and press the passkey button.',
    'passkeyCeremony succeeds': 'Confirm in the browser\'s prompt (fingerprint, face, PIN or touch the key); the server has not answered yet.',
    'passkeyCeremony fails passkey_cancelled': 'Close the browser\'s prompt without confirming (or fail the fingerprint).',
    'after ceremonyTimeout': 'Leave the browser\'s prompt open without answering for more than two minutes.',
    'passkeySignIn succeeds complete': 'Confirm in the browser\'s prompt with a passkey of an active account.',
    'passkeySignIn fails passkey_unknown': 'Confirm with a passkey that was removed from the account (profile → Passkeys → Remove) but is still on the device.',
    'passkeySecondFactor succeeds complete': 'Confirm in the browser\'s prompt with this account\'s passkey.',
    'passkeySecondFactor fails passkey_invalid': 'Confirm with a passkey whose verification fails (e.g. a cloned security key, or another account\'s passkey).',
    'passkeyAutofill succeeds complete': 'Click the e-mail field, pick the account\'s passkey from the browser\'s suggestions and confirm.',
    'passkeyAutofill fails passkey_unknown': 'Click the e-mail field and pick a passkey that was removed from the account but is still on the device.',
    'passkeyEnrolment succeeds signed_in': 'On "Add a passkey to continue", keep the name, press "Continue" and confirm in the browser\'s prompt: the passkey is registered and the sign-in goes on.',
    'passkeyEnrolment succeeds failed': 'Leave "Add a passkey to continue" open until the sign-in expires (one hour), then press "Continue" and confirm.',
    RETRY: 'Press "Try again" while the server does not answer yet.',
    RESTART: 'Press "Sign in again" while the server does not answer yet.',
  },
  screens: {
    'screen:login.redirecting': 'The card says "Redirecting to the secure sign-in…" and the browser leaves the page (for the sign-in provider, or for the app once signed in).',
    'screen:login.authorization-failed': 'The card says "The server cannot be reached. Check your connection and try again." with a "Try again" button.',
    'screen:login.credentials':
      'The "Sign in" form (admins: "Admin sign in") with E-mail and Password and "Sign in with a passkey" (where the browser can); the e-mail field offers the browser\'s passkeys; after a failed attempt its message is above the form ("Given password is invalid", "Too many failed attempts. Your account is locked, try again in 15 minutes.", "The server cannot be reached…", "The passkey request was cancelled or timed out…", "This passkey is not registered (any more)…").',
    'screen:login.two-factor-otp':
      '"Two-factor verification" asks for the code of the authenticator app, the description right under the heading; after a wrong code the code field says "One time password is invalid"; a lock shows "Too many failed attempts…" above the field.',
    'screen:login.two-factor-sms':
      '"Two-factor verification" says "We sent a 6-digit code to your phone. It may take up to a minute to arrive."; "Resend code" is disabled for a minute ("Resend available in a minute"); after a wrong code the code field says "One time password is invalid".',
    'screen:login.two-factor-recovery': '"Use a recovery code" asks for a recovery code; after a wrong one the field says "Recovery code is invalid".',
    'screen:login.two-factor-passkey':
      '"Two-factor verification" asks to confirm with the account\'s passkey: "Use your passkey"; when the account also has an authenticator app or SMS, "Use a one-time password instead" and "Use a recovery code". While the browser asks, the page says so with "Cancel". A failure reads above the button ("The passkey request was cancelled or timed out…", "The passkey could not be verified").',
    'screen:login.passkey': '"Sign in with a passkey": the page says to follow the browser\'s prompt, with "Cancel" (back to the sign-in form).',
    'screen:login.passkey-enrolment':
      '"Add a passkey to continue": your organization requires a passkey for this account; a "Name" field (e.g. "Chrome on Linux") and "Continue"; then the browser\'s prompt ("Follow your browser\'s prompt to create the passkey.").',
    'screen:login.foreign-browser':
      '"Sign-in started in another browser": for a service app\'s sign-in it says to go back to the app and start the sign-in again there (no button); otherwise that the sign-in could not be continued in this browser, to allow cookies, with "Sign in again" (admins: "Go to admin sign in").',
    'screen:login.sign-in-expired': '"Sign-in expired" says "Your sign-in took too long and has expired. Please sign in again." with a "Sign in again" button.',
    'screen:login.account-inactive': '"Account deactivated" says "Your account is deactivated. Please contact your administrator." and offers no "try again".',
    'screen:login.expired-password': '"Password expired" at /expired-password asks for a new password twice (with the password rules); a well-known password is refused on the password field.',
    'screen:login.password-changed': '"Password changed": "Your password has been changed. Sign in with your new password." with "Go to sign in".',
  },
};
