/** `/admin/setup?token=`: the first super administrator, from the one-time link the server prints on first start. */
import { zodResolver } from '@hookform/resolvers/zod';
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useForm, useWatch } from 'react-hook-form';
import { css } from 'styled-system/css';
import { z } from 'zod';
import { completeSetup } from '../../../../contract/system';
import { isApiError } from '../../../api';
import { setupLinkQueryOptions } from '../api/setup';
import { call } from '../../../api/call';
import { LoadingBar } from '../../../components/loading-bar';
import { AuthCard, PageHeading } from '../../../components/page-heading';
import { TextField } from '../../../components/ui/text-field';
import { toaster } from '../../../components/ui/toaster';
import { applyServerFieldErrors } from '../../../lib/field-errors';
import { useFieldError } from '../../../lib/field-errors';
import { apiErrorMessage } from '../error-words';
import { FormAlert, formStack, LoadFailed, mutedText, PasswordChecklist, PasswordField, SubmitButton } from '../form-kit';
import { emailField, newPasswordFields, requiredString, withPasswordMatch } from '../schemas';

const setupSchema = withPasswordMatch(
  z.object({ email: emailField, first_name: requiredString(), last_name: requiredString(), ...newPasswordFields }),
);
type SetupValues = z.infer<typeof setupSchema>;

/** `/admin/setup?token=` — the one-time link the server prints on first start. */
export function AdminSetupScreen({ token }: { token: string | undefined }) {
  const { t, i18n } = useLingui();
  const navigate = useNavigate();
  const fieldError = useFieldError();
  const check = useQuery(setupLinkQueryOptions(token));
  const form = useForm<SetupValues>({
    resolver: zodResolver(setupSchema),
    mode: 'onTouched',
    defaultValues: { email: '', first_name: '', last_name: '', password: '', password_confirmation: '' },
  });
  const password = useWatch({ control: form.control, name: 'password' });
  const mutation = useMutation({
    mutationFn: (values: SetupValues) => call(completeSetup, { body: { token: token ?? '', ...values } }),
    onSuccess: () => {
      toaster.create({ type: 'success', title: i18n._(msg`Administrator account created`), description: i18n._(msg`Sign in with your new account.`) });
      void navigate({ to: '/admin/login' });
    },
    onError: (error) => {
      if (!applyServerFieldErrors(error, form.setError, ['email', 'first_name', 'last_name', 'password', 'password_confirmation'])) {
        toaster.create({ type: 'error', title: apiErrorMessage(i18n, error) });
      }
    },
  });

  const invalid = !token || (check.isError && isApiError(check.error) && [403, 404, 410].includes(check.error.status ?? 0)) || (isApiError(mutation.error) && mutation.error.status === 403);
  return (
    <AuthCard>
      <PageHeading>
        <Trans>Set up the administrator account</Trans>
      </PageHeading>
      {invalid ? (
        <FormAlert focus={false}>
          <Trans>This setup link is invalid or has already been used.</Trans>
        </FormAlert>
      ) : check.isError ? (
        <LoadFailed onRetry={() => void check.refetch()} />
      ) : check.isPending ? (
        <LoadingBar />
      ) : (
        <form noValidate className={formStack} onSubmit={form.handleSubmit((v) => mutation.mutate(v))}>
          <p className={mutedText}>
            <Trans>Create the first super administrator. This link works only once.</Trans>
          </p>
          <TextField label={t`E-mail`} type="email" autoComplete="email" required {...form.register('email')} errorText={fieldError(form.formState.errors.email, t`E-mail`)} />
          <div className={css({ display: 'grid', gridTemplateColumns: { base: '1fr', sm: '1fr 1fr' }, gap: '4' })}>
            <TextField label={t`First name`} autoComplete="given-name" required {...form.register('first_name')} errorText={fieldError(form.formState.errors.first_name, t`First name`)} />
            <TextField label={t`Last name`} autoComplete="family-name" required {...form.register('last_name')} errorText={fieldError(form.formState.errors.last_name, t`Last name`)} />
          </div>
          <PasswordField label={t`Password`} autoComplete="new-password" required aria-describedby="setup-rules" {...form.register('password')} errorText={fieldError(form.formState.errors.password, t`Password`)} />
          <PasswordChecklist id="setup-rules" password={password} />
          <PasswordField
            label={t`Confirm password`}
            autoComplete="new-password"
            required
            {...form.register('password_confirmation')}
            errorText={fieldError(form.formState.errors.password_confirmation, t`Password confirmation`)}
          />
          <SubmitButton loading={mutation.isPending}>
            <Trans>Create administrator</Trans>
          </SubmitButton>
        </form>
      )}
    </AuthCard>
  );
}
