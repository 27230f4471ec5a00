import { zodResolver } from '@hookform/resolvers/zod';
import { useLingui } from '@lingui/react/macro';
import { useEffect } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { applyServerFieldErrors } from '../../../lib/field-errors';
import { useFieldError } from '../../../lib/field-errors';
import { FormAlert, formStack, PasswordChecklist, PasswordField, SubmitButton } from '../form-kit';
import { newPasswordSchema, type NewPasswordValues } from '../schemas';

/** New password + confirmation with the live policy checklist; shows the server's field errors of `serverError`. */
export function NewPasswordForm({
  submitLabel,
  loading,
  error,
  onSubmit,
  onInvalid,
  serverError,
}: {
  submitLabel: React.ReactNode;
  loading: boolean;
  error?: string | null;
  serverError?: unknown;
  onSubmit: (values: NewPasswordValues) => void;
  /** The form refused the input (the fields in error), nothing was sent. */
  onInvalid?: (fields: string[]) => void;
}) {
  const { t } = useLingui();
  const fieldError = useFieldError();
  const form = useForm<NewPasswordValues>({ resolver: zodResolver(newPasswordSchema), defaultValues: { password: '', password_confirmation: '' }, mode: 'onTouched' });
  const password = useWatch({ control: form.control, name: 'password' });
  useEffect(() => {
    if (serverError) applyServerFieldErrors(serverError, form.setError, ['password', 'password_confirmation']);
  }, [serverError, form]);
  return (
    <form noValidate className={formStack} onSubmit={form.handleSubmit(onSubmit, (errors) => onInvalid?.(Object.keys(errors)))}>
      {error ? <FormAlert>{error}</FormAlert> : null}
      <PasswordField
        label={t`New password`}
        autoComplete="new-password"
        required
        aria-describedby="password-rules"
        {...form.register('password')}
        errorText={fieldError(form.formState.errors.password, t`Password`)}
      />
      <PasswordChecklist id="password-rules" password={password} />
      <PasswordField
        label={t`Confirm new password`}
        autoComplete="new-password"
        required
        {...form.register('password_confirmation')}
        errorText={fieldError(form.formState.errors.password_confirmation, t`Password confirmation`)}
      />
      <SubmitButton loading={loading}>{submitLabel}</SubmitButton>
    </form>
  );
}
