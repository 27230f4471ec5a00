/** `/expired-password`: a new password after signing in with an expired one (the token from the sign-in answer). */
import { Trans, useLingui } from '@lingui/react/macro';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { css } from 'styled-system/css';
import { byKind } from '../../../../contract/account';
import { isApiError } from '../../../api';
import { call } from '../../../api/call';
import { AuthCard, PageHeading } from '../../../components/page-heading';
import { clearResetToken, readResetToken } from '../login/login-search';
import type { NewPasswordValues } from '../schemas';
import { apiErrorMessage, errorInfoMessage, FormAlert } from '../form-kit';
import { BackToLogin } from './back-to-login';
import { NewPasswordForm } from './new-password-form';
import { PasswordSavedCard } from './password-saved-card';

export function ExpiredPasswordScreen() {
  const { i18n } = useLingui();
  const [stored] = useState(() => readResetToken());
  const mutation = useMutation({
    mutationFn: (values: NewPasswordValues) => call(byKind[stored?.admin ? 'admin' : 'user'].resetPassword, { body: { reset_token: stored?.token, ...values } }),
    // the confirmation stays on this page: /login starts the OIDC round trip with a full page load
    onSuccess: () => clearResetToken(),
  });
  if (mutation.isSuccess) return <PasswordSavedCard flowCode="cp" admin={Boolean(stored?.admin)} />;
  if (!stored) {
    return (
      <AuthCard>
        <PageHeading>
          <Trans>Password expired</Trans>
        </PageHeading>
        <FormAlert focus={false}>
          <Trans>This page opens after signing in with an expired password. Please sign in again.</Trans>
        </FormAlert>
        <BackToLogin admin={false} />
      </AuthCard>
    );
  }
  const error = mutation.error;
  const fieldOnly = isApiError(error) && error.status === 422 && error.fields && ('password' in error.fields || 'password_confirmation' in error.fields);
  return (
    <AuthCard>
      <PageHeading>
        <Trans>Password expired</Trans>
      </PageHeading>
      <p className={css({ fontSize: 'sm', color: 'fg.muted', mt: '-4', mb: '5' })}>
        <Trans>Your password has expired. Choose a new one to continue.</Trans>
      </p>
      <NewPasswordForm
        submitLabel={<Trans>Change password</Trans>}
        loading={mutation.isPending}
        error={error && !fieldOnly ? (isApiError(error) && error.status === 403 ? errorInfoMessage(i18n, { code: 'link_invalid' }) : apiErrorMessage(i18n, error)) : null}
        serverError={error}
        onSubmit={(values) => mutation.mutate(values)}
      />
      <BackToLogin admin={stored.admin} />
    </AuthCard>
  );
}
