import { zodResolver } from '@hookform/resolvers/zod';
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { css } from 'styled-system/css';
import { z } from 'zod';
import { byKind, type ProfileInput } from '../../../../contract/profile';
import { currentAccountQueryOptions, languagesQueryOptions, type AccountKind, type AuthUser } from '../../../api/account';
import { call } from '../../../api/call';
import { Button } from '../../../components/ui/button';
import { SimpleSelect } from '../../../components/ui/simple-select';
import { TextField } from '../../../components/ui/text-field';
import { toaster } from '../../../components/ui/toaster';
import { applyServerFieldErrors } from '../../../lib/field-errors';
import { useFieldError } from '../../../lib/field-errors';
import { activateLocale, FALLBACK_LANGUAGES, languageName } from '../../../lib/i18n';
import { PHONE_EXAMPLE } from '../../../lib/phone';
import { STORAGE_KEYS, writeStorage } from '../../../lib/storage';
import { apiErrorMessage } from '../error-words';
import { formStack } from '../form-kit';
import { phoneField, requiredString } from '../schemas';
import { Section } from './section';

const personalSchema = z.object({ first_name: requiredString(), last_name: requiredString(), phone: phoneField, locale: z.string().min(1, 'required') });
type PersonalValues = z.infer<typeof personalSchema>;

export function PersonalInfoSection({ kind, user }: { kind: AccountKind; user: AuthUser }) {
  const { t, i18n } = useLingui();
  const fieldError = useFieldError();
  const queryClient = useQueryClient();
  const languages = useQuery({ ...languagesQueryOptions(), placeholderData: [...FALLBACK_LANGUAGES] });
  const form = useForm<PersonalValues>({
    resolver: zodResolver(personalSchema),
    defaultValues: { first_name: user.first_name, last_name: user.last_name, phone: user.phone ?? '', locale: user.locale },
  });
  // The header's language picker saves the locale too: follow it (the form stays mounted while data refreshes).
  useEffect(() => {
    if (!form.getFieldState('locale').isDirty) form.resetField('locale', { defaultValue: user.locale });
  }, [form, user.locale]);
  const mutation = useMutation({
    mutationFn: (values: PersonalValues) =>
      // the select offers the server's languages only
      call(byKind[kind].updateProfile, { body: { ...values, locale: values.locale as ProfileInput['locale'], phone: values.phone === '' ? null : values.phone } }),
    onSuccess: async (response, values) => {
      const locale = response.data.locale ?? values.locale;
      if (locale !== i18n.locale) {
        await activateLocale(locale);
        writeStorage(STORAGE_KEYS.locale, locale);
      }
      toaster.create({ type: 'success', title: i18n._(msg`Personal information saved`) });
      form.reset(values);
      await queryClient.invalidateQueries({ queryKey: currentAccountQueryOptions(kind).queryKey });
    },
    onError: (error) => {
      if (!applyServerFieldErrors(error, form.setError, ['first_name', 'last_name', 'phone', 'locale'])) toaster.create({ type: 'error', title: apiErrorMessage(i18n, error) });
    },
  });
  const { errors } = form.formState;
  return (
    <Section id="personal-heading" title={<Trans>Personal information</Trans>}>
      <form noValidate className={formStack} onSubmit={form.handleSubmit((v) => mutation.mutate(v))}>
        <TextField label={t`E-mail`} value={user.email} readOnly disabled name="email_display" helperText={t`Ask an administrator to change your e-mail address.`} />
        <div className={css({ display: 'grid', gridTemplateColumns: { base: '1fr', sm: '1fr 1fr' }, gap: '4' })}>
          <TextField label={t`First name`} autoComplete="given-name" required {...form.register('first_name')} errorText={fieldError(errors.first_name, t`First name`)} />
          <TextField label={t`Last name`} autoComplete="family-name" required {...form.register('last_name')} errorText={fieldError(errors.last_name, t`Last name`)} />
        </div>
        <TextField
          label={t`Phone`}
          type="tel"
          autoComplete="tel"
          placeholder={PHONE_EXAMPLE}
          helperText={t`International format: + and the country code, then the number, e.g. ${PHONE_EXAMPLE}. Needed for SMS codes.`}
          {...form.register('phone')}
          errorText={
            errors.phone?.message === 'invalid'
              ? t`Enter the number in international format: + and the country code, then the number, e.g. ${PHONE_EXAMPLE}`
              : fieldError(errors.phone, t`Phone`)
          }
        />
        <Controller
          control={form.control}
          name="locale"
          render={({ field }) => (
            <SimpleSelect
              label={t`Language`}
              name={field.name}
              options={(languages.data ?? FALLBACK_LANGUAGES).map((code) => ({ value: code, label: languageName(code) }))}
              value={field.value}
              onValueChange={field.onChange}
            />
          )}
        />
        <div>
          <Button type="submit" disabled={mutation.isPending} aria-busy={mutation.isPending}>
            <Trans>Save changes</Trans>
          </Button>
        </div>
      </form>
    </Section>
  );
}
