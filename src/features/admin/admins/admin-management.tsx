import { Trans, useLingui } from '@lingui/react/macro';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { css } from 'styled-system/css';
import { isApiError } from '../../../api/errors';
import { PageHeading } from '../../../components/page-heading';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { DataPagination } from '../../../components/ui/data-pagination';
import { PlusIcon, TrashIcon } from '../../../components/ui/icons-more';
import { SearchField } from '../../../components/ui/search-field';
import { SimpleSelect } from '../../../components/ui/simple-select';
import * as Table from '../../../components/ui/table';
import { lazyDialog, usePreloadWhenIdle } from '../../../components/ui/lazy-dialog';
import { visuallyHidden } from '../../../components/visually-hidden';
import { adminsQueryOptions, useChangeAdminRole, useDeleteAdmin } from '../api/admins';
import type { Account, AdminRoleName } from '../api/types';
import { useErrorText } from '../components/feedback';
import { useNotify } from '../components/notify';
import { useFormat } from '../components/format';
import { QueryTable } from '../components/query-rows';
import { StateBadge } from '../components/state-badge';
import type { AdminSearch } from './search';

// the add-admin form (react-hook-form, zod) loads after the list's first paint (src/components/ui/lazy-dialog.tsx)
const addAdmin = lazyDialog(() => import('./add-admin-dialog').then((module) => module.AddAdminDialog));

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
  usePreloadWhenIdle(addAdmin.preload);
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
          <Button onClick={() => setAdding(true)} onPointerEnter={addAdmin.preload} onFocus={addAdmin.preload}>
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
        <QueryTable
          label={t`Admins`}
          query={admins}
          items={rows}
          columns={COLUMNS}
          skeletonRows={3}
          empty={<Trans>No results for given search</Trans>}
          headers={
            <>
              <Table.Header>{t`Name`}</Table.Header>
              <Table.Header>{t`Role`}</Table.Header>
              <Table.Header>{t`Status`}</Table.Header>
              <Table.Header>{t`Created`}</Table.Header>
              <Table.Header className={css({ textAlign: 'end' })}>{t`Actions`}</Table.Header>
            </>
          }
        >
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
        </QueryTable>
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
      <addAdmin.Dialog open={adding} onOpenChange={setAdding} />
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
