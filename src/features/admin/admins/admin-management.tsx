import { zodResolver } from '@hookform/resolvers/zod';
import { Trans, useLingui } from '@lingui/react/macro';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { css } from 'styled-system/css';
import { z } from 'zod';
import { isApiError } from '../../../api/errors';
import { PageHeading } from '../../../components/page-heading';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { DataPagination } from '../../../components/ui/data-pagination';
import * as Dialog from '../../../components/ui/dialog';
import { DialogClose } from '../../../components/ui/dialog-close';
import { DialogFooter } from '../../../components/ui/dialog-footer';
import { PlusIcon, TrashIcon } from '../../../components/ui/icons-more';
import { SearchField } from '../../../components/ui/search-field';
import { raiseWhenOpen } from '../../../components/ui/select';
import { SimpleSelect } from '../../../components/ui/simple-select';
import * as Table from '../../../components/ui/table';
import { TableFrame } from '../../../components/ui/table-frame';
import { applyServerFieldErrors } from '../../../lib/field-errors';
import { visuallyHidden } from '../../../components/visually-hidden';
import { LOCALES } from '../../../../contract/domain/formats';
import { adminsQueryOptions, useChangeAdminRole, useCreateAdmin, useDeleteAdmin } from '../api/admins';
import type { Account, AdminRoleName } from '../api/types';
import { useErrorText } from '../components/feedback';
import { useNotify } from '../components/notify';
import { FormField } from '../components/form';
import { useFormat, useLanguageName } from '../components/format';
import { QueryRows } from '../components/query-rows';
import { StateBadge } from '../components/state-badge';
import type { AdminSearch } from './search';

const COLUMNS = 5;

export function AdminManagement({ search, onSearchChange, currentAdminId }: { search: AdminSearch; onSearchChange: (next: AdminSearch) => void; currentAdminId: string | null }) {
  const { t } = useLingui();
  const fmt = useFormat();
  const notify = useNotify();
  const errorText = useErrorText();
  const filters = { page: search.page ?? 1, size: search.size ?? 10, search: search.search?.trim() || undefined };
  const admins = useQuery(adminsQueryOptions(filters));
  const changeRole = useChangeAdminRole();
  const remove = useDeleteAdmin();
  const [adding, setAdding] = useState(false);
  const [toDelete, setToDelete] = useState<Account | null>(null);
  const [deleteError, setDeleteError] = useState<string | null>(null);
  const roleLabel = (role: AdminRoleName | null) => (role === 'super_admin' ? t`Super admin` : t`Manager`);
  const roleOptions = [
    { value: 'super_admin', label: t`Super admin` },
    { value: 'manager', label: t`Manager` },
  ];
  const rows = admins.data?.data ?? [];
  const total = admins.data?.meta.total ?? 0;

  return (
    <>
      <PageHeading
        actions={
          <Button onClick={() => setAdding(true)}>
            <PlusIcon />
            <Trans>Add admin</Trans>
          </Button>
        }
      >
        <Trans>Admin management</Trans>
      </PageHeading>
      <Card>
        <div className={css({ maxWidth: 'md' })}>
          <SearchField label={t`Search admins`} placeholder={t`Search by name or e-mail`} value={search.search ?? ''} onChange={(v) => onSearchChange({ ...search, search: v || undefined, page: undefined })} />
        </div>
        <TableFrame label={t`Admins`} busy={admins.isFetching && !admins.isPending}>
          <Table.Root>
            <Table.Head>
              <Table.Row>
                <Table.Header>{t`Name`}</Table.Header>
                <Table.Header>{t`Role`}</Table.Header>
                <Table.Header>{t`Status`}</Table.Header>
                <Table.Header>{t`Created`}</Table.Header>
                <Table.Header className={css({ textAlign: 'end' })}>{t`Actions`}</Table.Header>
              </Table.Row>
            </Table.Head>
            <Table.Body>
              <QueryRows query={admins} items={rows} columns={COLUMNS} skeletonRows={3} empty={<Trans>No results for given search</Trans>}>
                {(admin) => {
                  const self = admin.id === currentAdminId;
                  return (
                    <Table.Row key={admin.id} data-testid="admin-row">
                      <Table.Cell>
                        <div className={css({ display: 'flex', flexDirection: 'column' })}>
                          <span className={css({ fontWeight: 'medium' })}>
                            {`${admin.first_name} ${admin.last_name}`.trim() || admin.email}
                            {self ? (
                              <span className={css({ ms: '2' })}>
                                <Badge tone="info">{t`You`}</Badge>
                              </span>
                            ) : null}
                          </span>
                          <span className={css({ color: 'fg.muted', fontSize: 'xs' })}>{admin.email}</span>
                        </div>
                      </Table.Cell>
                      <Table.Cell className={css({ minWidth: '44' })}>
                        <SimpleSelect
                          label={t`Role of ${admin.email}`}
                          hideLabel
                          size="sm"
                          options={roleOptions}
                          value={admin.role ?? 'manager'}
                          disabled={changeRole.isPending}
                          onValueChange={(role) =>
                            role !== admin.role &&
                            changeRole.mutate(
                              { id: admin.id, role: role as AdminRoleName },
                              { onSuccess: () => notify.success(t`Role changed`, `${admin.email}: ${roleLabel(role as AdminRoleName)}`), onError: (e) => notify.error(e) },
                            )
                          }
                        />
                      </Table.Cell>
                      <Table.Cell>
                        <StateBadge state={admin.state} />
                      </Table.Cell>
                      <Table.Cell className={css({ whiteSpace: 'nowrap' })}>{fmt.date(admin.created_at)}</Table.Cell>
                      <Table.Cell className={css({ textAlign: 'end' })}>
                        {self ? (
                          <span id={`self-delete-${admin.id}`} className={visuallyHidden}>
                            {t`You cannot delete your own admin account`}
                          </span>
                        ) : null}
                        <Button
                          variant="ghost"
                          size="sm"
                          aria-label={t`Delete ${admin.email}`}
                          title={self ? t`You cannot delete your own admin account` : t`Delete`}
                          // your own row: refused by the server (403 cannot_delete_self), so not offered (docs/SPEC.md §2)
                          disabled={self}
                          aria-describedby={self ? `self-delete-${admin.id}` : undefined}
                          className={css({ color: 'danger.700' })}
                          onClick={() => {
                            setDeleteError(null);
                            setToDelete(admin);
                          }}
                        >
                          <TrashIcon />
                        </Button>
                      </Table.Cell>
                    </Table.Row>
                  );
                }}
              </QueryRows>
            </Table.Body>
          </Table.Root>
        </TableFrame>
        {admins.data && total > 0 ? (
          <DataPagination
            total={total}
            page={admins.data.meta.page}
            pageSize={admins.data.meta.size}
            onPageChange={(page) => onSearchChange({ ...search, page: page === 1 ? undefined : page })}
            onPageSizeChange={(size) => onSearchChange({ ...search, size, page: undefined })}
          />
        ) : null}
      </Card>
      <AddAdminDialog open={adding} onOpenChange={setAdding} />
      <ConfirmDialog
        open={toDelete !== null}
        onOpenChange={(open) => {
          if (!open) setToDelete(null);
        }}
        title={t`Delete admin`}
        description={toDelete ? t`Delete the admin account ${toDelete.email}? This cannot be undone.` : ''}
        confirmLabel={t`Delete`}
        pending={remove.isPending}
        error={deleteError}
        onConfirm={() => {
          if (!toDelete) return;
          const email = toDelete.email;
          remove.mutate(toDelete.id, {
            onSuccess: () => {
              notify.success(t`Admin deleted`, email);
              setToDelete(null);
            },
            onError: (error) => {
              const text = errorText(error);
              if (isApiError(error) && (error.code === 'cannot_delete_self' || error.code === 'last_super_admin')) setDeleteError(text);
              else notify.error(error);
            },
          });
        }}
      />
    </>
  );
}

const schema = z.object({
  email: z.string().trim().min(1, { error: 'required' }).pipe(z.email({ error: 'email' })),
  first_name: z.string().trim().min(1, { error: 'required' }).max(100, { error: 'too_long:100' }),
  last_name: z.string().trim().min(1, { error: 'required' }).max(100, { error: 'too_long:100' }),
  role: z.enum(['super_admin', 'manager']),
  locale: z.enum(LOCALES),
});
type Values = z.infer<typeof schema>;

function AddAdminDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
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
