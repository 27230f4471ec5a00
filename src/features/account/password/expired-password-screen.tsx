/**
 * `screen:login.expired-password`: a new password after signing in with an expired one, and
 * `screen:login.password-changed` once it is saved. Shown by the login machine on `/expired-password`
 * (src/features/account/login/login-flow.tsx); the reset token travels in the machine, never in storage.
 */
import { Trans, useLingui } from '@lingui/react/macro';
import { useMemo } from 'react';
import type { MachineError } from '../../../../machines/errors';
import { ApiError } from '../../../api/errors';
import { AuthCard } from '../../../components/page-heading';
import { loginErrorMessage } from '../login/login-errors';
import { ScreenHeading } from '../login/login-heading';
import type { NewPasswordValues } from '../schemas';
import { NewPasswordForm } from './new-password-form';
import { PasswordSavedCard } from './password-saved-card';

export interface ExpiredPasswordScreenProps {
  loading: boolean;
  error: MachineError | null;
  onSubmit: (values: NewPasswordValues) => void;
}

const PASSWORD_FIELDS = ['password', 'password_confirmation'];

export function ExpiredPasswordScreen({ loading, error, onSubmit }: ExpiredPasswordScreenProps) {
  const { i18n } = useLingui();
  const fields = error?.fields ?? {};
  const fieldOnly = error?.code === 'validation_failed' && Object.keys(fields).some((name) => PASSWORD_FIELDS.includes(name));
  // the form puts a 422's field codes on its fields (NewPasswordForm reads them from an ApiError)
  const serverError = useMemo(
    () => (fieldOnly ? new ApiError({ kind: 'http', status: 422, code: 'validation_failed', message: '', fields }) : null),
    // eslint-disable-next-line react-hooks/exhaustive-deps -- a new error object means a new answer
    [error],
  );
  const message = fieldOnly ? null : (loginErrorMessage(i18n, error)?.text ?? null);
  return (
    <AuthCard screen="screen:login.expired-password">
      <ScreenHeading title={<Trans>Password expired</Trans>} description={<Trans>Your password has expired. Choose a new one to continue.</Trans>} />
      <NewPasswordForm submitLabel={<Trans>Change password</Trans>} loading={loading} error={message} serverError={serverError} onSubmit={onSubmit} />
    </AuthCard>
  );
}

/** `screen:login.password-changed`: the new password is saved; the person signs in with it. */
export function ExpiredPasswordChangedScreen({ admin }: { admin: boolean }) {
  return <PasswordSavedCard flowCode="cp" admin={admin} screen="screen:login.password-changed" />;
}
