/**
 * Graph model of the login machine: the server answers and error kinds per step that differ for a person
 * (two answers that look the same on screen are one outcome here: a 401 and a 422 on the password are both
 * "Given password is invalid"; a time-out is a network failure). Every step key has QA words in login.qa.ts
 * and a browser action in e2e/paths/login.driver.ts.
 */
import type { AnyMachineSnapshot, EventObject } from 'xstate';
import { CallFailureError } from './testing/failure';
import { loginMachine, type LoginContext, type LoginEvent, type LoginInput, type LoginResult } from './login.machine';
import { afterEvent, doneEvent, errorEvent, stateKey, type MachineModel } from './testing/graph';

export const REDIRECT_TO = 'https://iam.test/op/interaction/uid-1/login';
export const RESET_TOKEN = 'reset-token-1';
export const NEW_PASSWORD = 'Fresh-Passw0rd-2026';

export const loginErrors = {
  wrongPassword: new CallFailureError({ kind: 'http', status: 401, code: 'invalid_credentials', message: 'Given password is invalid' }),
  locked: new CallFailureError({ kind: 'http', status: 429, code: 'account_locked', message: 'Too many attempts', retryAfter: 900 }),
  network: new CallFailureError({ kind: 'network', message: 'fetch failed' }),
  server: new CallFailureError({ kind: 'http', status: 500, code: 'internal_error', message: 'An error occurred, please try again' }),
  interactionExpired: new CallFailureError({ kind: 'http', status: 400, code: 'interaction_expired', message: 'expired' }),
  /** the link's sign-in was started in another browser (server/oidc/interaction-binding.ts) */
  foreignBrowser: new CallFailureError({ kind: 'http', status: 403, code: 'interaction_foreign_browser', message: 'This sign-in was started in another browser' }),
  wrongOtp: new CallFailureError({ kind: 'http', status: 422, code: 'otp_invalid', message: 'One time password is invalid', fields: { one_time_password: ['otp_invalid'] } }),
  wrongRecoveryCode: new CallFailureError({ kind: 'http', status: 422, code: 'recovery_code_invalid', message: 'invalid', fields: { recovery_code: ['recovery_code_invalid'] } }),
  inactive: new CallFailureError({ kind: 'http', status: 403, code: 'account_inactive', message: 'inactive' }),
  commonPassword: new CallFailureError({ kind: 'http', status: 422, code: 'validation_failed', message: 'invalid', fields: { password: ['password_common'] } }),
  tokenExpired: new CallFailureError({ kind: 'http', status: 403, code: 'invalid_link', message: 'invalid link' }),
};

export const PASSKEY_OPTIONS = { challenge: 'Y2hhbGxlbmdl', timeout: 120_000, rpId: 'iam.test', allowCredentials: [] };
export const PASSKEY_CREDENTIAL = { id: 'cred-1', rawId: 'cred-1', type: 'public-key', clientExtensionResults: {}, response: { clientDataJSON: 'e30', authenticatorData: 'AA', signature: 'AA', userHandle: 'dQ' } } as const;
/** The passkey scenario is told apart by the name it offers for an enrolment (the only input it sets). */
export const PASSKEY_SCENARIO_NAME = 'Chrome on Linux';
export const passkeyErrors = {
  /** the browser's prompt was closed or refused (NotAllowedError), as @simplewebauthn/browser gives it */
  cancelled: Object.assign(new Error('NotAllowedError (virtual authenticator)'), { name: 'NotAllowedError', code: 'passkey_cancelled' }),
  unknown: new CallFailureError({ kind: 'http', status: 401, code: 'passkey_unknown', message: 'Unknown passkey' }),
  invalid: new CallFailureError({ kind: 'http', status: 401, code: 'passkey_invalid', message: 'The passkey could not be verified' }),
};

const complete = { status: 'complete', redirect_to: REDIRECT_TO } as const;
/** With 2FA on, an old password is reported only after the second factor. */
const expired = { status: 'password_expired', reset_token: RESET_TOKEN } as const;

/**
 * Admins take the same states with other endpoints: their scenario tries the outcomes that differ by
 * endpoint (password, authenticator code, recovery code), the user scenario every outcome.
 */
const ADMIN_OUTCOMES = new Set(['xstate.done.actor.checkInteraction', 'xstate.error.actor.checkInteraction', 'xstate.done.actor.submitCredentials', 'xstate.error.actor.submitCredentials', 'xstate.done.actor.verifyOtp', 'xstate.error.actor.verifyOtp', 'xstate.done.actor.verifyRecoveryCode']);

/**
 * A service app's sign-in (`type=sso`) and a page load after a restart for this browser (`rebound`) differ from the
 * portal's only where the link's sign-in turns out to be another browser's: their scenarios try the check's outcomes
 * and the password step's, and end there.
 */
const FOREIGN_SCENARIO_OUTCOMES = new Set(['xstate.done.actor.checkInteraction', 'xstate.error.actor.checkInteraction', 'xstate.done.actor.submitCredentials', 'xstate.error.actor.submitCredentials']);

/** The passkey steps' events and outcomes: only the passkey scenario takes them (the others keep their paths). */
const PASSKEY_EVENTS = new Set(['PASSKEY', 'CANCEL']);
const isPasskeyOutcome = (type: string) => /^xstate\.(done|error)\.actor\.passkey/.test(type) || type.startsWith('xstate.after.ceremonyTimeout');
/** In the passkey scenario: the password step answers only what leads to a passkey (second factor or enrolment). */
const PASSKEY_SCENARIO_STEPS = new Set(['SUBMIT', 'PASSKEY', 'CANCEL', 'USE_ONE_TIME_PASSWORD', 'RESTART']);

function events(snapshot: AnyMachineSnapshot): EventObject[] {
  const all = allEvents(snapshot);
  const c = snapshot.context as LoginContext;
  if (c.passkeyName === PASSKEY_SCENARIO_NAME) {
    return all.filter((event) => {
      if (!event.type.startsWith('xstate.')) return PASSKEY_SCENARIO_STEPS.has(event.type);
      if (isPasskeyOutcome(event.type) || event.type === 'xstate.done.actor.checkInteraction' || event.type.startsWith('xstate.done.actor.startAuthorization')) return true;
      if (event.type === 'xstate.done.actor.submitCredentials') {
        const output = (event as EventObject & { output: LoginResult }).output;
        return output.status === 'enrolment_required' || (output.status === 'two_factor_required' && (output.method === 'PASSKEY' || output.passkey === true));
      }
      return false;
    });
  }
  return passwordScenarioEvents(all.filter((event) => !PASSKEY_EVENTS.has(event.type) && !isPasskeyOutcome(event.type) && !isPasskeyAnswer(event)), c);
}

/** The password step's answers that only the passkey scenario follows. */
function isPasskeyAnswer(event: EventObject): boolean {
  if (event.type !== 'xstate.done.actor.submitCredentials') return false;
  const output = (event as EventObject & { output: LoginResult }).output;
  return output.status === 'enrolment_required' || (output.status === 'two_factor_required' && (output.method === 'PASSKEY' || output.passkey === true));
}

/** The password scenarios (portal, admin console, a service app's, after a restart), without the passkey steps. */
function passwordScenarioEvents(all: EventObject[], c: LoginContext): EventObject[] {
  if (c.serviceApp || c.rebound) {
    return all.filter((event) => {
      if (!event.type.startsWith('xstate.')) return event.type === 'SUBMIT' || event.type === 'RESTART';
      if (!FOREIGN_SCENARIO_OUTCOMES.has(event.type)) return false;
      const output = (event as EventObject & { output?: { status?: string } }).output;
      const error = (event as EventObject & { error?: CallFailureError }).error;
      if (event.type === 'xstate.done.actor.submitCredentials') return output?.status === 'complete';
      if (event.type === 'xstate.error.actor.submitCredentials') return error?.code === 'interaction_foreign_browser';
      return true;
    });
  }
  if (!c.admin) return all;
  return all.filter((event) => {
    if (!event.type.startsWith('xstate.')) return true;
    if (!ADMIN_OUTCOMES.has(event.type)) return false;
    const output = (event as EventObject & { output?: { status?: string; method?: string } }).output;
    const error = (event as EventObject & { error?: CallFailureError }).error;
    if (output) return output.status === 'complete' || (output.status === 'two_factor_required' && output.method === 'GOOGLE');
    return error?.code === 'invalid_credentials' || error?.code === 'otp_invalid' || error?.code === 'interaction_foreign_browser';
  });
}

function allEvents(snapshot: AnyMachineSnapshot): EventObject[] {
  const value = stateKey(snapshot.value);
  const user: LoginEvent[] = [
    { type: 'SUBMIT', email: 'ada@example.com', password: 'Secret-password-1' },
    { type: 'SUBMIT_CODE', code: '123456' },
    { type: 'SUBMIT_RECOVERY_CODE', recoveryCode: 'ABCD-EFGH' },
    { type: 'USE_RECOVERY_CODE' },
    { type: 'USE_ONE_TIME_PASSWORD' },
    { type: 'RESEND_CODE' },
    { type: 'SUBMIT_NEW_PASSWORD', password: NEW_PASSWORD, passwordConfirmation: NEW_PASSWORD },
    { type: 'RETRY' },
    { type: 'RESTART' },
    { type: 'PASSKEY' },
    { type: 'CANCEL' },
  ];
  const out: EventObject[] = [...user];
  if (value === 'checkingInteraction') {
    out.push(
      doneEvent('checkInteraction', undefined),
      errorEvent('checkInteraction', loginErrors.foreignBrowser),
      errorEvent('checkInteraction', loginErrors.interactionExpired),
    );
    // no answer to the check leads to the same form as an answer (with the network message): tried in the small
    // service-app scenario only, the whole form's graph once more would double the portal's paths
    if ((snapshot.context as LoginContext).serviceApp) out.push(errorEvent('checkInteraction', loginErrors.network));
  }
  if (value === 'authorizing') out.push(doneEvent('startAuthorization', undefined), errorEvent('startAuthorization', loginErrors.network));
  if (value === 'submitting') {
    out.push(
      doneEvent('submitCredentials', complete),
      doneEvent('submitCredentials', { status: 'two_factor_required', method: 'GOOGLE' }),
      doneEvent('submitCredentials', { status: 'two_factor_required', method: 'SMS' }),
      doneEvent('submitCredentials', expired),
      doneEvent('submitCredentials', { status: 'two_factor_required', method: 'PASSKEY' }),
      doneEvent('submitCredentials', { status: 'two_factor_required', method: 'GOOGLE', passkey: true }),
      doneEvent('submitCredentials', { status: 'enrolment_required', requirement: 'passkey' }),
      errorEvent('submitCredentials', loginErrors.wrongPassword),
      errorEvent('submitCredentials', loginErrors.locked),
      errorEvent('submitCredentials', loginErrors.network),
      errorEvent('submitCredentials', loginErrors.interactionExpired),
      errorEvent('submitCredentials', loginErrors.foreignBrowser),
    );
  }
  if (value === 'twoFactor.otp.verifying') {
    out.push(
      doneEvent('verifyOtp', complete),
      doneEvent('verifyOtp', expired),
      errorEvent('verifyOtp', loginErrors.wrongOtp),
      errorEvent('verifyOtp', loginErrors.locked),
      errorEvent('verifyOtp', loginErrors.inactive),
      errorEvent('verifyOtp', loginErrors.interactionExpired),
    );
  }
  if (value === 'twoFactor.sms.verifying') {
    out.push(doneEvent('verifySmsCode', complete), errorEvent('verifySmsCode', loginErrors.wrongOtp));
  }
  if (value === 'twoFactor.sms.resending') out.push(doneEvent('resendSmsCode', undefined), errorEvent('resendSmsCode', loginErrors.network));
  if (value === 'twoFactor.sms.cooldown') out.push(afterEvent('smsResendCooldown', 'login.twoFactor.sms.cooldown'));
  if (value === 'twoFactor.recovery.verifying') {
    out.push(doneEvent('verifyRecoveryCode', complete), doneEvent('verifyRecoveryCode', expired), errorEvent('verifyRecoveryCode', loginErrors.wrongRecoveryCode));
  }
  // the e-mail field's passkey suggestions: a person picks one (signed in), or one the server no longer knows
  if (value === 'credentials') out.push(doneEvent('passkeyAutofill', complete), errorEvent('passkeyAutofill', passkeyErrors.unknown));
  if (value === 'passkey.requesting' || value === 'twoFactor.passkey.requesting') out.push(doneEvent('passkeyOptions', PASSKEY_OPTIONS), errorEvent('passkeyOptions', loginErrors.network));
  if (value === 'passkey.prompting' || value === 'twoFactor.passkey.prompting') {
    out.push(doneEvent('passkeyCeremony', PASSKEY_CREDENTIAL), errorEvent('passkeyCeremony', passkeyErrors.cancelled), afterEvent('ceremonyTimeout', value === 'passkey.prompting' ? 'login.passkey.prompting' : 'login.twoFactor.passkey.prompting'));
  }
  if (value === 'passkey.verifying') out.push(doneEvent('passkeySignIn', complete), errorEvent('passkeySignIn', passkeyErrors.unknown));
  if (value === 'twoFactor.passkey.verifying') out.push(doneEvent('passkeySecondFactor', complete), errorEvent('passkeySecondFactor', passkeyErrors.invalid));
  if (value === 'enrolment') {
    out.push(doneEvent('passkeyEnrolment', { status: 'signed_in', result: complete }), doneEvent('passkeyEnrolment', { status: 'failed', error: { code: 'interaction_expired', retryable: false, status: 400 } }));
  }
  if (value === 'expiredPassword.saving') {
    out.push(
      doneEvent('changeExpiredPassword', undefined),
      errorEvent('changeExpiredPassword', loginErrors.commonPassword),
      errorEvent('changeExpiredPassword', loginErrors.tokenExpired),
    );
  }
  return out;
}

const base: LoginInput = { admin: false, interaction: 'uid-1' };

export const loginModel: MachineModel<typeof loginMachine> = {
  name: 'login',
  title: 'Login (credentials, two-factor by OTP / SMS / recovery code, lock, expired sign-in, expired password and its change)',
  machine: loginMachine,
  scenarios: [
    { name: '/login?interaction=uid-1', input: base },
    { name: '/admin/login?interaction=uid-1', input: { ...base, admin: true } },
    { name: "/login?interaction=uid-1&type=sso (a service app's sign-in)", input: { ...base, serviceApp: true } },
    { name: '/login?interaction=uid-1 after a restart for this browser', input: { ...base, rebound: true } },
    { name: '/login opened directly (no interaction)', input: { admin: false, interaction: null } },
    { name: '/login?interaction=uid-1 with passkeys', input: { ...base, passkeyName: PASSKEY_SCENARIO_NAME } },
    { name: '/expired-password without a sign-in', input: { admin: false, interaction: null, resetToken: null } },
  ],
  events,
  strategy: 'simple',
  injectedActions: ['redirect', 'navigate', 'cancelCeremony'],
  expectedStates: [
    'checkingInteraction',
    'foreignBrowser',
    'authorizing',
    'authorizationFailed',
    'credentials',
    'submitting',
    'twoFactor.otp.entering',
    'twoFactor.otp.verifying',
    'twoFactor.sms.cooldown',
    'twoFactor.sms.ready',
    'twoFactor.sms.resending',
    'twoFactor.sms.verifying',
    'twoFactor.recovery.entering',
    'twoFactor.recovery.verifying',
    'twoFactor.passkey.ready',
    'twoFactor.passkey.requesting',
    'twoFactor.passkey.prompting',
    'twoFactor.passkey.verifying',
    'passkey.requesting',
    'passkey.prompting',
    'passkey.verifying',
    'enrolment',
    'expiredPassword.entering',
    'expiredPassword.saving',
    'expiredPassword.saved',
    'signInExpired',
    'accountInactive',
    'leaving',
  ],
  finalStates: ['leaving', 'expiredPassword.saved', 'accountInactive'],
  serializeState: (snapshot) => {
    const c = snapshot.context as LoginContext;
    return JSON.stringify([stateKey(snapshot.value), c.method, c.passkeyOffered, c.error?.code ?? null, c.resetToken, c.redirectTo, c.rebind]);
  },
};
