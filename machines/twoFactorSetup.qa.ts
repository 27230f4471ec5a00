/**
 * QA words of the two-factor setup (machines/testing/qa.ts): how a tester starts each scenario of
 * `twoFactorSetupModel`, performs each step and checks each screen. The same keys drive the browser walk
 * (e2e/paths/twoFactorSetup.driver.ts). All of it happens in the "Two-factor authentication" section of
 * the profile page (/profile).
 */
import type { MachineQa } from './testing/qa';

export const twoFactorSetupQa: MachineQa = {
  machine: 'twoFactorSetup',
  scenarios: {
    '2FA off, phone set': 'Sign in as a user without two-factor authentication whose profile has a phone number (+41…) and open the profile page.',
    '2FA off, no phone': 'Sign in as a user without two-factor authentication and without a phone number and open the profile page.',
    '2FA on (authenticator)': 'Sign in as a user whose two-factor authentication uses an authenticator app (keep the app at hand) and open the profile page.',
  },
  steps: {
    start: 'Scroll to "Two-factor authentication".',
    PHONE_UPDATED: 'Under "Personal information" enter a phone number (+41791234567) and save.',
    CHOOSE_AUTHENTICATOR: 'Press "Set up authenticator app" (the answer does not come yet: the buttons stay busy).',
    'createSecret succeeds': 'Press "Set up authenticator app".',
    'createSecret fails network': 'Go offline, press "Set up authenticator app", then go online again.',
    CHOOSE_SMS: 'Press "Set up SMS" (without a phone number nothing is sent; with one, the answer does not come yet).',
    'sendSmsCode succeeds': 'Press "Set up SMS".',
    'sendSmsCode fails too_many_requests': 'Press "Set up SMS" less than 30 seconds after the last code was sent.',
    SUBMIT_CODE: 'Type a 6-digit code and press "Turn on" (the answer does not come yet).',
    'enableAuthenticator succeeds': 'Add the key (or the QR code) to the authenticator app, type the code it shows and press "Turn on".',
    'enableAuthenticator fails otp_invalid': 'Type a wrong 6-digit code and press "Turn on".',
    'enableSms succeeds': 'Type the code from the SMS and press "Turn on".',
    'enableSms fails otp_invalid': 'Type a wrong 6-digit code and press "Turn on".',
    'after smsResendCooldown': 'Wait one minute.',
    RESEND_CODE: 'Press "Resend code" (the answer does not come yet).',
    'resendSmsCode succeeds': 'Press "Resend code" (at least 30 seconds after the last SMS).',
    'resendSmsCode fails too_many_requests': 'Press "Resend code" less than 30 seconds after the last SMS.',
    CANCEL: 'Press "Cancel".',
    ACKNOWLEDGE: 'Press "I have saved my codes".',
    'DISABLE one-time-password': 'Under "Turn off with" keep "One time password", type a code and press "Turn off two-factor authentication" (the answer does not come yet).',
    'DISABLE password': 'Under "Turn off with" choose "Password", type the password and press "Turn off two-factor authentication" (the answer does not come yet).',
    'disableTwoFactor succeeds':
      'Turn off: with "One time password" type a current code (authenticator app, or press "Send code by SMS" and type the SMS code); with "Password" type the password. Press "Turn off two-factor authentication".',
    'disableTwoFactor fails otp_invalid': 'Turn off with "One time password" and a wrong code, and press "Turn off two-factor authentication".',
    'disableTwoFactor fails validation_failed': 'Turn off with "Password" and a wrong password, and press "Turn off two-factor authentication".',
  },
  screens: {
    'screen:2fa.off':
      'The section offers two methods, "Authenticator app" and "SMS", each with its set-up button; a refused step shows its message above them ("Add a phone number…", "Too many requests…", "Network error…").',
    'screen:2fa.authenticator':
      'A QR code and the key in text ("Cannot scan? Enter this key in the app:"), a 6-digit code field and "Turn on"; after a wrong code the field says "One time password is invalid".',
    'screen:2fa.sms-code':
      'The text "We sent a 6-digit code to <phone>", a 6-digit code field, "Turn on", and the resend button: "Resend available in a minute" (disabled) during the first minute, then "Resend code".',
    'screen:2fa.recovery-codes': 'Ten recovery codes, shown once, with "Copy codes", "Download codes" and "I have saved my codes".',
    'screen:2fa.on': 'The section says "On — authenticator app" (or "On — codes by SMS") and offers to turn it off with a one-time password or the password.',
  },
};
