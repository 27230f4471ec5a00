/**
 * The one pattern of the catalog pages (roles, subscriptions, service apps): a heading with a create button, a
 * table of the items with edit and delete per row, the create/edit form in a dialog and a delete confirmation.
 * A page passes what differs: its texts, columns, form and mutations (src/features/admin/catalog/*-page.tsx).
 */
import { Trans, useLingui } from '@lingui/react/macro';
import { useQuery } from '@tanstack/react-query';
import { Fragment, useState, type FormEventHandler, type ReactNode } from 'react';
import { Controller, type Control, type ErrorOption, type FieldValues, type Path } from 'react-hook-form';
import { css } from 'styled-system/css';
import { isApiError } from '../../../api/errors';
import { PageHeading } from '../../../components/page-heading';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import * as Dialog from '../../../components/ui/dialog';
import { DialogClose } from '../../../components/ui/dialog-close';
import { DialogFooter } from '../../../components/ui/dialog-footer';
import { EditIcon, PlusIcon, TrashIcon } from '../../../components/ui/icons-more';
import { MultiSelect } from '../../../components/ui/multi-select';
import * as Table from '../../../components/ui/table';
import { rolesQueryOptions } from '../api/catalog';
import { useNotify } from '../components/notify';
import { QueryTable } from '../components/query-rows';

/** One column: its header and the cell (a `Table.Cell`) of an item. */
export interface CatalogColumn<T> {
  header: string;
  cell: (item: T) => ReactNode;
}

export interface CatalogPageProps<T extends { id: string }> {
  /** The page heading and the table's label. */
  title: string;
  /** The create button of the heading (and the form's title and submit when creating). */
  createLabel: string;
  query: { data?: { data: T[] } | undefined; isFetching: boolean; isPending: boolean; isError: boolean; error: unknown };
  columns: CatalogColumn<T>[];
  /** `data-testid` of a row. */
  rowTestId: string;
  empty: ReactNode;
  /** How a row is named in its edit/delete labels and in the toasts. */
  nameOf: (item: T) => string;
  /** More row buttons, before edit and delete. */
  rowActions?: ((item: T) => ReactNode) | undefined;
  /** The create (`item` null) or edit form; `close` closes its dialog. */
  form: (item: T | null, close: () => void) => ReactNode;
  formClassName?: string | undefined;
  remove: { isPending: boolean; mutate: (id: string, callbacks: { onSuccess: () => void; onError: (error: unknown) => void }) => void };
  confirmDelete: { title: string; description: (item: T) => string; deleted: string };
  /** A refusal to show inside the confirmation instead of a toast (e.g. a role still in use); null: toast it. */
  deleteRefusal?: ((error: unknown) => string | null) | undefined;
  /** Further dialogs of the page. */
  children?: ReactNode;
}

const rowButtons = css({ display: 'flex', gap: '1', justifyContent: 'flex-end' });

export function CatalogPage<T extends { id: string }>(p: CatalogPageProps<T>) {
  const { t } = useLingui();
  const notify = useNotify();
  const [editing, setEditing] = useState<T | 'new' | null>(null);
  const [toDelete, setToDelete] = useState<T | null>(null);
  const [deleteError, setDeleteError] = useState<string | null>(null);
  const rows = p.query.data?.data ?? [];

  return (
    <>
      <PageHeading
        actions={
          <Button onClick={() => setEditing('new')}>
            <PlusIcon />
            {p.createLabel}
          </Button>
        }
      >
        {p.title}
      </PageHeading>
      <Card>
        <QueryTable
          label={p.title}
          query={p.query}
          items={rows}
          columns={p.columns.length + 1}
          skeletonRows={3}
          empty={p.empty}
          headers={
            <>
              {p.columns.map((c) => (
                <Table.Header key={c.header}>{c.header}</Table.Header>
              ))}
              <Table.Header className={css({ textAlign: 'end' })}>{t`Actions`}</Table.Header>
            </>
          }
        >
          {(item) => {
            const actions = (
              <RowActions
                name={p.nameOf(item)}
                onEdit={() => setEditing(item)}
                onDelete={() => {
                  setDeleteError(null);
                  setToDelete(item);
                }}
              />
            );
            return (
              <Table.Row key={item.id} data-testid={p.rowTestId}>
                {p.columns.map((c) => (
                  <Fragment key={c.header}>{c.cell(item)}</Fragment>
                ))}
                <Table.Cell>
                  {p.rowActions ? (
                    <div className={rowButtons}>
                      {p.rowActions(item)}
                      {actions}
                    </div>
                  ) : (
                    actions
                  )}
                </Table.Cell>
              </Table.Row>
            );
          }}
        </QueryTable>
      </Card>
      <Dialog.Root open={editing !== null} onOpenChange={(d) => !d.open && setEditing(null)} lazyMount unmountOnExit>
        <Dialog.Panel className={p.formClassName}>{editing !== null ? p.form(editing === 'new' ? null : editing, () => setEditing(null)) : null}</Dialog.Panel>
      </Dialog.Root>
      {p.children}
      <ConfirmDialog
        open={toDelete !== null}
        onOpenChange={(open) => !open && setToDelete(null)}
        title={p.confirmDelete.title}
        description={toDelete ? p.confirmDelete.description(toDelete) : ''}
        confirmLabel={t`Delete`}
        pending={p.remove.isPending}
        error={deleteError}
        onConfirm={() =>
          toDelete &&
          p.remove.mutate(toDelete.id, {
            onSuccess: () => {
              notify.success(p.confirmDelete.deleted, p.nameOf(toDelete));
              setToDelete(null);
            },
            onError: (error) => {
              const refusal = p.deleteRefusal?.(error) ?? null;
              if (refusal !== null) setDeleteError(refusal);
              else notify.error(error);
            },
          })
        }
      />
    </>
  );
}

/** Edit + delete icon buttons of a table row. */
function RowActions({ name, onEdit, onDelete }: { name: string; onEdit: () => void; onDelete: () => void }) {
  const { t } = useLingui();
  return (
    <div className={rowButtons}>
      <Button variant="ghost" size="sm" aria-label={t`Edit ${name}`} title={t`Edit`} onClick={onEdit}>
        <EditIcon />
      </Button>
      <Button variant="ghost" size="sm" aria-label={t`Delete ${name}`} title={t`Delete`} onClick={onDelete} className={css({ color: 'danger.700' })}>
        <TrashIcon />
      </Button>
    </div>
  );
}

export interface CatalogFormProps {
  /** Editing an existing item (title `updateTitle`, submit "Save") or creating one (both `createLabel`). */
  editing: boolean;
  createLabel: string;
  updateTitle: string;
  onSubmit: FormEventHandler<HTMLFormElement>;
  onCancel: () => void;
  submitting: boolean;
  children: ReactNode;
}

/** The frame of a catalog form in its dialog: title, close button, the fields, Cancel and submit. */
export function CatalogForm({ editing, createLabel, updateTitle, onSubmit, onCancel, submitting, children }: CatalogFormProps) {
  return (
    <form onSubmit={onSubmit} noValidate className={css({ display: 'flex', flexDirection: 'column', gap: '4' })}>
      <Dialog.Title>{editing ? updateTitle : createLabel}</Dialog.Title>
      <DialogClose />
      {children}
      <DialogFooter>
        <Button variant="outline" onClick={onCancel}>
          <Trans>Cancel</Trans>
        </Button>
        <Button type="submit" disabled={submitting}>
          {editing ? <Trans>Save</Trans> : createLabel}
        </Button>
      </DialogFooter>
    </form>
  );
}

/**
 * Saves through a create or update mutation: on success a toast (`success`, with the saved item's name) and
 * `onDone(saved)`; on failure `onError` may show it beside the fields (returns true), else it is toasted.
 */
export function useCatalogSave() {
  const notify = useNotify();
  return <S,>(save: Promise<S>, o: { success: string; nameOf: (saved: S) => string; onDone: (saved: S) => void; onError: (error: unknown) => boolean }) =>
    save
      .then((saved) => {
        notify.success(o.success, o.nameOf(saved));
        o.onDone(saved);
      })
      .catch((error: unknown) => {
        if (!o.onError(error)) notify.error(error);
      });
}

/** A 409 `name_taken` marks the name field as invalid; true when it did. */
export function markNameTaken(error: unknown, setError: (name: 'name', error: ErrorOption) => void): boolean {
  if (!isApiError(error) || error.code !== 'name_taken') return false;
  setError('name', { type: 'server', message: 'invalid' });
  return true;
}

/** The roles an item grants (`role_ids` of its form), chosen from all roles. */
export function RolePicker<V extends FieldValues & { role_ids: string[] }>({ control, label }: { control: Control<V>; label: string }) {
  const { t } = useLingui();
  const roles = useQuery(rolesQueryOptions());
  return (
    <Controller
      control={control}
      name={'role_ids' as Path<V>}
      render={({ field }) => (
        <MultiSelect
          label={label}
          options={(roles.data?.data ?? []).map((r) => ({ value: r.id, label: r.name }))}
          value={field.value as string[]}
          onValueChange={field.onChange}
          placeholder={t`Select roles`}
          summary={(n) => t`${n} roles selected`}
        />
      )}
    />
  );
}
