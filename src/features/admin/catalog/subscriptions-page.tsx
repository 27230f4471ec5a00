import { zodResolver } from '@hookform/resolvers/zod';
import { Plural, Trans, useLingui } from '@lingui/react/macro';
import { useQuery } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import { css } from 'styled-system/css';
import { z } from 'zod';
import { SUBSCRIPTION_NAME_RE } from '../../../../contract/domain/formats';
import { Badge } from '../../../components/ui/badge';
import * as Table from '../../../components/ui/table';
import { applyServerFieldErrors } from '../../../lib/field-errors';
import { upperSnakeField } from '../../../lib/upper-snake';
import { subscriptionsQueryOptions, useSubscriptionMutations } from '../api/catalog';
import type { Subscription } from '../api/types';
import { FormField } from '../components/form';
import { useFormat } from '../components/format';
import { CatalogForm, CatalogPage, markNameTaken, RolePicker, useCatalogSave } from './catalog-page';

export function SubscriptionsPage() {
  const { t } = useLingui();
  const fmt = useFormat();
  const subs = useQuery(subscriptionsQueryOptions());
  const { remove } = useSubscriptionMutations();
  return (
    <CatalogPage<Subscription>
      title={t`Subscriptions`}
      createLabel={t`Add subscription`}
      query={subs}
      rowTestId="subscription-row"
      empty={<Trans>No subscriptions yet. Add the first one.</Trans>}
      nameOf={(sub) => sub.name}
      columns={[
        {
          header: t`Name`,
          cell: (sub) => (
            <Table.Cell>
              <div className={css({ display: 'flex', flexDirection: 'column' })}>
                <span className={css({ fontFamily: 'mono', fontWeight: 'medium' })}>{sub.name}</span>
                {sub.description ? <span className={css({ color: 'fg.muted', fontSize: 'xs' })}>{sub.description}</span> : null}
              </div>
            </Table.Cell>
          ),
        },
        {
          header: t`Roles`,
          cell: (sub) => (
            <Table.Cell>
              <div className={css({ display: 'flex', gap: '1', flexWrap: 'wrap', alignItems: 'center' })}>
                <span className={css({ fontSize: 'xs', color: 'fg.muted', me: '1' })}>
                  {/* a count of the subscription's roles, not the form's selection summary (issue 29) */}
                  <Plural value={sub.role_count} _0="No roles" one="# role" other="# roles" />
                </span>
                {sub.roles.slice(0, 4).map((r) => (
                  <Badge key={r.id} tone="info">
                    {r.name}
                  </Badge>
                ))}
                {sub.roles.length > 4 ? <Badge>+{sub.roles.length - 4}</Badge> : null}
              </div>
            </Table.Cell>
          ),
        },
        { header: t`Users`, cell: (sub) => <Table.Cell>{fmt.number(sub.user_count)}</Table.Cell> },
        { header: t`Updated`, cell: (sub) => <Table.Cell className={css({ whiteSpace: 'nowrap' })}>{fmt.date(sub.updated_at)}</Table.Cell> },
      ]}
      form={(sub, close) => <SubscriptionForm subscription={sub} onDone={close} />}
      remove={remove}
      confirmDelete={{
        title: t`Delete subscription`,
        description: (sub) => t`Are you sure you want to delete the subscription ${sub.name}? Users lose the roles they hold through it.`,
        deleted: t`Subscription deleted`,
      }}
    />
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
  const save = useCatalogSave();
  const { create, update } = useSubscriptionMutations();
  const { register, control, handleSubmit, setError, formState, watch } = useForm<Values>({
    resolver: zodResolver(schema),
    defaultValues: { name: subscription?.name ?? '', description: subscription?.description ?? '', role_ids: subscription?.roles.map((r) => r.id) ?? [] },
  });
  const count = watch('role_ids').length;
  const submit = handleSubmit((values) =>
    save(subscription ? update.mutateAsync({ id: subscription.id, input: values }) : create.mutateAsync(values), {
      success: subscription ? t`Subscription updated` : t`Subscription added`,
      nameOf: (saved) => saved.name,
      onDone,
      onError: (error) => markNameTaken(error, setError) || applyServerFieldErrors(error, setError, ['name', 'description', 'role_ids']),
    }),
  );
  return (
    <CatalogForm
      editing={subscription !== null}
      createLabel={t`Add subscription`}
      updateTitle={t`Update subscription`}
      onSubmit={(e) => void submit(e)}
      onCancel={onDone}
      submitting={formState.isSubmitting}
    >
      <FormField
        label={t`Name`}
        required
        error={formState.errors.name}
        helperText={t`Capital letters and digits in two or three parts joined by underscores, e.g. ACME_PRO. What you type is converted: "acme pro" becomes ACME_PRO.`}
        invalidText={t`Use capital letters and digits in two or three parts joined by underscores, e.g. ACME_PRO or ACME_PRO_EU`}
        autoComplete="off"
        spellCheck={false}
        {...upperSnakeField(register('name'))}
      />
      <FormField label={t`Description`} error={formState.errors.description} {...register('description')} />
      <RolePicker control={control} label={t`Roles`} />
      <p className={css({ fontSize: 'sm', color: 'fg.muted' })} aria-live="polite" data-testid="role-count">
        <Plural value={count} _0="No roles selected" one="# role selected" other="# roles selected" />
      </p>
    </CatalogForm>
  );
}
