import { zodResolver } from '@hookform/resolvers/zod';
import { Trans, useLingui } from '@lingui/react/macro';
import { Controller, useForm } from 'react-hook-form';
import { css } from 'styled-system/css';
import { z } from 'zod';
import { LOCALES } from '../../../../contract/locales';
import { ADMIN_ROLES } from '../../../../contract/domain/admin-roles';
import { Button } from '../../../components/ui/button';
import * as Dialog from '../../../components/ui/dialog';
import { DialogClose } from '../../../components/ui/dialog-close';
import { DialogFooter } from '../../../components/ui/dialog-footer';
import { raiseWhenOpen } from '../../../components/ui/select';
import { SimpleSelect } from '../../../components/ui/simple-select';
import { applyServerFieldErrors } from '../../../lib/field-errors';
import { useCreateAdmin } from '../api/admins';
import { useNotify } from '../components/notify';
import { FormField } from '../components/form';
import { useLanguageName } from '../components/format';

/** The add-admin form in its dialog: loaded after the admin list (admin-management.tsx, lazyDialog). */
const schema = z.object({
  email: z.string().trim().min(1, { error: 'required' }).pipe(z.email({ error: 'email' })),
  first_name: z.string().trim().min(1, { error: 'required' }).max(100, { error: 'too_long:100' }),
  last_name: z.string().trim().min(1, { error: 'required' }).max(100, { error: 'too_long:100' }),
  role: z.enum(ADMIN_ROLES),
  locale: z.enum(LOCALES),
});
type Values = z.infer<typeof schema>;

export function AddAdminDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  return (
    <Dialog.Root open={open} onOpenChange={(d) => onOpenChange(d.open)} lazyMount unmountOnExit>
      <Dialog.Panel>
        <AddAdminForm onDone={() => onOpenChange(false)} />
      </Dialog.Panel>
    </Dialog.Root>
  );
}

function AddAdminForm({ onDone }: { onDone: () => void }) {
  const { t, i18n } = useLingui();
  const notify = useNotify();
  const languageName = useLanguageName();
  const create = useCreateAdmin();
  const { register, control, handleSubmit, setError, formState } = useForm<Values>({
    resolver: zodResolver(schema),
    // the invitation mail is written in this language: asked for, never silently the inviting admin's
    defaultValues: { email: '', first_name: '', last_name: '', role: 'manager', locale: (LOCALES as readonly string[]).includes(i18n.locale) ? (i18n.locale as Values['locale']) : 'en' },
  });
  const submit = handleSubmit((values) =>
    create
      .mutateAsync(values)
      .then((admin) => {
        notify.success(t`Admin added`, t`An invitation was sent to ${admin.email}.`);
        onDone();
      })
      .catch((error: unknown) => {
        if (!applyServerFieldErrors(error, setError, ['email', 'first_name', 'last_name', 'role', 'locale'])) notify.error(error);
      }),
  );
  return (
    <form onSubmit={(e) => void submit(e)} noValidate className={css({ display: 'flex', flexDirection: 'column', gap: '4' })}>
      <Dialog.Title>
        <Trans>Add admin</Trans>
      </Dialog.Title>
      <Dialog.Description>
        <Trans>The new admin gets an invitation e-mail, in the chosen language, to set a password.</Trans>
      </Dialog.Description>
      <DialogClose />
      <FormField label={t`E-mail`} type="email" autoComplete="off" required error={formState.errors.email} {...register('email')} />
      <div className={css({ display: 'grid', gridTemplateColumns: { base: '1fr', sm: '1fr 1fr' }, gap: '4' })}>
        <FormField label={t`First name`} required error={formState.errors.first_name} {...register('first_name')} />
        <FormField label={t`Last name`} required error={formState.errors.last_name} {...register('last_name')} />
      </div>
      <Controller
        control={control}
        name="role"
        render={({ field }) => (
          <SimpleSelect portalled={false} className={raiseWhenOpen}
            label={t`Role`}
            options={[
              { value: 'manager', label: t`Manager: dashboard and user management` },
              { value: 'super_admin', label: t`Super admin: everything` },
            ]}
            value={field.value}
            onValueChange={field.onChange}
          />
        )}
      />
      <Controller
        control={control}
        name="locale"
        render={({ field }) => (
          <SimpleSelect
            portalled={false}
            className={raiseWhenOpen}
            label={t`Language`}
            options={LOCALES.map((code) => ({ value: code, label: languageName(code) }))}
            value={field.value}
            onValueChange={field.onChange}
          />
        )}
      />
      <DialogFooter>
        <Button variant="outline" onClick={onDone}>
          <Trans>Cancel</Trans>
        </Button>
        <Button type="submit" disabled={formState.isSubmitting}>
          <Trans>Add admin</Trans>
        </Button>
      </DialogFooter>
    </form>
  );
}
