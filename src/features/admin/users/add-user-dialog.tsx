import { zodResolver } from '@hookform/resolvers/zod';
import { Trans, useLingui } from '@lingui/react/macro';
import { useQuery } from '@tanstack/react-query';
import { useId } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { css } from 'styled-system/css';
import { z } from 'zod';
import { LOCALES } from '../../../../contract/domain/formats';
import { Button } from '../../../components/ui/button';
import * as Dialog from '../../../components/ui/dialog';
import { DialogClose } from '../../../components/ui/dialog-close';
import { DialogFooter } from '../../../components/ui/dialog-footer';
import { raiseWhenOpen } from '../../../components/ui/select';
import { SimpleSelect } from '../../../components/ui/simple-select';
import { Switch } from '../../../components/ui/switch';
import { applyServerFieldErrors, fieldErrorMessage } from '../../../lib/field-errors';
import { isPhoneOrEmpty, normalizePhone, PHONE_EXAMPLE } from '../../../lib/phone';
import { ssoProvidersQueryOptions } from '../api/config';
import { useCreateUser } from '../api/users';
import { useNotify } from '../components/notify';
import { FormField } from '../components/form';
import { useLanguageName } from '../components/format';

const schema = z
  .object({
    auth_type: z.enum(['CREDENTIALS', 'SSO']),
    provider: z.string(),
    email: z.string().trim().min(1, { error: 'required' }).pipe(z.email({ error: 'email' })),
    first_name: z.string().trim().min(1, { error: 'required' }).max(100, { error: 'too_long:100' }),
    last_name: z.string().trim().min(1, { error: 'required' }).max(100, { error: 'too_long:100' }),
    locale: z.enum(LOCALES),
    phone: z.string().refine(isPhoneOrEmpty, { error: 'invalid' }).transform(normalizePhone),
    technical: z.boolean(),
  })
  .refine((v) => v.auth_type === 'CREDENTIALS' || v.provider !== '', { path: ['provider'], error: 'required' });

type Values = z.infer<typeof schema>;

export function AddUserDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  return (
    <Dialog.Root open={open} onOpenChange={(d) => onOpenChange(d.open)} lazyMount unmountOnExit>
      <Dialog.Panel className={css({ maxWidth: 'lg' })}>
        <AddUserForm onDone={() => onOpenChange(false)} />
      </Dialog.Panel>
    </Dialog.Root>
  );
}

function AddUserForm({ onDone }: { onDone: () => void }) {
  const { t, i18n } = useLingui();
  const notify = useNotify();
  const languageName = useLanguageName();
  const providers = useQuery(ssoProvidersQueryOptions());
  const create = useCreateUser();
  const form = useForm<Values>({
    resolver: zodResolver(schema),
    defaultValues: { auth_type: 'CREDENTIALS', provider: '', email: '', first_name: '', last_name: '', locale: (LOCALES as readonly string[]).includes(i18n.locale) ? (i18n.locale as Values['locale']) : 'en', phone: '', technical: false },
  });
  const { register, control, handleSubmit, watch, setError, formState } = form;
  const authType = watch('auth_type');

  const submit = handleSubmit((values) =>
    create
      .mutateAsync({
        email: values.email,
        first_name: values.first_name,
        last_name: values.last_name,
        locale: values.locale,
        auth_type: values.auth_type,
        provider: values.auth_type === 'SSO' ? values.provider : null,
        technical: values.technical,
        phone: values.phone || null,
      })
      .then((user) => {
        notify.success(t`User added`, user.invitation_sent ? t`An invitation was sent to ${user.email}.` : user.email);
        onDone();
      })
      .catch((error: unknown) => {
        if (!applyServerFieldErrors(error, setError, ['email', 'first_name', 'last_name', 'locale', 'phone', 'provider'])) notify.error(error);
      }),
  );

  const providerOptions = (providers.data ?? []).map((p) => ({ value: p.id, label: p.name }));
  const noProviders = providers.isSuccess && providerOptions.length === 0;
  const noProviderId = useId();
  return (
    <form onSubmit={(e) => void submit(e)} noValidate className={css({ display: 'flex', flexDirection: 'column', gap: '4' })}>
      <Dialog.Title>
        <Trans>Add user</Trans>
      </Dialog.Title>
      <Dialog.Description>
        <Trans>Users with credentials get an invitation e-mail to set their password; SSO users sign in through their identity provider.</Trans>
      </Dialog.Description>
      <DialogClose />
      <fieldset className={css({ display: 'flex', flexDirection: 'column', gap: '2' })}>
        <legend className={css({ fontSize: 'sm', fontWeight: 'medium', mb: '1.5' })}>
          <Trans>Sign-in method</Trans>
        </legend>
        <div className={css({ display: 'grid', gridTemplateColumns: '1fr 1fr', gap: '2' })}>
          {(['CREDENTIALS', 'SSO'] as const).map((value) => {
            // SSO needs a configured identity provider: without one it is not offered (the server would refuse it)
            const unavailable = value === 'SSO' && noProviders;
            return (
            <label
              key={value}
              aria-disabled={unavailable || undefined}
              className={css({
                display: 'flex',
                alignItems: 'center',
                gap: '2',
                px: '3',
                py: '2.5',
                borderWidth: '1px',
                borderColor: authType === value ? 'accent.default' : 'border.strong',
                bg: authType === value ? 'accent.subtle' : 'bg.surface',
                borderRadius: 'md',
                cursor: 'pointer',
                fontSize: 'sm',
                _focusWithin: { outline: '2px solid', outlineColor: 'focusRing', outlineOffset: '2px' },
                '&[aria-disabled=true]': { cursor: 'not-allowed', color: 'fg.muted', bg: 'bg.subtle' },
              })}
            >
              <input type="radio" value={value} disabled={unavailable} aria-describedby={unavailable ? noProviderId : undefined} {...register('auth_type')} />
              {value === 'CREDENTIALS' ? <Trans>By credentials (invitation)</Trans> : <Trans>By SSO</Trans>}
            </label>
            );
          })}
        </div>
        {noProviders ? (
          <p id={noProviderId} className={css({ fontSize: 'sm', color: 'fg.muted' })}>
            <Trans>Sign-in by SSO needs an identity provider; none is configured on this server.</Trans>
          </p>
        ) : null}
      </fieldset>
      {authType === 'SSO' ? (
        <Controller
          control={control}
          name="provider"
          render={({ field, fieldState }) => (
            <div>
              <SimpleSelect portalled={false} className={raiseWhenOpen}
                label={t`Identity provider`}
                options={providerOptions}
                value={field.value || undefined}
                onValueChange={field.onChange}
                placeholder={providerOptions.length ? t`Select a provider` : t`No SSO providers configured`}
                disabled={providerOptions.length === 0}
                invalid={Boolean(fieldState.error)}
              />
              {fieldState.error ? (
                <p role="alert" className={css({ fontSize: 'sm', color: 'fg.error', mt: '1' })}>
                  {fieldErrorMessage(i18n, fieldState.error.message, t`Identity provider`)}
                </p>
              ) : null}
            </div>
          )}
        />
      ) : null}
      <FormField label={t`E-mail`} type="email" autoComplete="off" required error={formState.errors.email} {...register('email')} />
      <div className={css({ display: 'grid', gridTemplateColumns: { base: '1fr', sm: '1fr 1fr' }, gap: '4' })}>
        <FormField label={t`First name`} required error={formState.errors.first_name} {...register('first_name')} />
        <FormField label={t`Last name`} required error={formState.errors.last_name} {...register('last_name')} />
      </div>
      <div className={css({ display: 'grid', gridTemplateColumns: { base: '1fr', sm: '1fr 1fr' }, gap: '4' })}>
        <Controller
          control={control}
          name="locale"
          render={({ field }) => <SimpleSelect portalled={false} className={raiseWhenOpen} label={t`Language`} options={LOCALES.map((code) => ({ value: code, label: languageName(code) }))} value={field.value} onValueChange={field.onChange} />}
        />
        <FormField
          label={t`Phone (optional)`}
          type="tel"
          placeholder={PHONE_EXAMPLE}
          helperText={t`International format: + and the country code, then the number, e.g. ${PHONE_EXAMPLE}. Needed for SMS codes.`}
          invalidText={t`Enter the number in international format: + and the country code, then the number, e.g. ${PHONE_EXAMPLE}`}
          error={formState.errors.phone}
          {...register('phone')}
        />
      </div>
      <Controller
        control={control}
        name="technical"
        render={({ field }) => <Switch label={t`Technical user (API access with an API key)`} checked={field.value} onCheckedChange={(d) => field.onChange(d.checked)} />}
      />
      <DialogFooter>
        <Button variant="outline" onClick={onDone}>
          <Trans>Cancel</Trans>
        </Button>
        <Button type="submit" disabled={formState.isSubmitting} aria-busy={formState.isSubmitting || undefined}>
          {authType === 'CREDENTIALS' ? <Trans>Add and send invitation</Trans> : <Trans>Add user</Trans>}
        </Button>
      </DialogFooter>
    </form>
  );
}
