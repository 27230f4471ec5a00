/** `/forgot-password` (and `?type=admin`): mails a reset link. */
import { zodResolver } from '@hookform/resolvers/zod';
import { Trans, useLingui } from '@lingui/react/macro';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { byKind } from '../../../../contract/account';
import { isApiError } from '../../../api';
import { call } from '../../../api/call';
import { AuthCard, PageHeading } from '../../../components/page-heading';
import { TextField } from '../../../components/ui/text-field';
import { toaster } from '../../../components/ui/toaster';
import { applyServerFieldErrors } from '../../../lib/field-errors';
import { useFieldError } from '../../../lib/field-errors';
import { apiErrorMessage } from '../error-words';
import { FormAlert, formStack, mutedText, SubmitButton } from '../form-kit';
import { emailField } from '../schemas';
import { BackToLogin } from './back-to-login';
import { SuccessIcon } from './success-icon';

const forgotSchema = z.object({ email: emailField });

export function ForgotPasswordScreen({ admin }: { admin: boolean }) {
  const { t, i18n } = useLingui();
  const fieldError = useFieldError();
  const form = useForm<z.infer<typeof forgotSchema>>({ resolver: zodResolver(forgotSchema), defaultValues: { email: '' } });
  const [notFound, setNotFound] = useState(false);
  const mutation = useMutation({
    mutationFn: (email: string) => call(byKind[admin ? 'admin' : 'user'].forgotPassword, { body: { email } }, { credentials: 'omit' }),
    onError: (error) => {
      if (isApiError(error) && error.status === 404) return setNotFound(true);
      if (!applyServerFieldErrors(error, form.setError, ['email'])) toaster.create({ type: 'error', title: apiErrorMessage(i18n, error) });
    },
  });

  if (mutation.isSuccess) {
    return (
      <AuthCard>
        <SuccessIcon />
        <PageHeading>
          <Trans>Check your inbox</Trans>
        </PageHeading>
        <FormAlert tone="success">
          <Trans>If an account exists for {form.getValues('email')}, we have sent a link to reset the password. The link expires after a while, so use it soon.</Trans>
        </FormAlert>
        <BackToLogin admin={admin} />
      </AuthCard>
    );
  }

  return (
    <AuthCard>
      <PageHeading>{admin ? <Trans>Forgot admin password</Trans> : <Trans>Forgot password</Trans>}</PageHeading>
      <form
        noValidate
        className={formStack}
        onSubmit={form.handleSubmit((values) => {
          setNotFound(false);
          mutation.mutate(values.email);
        })}
      >
        <p className={mutedText}>
          <Trans>Enter the e-mail address of your account and we will send you a link to choose a new password.</Trans>
        </p>
        {notFound ? (
          <FormAlert>
            <Trans>Email not found</Trans>
          </FormAlert>
        ) : null}
        <TextField label={t`E-mail`} type="email" autoComplete="email" required {...form.register('email')} errorText={fieldError(form.formState.errors.email, t`E-mail`)} />
        <SubmitButton loading={mutation.isPending}>
          <Trans>Send reset link</Trans>
        </SubmitButton>
      </form>
      <BackToLogin admin={admin} />
    </AuthCard>
  );
}
