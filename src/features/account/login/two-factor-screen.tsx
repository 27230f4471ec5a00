/**
 * The second factor: `screen:login.two-factor-otp` (authenticator app), `screen:login.two-factor-sms` (code by
 * SMS, resend after the cooldown) and `screen:login.two-factor-recovery` (a recovery code instead).
 */
import { Trans, useLingui } from '@lingui/react/macro';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { css } from 'styled-system/css';
import type { MachineError } from '../../../../machines/errors';
import { AuthCard } from '../../../components/page-heading';
import { Button } from '../../../components/ui/button';
import { CodeInput } from '../../../components/ui/code-input';
import { TextField } from '../../../components/ui/text-field';
import { FormAlert, formStack, SubmitButton, usePinTranslations } from '../form-kit';
import { loginErrorMessage } from './login-errors';
import { ScreenHeading } from './login-heading';

const fieldErrorClass = css({ fontSize: 'sm', color: 'fg.error', mt: '1.5' });

export interface OneTimePasswordScreenProps {
  method: 'otp' | 'sms';
  canResend: boolean;
  loading: boolean;
  error: MachineError | null;
  onCode: (code: string) => void;
  onUseRecovery: () => void;
  onResend: () => void;
  /** "Use a passkey instead" (the account has one, and the browser can). */
  onUsePasskey?: (() => void) | undefined;
}

/** A 6-digit one-time password from the authenticator app or the SMS. */
export function OneTimePasswordScreen(props: OneTimePasswordScreenProps) {
  const { t, i18n } = useLingui();
  const [code, setCode] = useState<string[]>([]);
  const [localError, setLocalError] = useState<string | null>(null);
  const submitted = useRef(false);
  const pinTranslations = usePinTranslations();
  const message = loginErrorMessage(i18n, props.error, 'code');
  const fieldText = localError ?? (message?.place === 'code' ? message.text : null);
  const alert = message?.place === 'form' ? message.text : null;

  useEffect(() => {
    // a failed attempt clears the digits so the next code can be typed at once
    if (props.error) setCode([]);
    submitted.current = false;
  }, [props.error]);

  const submitCode = (value: string) => {
    if (value.length === 0) return setLocalError(t`Please enter one time password`);
    if (!/^\d{6}$/.test(value)) return setLocalError(t`One time password is invalid`);
    setLocalError(null);
    submitted.current = true;
    props.onCode(value);
  };

  const value = code.join('');
  return (
    <AuthCard screen={props.method === 'sms' ? 'screen:login.two-factor-sms' : 'screen:login.two-factor-otp'}>
      <ScreenHeading
        title={<Trans>Two-factor verification</Trans>}
        description={
          props.method === 'sms' ? (
            <Trans>We sent a 6-digit code to your phone. It may take up to a minute to arrive.</Trans>
          ) : (
            <Trans>Open your authenticator app and enter the 6-digit code for this account.</Trans>
          )
        }
      />
      <form
        noValidate
        className={formStack}
        onSubmit={(event) => {
          event.preventDefault();
          submitCode(value);
        }}
      >
        {alert ? <FormAlert>{alert}</FormAlert> : null}
        <div>
          <CodeInput
            label={t`One time password`}
            name="one_time_password"
            translations={pinTranslations}
            value={code}
            invalid={Boolean(fieldText)}
            describedBy={fieldText ? 'one-time-password-error' : undefined}
            disabled={props.loading}
            onValueChange={(details) => {
              setCode(details.value);
              setLocalError(null);
            }}
            onValueComplete={(details) => {
              if (!submitted.current) submitCode(details.valueAsString);
            }}
          />
          {fieldText ? (
            <p id="one-time-password-error" role="alert" data-part="field-error" className={fieldErrorClass}>
              {fieldText}
            </p>
          ) : null}
        </div>
        <SubmitButton loading={props.loading}>
          <Trans>Verify</Trans>
        </SubmitButton>
        <div className={css({ display: 'flex', flexWrap: 'wrap', justifyContent: 'space-between', gap: '2' })}>
          {props.method === 'sms' ? (
            <Button variant="link" disabled={!props.canResend || props.loading} onClick={props.onResend}>
              {props.canResend ? <Trans>Resend code</Trans> : <Trans>Resend available in a minute</Trans>}
            </Button>
          ) : null}
          {/* not while a code is on its way (the statechart refuses the switch then too) */}
          <Button variant="link" disabled={props.loading} onClick={props.onUseRecovery}>
            <Trans>Use a recovery code</Trans>
          </Button>
          {props.onUsePasskey ? (
            <Button variant="link" disabled={props.loading} onClick={props.onUsePasskey}>
              <Trans>Use a passkey instead</Trans>
            </Button>
          ) : null}
        </div>
      </form>
    </AuthCard>
  );
}

export interface RecoveryCodeScreenProps {
  loading: boolean;
  error: MachineError | null;
  onRecovery: (code: string) => void;
  onUseOtp: () => void;
}

/** One of the saved recovery codes instead of the one-time password. */
export function RecoveryCodeScreen(props: RecoveryCodeScreenProps) {
  const { t, i18n } = useLingui();
  const [recovery, setRecovery] = useState('');
  const [localError, setLocalError] = useState<string | null>(null);
  const message = loginErrorMessage(i18n, props.error, 'recovery');
  const fieldText = localError ?? (message?.place === 'recovery' ? message.text : null);
  const alert = message?.place === 'form' ? message.text : null;
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (!recovery.trim()) return setLocalError(t`Please enter a recovery code`);
    setLocalError(null);
    props.onRecovery(recovery.trim());
  };
  return (
    <AuthCard screen="screen:login.two-factor-recovery">
      <ScreenHeading
        title={<Trans>Use a recovery code</Trans>}
        description={<Trans>Enter one of the recovery codes you saved when you turned on two-factor authentication. Each code works once.</Trans>}
      />
      <form noValidate className={formStack} onSubmit={onSubmit}>
        {alert ? <FormAlert>{alert}</FormAlert> : null}
        <TextField
          label={t`Recovery code`}
          name="recovery_code"
          autoComplete="one-time-code"
          // any case, with or without the dash or spaces (the server reads them all the same)
          autoCapitalize="characters"
          spellCheck={false}
          placeholder="XXXXX-XXXXX"
          value={recovery}
          onChange={(e) => {
            setRecovery(e.currentTarget.value);
            setLocalError(null);
          }}
          required
          errorText={fieldText ?? undefined}
        />
        <SubmitButton loading={props.loading}>
          <Trans>Verify</Trans>
        </SubmitButton>
        {/* not while the recovery code is on its way: it would be spent in the background (issue 29) */}
        <Button variant="link" disabled={props.loading} onClick={props.onUseOtp}>
          <Trans>Use a one-time password instead</Trans>
        </Button>
      </form>
    </AuthCard>
  );
}
