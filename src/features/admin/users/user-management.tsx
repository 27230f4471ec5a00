import { Plural, Trans, useLingui } from '@lingui/react/macro';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useMachine } from '@xstate/react';
import { useMemo, useRef, useState } from 'react';
import { css } from 'styled-system/css';
import { LOCALES } from '../../../../contract/locales';
import { PageHeading } from '../../../components/page-heading';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { DataPagination } from '../../../components/ui/data-pagination';
import { EmptyRow } from '../../../components/ui/empty-row';
import { DownloadIcon, EyeIcon, MailIcon, PlusIcon, TrashIcon, UploadIcon } from '../../../components/ui/icons-more';
import { SearchField } from '../../../components/ui/search-field';
import { SimpleSelect } from '../../../components/ui/simple-select';
import { raiseWhenOpen } from '../../../components/ui/select';
import { SkeletonRows } from '../../../components/ui/skeleton-rows';
import * as Table from '../../../components/ui/table';
import { TableFrame } from '../../../components/ui/table-frame';
import { Toolbar } from '../../../components/ui/toolbar';
import { lazyDialog, usePreloadWhenIdle } from '../../../components/ui/lazy-dialog';
import { createInvitationResendActors, invitationResendMachine } from '../../../../machines/invitationResend.machine';
import { call } from '../../../api/call';
import { inspectOptions } from '../../../lib/inspect';
import { useNarrowViewport } from '../../../lib/use-narrow-viewport';
import { rolesQueryOptions } from '../api/catalog';
import { adminKeys } from '../api/keys';
import { useSsoProviderName } from '../api/config';
import type { Account } from '../api/types';
import { downloadUsersCsv, useDeleteUser, usersQueryOptions } from '../api/users';
import { ClearFiltersButton } from '../components/clear-filters-button';
import { useErrorText } from '../components/feedback';
import { useNotify } from '../components/notify';
import { useSearchParams } from '../components/use-search-params';
import { useFormat, useLanguageName } from '../components/format';
import { StateBadge } from '../components/state-badge';
import { BulkActions } from './bulk-actions';
import { FiltersSheet } from './filters-sheet';
import { SortHeader } from './sort-header';
import { toUserFilters, type UserSearch } from './search';
import type { UserSort } from '../../../../contract/admin/users';

// The add-user form (react-hook-form, zod) and the CSV import (its machine) load after the list's first paint
const addUser = lazyDialog(() => import('./add-user-dialog').then((module) => module.AddUserDialog));
const importUsers = lazyDialog(() => import('./import-users-dialog').then((module) => module.ImportUsersDialog));

export interface UserManagementProps {
  search: UserSearch;
  /** Replaces the URL search params (filters reset the page). */
  onSearchChange: (next: UserSearch) => void;
  /** Whether the signed-in admin may see roles (super_admin); managers get no role filter. */
  canFilterByRole?: boolean;
}

const ALL = 'all';
const COLUMNS = 8;

/** User list: server-side search, filters, paging; add, invite, delete, import, export. */
export function UserManagement({ search, onSearchChange, canFilterByRole = true }: UserManagementProps) {
  const { t } = useLingui();
  const notify = useNotify();
  const errorText = useErrorText();
  const fmt = useFormat();
  const languageName = useLanguageName();
  const filters = toUserFilters(search);
  const users = useQuery(usersQueryOptions(filters));
  const providerName = useSsoProviderName();
  const roles = useQuery({ ...rolesQueryOptions(), enabled: canFilterByRole });
  const [adding, setAdding] = useState(false);
  const [importing, setImporting] = useState(false);
  usePreloadWhenIdle(addUser.preload, importUsers.preload);
  const [exporting, setExporting] = useState(false);
  const [toDelete, setToDelete] = useState<Account | null>(null);
  // selected users by id (kept across pages and sorts until cleared or acted on)
  const [selected, setSelected] = useState<Map<string, Account>>(new Map());
  const deleteUser = useDeleteUser();

  // every change starts from the params asked for last (a navigation on its way is not lost: use-search-params.ts)
  const params = useSearchParams(search, onSearchChange);
  const change = (patch: Partial<UserSearch>) => params.change({ ...params.latest(), ...patch });
  // filters start over: first page, no cursor, bounded count
  const setFilter = (patch: Partial<UserSearch>) => change({ ...patch, page: undefined, cursor: undefined, count: undefined });
  const hasFilters = Boolean(filters.search || filters.status || filters.technical !== undefined || filters.auth_type || filters.role || filters.locale);
  const activeFilters = [filters.status, filters.technical, filters.auth_type, filters.role, filters.locale].filter((value) => value !== undefined).length;
  const clearFilters = () => setFilter({ status: undefined, technical: undefined, auth_type: undefined, role: undefined, locale: undefined });
  const narrow = useNarrowViewport();

  const rows = users.data?.data ?? [];
  const meta = users.data?.meta;
  const total = meta?.total ?? 0;
  // more than the server counted (USER_COUNT_EXACT_BELOW): "10 000+" until the admin asks for the exact count
  const totalIsLowerBound = meta?.total_is_lower_bound ?? false;
  const totalText = fmt.number(total);
  /** Next and previous page by keyset cursor (cheap at any depth); other page numbers by offset. */
  const goToPage = (page: number) => {
    const current = meta?.page ?? 1;
    const cursor = page === current + 1 ? meta?.next_cursor : page === current - 1 ? meta?.prev_cursor : undefined;
    change({ page: page === 1 ? undefined : page, cursor: page === 1 ? undefined : (cursor ?? undefined) });
  };
  const name = (u: Account) => `${u.first_name} ${u.last_name}`.trim() || u.email;
  const allSelected = rows.length > 0 && rows.every((u) => selected.has(u.id));
  const selectAll = (checked: boolean) => setSelected(checked ? new Map(rows.map((u) => [u.id, u])) : new Map());
  const sortBy = (sort: UserSort | undefined) => change({ sort, page: undefined, cursor: undefined });

  const exportCsv = async () => {
    setExporting(true);
    try {
      const { page: _page, size: _size, sort: _sort, cursor: _cursor, count: _count, ...rest } = filters;
      await downloadUsersCsv(rest);
      notify.success(t`Export ready`);
    } catch (error) {
      notify.error(error);
    } finally {
      setExporting(false);
    }
  };

  // the five filters: inline from md up; below md (issue 29: at 390 px they stood before the first row) one 'Filters'
  // button with the number of active ones opens them in a bottom sheet
  // in the phone sheet (a modal dialog) the lists open inside it: portalled to the body they would sit under the sheet
  // and outside its focus trap, hidden from assistive technology by the modal
  const filterFields = (
    <>
      <SimpleSelect
        label={t`Status`}
        size="sm"
        portalled={!narrow}
        className={narrow ? raiseWhenOpen : undefined}
        value={search.status ?? ALL}
        onValueChange={(v) => setFilter({ status: v === ALL ? undefined : (v as UserSearch['status']) })}
        options={[
          { value: ALL, label: t`All statuses` },
          { value: 'INVITED', label: t`Invited` },
          { value: 'ACTIVE', label: t`Active` },
          { value: 'INACTIVE', label: t`Inactive` },
        ]}
      />
      <SimpleSelect
        label={t`Technical`}
        size="sm"
        portalled={!narrow}
        className={narrow ? raiseWhenOpen : undefined}
        value={search.technical === undefined ? ALL : String(search.technical)}
        onValueChange={(v) => setFilter({ technical: v === ALL ? undefined : v === 'true' })}
        options={[
          { value: ALL, label: t`All users` },
          { value: 'true', label: t`Technical users` },
          { value: 'false', label: t`Personal users` },
        ]}
      />
      <SimpleSelect
        label={t`Auth type`}
        size="sm"
        portalled={!narrow}
        className={narrow ? raiseWhenOpen : undefined}
        value={search.auth_type ?? ALL}
        onValueChange={(v) => setFilter({ auth_type: v === ALL ? undefined : (v as UserSearch['auth_type']) })}
        options={[
          { value: ALL, label: t`All auth types` },
          { value: 'CREDENTIALS', label: t`Credentials` },
          { value: 'SSO', label: t`SSO` },
        ]}
      />
      {canFilterByRole ? (
        <SimpleSelect
          label={t`Role`}
          size="sm"
        portalled={!narrow}
        className={narrow ? raiseWhenOpen : undefined}
          value={search.role ?? ALL}
          onValueChange={(v) => setFilter({ role: v === ALL ? undefined : v })}
          options={[{ value: ALL, label: t`All roles` }, ...(roles.data?.data ?? []).map((r) => ({ value: r.id, label: r.name }))]}
        />
      ) : null}
      <SimpleSelect
        label={t`Language`}
        size="sm"
        portalled={!narrow}
        className={narrow ? raiseWhenOpen : undefined}
        value={search.locale ?? ALL}
        onValueChange={(v) => setFilter({ locale: v === ALL ? undefined : (v as UserSearch['locale']) })}
        options={[{ value: ALL, label: t`All languages` }, ...LOCALES.map((code) => ({ value: code, label: languageName(code) }))]}
      />
    </>
  );

  return (
    <>
      <PageHeading
        actions={
          <div className={css({ display: 'flex', gap: '2', flexWrap: 'wrap' })}>
            <Button variant="outline" onClick={() => setImporting(true)} onPointerEnter={importUsers.preload} onFocus={importUsers.preload}>
              <UploadIcon />
              <Trans>Import users</Trans>
            </Button>
            <Button variant="outline" onClick={() => void exportCsv()} disabled={exporting} aria-busy={exporting || undefined}>
              <DownloadIcon />
              <Trans>Export CSV</Trans>
            </Button>
            <Button onClick={() => setAdding(true)} onPointerEnter={addUser.preload} onFocus={addUser.preload}>
              <PlusIcon />
              <Trans>Add user</Trans>
            </Button>
          </div>
        }
      >
        <Trans>User management</Trans>
      </PageHeading>

      <Card>
        <Toolbar>
          {/* the search on a row of its own: beside it the five filters wrapped, leaving Language alone on a full-width row at 1440 */}
          <div data-full-row>
            <SearchField label={t`Search users`} placeholder={t`Search by name or e-mail`} value={search.search ?? ''} onChange={(value) => setFilter({ search: value || undefined })} />
          </div>
          {narrow ? (
            <FiltersSheet count={activeFilters} onClear={activeFilters > 0 ? clearFilters : undefined}>
              {filterFields}
            </FiltersSheet>
          ) : (
            filterFields
          )}
        </Toolbar>
        {hasFilters ? (
          <div className={css({ display: 'flex', justifyContent: 'space-between', alignItems: 'center', gap: '2', flexWrap: 'wrap', fontSize: 'sm', color: 'fg.muted' })}>
            <span aria-live="polite" className={css({ display: 'inline-flex', alignItems: 'center', gap: '2' })}>
              {users.data ? (
                totalIsLowerBound ? (
                  <>
                    <span data-testid="users-total">
                      <Trans>{totalText}+ users match</Trans>
                    </span>
                    <Button variant="outline" size="sm" onClick={() => change({ count: 'exact' })} aria-busy={(users.isFetching && search.count === 'exact') || undefined}>
                      <Trans>Count exactly</Trans>
                    </Button>
                  </>
                ) : (
                  <span data-testid="users-total">
                    <Plural value={total} one="# user matches" other="# users match" />
                  </span>
                )
              ) : null}
            </span>
            <ClearFiltersButton size="sm" onClick={() => params.change({ size: params.latest().size })} />
          </div>
        ) : null}

        <BulkActions selected={[...selected.values()]} onClear={() => setSelected(new Map())} canAssign={canFilterByRole} />
        <TableFrame
          label={t`Users`}
          busy={users.isFetching && !users.isPending}
          cardTools={
            <>
              <label className={css({ display: 'inline-flex', alignItems: 'center', gap: '2', fontSize: 'sm', cursor: 'pointer' })}>
                <input type="checkbox" checked={allSelected} disabled={rows.length === 0} onChange={(e) => selectAll(e.target.checked)} data-testid="card-select-all" />
                <Trans>Select all on this page</Trans>
              </label>
              <SimpleSelect
                label={t`Sort by`}
                size="sm"
                value={search.sort ?? '-created_at'}
                onValueChange={(value) => sortBy(value === '-created_at' ? undefined : (value as UserSort))}
                options={[
                  { value: '-created_at', label: t`Newest first` },
                  { value: 'created_at', label: t`Oldest first` },
                  { value: 'name', label: t`Name, A to Z` },
                  { value: '-name', label: t`Name, Z to A` },
                ]}
              />
            </>
          }
        >
          <Table.Root>
            <Table.Head>
              <Table.Row>
                <Table.Header className={css({ width: '8' })}>
                  <input
                    type="checkbox"
                    aria-label={t`Select all users on this page`}
                    checked={allSelected}
                    onChange={(e) => selectAll(e.target.checked)}
                  />
                </Table.Header>
                <SortHeader label={t`Name`} column="name" sort={search.sort} onSort={sortBy} />
                <Table.Header>
                  <Trans>Status</Trans>
                </Table.Header>
                <Table.Header>
                  <Trans>Auth type</Trans>
                </Table.Header>
                <Table.Header>
                  <Trans>Type</Trans>
                </Table.Header>
                <Table.Header>
                  <Trans>Language</Trans>
                </Table.Header>
                <SortHeader label={t`Created`} column="created_at" sort={search.sort} onSort={sortBy} />
                <Table.Header className={css({ textAlign: 'end' })}>
                  <Trans>Actions</Trans>
                </Table.Header>
              </Table.Row>
            </Table.Head>
            <Table.Body>
              {users.isPending ? (
                <SkeletonRows columns={COLUMNS} />
              ) : users.isError ? (
                <EmptyRow columns={COLUMNS}>
                  <span role="alert">{errorText(users.error)}</span>
                </EmptyRow>
              ) : rows.length === 0 ? (
                <EmptyRow columns={COLUMNS}>{hasFilters ? <Trans>No results for given search</Trans> : <Trans>No users yet</Trans>}</EmptyRow>
              ) : (
                rows.map((user) => (
                  <Table.Row key={user.id} data-testid="user-row">
                    <Table.Cell>
                      <input
                        type="checkbox"
                        aria-label={t`Select ${user.email}`}
                        checked={selected.has(user.id)}
                        onChange={(e) =>
                          setSelected((prev) => {
                            const next = new Map(prev);
                            if (e.target.checked) next.set(user.id, user);
                            else next.delete(user.id);
                            return next;
                          })
                        }
                      />
                    </Table.Cell>
                    <Table.Cell>
                      {/* a person's name and address are data: never translated (browser translators, the screens audit) */}
                      <div translate="no" className={css({ display: 'flex', flexDirection: 'column', minWidth: '0' })}>
                        <Link to="/admin/user-information/$id" params={{ id: user.id }} className={css({ fontWeight: 'medium', color: 'fg.default', _hover: { color: 'accent.text', textDecoration: 'underline' } })}>
                          {name(user)}
                        </Link>
                        <span className={css({ color: 'fg.muted', fontSize: 'xs' })}>{user.email}</span>
                      </div>
                    </Table.Cell>
                    <Table.Cell>
                      <StateBadge state={user.state} />
                    </Table.Cell>
                    <Table.Cell>{user.auth_type === 'SSO' ? (user.provider ? `SSO · ${providerName(user.provider)}` : 'SSO') : t`Credentials`}</Table.Cell>
                    <Table.Cell>{user.technical ? <Badge tone="info">{t`Technical`}</Badge> : t`Personal`}</Table.Cell>
                    <Table.Cell>{languageName(user.locale)}</Table.Cell>
                    <Table.Cell className={css({ whiteSpace: 'nowrap' })}>{fmt.date(user.created_at)}</Table.Cell>
                    <Table.Cell>
                      <div className={css({ display: 'flex', gap: '1', justifyContent: 'flex-end' })}>
                        <Link
                          to="/admin/user-information/$id"
                          params={{ id: user.id }}
                          aria-label={t`View ${name(user)}`}
                          title={t`View`}
                          className={css({ display: 'inline-flex', alignItems: 'center', justifyContent: 'center', width: '8', height: '8', borderRadius: 'md', color: 'fg.muted', _hover: { bg: 'bg.subtle', color: 'fg.default' }, _focusVisible: { outline: '2px solid', outlineColor: 'focusRing' } })}
                        >
                          <EyeIcon />
                        </Link>
                        {user.auth_type === 'CREDENTIALS' && !user.email_verified ? <InvitationRowButton user={user} /> : null}
                        <Button variant="ghost" size="sm" aria-label={t`Delete ${user.email}`} title={t`Delete`} onClick={() => setToDelete(user)} className={css({ color: 'danger.700' })}>
                          <TrashIcon />
                        </Button>
                      </div>
                    </Table.Cell>
                  </Table.Row>
                ))
              )}
            </Table.Body>
          </Table.Root>
        </TableFrame>
        {users.data && total > 0 ? (
          <DataPagination
            total={total}
            totalIsLowerBound={totalIsLowerBound}
            hasNext={Boolean(users.data.meta.next_cursor)}
            page={users.data.meta.page}
            pageSize={users.data.meta.size}
            onPageChange={goToPage}
            onPageSizeChange={(size) => change({ size, page: undefined, cursor: undefined })}
          />
        ) : null}
      </Card>

      <addUser.Dialog open={adding} onOpenChange={setAdding} />
      <importUsers.Dialog open={importing} onOpenChange={setImporting} />
      <ConfirmDialog
        open={toDelete !== null}
        onOpenChange={(open) => {
          if (!open) setToDelete(null);
        }}
        title={t`Delete user`}
        description={toDelete ? t`Delete ${toDelete.email}? Their sessions end and this cannot be undone.` : ''}
        confirmLabel={t`Delete`}
        pending={deleteUser.isPending}
        onConfirm={() => {
          if (!toDelete) return;
          const email = toDelete.email;
          deleteUser.mutate(toDelete.id, {
            onSuccess: () => {
              notify.success(t`User deleted`, email);
              setToDelete(null);
            },
            onError: (error) => notify.error(error),
          });
        }}
      />
    </>
  );
}

/**
 * The row's "Send invitation" icon: the invitation-resend machine (machines/invitationResend.machine.ts) as on the user
 * page; the outcome is announced in a toast (announceSent / announceFailed), "Try again" is the same icon while the
 * machine offers it, and a refusal that says the row is stale (already verified…) reloads the list.
 */
function InvitationRowButton({ user }: { user: Account }) {
  const { t } = useLingui();
  const qc = useQueryClient();
  const notify = useNotify();
  // the toasts of the latest render (language), without a new machine per render
  const announce = useRef({ notify, sent: t`Invitation sent` });
  announce.current = { notify, sent: t`Invitation sent` };
  const machine = useMemo(
    () =>
      invitationResendMachine.provide({
        actors: createInvitationResendActors({ call }),
        actions: {
          userChanged: () => void qc.invalidateQueries({ queryKey: adminKeys.users() }),
          announceSent: () => void announce.current.notify.success(announce.current.sent, user.email),
          announceFailed: (_, params: { error: unknown }) => void announce.current.notify.error(params.error),
        },
      }),
    [qc, user.email],
  );
  const [snapshot, send] = useMachine(machine, { ...inspectOptions(), input: { userId: user.id } });
  const retry = snapshot.can({ type: 'RETRY' });
  const busy = snapshot.hasTag('busy');
  return (
    <Button
      variant="ghost"
      size="sm"
      aria-label={t`Send invitation to ${user.email}`}
      title={t`Send invitation`}
      // not `disabled` while it sends: a disabled button loses focus to the page's body (the keyboard user's place)
      aria-disabled={(!retry && !snapshot.can({ type: 'SEND' })) || undefined}
      aria-busy={busy || undefined}
      onClick={() => {
        if (retry) send({ type: 'RETRY' });
        else if (snapshot.can({ type: 'SEND' })) send({ type: 'SEND' });
      }}
    >
      <MailIcon />
    </Button>
  );
}
