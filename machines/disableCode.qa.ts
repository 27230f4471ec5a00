/** QA words for the SMS that turns SMS two-factor off (machines/disableCode.machine.ts), on the profile page. */
import type { MachineQa } from './testing/qa';

export const disableCodeQa: MachineQa = {
  machine: 'disableCode',
  scenarios: {
    'SMS two-factor on, turning it off with a one-time password':
      'Sign in as a user whose two-factor authentication sends codes by SMS (keep the phone at hand), open the profile page and scroll to "Two-factor authentication" ("Turn off with": "One time password").',
  },
  steps: {
    start: 'The section shows "Send code by SMS".',
    SEND: 'Press "Send code by SMS" (the answer does not come yet: the button stays busy).',
    'sendCode succeeds': 'Press "Send code by SMS" (at least 30 seconds after the last SMS): the SMS arrives.',
    'sendCode fails too_many_requests': 'Press "Send code by SMS" less than 30 seconds after the last SMS.',
    'sendCode fails network': 'Go offline, press "Send code by SMS", then go online again.',
  },
  screens: {
    'screen:2fa-code.ready':
      '"Send code by SMS" with "It may take up to a minute to arrive."; after a refusal its reason beside it ("Please wait 30 seconds before asking for another code."; without an answer from the server: "An error occurred, please try again").',
    'screen:2fa-code.sent': '"Code sent to <phone>. It may take up to a minute to arrive." and "Send code by SMS" to ask again; the SMS arrives.',
  },
};
