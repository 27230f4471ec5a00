/** Graph model of the login machine: every server answer and error kind per step. */
import type { AnyMachineSnapshot, EventObject } from 'xstate';
import { CallFailureError } from './testing/failure';
import { loginMachine, type LoginContext, type LoginEvent, type LoginInput } from './login.machine';
import { afterEvent, doneEvent, errorEvent, stateKey, type MachineModel } from './testing/graph';

export const REDIRECT_TO = 'https://iam.test/op/interaction/uid-1/login';

export const loginErrors = {
  unauthorized: new CallFailureError({ kind: 'http', status: 401, code: 'invalid_credentials', message: 'Given password is invalid' }),
  unprocessable: new CallFailureError({ kind: 'http', status: 422, code: 'validation_failed', message: 'Given password is invalid', fields: { password: ['invalid'] } }),
  throttled: new CallFailureError({ kind: 'http', status: 429, code: 'too_many_attempts', message: 'Too many attempts', retryAfter: 30 }),
  network: new CallFailureError({ kind: 'network', message: 'fetch failed' }),
  timeout: new CallFailureError({ kind: 'timeout', message: 'timeout' }),
  server: new CallFailureError({ kind: 'http', status: 500, code: 'internal', message: 'Error ocurred, please try again' }),
};

const complete = { status: 'complete', redirect_to: REDIRECT_TO } as const;
/** With 2FA on, an old password is reported only after the second factor. */
const expired = { status: 'password_expired', reset_token: 'reset-token-1' } as const;

function events(snapshot: AnyMachineSnapshot): EventObject[] {
  const value = stateKey(snapshot.value);
  const user: LoginEvent[] = [
    { type: 'SUBMIT', email: 'ada@example.com', password: 'Secret-password-1' },
    { type: 'SUBMIT_CODE', code: '123456' },
    { type: 'SUBMIT_RECOVERY_CODE', recoveryCode: 'ABCD-EFGH' },
    { type: 'USE_RECOVERY_CODE' },
    { type: 'USE_ONE_TIME_PASSWORD' },
    { type: 'RESEND_CODE' },
    { type: 'RETRY' },
  ];
  const out: EventObject[] = [...user];
  if (value === 'authorizing') out.push(doneEvent('startAuthorization', undefined), errorEvent('startAuthorization', loginErrors.network));
  if (value === 'submitting') {
    out.push(
      doneEvent('submitCredentials', complete),
      doneEvent('submitCredentials', { status: 'two_factor_required', method: 'GOOGLE' }),
      doneEvent('submitCredentials', { status: 'two_factor_required', method: 'SMS' }),
      doneEvent('submitCredentials', expired),
      errorEvent('submitCredentials', loginErrors.unauthorized),
      errorEvent('submitCredentials', loginErrors.unprocessable),
      errorEvent('submitCredentials', loginErrors.throttled),
      errorEvent('submitCredentials', loginErrors.network),
      errorEvent('submitCredentials', loginErrors.timeout),
      errorEvent('submitCredentials', loginErrors.server),
    );
  }
  if (value === 'twoFactor.otp.verifying') {
    out.push(doneEvent('verifyOtp', complete), doneEvent('verifyOtp', expired), errorEvent('verifyOtp', loginErrors.unprocessable), errorEvent('verifyOtp', loginErrors.throttled));
  }
  if (value === 'twoFactor.sms.verifying') {
    out.push(doneEvent('verifySmsCode', complete), doneEvent('verifySmsCode', expired), errorEvent('verifySmsCode', loginErrors.unprocessable), errorEvent('verifySmsCode', loginErrors.network));
  }
  if (value === 'twoFactor.sms.resending') out.push(doneEvent('resendSmsCode', undefined), errorEvent('resendSmsCode', loginErrors.throttled));
  if (value === 'twoFactor.sms.cooldown') out.push(afterEvent('smsResendCooldown', 'login.twoFactor.sms.cooldown'));
  if (value === 'twoFactor.recovery.verifying') {
    out.push(doneEvent('verifyRecoveryCode', complete), doneEvent('verifyRecoveryCode', expired), errorEvent('verifyRecoveryCode', loginErrors.unprocessable));
  }
  return out;
}

const base: LoginInput = { admin: false, interaction: 'uid-1' };

export const loginModel: MachineModel<typeof loginMachine> = {
  name: 'login',
  title: 'Login (credentials, two-factor by OTP / SMS / recovery code, expired password)',
  machine: loginMachine,
  scenarios: [
    { name: '/login?interaction=uid-1', input: base },
    { name: '/admin/login?interaction=uid-1', input: { ...base, admin: true } },
    { name: '/login opened directly (no interaction)', input: { admin: false, interaction: null } },
  ],
  events,
  strategy: 'simple',
  injectedActions: ['redirect'],
  expectedStates: [
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
    'passwordExpired',
    'leaving',
  ],
  finalStates: ['leaving', 'passwordExpired'],
  serializeState: (snapshot) => {
    const c = snapshot.context as LoginContext;
    return JSON.stringify([stateKey(snapshot.value), c.method, c.error?.code ?? null, c.error?.status ?? null, c.resetToken, c.redirectTo]);
  },
};
