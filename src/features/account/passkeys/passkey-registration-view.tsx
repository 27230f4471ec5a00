/**
 * What the passkey registration machine (machines/passkeyRegistration.machine.ts) shows while a passkey is being
 * added: the name step, the browser's prompt, "Passkey added". Used by the profile's Passkeys card and by the
 * enrolment a sign-in requires (login-flow's enrolment screen). Reads the machine's tags only.
 */
import { Trans, useLingui } from '@lingui/react/macro';
import { useId, useState, type FormEvent } from 'react';
import { css } from 'styled-system/css';
import type { MachineError } from '../../../../machines/errors';
import type { PasskeyRegistrationEvent, PasskeyRegistrationScreen } from '../../../../machines/passkeyRegistration.machine';
import { Button } from '../../../components/ui/button';
import { TextField } from '../../../components/ui/text-field';
import { accountErrorText } from '../error-words';
import { FormAlert, formStack, mutedText } from '../form-kit';

/** The name field's rule (contract/passkeys.ts passkeyNameSchema: 1 to 64 characters, trimmed), in words. */
export function usePasskeyNameError(): (name: string) => string | null {
  const { t } = useLingui();
  return (name) => {
    const trimmed = name.trim();
    if (!trimmed) return t`Please enter a name`;
    if (trimmed.length > 64) return t`The name can have at most 64 characters`;
    return null;
  };
}

export interface PasskeyRegistrationViewProps {
  screen: PasskeyRegistrationScreen;
  loading: boolean;
  name: string;
  error: MachineError | null;
  /** The profile may cancel; a required enrolment may not. */
  cancellable: boolean;
  send: (event: PasskeyRegistrationEvent) => void;
}

/** The name step, or the browser's prompt (with Cancel); nothing for the card and "added" (the caller's). */
export function PasskeyRegistrationView({ screen, loading, name, error, cancellable, send }: PasskeyRegistrationViewProps) {
  const { t, i18n } = useLingui();
  const errorId = useId();
  const [value, setValue] = useState(name);
  const [local, setLocal] = useState<string | null>(null);
  const nameError = usePasskeyNameError();
  const failure = local ?? accountErrorText(i18n, error);
  if (screen === 'screen:passkey-add.prompt') {
    return (
      <div data-screen={screen} className={formStack}>
        <p role="status" className={css({ fontSize: 'sm' })}>
          {loading ? <Trans>Saving the passkey…</Trans> : <Trans>Follow your browser's prompt to create the passkey.</Trans>}
        </p>
        {cancellable && !loading ? (
          <div>
            <Button variant="outline" onClick={() => send({ type: 'CANCEL' })}>
              <Trans>Cancel</Trans>
            </Button>
          </div>
        ) : null}
      </div>
    );
  }
  if (screen !== 'screen:passkey-add.name') return null;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const invalid = nameError(value);
    setLocal(invalid);
    if (!invalid) send({ type: 'SUBMIT', name: value.trim() });
  };
  return (
    <form data-screen={screen} noValidate onSubmit={submit} className={formStack}>
      {failure ? <FormAlert id={errorId}>{failure}</FormAlert> : null}
      <TextField
        label={t`Name`}
        name="passkey_name"
        value={value}
        maxLength={64}
        autoComplete="off"
        helperText={t`How this passkey is called in your list, e.g. the device it is on.`}
        aria-describedby={failure ? errorId : undefined}
        invalid={Boolean(local)}
        disabled={loading}
        onChange={(e) => setValue(e.target.value)}
      />
      <p className={mutedText}>
        <Trans>Your browser will ask you to confirm with your fingerprint, face, screen lock or security key.</Trans>
      </p>
      <div className={css({ display: 'flex', gap: '2', flexWrap: 'wrap' })}>
        <Button type="submit" disabled={loading} aria-busy={loading}>
          <Trans>Continue</Trans>
        </Button>
        {cancellable ? (
          <Button variant="outline" disabled={loading} onClick={() => send({ type: 'CANCEL' })}>
            <Trans>Cancel</Trans>
          </Button>
        ) : null}
      </div>
    </form>
  );
}
