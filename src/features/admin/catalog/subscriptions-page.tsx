import { zodResolver } from '@hookform/resolvers/zod';
import { Plural, Trans, useLingui } from '@lingui/react/macro';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { css } from 'styled-system/css';
import { z } from 'zod';
import { SUBSCRIPTION_NAME_RE } from '../../../../contract/domain/formats';
import { isApiError } from '../../../api/errors';
import { PageHeading } from '../../../components/page-heading';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import * as Dialog from '../../../components/ui/dialog';
import { DialogClose } from '../../../components/ui/dialog-close';
import { DialogFooter } from '../../../components/ui/dialog-footer';
import { PlusIcon } from '../../../components/ui/icons';
import { MultiSelect } from '../../../components/ui/multi-select';
import * as Table from '../../../components/ui/table';
import { TableFrame } from '../../../components/ui/table-frame';
import { applyServerFieldErrors } from '../../../lib/field-errors';
import { rolesQueryOptions, subscriptionsQueryOptions, useSubscriptionMutations } from '../api/catalog';
import type { Subscription } from '../api/types';
import { useNotify } from '../components/feedback';
import { FormField } from '../components/form';
import { useFormat } from '../components/format';
import { QueryRows } from '../components/query-rows';
import { RowActions } from './roles-page';

const COLUMNS = 5;

export function SubscriptionsPage() {
  const { t } = useLingui();
  const fmt = useFormat();
  const notify = useNotify();
  const subs = useQuery(subscriptionsQueryOptions());
  const { remove } = useSubscriptionMutations();
  const [editing, setEditing] = useState<Subscription | 'new' | null>(null);
  const [toDelete, setToDelete] = useState<Subscription | null>(null);
  const rows = subs.data?.data ?? [];

  return (
    <>
      <PageHeading
        actions={
          <Button onClick={() => setEditing('new')}>
            <PlusIcon />
            <Trans>Add subscription</Trans>
          </Button>
        }
      >
        <Trans>Subscriptions</Trans>
      </PageHeading>
      <Card>
        <TableFrame label={t`Subscriptions`} busy={subs.isFetching && !subs.isPending}>
          <Table.Root>
            <Table.Head>
              <Table.Row>
                <Table.Header>{t`Name`}</Table.Header>
                <Table.Header>{t`Roles`}</Table.Header>
                <Table.Header>{t`Users`}</Table.Header>
                <Table.Header>{t`Updated`}</Table.Header>
                <Table.Header className={css({ textAlign: 'end' })}>{t`Actions`}</Table.Header>
              </Table.Row>
            </Table.Head>
            <Table.Body>
              <QueryRows query={subs} items={rows} columns={COLUMNS} skeletonRows={3} empty={<Trans>No subscriptions yet. Add the first one.</Trans>}>
                {(sub) => (
                  <Table.Row key={sub.id} data-testid="subscription-row">
                    <Table.Cell>
                      <div className={css({ display: 'flex', flexDirection: 'column' })}>
                        <span className={css({ fontFamily: 'mono', fontWeight: 'medium' })}>{sub.name}</span>
                        {sub.description ? <span className={css({ color: 'fg.muted', fontSize: 'xs' })}>{sub.description}</span> : null}
                      </div>
                    </Table.Cell>
                    <Table.Cell>
                      <div className={css({ display: 'flex', gap: '1', flexWrap: 'wrap', alignItems: 'center' })}>
                        <span className={css({ fontSize: 'xs', color: 'fg.muted', me: '1' })}>
                          <Plural value={sub.role_count} one="# role selected" other="# roles selected" />
                        </span>
                        {sub.roles.slice(0, 4).map((r) => (
                          <Badge key={r.id} tone="info">
                            {r.name}
                          </Badge>
                        ))}
                        {sub.roles.length > 4 ? <Badge>+{sub.roles.length - 4}</Badge> : null}
                      </div>
                    </Table.Cell>
                    <Table.Cell>{fmt.number(sub.user_count)}</Table.Cell>
                    <Table.Cell className={css({ whiteSpace: 'nowrap' })}>{fmt.date(sub.updated_at)}</Table.Cell>
                    <Table.Cell>
                      <RowActions name={sub.name} onEdit={() => setEditing(sub)} onDelete={() => setToDelete(sub)} />
                    </Table.Cell>
                  </Table.Row>
                )}
              </QueryRows>
            </Table.Body>
          </Table.Root>
        </TableFrame>
      </Card>
      <Dialog.Root open={editing !== null} onOpenChange={(d) => !d.open && setEditing(null)} lazyMount unmountOnExit>
        <Dialog.Panel>{editing !== null ? <SubscriptionForm subscription={editing === 'new' ? null : editing} onDone={() => setEditing(null)} /> : null}</Dialog.Panel>
      </Dialog.Root>
      <ConfirmDialog
        open={toDelete !== null}
        onOpenChange={(open) => !open && setToDelete(null)}
        title={t`Delete subscription`}
        description={toDelete ? t`Are you sure you want to delete the subscription ${toDelete.name}? Users lose the roles they hold through it.` : ''}
        confirmLabel={t`Delete`}
        pending={remove.isPending}
        onConfirm={() =>
          toDelete &&
          remove.mutate(toDelete.id, {
            onSuccess: () => {
              notify.success(t`Subscription deleted`, toDelete.name);
              setToDelete(null);
            },
            onError: (e) => notify.error(e),
          })
        }
      />
    </>
  );
}

const schema = z.object({
  name: z.string().trim().min(1, { error: 'required' }).max(64, { error: 'too_long:64' }).regex(SUBSCRIPTION_NAME_RE, { error: 'invalid' }),
  description: z.string().trim().max(500, { error: 'too_long:500' }),
  role_ids: z.array(z.string()),
});
type Values = z.infer<typeof schema>;

function SubscriptionForm({ subscription, onDone }: { subscription: Subscription | null; onDone: () => void }) {
  const { t } = useLingui();
  const notify = useNotify();
  const roles = useQuery(rolesQueryOptions());
  const { create, update } = useSubscriptionMutations();
  const { register, control, handleSubmit, setError, formState, watch } = useForm<Values>({
    resolver: zodResolver(schema),
    defaultValues: { name: subscription?.name ?? '', description: subscription?.description ?? '', role_ids: subscription?.roles.map((r) => r.id) ?? [] },
  });
  const count = watch('role_ids').length;
  const submit = handleSubmit((values) =>
    (subscription ? update.mutateAsync({ id: subscription.id, input: values }) : create.mutateAsync(values))
      .then((saved) => {
        notify.success(subscription ? t`Subscription updated` : t`Subscription added`, saved.name);
        onDone();
      })
      .catch((error: unknown) => {
        if (isApiError(error) && error.code === 'name_taken') {
          setError('name', { type: 'server', message: 'invalid' });
          return;
        }
        if (!applyServerFieldErrors(error, setError, ['name', 'description', 'role_ids'])) notify.error(error);
      }),
  );
  return (
    <form onSubmit={(e) => void submit(e)} noValidate className={css({ display: 'flex', flexDirection: 'column', gap: '4' })}>
      <Dialog.Title>{subscription ? <Trans>Update subscription</Trans> : <Trans>Add subscription</Trans>}</Dialog.Title>
      <DialogClose />
      <FormField label={t`Name`} required error={formState.errors.name} helperText={t`Format XX_XX or XX_XX_XX, e.g. ACME_PRO`} autoComplete="off" {...register('name')} />
      <FormField label={t`Description`} error={formState.errors.description} {...register('description')} />
      <Controller
        control={control}
        name="role_ids"
        render={({ field }) => (
          <MultiSelect
            label={t`Roles`}
            options={(roles.data?.data ?? []).map((r) => ({ value: r.id, label: r.name }))}
            value={field.value}
            onValueChange={field.onChange}
            placeholder={t`Select roles`}
            summary={(n) => t`${n} roles selected`}
          />
        )}
      />
      <p className={css({ fontSize: 'sm', color: 'fg.muted' })} aria-live="polite" data-testid="role-count">
        <Plural value={count} _0="No roles selected" one="# role selected" other="# roles selected" />
      </p>
      <DialogFooter>
        <Button variant="outline" onClick={onDone}>
          <Trans>Cancel</Trans>
        </Button>
        <Button type="submit" disabled={formState.isSubmitting}>
          {subscription ? <Trans>Save</Trans> : <Trans>Add subscription</Trans>}
        </Button>
      </DialogFooter>
    </form>
  );
}
