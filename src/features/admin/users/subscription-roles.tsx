import { Trans, useLingui } from '@lingui/react/macro';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { css } from 'styled-system/css';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { MultiSelect } from '../../../components/ui/multi-select';
import { subscriptionsQueryOptions } from '../api/catalog';
import type { UserDetail } from '../api/types';
import { useUpdateUser } from '../api/users';
import { useNotify } from '../components/notify';

export function SubscriptionRoles({ user, canEdit, titleId }: { user: UserDetail; canEdit: boolean; titleId: string }) {
  const { t } = useLingui();
  const notify = useNotify();
  const update = useUpdateUser(user.id);
  const subscriptions = useQuery({ ...subscriptionsQueryOptions(), enabled: canEdit });
  const held = Object.fromEntries((user.role_subscriptions ?? []).map((rs) => [rs.subscription.id, rs.roles.map((r) => r.id)]));
  const [draft, setDraft] = useState<Record<string, string[]>>(held);
  const [base, setBase] = useState(user.role_subscriptions);
  if (base !== user.role_subscriptions) {
    setBase(user.role_subscriptions);
    setDraft(held);
  }
  const dirty = JSON.stringify(normalize(draft)) !== JSON.stringify(normalize(held));

  if (!canEdit) {
    return (
      <Card title={t`Subscriptions and roles`} titleId={titleId}>
        {(user.role_subscriptions ?? []).length === 0 ? (
          <p className={css({ fontSize: 'sm', color: 'fg.muted' })}>
            <Trans>No roles assigned.</Trans>
          </p>
        ) : (
          <ul className={css({ display: 'flex', flexDirection: 'column', gap: '3' })}>
            {(user.role_subscriptions ?? []).map((rs) => (
              <li key={rs.subscription.id} className={css({ display: 'flex', gap: '2', flexWrap: 'wrap', alignItems: 'center' })}>
                <span className={css({ fontWeight: 'medium', fontSize: 'sm', minWidth: '40' })}>{rs.subscription.name}</span>
                {rs.roles.map((r) => (
                  <Badge key={r.id} tone="info">
                    {r.name}
                  </Badge>
                ))}
              </li>
            ))}
          </ul>
        )}
      </Card>
    );
  }

  const subs = subscriptions.data?.data ?? [];
  return (
    <Card
      title={t`Subscriptions and roles`}
      titleId={titleId}
      description={t`Per subscription, choose which of its roles this user holds.`}
      actions={
        <Button
          disabled={!dirty || update.isPending}
          aria-busy={update.isPending || undefined}
          onClick={() =>
            update.mutate(
              { subscriptions: Object.entries(draft).filter(([, ids]) => ids.length > 0).map(([subscription_id, role_ids]) => ({ subscription_id, role_ids })) },
              { onSuccess: () => notify.success(t`Roles saved`, user.email), onError: (e) => notify.error(e) },
            )
          }
        >
          <Trans>Save roles</Trans>
        </Button>
      }
    >
      {subscriptions.isPending ? (
        <p className={css({ fontSize: 'sm', color: 'fg.muted' })}>{t`Loading…`}</p>
      ) : subs.length === 0 ? (
        <p className={css({ fontSize: 'sm', color: 'fg.muted' })}>
          <Trans>No subscriptions exist yet. Create one under Subscriptions.</Trans>
        </p>
      ) : (
        <div className={css({ display: 'grid', gridTemplateColumns: { base: '1fr', md: 'repeat(2, minmax(0, 1fr))' }, gap: '4' })}>
          {subs.map((sub) => (
            <div key={sub.id} className={css({ p: '4', borderWidth: '1px', borderColor: 'border.default', borderRadius: 'lg', display: 'flex', flexDirection: 'column', gap: '2' })}>
              <MultiSelect
                label={sub.name}
                options={sub.roles.map((r) => ({ value: r.id, label: r.name }))}
                value={draft[sub.id] ?? []}
                onValueChange={(value) => setDraft((d) => ({ ...d, [sub.id]: value }))}
                placeholder={sub.roles.length ? t`No roles` : t`This subscription has no roles`}
                disabled={sub.roles.length === 0}
                summary={(n) => t`${n} roles selected`}
              />
              {sub.description ? <p className={css({ fontSize: 'xs', color: 'fg.muted' })}>{sub.description}</p> : null}
            </div>
          ))}
        </div>
      )}
    </Card>
  );
}

function normalize(map: Record<string, string[]>): Array<[string, string[]]> {
  return Object.entries(map)
    .filter(([, ids]) => ids.length > 0)
    .map(([k, ids]): [string, string[]] => [k, [...ids].sort()])
    .sort(([a], [b]) => a.localeCompare(b));
}
