import { zodResolver } from '@hookform/resolvers/zod';
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { useMutation } from '@tanstack/react-query';
import { useForm, useWatch } from 'react-hook-form';
import { z } from 'zod';
import { byKind } from '../../../../contract/account';
import { passwordSchema } from '../../../../contract/domain/password-policy';
import type { AccountKind } from '../../../api/account';
import { call } from '../../../api/call';
import { Button } from '../../../components/ui/button';
import { toaster } from '../../../components/ui/toaster';
import { applyServerFieldErrors } from '../../../lib/field-errors';
import { useFieldError } from '../../../lib/field-errors';
import { apiErrorMessage } from '../error-words';
import { formStack, mutedText, PasswordChecklist, PasswordField } from '../form-kit';
import { withPasswordMatch } from '../schemas';
import { Section } from './section';

const changePasswordSchema = withPasswordMatch(
  z.object({ current_password: z.string().min(1, 'required'), password: passwordSchema, password_confirmation: z.string().min(1, 'required') }),
).superRefine((v, ctx) => {
  if (v.current_password && v.password && v.current_password === v.password) {
    ctx.addIssue({ code: 'custom', path: ['password'], message: 'password_same_as_current' });
  }
});
type ChangePasswordValues = z.infer<typeof changePasswordSchema>;

export function ChangePasswordSection({ kind, sso }: { kind: AccountKind; sso?: boolean }) {
  const { t, i18n } = useLingui();
  const fieldError = useFieldError();
  // checked when sent, then as the person corrects it: tabbing through the empty fields marks nothing "required"
  const form = useForm<ChangePasswordValues>({ resolver: zodResolver(changePasswordSchema), mode: 'onSubmit', reValidateMode: 'onChange', defaultValues: { current_password: '', password: '', password_confirmation: '' } });
  const password = useWatch({ control: form.control, name: 'password' });
  const mutation = useMutation({
    mutationFn: (values: ChangePasswordValues) => call(byKind[kind].changePassword, { body: values }),
    onSuccess: () => {
      toaster.create({ type: 'success', title: i18n._(msg`Password changed`) });
      form.reset();
    },
    onError: (error) => {
      if (!applyServerFieldErrors(error, form.setError, ['current_password', 'password', 'password_confirmation'])) toaster.create({ type: 'error', title: apiErrorMessage(i18n, error) });
    },
  });
  const { errors } = form.formState;
  if (sso) {
    return (
      <Section id="password-heading" title={<Trans>Password</Trans>}>
        <p className={mutedText}>
          <Trans>You sign in through single sign-on, so there is no password to change here.</Trans>
        </p>
      </Section>
    );
  }
  return (
    <Section id="password-heading" title={<Trans>Password and security</Trans>} description={<Trans>Change the password you sign in with.</Trans>}>
      <form noValidate className={formStack} onSubmit={form.handleSubmit((v) => mutation.mutate(v))}>
        <PasswordField label={t`Current password`} autoComplete="current-password" required {...form.register('current_password')} errorText={fieldError(errors.current_password, t`Current password`)} />
        <PasswordField label={t`New password`} autoComplete="new-password" required aria-describedby="change-rules" {...form.register('password')} errorText={fieldError(errors.password, t`New password`)} />
        <PasswordChecklist id="change-rules" password={password} />
        <PasswordField
          label={t`Confirm new password`}
          autoComplete="new-password"
          required
          {...form.register('password_confirmation')}
          errorText={fieldError(errors.password_confirmation, t`Password confirmation`)}
        />
        <div>
          <Button type="submit" disabled={mutation.isPending} aria-busy={mutation.isPending}>
            <Trans>Change password</Trans>
          </Button>
        </div>
      </form>
    </Section>
  );
}
