import { zodResolver } from '@hookform/resolvers/zod';
import { Trans, useLingui } from '@lingui/react/macro';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { css } from 'styled-system/css';
import { z } from 'zod';
import { ROLE_NAME_RE } from '../../../../contract/domain/formats';
import { isApiError } from '../../../api/errors';
import { PageHeading } from '../../../components/page-heading';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import * as Dialog from '../../../components/ui/dialog';
import { DialogClose } from '../../../components/ui/dialog-close';
import { DialogFooter } from '../../../components/ui/dialog-footer';
import { EditIcon, PlusIcon, TrashIcon } from '../../../components/ui/icons';
import * as Table from '../../../components/ui/table';
import { TableFrame } from '../../../components/ui/table-frame';
import { applyServerFieldErrors } from '../../../lib/field-errors';
import { rolesQueryOptions, useRoleMutations } from '../api/catalog';
import type { Role } from '../api/types';
import { useErrorText, useNotify } from '../components/feedback';
import { FormField } from '../components/form';
import { useFormat } from '../components/format';
import { QueryRows } from '../components/query-rows';

const COLUMNS = 4;

export function RolesPage() {
  const { t } = useLingui();
  const fmt = useFormat();
  const notify = useNotify();
  const errorText = useErrorText();
  const roles = useQuery(rolesQueryOptions());
  const { remove } = useRoleMutations();
  const [editing, setEditing] = useState<Role | 'new' | null>(null);
  const [toDelete, setToDelete] = useState<Role | null>(null);
  const [deleteError, setDeleteError] = useState<string | null>(null);
  const rows = roles.data?.data ?? [];

  return (
    <>
      <PageHeading
        actions={
          <Button onClick={() => setEditing('new')}>
            <PlusIcon />
            <Trans>Create role</Trans>
          </Button>
        }
      >
        <Trans>Roles</Trans>
      </PageHeading>
      <Card>
        <TableFrame label={t`Roles`} busy={roles.isFetching && !roles.isPending}>
          <Table.Root>
            <Table.Head>
              <Table.Row>
                <Table.Header>{t`Name`}</Table.Header>
                <Table.Header>{t`Description`}</Table.Header>
                <Table.Header>{t`Updated`}</Table.Header>
                <Table.Header className={css({ textAlign: 'end' })}>{t`Actions`}</Table.Header>
              </Table.Row>
            </Table.Head>
            <Table.Body>
              <QueryRows query={roles} items={rows} columns={COLUMNS} skeletonRows={3} empty={<Trans>No roles yet. Create the first one.</Trans>}>
                {(role) => (
                  <Table.Row key={role.id} data-testid="role-row">
                    <Table.Cell className={css({ fontFamily: 'mono', fontWeight: 'medium', whiteSpace: 'nowrap' })}>{role.name}</Table.Cell>
                    <Table.Cell className={css({ color: role.description ? 'fg.default' : 'fg.subtle' })}>{role.description || '—'}</Table.Cell>
                    <Table.Cell className={css({ whiteSpace: 'nowrap' })}>{fmt.date(role.updated_at)}</Table.Cell>
                    <Table.Cell>
                      <RowActions name={role.name} onEdit={() => setEditing(role)} onDelete={() => { setDeleteError(null); setToDelete(role); }} />
                    </Table.Cell>
                  </Table.Row>
                )}
              </QueryRows>
            </Table.Body>
          </Table.Root>
        </TableFrame>
      </Card>
      <Dialog.Root open={editing !== null} onOpenChange={(d) => !d.open && setEditing(null)} lazyMount unmountOnExit>
        <Dialog.Panel>{editing !== null ? <RoleForm role={editing === 'new' ? null : editing} onDone={() => setEditing(null)} /> : null}</Dialog.Panel>
      </Dialog.Root>
      <ConfirmDialog
        open={toDelete !== null}
        onOpenChange={(open) => !open && setToDelete(null)}
        title={t`Delete role`}
        description={toDelete ? t`Are you sure you want to delete the role ${toDelete.name}?` : ''}
        confirmLabel={t`Delete`}
        pending={remove.isPending}
        error={deleteError}
        onConfirm={() =>
          toDelete &&
          remove.mutate(toDelete.id, {
            onSuccess: () => {
              notify.success(t`Role deleted`, toDelete.name);
              setToDelete(null);
            },
            onError: (error) => {
              if (isApiError(error) && error.status === 409) setDeleteError(error.code === 'role_in_use' && error.message ? error.message : errorText(error));
              else notify.error(error);
            },
          })
        }
      />
    </>
  );
}

/** Edit + delete icon buttons of a table row. */
export function RowActions({ name, onEdit, onDelete }: { name: string; onEdit: () => void; onDelete: () => void }) {
  const { t } = useLingui();
  return (
    <div className={css({ display: 'flex', gap: '1', justifyContent: 'flex-end' })}>
      <Button variant="ghost" size="sm" aria-label={t`Edit ${name}`} title={t`Edit`} onClick={onEdit}>
        <EditIcon />
      </Button>
      <Button variant="ghost" size="sm" aria-label={t`Delete ${name}`} title={t`Delete`} onClick={onDelete} className={css({ color: 'danger.700' })}>
        <TrashIcon />
      </Button>
    </div>
  );
}

const schema = z.object({
  name: z.string().trim().min(1, { error: 'required' }).max(64, { error: 'too_long:64' }).regex(ROLE_NAME_RE, { error: 'invalid' }),
  description: z.string().trim().max(500, { error: 'too_long:500' }),
});
type Values = z.infer<typeof schema>;

function RoleForm({ role, onDone }: { role: Role | null; onDone: () => void }) {
  const { t } = useLingui();
  const notify = useNotify();
  const { create, update } = useRoleMutations();
  const { register, handleSubmit, setError, formState } = useForm<Values>({ resolver: zodResolver(schema), defaultValues: { name: role?.name ?? '', description: role?.description ?? '' } });
  const submit = handleSubmit((values) =>
    (role ? update.mutateAsync({ id: role.id, input: values }) : create.mutateAsync(values))
      .then((saved) => {
        notify.success(role ? t`Role updated` : t`Role created`, saved.name);
        onDone();
      })
      .catch((error: unknown) => {
        if (isApiError(error) && error.code === 'name_taken') setError('name', { type: 'server', message: 'invalid' });
        if (!applyServerFieldErrors(error, setError, ['name', 'description'])) notify.error(error);
      }),
  );
  return (
    <form onSubmit={(e) => void submit(e)} noValidate className={css({ display: 'flex', flexDirection: 'column', gap: '4' })}>
      <Dialog.Title>{role ? <Trans>Update role</Trans> : <Trans>Create role</Trans>}</Dialog.Title>
      <DialogClose />
      <FormField label={t`Name`} required error={formState.errors.name} helperText={t`Upper-case segments joined by underscores, e.g. APP_ADMIN`} autoComplete="off" {...register('name')} />
      <FormField label={t`Description`} error={formState.errors.description} {...register('description')} />
      <DialogFooter>
        <Button variant="outline" onClick={onDone}>
          <Trans>Cancel</Trans>
        </Button>
        <Button type="submit" disabled={formState.isSubmitting}>
          {role ? <Trans>Save</Trans> : <Trans>Create role</Trans>}
        </Button>
      </DialogFooter>
    </form>
  );
}
