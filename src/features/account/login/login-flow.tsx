/**
 * The login machine on `/login`, `/admin/login` and `/expired-password`: builds the machine with the real actors
 * and its navigation (`redirect`: full page; `navigate`: the SPA route of a screen, the reset token in the
 * router's history state), and renders the screen its `screen:login.*` tag names. Reads tags only.
 */
import { useLingui } from '@lingui/react/macro';
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useMachine } from '@xstate/react';
import { lazy, Suspense, useEffect, useMemo, useState } from 'react';
import { createLoginActors, LOGIN_SCREENS, loginMachine, type LoginMachine, type LoginNavigation, type LoginScreenTag } from '../../../../machines/login.machine';
import { STORAGE_KEYS, type StorageKey } from '../../../../machines/shared';
import { isReboundAuthorization, startAuthorization } from '../../../../machines/sso-authorize';
import { configQueryOptions } from '../../../api/account';
import { call } from '../../../api/call';
import { useSwapFocus } from '../../../lib/focus-after-swap';
import { inspectOptions } from '../../../lib/inspect';
import { useScreenTitle } from '../../../lib/page-title';
import { readStorage, writeStorage } from '../../../lib/storage';
import { cancelPasskeyCeremony, createPasskey, getPasskey, passkeyAutofillSupported, passkeysSupported } from '../../../lib/webauthn';
import type { PasskeyRegistrationMachine } from '../../../../machines/passkeyRegistration.machine';
import type { ActorRefFrom } from 'xstate';
import { useDefaultPasskeyName } from '../passkeys/default-name';
import { CredentialsScreen } from './credentials-screen';
import { loginErrorMessage } from './login-errors';
import { AccountInactiveScreen, AuthorizationFailedScreen, ForeignBrowserScreen, RedirectingScreen, ScreenLoading, SignInExpiredScreen } from './status-screens';

// Screens after the password step (two-factor code with its pin input, expired password with the new-password form)
// are not in the first load of /login: they load while the credentials screen is shown (see LoginFlow).
const loadTwoFactorScreens = () => import('./two-factor-screen');
const loadExpiredPasswordScreens = () => import('../password/expired-password-screen');
const loadPasskeyScreens = () => import('./passkey-screens');
const PasskeyPromptScreen = lazy(() => loadPasskeyScreens().then((module) => ({ default: module.PasskeyPromptScreen })));
const TwoFactorPasskeyScreen = lazy(() => loadPasskeyScreens().then((module) => ({ default: module.TwoFactorPasskeyScreen })));
const PasskeyEnrolmentScreen = lazy(() => loadPasskeyScreens().then((module) => ({ default: module.PasskeyEnrolmentScreen })));
const OneTimePasswordScreen = lazy(() => loadTwoFactorScreens().then((module) => ({ default: module.OneTimePasswordScreen })));
const RecoveryCodeScreen = lazy(() => loadTwoFactorScreens().then((module) => ({ default: module.RecoveryCodeScreen })));
const ExpiredPasswordScreen = lazy(() => loadExpiredPasswordScreens().then((module) => ({ default: module.ExpiredPasswordScreen })));
const ExpiredPasswordChangedScreen = lazy(() => loadExpiredPasswordScreens().then((module) => ({ default: module.ExpiredPasswordChangedScreen })));

declare module '@tanstack/history' {
  interface HistoryState {
    /** `/expired-password`: the reset token of the `password_expired` answer (login machine `navigate`). */
    resetToken?: string;
  }
}

function useRealLoginMachine(admin: boolean, returnTo: string | undefined): LoginMachine {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  return useMemo(
    () =>
      loginMachine.provide({
        actors: createLoginActors({
          call,
          startAuthorization: async ({ rebind }) => {
            // fresh: starting a sign-in needs the server (a network failure here is the authorization-failed screen)
            const config = await queryClient.fetchQuery({ ...configQueryOptions(), staleTime: 0 });
            await startAuthorization({
              admin,
              origin: window.location.origin,
              config,
              returnTo,
              rebind,
              writeStorage: (key: StorageKey, value: string) => writeStorage(key, value),
              redirect: (url) => window.location.assign(url),
            });
          },
          passkey: {
            get: (options, autofill) => getPasskey(options, autofill),
            create: (options) => createPasskey(options),
            autofillSupported: passkeyAutofillSupported,
            cancel: () => void cancelPasskeyCeremony(),
          },
        }),
        actions: {
          cancelCeremony: () => void cancelPasskeyCeremony(),
          redirect: (_, params: { url: string }) => window.location.assign(params.url),
          navigate: (_, params: LoginNavigation) => {
            void navigate({ to: '/expired-password', search: params.admin ? { type: 'admin' } : {}, state: (previous) => ({ ...previous, resetToken: params.resetToken }) });
          },
        },
      }),
    [admin, returnTo, queryClient, navigate],
  );
}

export interface LoginFlowProps {
  admin: boolean;
  interaction: string | null;
  /** A service app's authorization (`?type=sso`): the page cannot start it again itself. */
  serviceApp?: boolean;
  /** Where the visitor wanted to go (`/login?origin=…`), kept in the stored authorization for the SSO callback. */
  returnTo?: string | undefined;
  /** Only on `/expired-password`: the token from the router state (null when there is none). */
  resetToken?: string | null;
  /** The app's `login_hint` (an e-mail address, passed on by the provider): fills the e-mail field. */
  loginHint?: string | undefined;
  /** Tests pass a machine with fake actors; the app builds the real one. */
  machineOverride?: LoginMachine;
}

export function LoginFlow({ admin, interaction, serviceApp = false, returnTo, resetToken, loginHint, machineOverride }: LoginFlowProps) {
  const real = useRealLoginMachine(admin, returnTo);
  const { t, i18n } = useLingui();
  // this page load comes from a restart for another browser's link: do not restart again (login.machine `rebound`)
  const [rebound] = useState(() => interaction !== null && isReboundAuthorization(readStorage(STORAGE_KEYS.codeVerifier)));
  const passkeyName = useDefaultPasskeyName();
  const [snapshot, send] = useMachine(machineOverride ?? real, { ...inspectOptions(), input: { admin, interaction, serviceApp, rebound, passkeyName, ...(resetToken !== undefined ? { resetToken } : {}) } });
  const screen: LoginScreenTag = LOGIN_SCREENS.find((tag) => snapshot.hasTag(tag)) ?? 'screen:login.redirecting';
  const loading = snapshot.hasTag('loading');
  const { error } = snapshot.context;
  // the next screens' code, fetched while the visitor types (a failed fetch is tried again when the screen renders)
  useEffect(() => {
    if (screen !== 'screen:login.credentials') return;
    loadTwoFactorScreens().catch(() => undefined);
    loadExpiredPasswordScreens().catch(() => undefined);
    loadPasskeyScreens().catch(() => undefined);
  }, [screen]);

  // each screen swapped in place is a page of its own for keyboard and screen-reader users: its title in the
  // document's title, focus on its heading, announced (src/lib/focus-after-swap.tsx)
  const title = screenTitle(screen);
  useScreenTitle(title);
  const { liveRegion } = useSwapFocus(screen, { announce: title, focus: screen !== 'screen:login.redirecting' });

  return (
    <>
      {liveRegion}
      <Suspense fallback={<ScreenLoading admin={admin} />}>{renderScreen()}</Suspense>
    </>
  );

  /** The document title of a screen that replaces the route's ("Sign in"); null keeps the route's. */
  function screenTitle(tag: LoginScreenTag): string | null {
    switch (tag) {
      case 'screen:login.two-factor-otp':
      case 'screen:login.two-factor-sms':
        return t`Two-factor verification`;
      case 'screen:login.two-factor-recovery':
        return t`Use a recovery code`;
      case 'screen:login.two-factor-passkey':
        return t`Two-factor verification`;
      case 'screen:login.passkey':
        return t`Sign in with a passkey`;
      case 'screen:login.passkey-enrolment':
        return t`Add a passkey to continue`;
      case 'screen:login.sign-in-expired':
        return t`Sign-in expired`;
      case 'screen:login.foreign-browser':
        return t`Sign-in started in another browser`;
      case 'screen:login.account-inactive':
        return t`Account deactivated`;
      case 'screen:login.expired-password':
        return t`Password expired`;
      case 'screen:login.password-changed':
        return t`Password changed`;
      default:
        return null;
    }
  }

  function renderScreen() {
    switch (screen) {
      case 'screen:login.credentials':
        return (
          <CredentialsScreen
            admin={admin}
            interaction={interaction ?? ''}
            loginHint={loginHint}
            loading={loading}
            error={error}
            onSubmit={(email, password) => send({ type: 'SUBMIT', email, password })}
            onPasskey={passkeysSupported() ? () => send({ type: 'PASSKEY' }) : undefined}
          />
        );
      case 'screen:login.passkey':
        return <PasskeyPromptScreen prompting={!loading} onCancel={() => send({ type: 'CANCEL' })} />;
      case 'screen:login.two-factor-passkey':
        return (
          <TwoFactorPasskeyScreen
            phase={loading ? 'busy' : snapshot.can({ type: 'CANCEL' }) ? 'prompting' : 'ready'}
            hasCode={snapshot.context.method !== null && snapshot.context.method !== 'PASSKEY'}
            error={error}
            onPasskey={() => send({ type: 'PASSKEY' })}
            onCancel={() => send({ type: 'CANCEL' })}
            onUseCode={() => send({ type: 'USE_ONE_TIME_PASSWORD' })}
            onUseRecovery={() => send({ type: 'USE_RECOVERY_CODE' })}
          />
        );
      case 'screen:login.passkey-enrolment': {
        const enrolment = snapshot.children.passkeyEnrolment as ActorRefFrom<PasskeyRegistrationMachine> | undefined;
        return enrolment ? <PasskeyEnrolmentScreen enrolment={enrolment} requirement={snapshot.context.enrolmentRequirement} /> : <ScreenLoading admin={admin} />;
      }
      case 'screen:login.two-factor-otp':
      case 'screen:login.two-factor-sms':
        return (
          <OneTimePasswordScreen
            method={screen === 'screen:login.two-factor-sms' ? 'sms' : 'otp'}
            canResend={snapshot.hasTag('sms:can-resend')}
            loading={loading}
            error={error}
            onCode={(code) => send({ type: 'SUBMIT_CODE', code })}
            onUseRecovery={() => send({ type: 'USE_RECOVERY_CODE' })}
            onResend={() => send({ type: 'RESEND_CODE' })}
            onUsePasskey={snapshot.context.passkeyOffered && passkeysSupported() ? () => send({ type: 'PASSKEY' }) : undefined}
          />
        );
      case 'screen:login.two-factor-recovery':
        return (
          <RecoveryCodeScreen
            loading={loading}
            error={error}
            onRecovery={(recoveryCode) => send({ type: 'SUBMIT_RECOVERY_CODE', recoveryCode })}
            onUseOtp={() => send({ type: 'USE_ONE_TIME_PASSWORD' })}
          />
        );
      case 'screen:login.expired-password':
        return <ExpiredPasswordScreen loading={loading} error={error} onSubmit={(values) => send({ type: 'SUBMIT_NEW_PASSWORD', password: values.password, passwordConfirmation: values.password_confirmation })} />;
      case 'screen:login.password-changed':
        return <ExpiredPasswordChangedScreen admin={admin} />;
      case 'screen:login.sign-in-expired':
        return <SignInExpiredScreen admin={admin} onRestart={() => send({ type: 'RESTART' })} />;
      case 'screen:login.foreign-browser':
        return <ForeignBrowserScreen admin={admin} serviceApp={serviceApp} onRestart={() => send({ type: 'RESTART' })} />;
      case 'screen:login.account-inactive':
        return <AccountInactiveScreen message={loginErrorMessage(i18n, error)?.text ?? null} />;
      case 'screen:login.authorization-failed':
        return <AuthorizationFailedScreen admin={admin} message={loginErrorMessage(i18n, error)?.text ?? null} onRetry={() => send({ type: 'RETRY' })} />;
      case 'screen:login.redirecting':
        return <RedirectingScreen admin={admin} />;
    }
  }
}
