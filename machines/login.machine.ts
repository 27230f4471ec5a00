/**
 * Login statechart (docs/DESIGN.md §6 steps 2–5): credentials → complete | two-factor
 * (authenticator OTP, SMS code with resend cooldown, recovery code) | expired password
 * (a new password with the answer's `reset_token`, on `/expired-password`).
 * With 2FA on, the server answers `password_expired` (and `account_inactive`) only after the second
 * factor, so every second-factor step can end there too. Without an `interaction` uid (user opened
 * /login directly) it first starts the authorization (injected `startAuthorization`, normally
 * `startAuthorization()` from ssoCallback.machine).
 *
 * A sign-in belongs to the browser that started it (server/oidc/interaction-binding.ts): with an `interaction` uid the
 * machine first asks whether this browser holds it (`checkInteraction`). A link opened in another browser
 * (`interaction_foreign_browser`, from the check or from any later step) starts a fresh authorization of this browser's
 * own for the portal and the admin console (`restartForThisBrowser`); for a service app's authorization (`type=sso`,
 * another client the SPA cannot start) and when this very page load came from such a restart already (`rebound`: the
 * browser keeps no cookie, so restarting again would loop) it shows `screen:login.foreign-browser` instead.
 *
 * Screens: every non-transient state carries exactly one `screen:login.*` tag naming what is shown
 * (the QA words and checks are in login.qa.ts). The machine owns its navigation: `redirect` (full page:
 * `redirect_to`) and `navigate` (SPA route change to `/expired-password`, the reset token in the
 * router's history state, never in storage). `/expired-password` starts this machine again with that
 * token (`input.resetToken`), so the change of the expired password runs here too.
 *
 * Injected: actors startAuthorization, submitCredentials, verifyOtp, verifySmsCode, resendSmsCode,
 * verifyRecoveryCode, changeExpiredPassword (`createLoginActors({ call, startAuthorization })`,
 * contract/auth.ts and contract/account.ts); actions redirect, navigate.
 */
import { assign, fromPromise, setup } from 'xstate';
import { accountByKind as byKind, auth, passkeys } from '../contract/routes';
import type { PasskeyCredentialJSON } from '../contract/passkeys';
import type { LoginResult, SecondFactorResult, TwoFactorMethod } from '../contract/auth';
/** The second factor a sign-in asks for (contract/auth.ts signInSecondFactor): the account's code, or its passkey. */
export type SignInSecondFactor = TwoFactorMethod | 'PASSKEY';
import type { Call, CallOf, EndpointOf, ErrorCodeOf } from '../contract/endpoint';
import type { ErrorCode } from '../contract/error-codes';
import { toMachineError, type MachineError } from './errors';
import { CEREMONY_GRACE_MS, createPasskeyRegistrationActors, DEFAULT_CEREMONY_TIMEOUT_MS, passkeyRegistrationMachine, type CeremonyOptions, type PasskeyEnrolmentOutput } from './passkeyRegistration.machine';
import { notProvided } from './shared';
import { toCeremonyError } from './webauthn';

export const SMS_RESEND_COOLDOWN_MS = 60_000;

export type { LoginResult, SecondFactorResult, TwoFactorMethod };

export interface LoginInput {
  admin: boolean;
  /** OIDC interaction uid from `?interaction=`; null when /login was opened directly. */
  interaction: string | null;
  /** The authorization is a service app's (`?type=sso`): only the app can start it again. */
  serviceApp?: boolean;
  /**
   * This page load follows a restart for another browser's link (the stored authorization says so): a second
   * `interaction_foreign_browser` shows the foreign-browser screen instead of restarting again.
   */
  rebound?: boolean;
  /**
   * Set only on `/expired-password`: the reset token handed over in the router state by the
   * machine that got `password_expired` (null when the page was opened some other way).
   */
  resetToken?: string | null;
  /** The name offered for a passkey the sign-in requires ("Chrome on Linux"). */
  passkeyName?: string;
}
export interface LoginContext {
  admin: boolean;
  interaction: string | null;
  serviceApp: boolean;
  rebound: boolean;
  /** The next authorization is started because this browser does not hold the link's sign-in. */
  rebind: boolean;
  /** True on `/expired-password` (the machine starts at the new-password step). */
  expiredPasswordPage: boolean;
  email: string;
  method: SignInSecondFactor | null;
  /** The account has a passkey, offered next to its code (or as its only second factor: `method` PASSKEY). */
  passkeyOffered: boolean;
  /** The options of the passkey ceremony in progress (their `timeout` bounds the wait). */
  passkeyOptions: CeremonyOptions | null;
  passkeyCredential: PasskeyCredentialJSON | null;
  passkeyName: string;
  /** `enrolment`: what the organization requires (a passkey, or any second factor: a passkey is added). */
  enrolmentRequirement: 'passkey' | 'second_factor';
  resetToken: string | null;
  redirectTo: string | null;
  error: MachineError | null;
}

export type LoginEvent =
  | { type: 'SUBMIT'; email: string; password: string }
  | { type: 'SUBMIT_CODE'; code: string }
  | { type: 'SUBMIT_RECOVERY_CODE'; recoveryCode: string }
  | { type: 'USE_RECOVERY_CODE' }
  | { type: 'USE_ONE_TIME_PASSWORD' }
  | { type: 'RESEND_CODE' }
  | { type: 'SUBMIT_NEW_PASSWORD'; password: string; passwordConfirmation: string }
  /** authorization failed to start: start it again */
  | { type: 'RETRY' }
  /** the sign-in expired (or the reset token did): start a new sign-in */
  | { type: 'RESTART' }
  /** "Sign in with a passkey" (credentials), "Use your passkey" / "Use a passkey instead" (second factor) */
  | { type: 'PASSKEY' }
  /** "Cancel" while the browser asks for the passkey */
  | { type: 'CANCEL' };

/** What each screen tag shows (login.qa.ts has the words and checks). */
export const LOGIN_SCREENS = [
  'screen:login.redirecting',
  'screen:login.authorization-failed',
  'screen:login.credentials',
  'screen:login.two-factor-otp',
  'screen:login.two-factor-sms',
  'screen:login.two-factor-recovery',
  'screen:login.two-factor-passkey',
  'screen:login.passkey',
  'screen:login.passkey-enrolment',
  'screen:login.sign-in-expired',
  'screen:login.foreign-browser',
  'screen:login.account-inactive',
  'screen:login.expired-password',
  'screen:login.password-changed',
] as const;
export type LoginScreenTag = (typeof LOGIN_SCREENS)[number];
export type LoginTag = LoginScreenTag | 'loading' | 'sms:can-resend';

export interface CredentialsInput { admin: boolean; email: string; password: string; interaction: string }
export interface CodeInput { admin: boolean; code: string; interaction: string }
export interface RecoveryInput { admin: boolean; recoveryCode: string; interaction: string }
export interface ResendInput { admin: boolean; interaction: string }
/** `rebind`: started because the link's sign-in belongs to another browser (kept with the stored authorization). */
export interface StartAuthorizationInput { admin: boolean; rebind: boolean }
export interface CheckInteractionInput { interaction: string }
export interface NewPasswordInput { admin: boolean; resetToken: string; password: string; passwordConfirmation: string }
/** `navigate` params: the SPA route of a screen and what it carries in the router's history state. */
export interface LoginNavigation { to: 'expired-password'; admin: boolean; resetToken: string }
export interface PasskeyOptionsInput { interaction: string; purpose: 'sign_in' | 'second_factor' }
export interface PasskeyCeremonyInput { options: CeremonyOptions }
export interface PasskeyVerifyInput { interaction: string; credential: PasskeyCredentialJSON }
export interface PasskeyAutofillInput { interaction: string }
/** The browser's side of a passkey sign-in (src/lib/webauthn.ts). */
export interface PasskeyBrowser {
  /** `navigator.credentials.get()`; `autofill`: conditional mediation (the e-mail field's suggestions). */
  get: (options: CeremonyOptions, autofill: boolean) => Promise<PasskeyCredentialJSON>;
  /** `navigator.credentials.create()` (a passkey the sign-in requires). */
  create: (options: CeremonyOptions) => Promise<PasskeyCredentialJSON>;
  /** Whether the e-mail field can offer passkeys (conditional mediation). */
  autofillSupported: () => Promise<boolean>;
  /** Stops the ceremony in progress. */
  cancel: () => void;
}

/**
 * The endpoints the sign-in calls: the actors' below (their `call` takes no other, so tsc asks for a new one to be added
 * here) and the passkey enrolment's (machines/passkeyRegistration.machine.ts in enrolment mode).
 */
type SignInRoute =
  | typeof auth.interactionStatus | typeof auth.login | typeof auth.adminLogin
  | typeof auth.validateOtp | typeof auth.adminValidateOtp | typeof auth.verifySms | typeof auth.resendSms | typeof auth.validateRecoveryCode
  | typeof passkeys.passkeyAuthenticationOptions | typeof passkeys.passkeySignIn | typeof passkeys.passkeySecondFactor
  | typeof byKind.user.resetPassword | typeof byKind.admin.resetPassword;
type EnrolmentRoute = typeof passkeys.passkeyEnrolmentOptions | typeof passkeys.passkeyEnrol;
/**
 * Every code the sign-in's endpoints declare (their `errors`): what the sign-in screens can meet. Each has words in
 * src/features/account/error-words.ts, which tsc checks, so a code added to one of these endpoints fails there until
 * it has them.
 */
export type SignInErrorCode = ErrorCodeOf<EndpointOf<SignInRoute | EnrolmentRoute>>;

/** Real actors: the sign-in endpoints of contract/auth.ts through the injected typed client (`call`). */
export function createLoginActors(deps: { call: Call; startAuthorization: (input: StartAuthorizationInput) => Promise<void>; passkey: PasskeyBrowser }) {
  const { passkey } = deps;
  const call: CallOf<EndpointOf<SignInRoute>> = deps.call;
  const options = async (input: PasskeyOptionsInput) => (await call(passkeys.passkeyAuthenticationOptions, { body: { interaction: input.interaction, purpose: input.purpose } })).data.options;
  const signIn = async (input: PasskeyVerifyInput) => (await call(passkeys.passkeySignIn, { body: { interaction: input.interaction, credential: input.credential } })).data;
  return {
    passkeyOptions: fromPromise<CeremonyOptions, PasskeyOptionsInput>(({ input }) => options(input)),
    passkeyCeremony: fromPromise<PasskeyCredentialJSON, PasskeyCeremonyInput>(({ input }) => passkey.get(input.options, false)),
    passkeySignIn: fromPromise<LoginResult, PasskeyVerifyInput>(({ input }) => signIn(input)),
    passkeySecondFactor: fromPromise<SecondFactorResult, PasskeyVerifyInput>(async ({ input }) =>
      (await call(passkeys.passkeySecondFactor, { body: { interaction: input.interaction, credential: input.credential } })).data,
    ),
    /**
     * The e-mail field's passkey suggestions (conditional UI): waits until the person picks one, then signs in with it.
     * Never settles where the browser cannot offer them; stopped (the ceremony aborted) when the machine leaves the form.
     */
    passkeyAutofill: fromPromise<LoginResult, PasskeyAutofillInput>(async ({ input, signal }) => {
      if (!(await passkey.autofillSupported())) return new Promise<LoginResult>(() => {});
      signal.addEventListener('abort', () => passkey.cancel(), { once: true });
      const credential = await passkey.get(await options({ interaction: input.interaction, purpose: 'sign_in' }), true);
      return signIn({ interaction: input.interaction, credential });
    }),
    passkeyEnrolment: passkeyRegistrationMachine.provide({
      actors: createPasskeyRegistrationActors({ call: deps.call, createPasskey: passkey.create }),
      actions: { cancelCeremony: () => passkey.cancel() },
    }),
    startAuthorization: fromPromise<void, StartAuthorizationInput>(({ input }) => deps.startAuthorization(input)),
    checkInteraction: fromPromise<void, CheckInteractionInput>(async ({ input }) => {
      await call(auth.interactionStatus, { params: { interaction: input.interaction } });
    }),
    submitCredentials: fromPromise<LoginResult, CredentialsInput>(async ({ input }) => {
      const body = { email: input.email, password: input.password, interaction: input.interaction };
      return (await (input.admin ? call(auth.adminLogin, { body }) : call(auth.login, { body }))).data;
    }),
    verifyOtp: fromPromise<SecondFactorResult, CodeInput>(async ({ input }) => {
      const body = { one_time_password: input.code, interaction: input.interaction };
      return (await (input.admin ? call(auth.adminValidateOtp, { body }) : call(auth.validateOtp, { body }))).data;
    }),
    verifySmsCode: fromPromise<SecondFactorResult, CodeInput>(async ({ input }) =>
      (await call(auth.verifySms, { body: { one_time_password: input.code, interaction: input.interaction } })).data,
    ),
    resendSmsCode: fromPromise<void, ResendInput>(async ({ input }) => {
      await call(auth.resendSms, { body: { interaction: input.interaction } });
    }),
    verifyRecoveryCode: fromPromise<SecondFactorResult, RecoveryInput>(async ({ input }) =>
      (await call(auth.validateRecoveryCode, { body: { recovery_code: input.recoveryCode, interaction: input.interaction } })).data,
    ),
    changeExpiredPassword: fromPromise<void, NewPasswordInput>(async ({ input }) => {
      const body = { reset_token: input.resetToken, password: input.password, password_confirmation: input.passwordConfirmation };
      await (input.admin ? call(byKind.admin.resetPassword, { body }) : call(byKind.user.resetPassword, { body }));
    }),
  };
}

/** Codes after which this sign-in cannot go on: the interaction (or the reset token) is gone. */
export const SIGN_IN_GONE: readonly ErrorCode[] = ['interaction_expired', 'interaction_invalid', 'two_factor_method_mismatch', 'invalid_link'];
const codeOf = (error: unknown) => toMachineError(error).code;

type DoneOutput = { output: LoginResult | SecondFactorResult };
type ErrorEvent = { event: { error: unknown } };
/**
 * `interaction_foreign_browser` (the link's sign-in belongs to another browser): a fresh authorization of this
 * browser's own where the SPA can start one, else the foreign-browser screen.
 */
const foreignBrowser = [
  {
    guard: { type: 'canRestartForThisBrowser' as const, params: ({ event }: ErrorEvent) => ({ error: event.error }) },
    target: '#login.authorizing',
    actions: 'restartForThisBrowser' as const,
  },
  {
    guard: { type: 'isForeignBrowser' as const, params: ({ event }: ErrorEvent) => ({ error: event.error }) },
    target: '#login.foreignBrowser',
    actions: { type: 'setError' as const, params: ({ event }: ErrorEvent) => ({ error: event.error }) },
  },
];
const redirectOf = ({ event }: { event: DoneOutput }) => ({ url: event.output.status === 'complete' ? event.output.redirect_to : '' });
const resetTokenOf = ({ event }: { event: DoneOutput }) => ({ resetToken: event.output.status === 'password_expired' ? event.output.reset_token : '' });
const toExpiredPassword = ({ context, event }: { context: LoginContext; event: DoneOutput }): LoginNavigation => ({ to: 'expired-password', admin: context.admin, ...resetTokenOf({ event }) });
const goneOrInactive = [
  ...foreignBrowser,
  { guard: { type: 'isSignInGone' as const, params: ({ event }: { event: { error: unknown } }) => ({ error: event.error }) }, target: '#login.signInExpired', actions: { type: 'setError' as const, params: ({ event }: { event: { error: unknown } }) => ({ error: event.error }) } },
  { guard: { type: 'isAccountInactive' as const, params: ({ event }: { event: { error: unknown } }) => ({ error: event.error }) }, target: '#login.accountInactive', actions: { type: 'setError' as const, params: ({ event }: { event: { error: unknown } }) => ({ error: event.error }) } },
];

const toEnrolment = {
  type: 'setRequirement' as const,
  params: ({ event }: { event: DoneOutput }) => ({ requirement: event.output.status === 'enrolment_required' ? event.output.requirement : ('passkey' as const) }),
};
/** Where a second factor's answer leads: the redirect, the expired-password step (old password, 2FA passed), or a passkey to enrol. */
const secondFactorDone = [
  {
    guard: { type: 'isComplete', params: ({ event }: { event: DoneOutput }) => ({ result: event.output }) },
    target: '#login.leaving',
    actions: [{ type: 'setRedirect', params: redirectOf }, { type: 'redirect', params: redirectOf }],
  },
  {
    guard: { type: 'isPasswordExpired', params: ({ event }: { event: DoneOutput }) => ({ result: event.output }) },
    target: '#login.expiredPassword',
    actions: [{ type: 'setResetToken', params: resetTokenOf }, { type: 'navigate', params: toExpiredPassword }],
  },
  { guard: { type: 'isEnrolmentRequired', params: ({ event }: { event: DoneOutput }) => ({ result: event.output }) }, target: '#login.enrolment', actions: toEnrolment },
] as const;

/** The password step's answer (also a passkey sign-in's): signed in, the second factor, the expired password, or a passkey to enrol. */
const signInDone = [
  secondFactorDone[0],
  {
    guard: { type: 'isTwoFactorRequired' as const, params: ({ event }: { event: { output: LoginResult } }) => ({ result: event.output }) },
    target: '#login.twoFactor',
    actions: { type: 'setTwoFactor' as const, params: ({ event }: { event: { output: LoginResult } }) => (event.output.status === 'two_factor_required' ? { method: event.output.method, passkey: event.output.passkey ?? false } : { method: 'GOOGLE' as const, passkey: false }) },
  },
  secondFactorDone[1],
  secondFactorDone[2],
] as const;

/** "Use a passkey instead" on a code screen (the account has one). */
const usePasskey = { guard: 'hasPasskey' as const, target: '#login.twoFactor.passkey.requesting', actions: 'clearError' as const };
type EnrolmentDone = { event: { output: PasskeyEnrolmentOutput } };
/** The sign-in's answer an enrolment ended with, for the same redirect and reset-token reading as the other steps. */
const enrolmentAnswer = ({ event }: EnrolmentDone): { event: DoneOutput } => ({
  event: { output: event.output.status === 'signed_in' ? event.output.result : { status: 'enrolment_required', requirement: 'passkey' } },
});
const enrolmentRedirectOf = (args: EnrolmentDone) => redirectOf(enrolmentAnswer(args));
const enrolmentResetTokenOf = (args: EnrolmentDone) => resetTokenOf(enrolmentAnswer(args));
type CeremonyErrorEvent = { event: { error: unknown } };
const ceremonyErrorOf = ({ event }: CeremonyErrorEvent) => ({ error: toCeremonyError(event.error) });
/**
 * The passkey steps (options → the browser's prompt → the server checks the answer), for the sign-in without a password
 * (`sign_in`: back to the form on failure) and the second factor (`second_factor`: back to its screen).
 */
function passkeySteps(purpose: 'sign_in' | 'second_factor', back: string, done: typeof signInDone | typeof secondFactorDone) {
  const backWithError = { target: back, actions: { type: 'setError' as const, params: ({ event }: CeremonyErrorEvent) => ({ error: event.error }) } };
  return {
    requesting: {
      tags: ['loading' as const],
      invoke: {
        id: 'passkeyOptions',
        src: 'passkeyOptions' as const,
        input: ({ context }: { context: LoginContext }) => ({ interaction: context.interaction ?? '', purpose }),
        onDone: { target: 'prompting', actions: { type: 'setPasskeyOptions' as const, params: ({ event }: { event: { output: CeremonyOptions } }) => ({ options: event.output }) } },
        onError: [...goneOrInactive, backWithError],
      },
    },
    /** The browser's own prompt is open; the page says so, with Cancel. */
    prompting: {
      invoke: {
        id: 'passkeyCeremony',
        src: 'passkeyCeremony' as const,
        input: ({ context }: { context: LoginContext }) => ({ options: context.passkeyOptions ?? { challenge: '' } }),
        onDone: { target: 'verifying', actions: { type: 'setPasskeyCredential' as const, params: ({ event }: { event: { output: PasskeyCredentialJSON } }) => ({ credential: event.output }) } },
        onError: [
          { guard: { type: 'isAborted' as const, params: ceremonyErrorOf }, target: back, actions: 'clearError' as const },
          { target: back, actions: { type: 'setCeremonyError' as const, params: ceremonyErrorOf } },
        ],
      },
      after: { ceremonyTimeout: { target: back, actions: ['cancelCeremony' as const, 'setPasskeyTimedOut' as const] } },
      on: { CANCEL: { target: back, actions: ['cancelCeremony' as const, 'clearError' as const] } },
    },
    verifying: {
      tags: ['loading' as const],
      invoke: {
        id: purpose === 'sign_in' ? 'passkeySignIn' : 'passkeySecondFactor',
        src: purpose === 'sign_in' ? ('passkeySignIn' as const) : ('passkeySecondFactor' as const),
        input: ({ context }: { context: LoginContext }) => ({ interaction: context.interaction ?? '', credential: context.passkeyCredential ?? ({} as PasskeyCredentialJSON) }),
        onDone: done,
        onError: [...goneOrInactive, backWithError],
      },
    },
  };
}

export const loginMachine = setup({
  types: {
    context: {} as LoginContext,
    events: {} as LoginEvent,
    input: {} as LoginInput,
    tags: {} as LoginTag,
  },
  actors: {
    startAuthorization: fromPromise<void, StartAuthorizationInput>(async () => notProvided('startAuthorization')),
    checkInteraction: fromPromise<void, CheckInteractionInput>(async () => notProvided('checkInteraction')),
    submitCredentials: fromPromise<LoginResult, CredentialsInput>(async () => notProvided('submitCredentials')),
    verifyOtp: fromPromise<SecondFactorResult, CodeInput>(async () => notProvided('verifyOtp')),
    verifySmsCode: fromPromise<SecondFactorResult, CodeInput>(async () => notProvided('verifySmsCode')),
    resendSmsCode: fromPromise<void, ResendInput>(async () => notProvided('resendSmsCode')),
    verifyRecoveryCode: fromPromise<SecondFactorResult, RecoveryInput>(async () => notProvided('verifyRecoveryCode')),
    changeExpiredPassword: fromPromise<void, NewPasswordInput>(async () => notProvided('changeExpiredPassword')),
    passkeyOptions: fromPromise<CeremonyOptions, PasskeyOptionsInput>(async () => notProvided('passkeyOptions')),
    passkeyCeremony: fromPromise<PasskeyCredentialJSON, PasskeyCeremonyInput>(async () => notProvided('passkeyCeremony')),
    passkeySignIn: fromPromise<LoginResult, PasskeyVerifyInput>(async () => notProvided('passkeySignIn')),
    passkeySecondFactor: fromPromise<SecondFactorResult, PasskeyVerifyInput>(async () => notProvided('passkeySecondFactor')),
    passkeyAutofill: fromPromise<LoginResult, PasskeyAutofillInput>(async () => notProvided('passkeyAutofill')),
    /** The passkey a sign-in requires (machines/passkeyRegistration.machine.ts, enrolment mode). */
    passkeyEnrolment: passkeyRegistrationMachine,
  },
  actions: {
    /** Stops the browser's passkey prompt (Cancel, or the machine stopped waiting). */
    cancelCeremony: () => notProvided('cancelCeremony'),
    setPasskeyOptions: assign((_, params: { options: CeremonyOptions }) => ({ passkeyOptions: params.options, error: null })),
    setPasskeyCredential: assign((_, params: { credential: PasskeyCredentialJSON }) => ({ passkeyCredential: params.credential })),
    setCeremonyError: assign((_, params: { error: MachineError }) => ({ error: params.error, passkeyOptions: null, passkeyCredential: null })),
    setPasskeyTimedOut: assign({ error: { code: 'passkey_timeout', retryable: true } satisfies MachineError, passkeyOptions: null, passkeyCredential: null }),
    setRequirement: assign((_, params: { requirement: 'passkey' | 'second_factor' }) => ({ enrolmentRequirement: params.requirement, error: null })),
    setEnrolmentError: assign((_, params: { output: PasskeyEnrolmentOutput }) => ({ error: 'error' in params.output ? params.output.error : null })),
    /** Full page load of `url` (the provider's `redirect_to`). */
    redirect: (_, _params: { url: string }) => notProvided('redirect'),
    /** SPA route change to the screen's route, with what it carries in the history state. */
    navigate: (_, _params: LoginNavigation) => notProvided('navigate'),
    setEmail: assign((_, params: { email: string }) => ({ email: params.email, error: null })),
    setError: assign((_, params: { error: unknown }) => ({ error: toMachineError(params.error), passkeyOptions: null, passkeyCredential: null })),
    clearError: assign({ error: null, passkeyOptions: null, passkeyCredential: null }),
    setTwoFactor: assign((_, params: { method: SignInSecondFactor; passkey: boolean }) => ({ method: params.method, passkeyOffered: params.passkey || params.method === 'PASSKEY', error: null })),
    setResetToken: assign((_, params: { resetToken: string }) => ({ resetToken: params.resetToken, error: null })),
    setRedirect: assign((_, params: { url: string }) => ({ redirectTo: params.url, error: null })),
    /** The link's sign-in is another browser's: the next authorization is this browser's own (and says so). */
    restartForThisBrowser: assign({ rebind: true, error: null }),
  },
  guards: {
    hasInteraction: ({ context }) => Boolean(context.interaction),
    hasResetToken: ({ context }) => Boolean(context.resetToken),
    isExpiredPasswordPage: ({ context }) => context.expiredPasswordPage,
    isSms: ({ context }) => context.method === 'SMS',
    isComplete: (_, params: { result: LoginResult | SecondFactorResult }) => params.result.status === 'complete',
    isTwoFactorRequired: (_, params: { result: LoginResult }) => params.result.status === 'two_factor_required',
    isEnrolmentRequired: (_, params: { result: LoginResult | SecondFactorResult }) => params.result.status === 'enrolment_required',
    isPasskeyOnly: ({ context }) => context.method === 'PASSKEY',
    hasPasskey: ({ context }) => context.passkeyOffered,
    /** A code (authenticator app or SMS) is this account's second factor, next to its passkey. */
    hasCode: ({ context }) => context.method !== null && context.method !== 'PASSKEY',
    /** Another ceremony replaced this one, or the form was left: not a failure to show (machines/webauthn.ts). */
    isAborted: (_, params: { error: MachineError }) => params.error.code === 'passkey_aborted',
    /** The e-mail field's passkey was refused (unknown, removed, not verified): the form says so and offers them again. */
    isPasskeyRefused: (_, params: { error: unknown }) => ['passkey_unknown', 'passkey_invalid', 'passkey_challenge_invalid'].includes(toCeremonyError(params.error).code),
    enrolmentComplete: (_, params: { output: PasskeyEnrolmentOutput }) => 'result' in params.output && params.output.result.status === 'complete',
    enrolmentPasswordExpired: (_, params: { output: PasskeyEnrolmentOutput }) => 'result' in params.output && params.output.result.status === 'password_expired',
    enrolmentForeign: (_, params: { output: PasskeyEnrolmentOutput }) => 'error' in params.output && params.output.error.code === 'interaction_foreign_browser',
    enrolmentInactive: (_, params: { output: PasskeyEnrolmentOutput }) => 'error' in params.output && params.output.error.code === 'account_inactive',
    isPasswordExpired: (_, params: { result: LoginResult | SecondFactorResult }) => params.result.status === 'password_expired',
    isSignInGone: (_, params: { error: unknown }) => (SIGN_IN_GONE as readonly string[]).includes(codeOf(params.error)),
    isAccountInactive: (_, params: { error: unknown }) => codeOf(params.error) === 'account_inactive',
    isForeignBrowser: (_, params: { error: unknown }) => codeOf(params.error) === 'interaction_foreign_browser',
    /** Another browser's sign-in, and this page can start one of its own: the portal or the admin console, not restarted for this yet. */
    canRestartForThisBrowser: ({ context }, params: { error: unknown }) => codeOf(params.error) === 'interaction_foreign_browser' && !context.serviceApp && !context.rebound,
    /** The SPA starts authorizations of its own clients only (the portal, the admin console), never a service app's. */
    isOwnClient: ({ context }) => !context.serviceApp,
  },
  delays: {
    smsResendCooldown: SMS_RESEND_COOLDOWN_MS,
    /** How long the page waits for the browser's passkey prompt: the options' own timeout and a grace. */
    ceremonyTimeout: ({ context }) => (context.passkeyOptions?.timeout ?? DEFAULT_CEREMONY_TIMEOUT_MS) + CEREMONY_GRACE_MS,
  },
}).createMachine({
  id: 'login',
  context: ({ input }) => ({
    admin: input.admin,
    interaction: input.interaction,
    serviceApp: input.serviceApp ?? false,
    rebound: input.rebound ?? false,
    rebind: false,
    expiredPasswordPage: input.resetToken !== undefined,
    email: '',
    method: null,
    passkeyOffered: false,
    passkeyOptions: null,
    passkeyCredential: null,
    passkeyName: input.passkeyName ?? 'Passkey',
    enrolmentRequirement: 'passkey',
    resetToken: input.resetToken ?? null,
    redirectTo: null,
    error: null,
  }),
  initial: 'start',
  states: {
    start: {
      always: [
        { guard: 'hasResetToken', target: 'expiredPassword' },
        // /expired-password without a token (opened by hand, or a new tab): this sign-in is over
        { guard: 'isExpiredPasswordPage', target: 'signInExpired' },
        { guard: 'hasInteraction', target: 'checkingInteraction' },
        { target: 'authorizing' },
      ],
    },
    /** Does this browser hold the link's sign-in? The form shows, waiting, meanwhile. */
    checkingInteraction: {
      tags: ['screen:login.credentials', 'loading'],
      invoke: {
        id: 'checkInteraction',
        src: 'checkInteraction',
        input: ({ context }) => ({ interaction: context.interaction ?? '' }),
        onDone: 'credentials',
        onError: [
          ...foreignBrowser,
          { guard: { type: 'isSignInGone', params: ({ event }) => ({ error: event.error }) }, target: 'signInExpired', actions: { type: 'setError', params: ({ event }) => ({ error: event.error }) } },
          // no answer: the form stays usable, saying the server cannot be reached; its own step tries again
          { target: 'credentials', actions: { type: 'setError', params: ({ event }) => ({ error: event.error }) } },
        ],
      },
    },
    authorizing: {
      tags: ['screen:login.redirecting', 'loading'],
      invoke: {
        id: 'startAuthorization',
        src: 'startAuthorization',
        input: ({ context }) => ({ admin: context.admin, rebind: context.rebind }),
        // the browser is on its way to the authorization endpoint
        onDone: 'leaving',
        onError: { target: 'authorizationFailed', actions: { type: 'setError', params: ({ event }) => ({ error: event.error }) } },
      },
    },
    authorizationFailed: {
      tags: ['screen:login.authorization-failed'],
      on: { RETRY: { target: 'authorizing', actions: 'clearError' } },
    },
    credentials: {
      tags: ['screen:login.credentials'],
      // the e-mail field offers the browser's passkeys (conditional UI) while the form shows
      invoke: {
        id: 'passkeyAutofill',
        src: 'passkeyAutofill',
        input: ({ context }) => ({ interaction: context.interaction ?? '' }),
        onDone: signInDone,
        onError: [
          ...goneOrInactive,
          { guard: { type: 'isAborted', params: ceremonyErrorOf } },
          { guard: { type: 'isPasskeyRefused', params: ({ event }) => ({ error: event.error }) }, target: 'credentials', reenter: true, actions: { type: 'setCeremonyError', params: ceremonyErrorOf } },
          // no answer, or a browser that cannot: the form stays as it is, without suggestions (nobody asked for them)
          {},
        ],
      },
      on: {
        SUBMIT: { target: 'submitting', actions: { type: 'setEmail', params: ({ event }) => ({ email: event.email }) } },
        PASSKEY: { target: 'passkey', actions: 'clearError' },
      },
    },
    /** "Sign in with a passkey": the browser asks for one of this site's passkeys (discoverable credential). */
    passkey: {
      initial: 'requesting',
      tags: ['screen:login.passkey'],
      states: passkeySteps('sign_in', '#login.credentials', signInDone),
    },
    /** An admin setting requires a passkey and the account has none: it adds one now, which finishes the sign-in. */
    enrolment: {
      tags: ['screen:login.passkey-enrolment'],
      invoke: {
        id: 'passkeyEnrolment',
        src: 'passkeyEnrolment',
        input: ({ context }) => ({ mode: 'enrolment' as const, defaultName: context.passkeyName, interaction: context.interaction, admin: context.admin }),
        onDone: [
          {
            guard: { type: 'enrolmentComplete', params: ({ event }) => ({ output: event.output }) },
            target: 'leaving',
            actions: [{ type: 'setRedirect', params: enrolmentRedirectOf }, { type: 'redirect', params: enrolmentRedirectOf }],
          },
          {
            guard: { type: 'enrolmentPasswordExpired', params: ({ event }) => ({ output: event.output }) },
            target: 'expiredPassword',
            actions: [{ type: 'setResetToken', params: enrolmentResetTokenOf }, { type: 'navigate', params: ({ context, event }) => ({ to: 'expired-password' as const, admin: context.admin, ...enrolmentResetTokenOf({ event }) }) }],
          },
          { guard: { type: 'enrolmentForeign', params: ({ event }) => ({ output: event.output }) }, target: 'foreignBrowser', actions: { type: 'setEnrolmentError', params: ({ event }) => ({ output: event.output }) } },
          { guard: { type: 'enrolmentInactive', params: ({ event }) => ({ output: event.output }) }, target: 'accountInactive', actions: { type: 'setEnrolmentError', params: ({ event }) => ({ output: event.output }) } },
          { target: 'signInExpired', actions: { type: 'setEnrolmentError', params: ({ event }) => ({ output: event.output }) } },
        ],
      },
    },
    submitting: {
      tags: ['screen:login.credentials', 'loading'],
      invoke: {
        id: 'submitCredentials',
        src: 'submitCredentials',
        input: ({ context, event }) => ({
          admin: context.admin,
          email: context.email,
          password: event.type === 'SUBMIT' ? event.password : '',
          interaction: context.interaction ?? '',
        }),
        onDone: signInDone,
        onError: [...goneOrInactive, { target: 'credentials', actions: { type: 'setError', params: ({ event }) => ({ error: event.error }) } }],
      },
    },
    twoFactor: {
      initial: 'choose',
      states: {
        choose: { always: [{ guard: 'isPasskeyOnly', target: 'passkey' }, { guard: 'isSms', target: 'sms' }, { target: 'otp' }] },
        /** The account's passkey as the second factor: "Use your passkey" (next to the code when it has one). */
        passkey: {
          initial: 'ready',
          tags: ['screen:login.two-factor-passkey'],
          states: {
            ready: {
              on: {
                PASSKEY: { target: 'requesting', actions: 'clearError' },
                USE_ONE_TIME_PASSWORD: { guard: 'hasCode', target: '#login.twoFactor.code', actions: 'clearError' },
                USE_RECOVERY_CODE: { guard: 'hasCode', target: '#login.twoFactor.recovery', actions: 'clearError' },
              },
            },
            ...passkeySteps('second_factor', '#login.twoFactor.passkey.ready', secondFactorDone),
          },
        },
        /** Back to the code from the passkey screen (not via `choose`, which would pick the passkey again). */
        code: { always: [{ guard: 'isSms', target: 'sms' }, { target: 'otp' }] },
        otp: {
          initial: 'entering',
          tags: ['screen:login.two-factor-otp'],
          states: {
            // switching method only while no code is on its way: a request in flight is finished first (issue 29)
            entering: { on: { SUBMIT_CODE: 'verifying', USE_RECOVERY_CODE: { target: '#login.twoFactor.recovery', actions: 'clearError' }, PASSKEY: usePasskey } },
            verifying: {
              tags: ['loading'],
              invoke: {
                id: 'verifyOtp',
                src: 'verifyOtp',
                input: ({ context, event }) => ({ admin: context.admin, code: event.type === 'SUBMIT_CODE' ? event.code : '', interaction: context.interaction ?? '' }),
                onDone: secondFactorDone,
                onError: [...goneOrInactive, { target: 'entering', actions: { type: 'setError', params: ({ event }) => ({ error: event.error }) } }],
              },
            },
          },
        },
        sms: {
          initial: 'cooldown',
          tags: ['screen:login.two-factor-sms'],
          states: {
            // the server sent a code with the two_factor_required answer; resend is possible after the cooldown
            cooldown: {
              after: { smsResendCooldown: 'ready' },
              on: { SUBMIT_CODE: 'verifying', USE_RECOVERY_CODE: { target: '#login.twoFactor.recovery', actions: 'clearError' }, PASSKEY: usePasskey },
            },
            ready: {
              tags: ['sms:can-resend'],
              on: { SUBMIT_CODE: 'verifying', RESEND_CODE: { target: 'resending', actions: 'clearError' }, USE_RECOVERY_CODE: { target: '#login.twoFactor.recovery', actions: 'clearError' }, PASSKEY: usePasskey },
            },
            resending: {
              tags: ['loading'],
              invoke: {
                id: 'resendSmsCode',
                src: 'resendSmsCode',
                input: ({ context }) => ({ admin: context.admin, interaction: context.interaction ?? '' }),
                onDone: 'cooldown',
                onError: [...goneOrInactive, { target: 'ready', actions: { type: 'setError', params: ({ event }) => ({ error: event.error }) } }],
              },
            },
            verifying: {
              tags: ['loading'],
              invoke: {
                id: 'verifySmsCode',
                src: 'verifySmsCode',
                input: ({ context, event }) => ({ admin: context.admin, code: event.type === 'SUBMIT_CODE' ? event.code : '', interaction: context.interaction ?? '' }),
                onDone: secondFactorDone,
                onError: [...goneOrInactive, { target: 'ready', actions: { type: 'setError', params: ({ event }) => ({ error: event.error }) } }],
              },
            },
          },
        },
        recovery: {
          initial: 'entering',
          tags: ['screen:login.two-factor-recovery'],
          states: {
            // not while `verifying`: leaving then would spend the code in the background and the OTP that follows
            // would meet a finished sign-in ("Sign-in expired", issue 29)
            entering: { on: { SUBMIT_RECOVERY_CODE: 'verifying', USE_ONE_TIME_PASSWORD: { target: '#login.twoFactor.choose', actions: 'clearError' } } },
            verifying: {
              tags: ['loading'],
              invoke: {
                id: 'verifyRecoveryCode',
                src: 'verifyRecoveryCode',
                input: ({ context, event }) => ({
                  admin: context.admin,
                  recoveryCode: event.type === 'SUBMIT_RECOVERY_CODE' ? event.recoveryCode : '',
                  interaction: context.interaction ?? '',
                }),
                onDone: secondFactorDone,
                onError: [...goneOrInactive, { target: 'entering', actions: { type: 'setError', params: ({ event }) => ({ error: event.error }) } }],
              },
            },
          },
        },
      },
    },
    /** The password is too old: a new one with the answer's reset token (on /expired-password). */
    expiredPassword: {
      initial: 'entering',
      states: {
        entering: {
          tags: ['screen:login.expired-password'],
          on: { SUBMIT_NEW_PASSWORD: 'saving' },
        },
        saving: {
          tags: ['screen:login.expired-password', 'loading'],
          invoke: {
            id: 'changeExpiredPassword',
            src: 'changeExpiredPassword',
            input: ({ context, event }) => ({
              admin: context.admin,
              resetToken: context.resetToken ?? '',
              password: event.type === 'SUBMIT_NEW_PASSWORD' ? event.password : '',
              passwordConfirmation: event.type === 'SUBMIT_NEW_PASSWORD' ? event.passwordConfirmation : '',
            }),
            onDone: { target: 'saved', actions: 'clearError' },
            onError: [
              { guard: { type: 'isSignInGone', params: ({ event }) => ({ error: event.error }) }, target: '#login.signInExpired', actions: { type: 'setError', params: ({ event }) => ({ error: event.error }) } },
              { target: 'entering', actions: { type: 'setError', params: ({ event }) => ({ error: event.error }) } },
            ],
          },
        },
        /** Changed: the person signs in again with the new password. */
        saved: { type: 'final', tags: ['screen:login.password-changed'] },
      },
    },
    /**
     * The link's sign-in belongs to another browser and this page cannot start one of its own (a service app's, or
     * this browser already came back from such a restart): go back to the app and start again there. The portal and
     * the admin console may still try once more ("Sign in again").
     */
    foreignBrowser: {
      tags: ['screen:login.foreign-browser'],
      on: { RESTART: { guard: 'isOwnClient', target: 'authorizing', actions: 'restartForThisBrowser' } },
    },
    /** The interaction (or the reset token) expired: only a new sign-in helps. */
    signInExpired: {
      tags: ['screen:login.sign-in-expired'],
      on: { RESTART: { target: 'authorizing', actions: 'clearError' } },
    },
    /** Every factor passed but the account is deactivated: trying again cannot help. */
    accountInactive: { type: 'final', tags: ['screen:login.account-inactive'] },
    /** Browser redirect in progress (to `redirect_to` or the authorization endpoint). */
    leaving: { type: 'final', tags: ['screen:login.redirecting', 'loading'] },
  },
});

export type LoginMachine = typeof loginMachine;
