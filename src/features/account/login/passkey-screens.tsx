/**
 * The sign-in's passkey screens (issue 33): `screen:login.passkey` ("Sign in with a passkey": the browser asks),
 * `screen:login.two-factor-passkey` (the account's passkey as the second factor) and `screen:login.passkey-enrolment`
 * (a passkey the organization requires, added now: the passkey registration machine the login machine invokes).
 * Not in the first load of /login: they load while the credentials screen is shown (login-flow.tsx).
 */
import { Trans, useLingui } from '@lingui/react/macro';
import { useSelector } from '@xstate/react';
import { css } from 'styled-system/css';
import type { ActorRefFrom } from 'xstate';
import type { MachineError } from '../../../../machines/errors';
import { PASSKEY_REGISTRATION_SCREENS, type PasskeyRegistrationMachine } from '../../../../machines/passkeyRegistration.machine';
import { AuthCard } from '../../../components/page-heading';
import { Button } from '../../../components/ui/button';
import { FormAlert, formStack, mutedText } from '../form-kit';
import { PasskeyRegistrationView } from '../passkeys/passkey-registration-view';
import { loginErrorMessage } from './login-errors';
import { ScreenHeading } from './login-heading';

export interface PasskeyPromptScreenProps {
  /** The browser's prompt is open (Cancel works); otherwise a request is on its way. */
  prompting: boolean;
  onCancel: () => void;
}

/** `screen:login.passkey`: the browser asks for one of this site's passkeys. */
export function PasskeyPromptScreen({ prompting, onCancel }: PasskeyPromptScreenProps) {
  return (
    <AuthCard screen="screen:login.passkey" busy={!prompting}>
      <ScreenHeading title={<Trans>Sign in with a passkey</Trans>} description={<Trans>Use your fingerprint, face, screen lock or security key.</Trans>} />
      <div className={formStack}>
        <p role="status" className={mutedText}>
          {prompting ? <Trans>Follow your browser's prompt to sign in with your passkey.</Trans> : <Trans>One moment…</Trans>}
        </p>
        <Button variant="outline" disabled={!prompting} onClick={onCancel}>
          <Trans>Cancel</Trans>
        </Button>
      </div>
    </AuthCard>
  );
}

export interface TwoFactorPasskeyScreenProps {
  /** `ready`: the button; `prompting`: the browser asks (Cancel); `busy`: a request is on its way. */
  phase: 'ready' | 'prompting' | 'busy';
  /** The account also has an authenticator app or SMS (and recovery codes). */
  hasCode: boolean;
  error: MachineError | null;
  onPasskey: () => void;
  onCancel: () => void;
  onUseCode: () => void;
  onUseRecovery: () => void;
}

/** `screen:login.two-factor-passkey`: the second factor with the account's passkey. */
export function TwoFactorPasskeyScreen(props: TwoFactorPasskeyScreenProps) {
  const { i18n } = useLingui();
  const alert = loginErrorMessage(i18n, props.error)?.text ?? null;
  return (
    <AuthCard screen="screen:login.two-factor-passkey" busy={props.phase === 'busy'}>
      <ScreenHeading title={<Trans>Two-factor verification</Trans>} description={<Trans>Confirm that it is you with your passkey.</Trans>} />
      <div className={formStack}>
        {alert && props.phase === 'ready' ? <FormAlert>{alert}</FormAlert> : null}
        {props.phase === 'prompting' ? (
          <>
            <p role="status" className={mutedText}>
              <Trans>Follow your browser's prompt to sign in with your passkey.</Trans>
            </p>
            <Button variant="outline" onClick={props.onCancel}>
              <Trans>Cancel</Trans>
            </Button>
          </>
        ) : (
          <Button onClick={props.onPasskey} disabled={props.phase === 'busy'} aria-busy={props.phase === 'busy'}>
            <Trans>Use your passkey</Trans>
          </Button>
        )}
        {props.hasCode && props.phase === 'ready' ? (
          <div className={css({ display: 'flex', flexWrap: 'wrap', justifyContent: 'space-between', gap: '2' })}>
            <Button variant="link" onClick={props.onUseCode}>
              <Trans>Use a one-time password instead</Trans>
            </Button>
            <Button variant="link" onClick={props.onUseRecovery}>
              <Trans>Use a recovery code</Trans>
            </Button>
          </div>
        ) : null}
      </div>
    </AuthCard>
  );
}

/** `screen:login.passkey-enrolment`: the organization requires a passkey; the registration machine adds it. */
export function PasskeyEnrolmentScreen({ enrolment, requirement }: { enrolment: ActorRefFrom<PasskeyRegistrationMachine>; requirement: 'passkey' | 'second_factor' }) {
  const snapshot = useSelector(enrolment, (s) => s);
  const screen = PASSKEY_REGISTRATION_SCREENS.find((tag) => snapshot.hasTag(tag)) ?? 'screen:passkey-add.name';
  return (
    <AuthCard screen="screen:login.passkey-enrolment">
      <ScreenHeading
        title={<Trans>Add a passkey to continue</Trans>}
        description={
          requirement === 'passkey' ? (
            <Trans>Your organization requires a passkey for this account. Add one now: it signs you in from now on, without a password.</Trans>
          ) : (
            <Trans>Your organization requires a second factor for this account. Add a passkey now: it counts as your second factor.</Trans>
          )
        }
      />
      <PasskeyRegistrationView screen={screen} loading={snapshot.hasTag('loading')} name={snapshot.context.name} error={snapshot.context.error} cancellable={false} send={(event) => enrolment.send(event)} />
    </AuthCard>
  );
}
