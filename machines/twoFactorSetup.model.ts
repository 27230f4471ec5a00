/** Graph model of the two-factor setup machine. */
import type { AnyMachineSnapshot, EventObject } from 'xstate';
import { CallFailureError } from './testing/failure';
import { twoFactorSetupMachine, type TwoFactorSetupContext, type TwoFactorSetupEvent } from './twoFactorSetup.machine';
import { afterEvent, doneEvent, errorEvent, stateKey, type MachineModel } from './testing/graph';

export const SECRET = { secret: 'JBSWY3DPEHPK3PXP', otpauth_url: 'otpauth://totp/IAM:ada@example.com?secret=JBSWY3DPEHPK3PXP&issuer=IAM' };
export const RECOVERY_CODES = ['aaaa-bbbb', 'cccc-dddd'];
/** The server's answers (server/services/two-factor.ts), so the step keys name what the browser walk meets. */
export const twoFactorErrors = {
  invalidOtp: new CallFailureError({ kind: 'http', status: 422, code: 'otp_invalid', fields: { one_time_password: ['otp_invalid'] }, message: 'One time password is invalid' }),
  invalidPassword: new CallFailureError({ kind: 'http', status: 422, code: 'validation_failed', fields: { password: ['given_password_invalid'] }, message: 'Validation failed' }),
  throttled: new CallFailureError({ kind: 'http', status: 429, code: 'too_many_requests', message: 'Too many requests', retryAfter: 30 }),
  network: new CallFailureError({ kind: 'network', message: 'fetch failed' }),
};

function events(snapshot: AnyMachineSnapshot): EventObject[] {
  const value = stateKey(snapshot.value);
  const user: Array<TwoFactorSetupEvent & { qaVariant?: string }> = [
    { type: 'CHOOSE_AUTHENTICATOR' },
    { type: 'CHOOSE_SMS' },
    { type: 'SUBMIT_CODE', code: '123456' },
    { type: 'RESEND_CODE' },
    { type: 'CANCEL' },
    { type: 'ACKNOWLEDGE' },
    { type: 'DISABLE', one_time_password: '654321', qaVariant: 'one-time-password' },
    { type: 'DISABLE', password: 'Current-password-1', qaVariant: 'password' },
  ];
  const out: EventObject[] = [...user];
  const phoneUpdated: TwoFactorSetupEvent = { type: 'PHONE_UPDATED', phone: '+41791234567' };
  if ((snapshot.context as TwoFactorSetupContext).phone === null) out.push(phoneUpdated);
  const outcomes: Record<string, EventObject[]> = {
    'authenticator.creatingSecret': [doneEvent('createSecret', SECRET), errorEvent('createSecret', twoFactorErrors.network)],
    'authenticator.enabling': [doneEvent('enableAuthenticator', { recovery_codes: RECOVERY_CODES }), errorEvent('enableAuthenticator', twoFactorErrors.invalidOtp)],
    'sms.sending': [doneEvent('sendSmsCode', undefined), errorEvent('sendSmsCode', twoFactorErrors.throttled)],
    'sms.code.cooldown': [afterEvent('smsResendCooldown', 'twoFactorSetup.sms.code.cooldown')],
    'sms.resending': [doneEvent('resendSmsCode', undefined), errorEvent('resendSmsCode', twoFactorErrors.throttled)],
    'sms.enabling': [doneEvent('enableSms', { recovery_codes: RECOVERY_CODES }), errorEvent('enableSms', twoFactorErrors.invalidOtp)],
    disabling: [
      doneEvent('disableTwoFactor', undefined),
      errorEvent('disableTwoFactor', (snapshot.context as TwoFactorSetupContext).disableWith === 'password' ? twoFactorErrors.invalidPassword : twoFactorErrors.invalidOtp),
    ],
  };
  return [...out, ...(outcomes[value] ?? [])];
}

export const twoFactorSetupModel: MachineModel<typeof twoFactorSetupMachine> = {
  name: 'twoFactorSetup',
  title: 'Two-factor setup (authenticator QR, SMS with resend cooldown, recovery codes, disable)',
  machine: twoFactorSetupMachine,
  scenarios: [
    { name: '2FA off, phone set', input: { enabled: false, method: null, phone: '+41791234567' } },
    { name: '2FA off, no phone', input: { enabled: false, method: null, phone: null } },
    { name: '2FA on (authenticator)', input: { enabled: true, method: 'GOOGLE', phone: null } },
  ],
  events,
  strategy: 'simple',
  injectedActions: [],
  expectedStates: [
    'disabled',
    'authenticator.creatingSecret',
    'authenticator.qr',
    'authenticator.enabling',
    'sms.sending',
    'sms.code.cooldown',
    'sms.code.ready',
    'sms.resending',
    'sms.enabling',
    'recoveryCodes',
    'enabled',
    'disabling',
  ],
  finalStates: ['enabled', 'disabled', 'recoveryCodes'],
  serializeState: (snapshot) => {
    const c = snapshot.context as TwoFactorSetupContext;
    return JSON.stringify([stateKey(snapshot.value), c.enabled, c.method, c.phone !== null, c.secret !== null, c.recoveryCodes !== null, c.disableWith, c.error?.code ?? null]);
  },
};
