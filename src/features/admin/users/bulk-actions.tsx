import { Trans, useLingui } from '@lingui/react/macro';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { css } from 'styled-system/css';
import type { BulkResult, BulkUserAction } from '../../../../contract/admin/users';
import { Button } from '../../../components/ui/button';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { SimpleSelect } from '../../../components/ui/simple-select';
import { subscriptionsQueryOptions } from '../api/catalog';
import type { Account } from '../api/types';
import { useBulkUsers } from '../api/users';
import { errorCodeMessage } from '../components/feedback';
import { useNotify } from '../components/notify';

/**
 * The bar above the user list once users are selected: one action for all of them (send invitation, deactivate,
 * delete, assign a subscription with all its roles), a progress bar while it runs and the outcome of every row.
 */
export function BulkActions({ selected, onClear, canAssign }: { selected: Account[]; onClear: () => void; canAssign: boolean }) {
  const { t, i18n } = useLingui();
  const notify = useNotify();
  const bulk = useBulkUsers();
  const subscriptions = useQuery({ ...subscriptionsQueryOptions(), enabled: canAssign });
  const [action, setAction] = useState<BulkUserAction>('invite');
  const [subscriptionId, setSubscriptionId] = useState<string | undefined>(undefined);
  const [confirming, setConfirming] = useState(false);
  const [progress, setProgress] = useState<{ done: number; total: number } | null>(null);
  const [outcome, setOutcome] = useState<{ results: BulkResult[]; emails: Map<string, string> } | null>(null);

  const labels: Record<BulkUserAction, string> = {
    invite: t`Send invitation`,
    deactivate: t`Deactivate`,
    delete: t`Delete`,
    assign_subscription: t`Assign subscription`,
  };
  const subscription = (subscriptions.data?.data ?? []).find((s) => s.id === subscriptionId);
  const ready = selected.length > 0 && (action !== 'assign_subscription' || Boolean(subscription?.roles.length));

  const run = () => {
    const emails = new Map(selected.map((u) => [u.id, u.email]));
    const ids = selected.map((u) => u.id);
    setProgress({ done: 0, total: ids.length });
    setOutcome(null);
    bulk.mutate(
      {
        input: { action, ids, ...(action === 'assign_subscription' && subscription ? { subscription_id: subscription.id, role_ids: subscription.roles.map((r) => r.id) } : {}) },
        onProgress: (done, results) => {
          setProgress({ done, total: ids.length });
          setOutcome({ results, emails });
        },
      },
      {
        onSuccess: () => {
          setConfirming(false);
          onClear();
        },
        onError: (error) => {
          setConfirming(false);
          notify.error(error);
        },
      },
    );
  };

  const succeeded = outcome?.results.filter((r) => r.ok).length ?? 0;
  return (
    <div data-testid="bulk-actions" className={css({ display: 'flex', flexDirection: 'column', gap: '2' })}>
      {selected.length > 0 ? (
        <div className={css({ display: 'flex', gap: '2', alignItems: 'flex-end', flexWrap: 'wrap' })}>
          <span className={css({ fontSize: 'sm', fontWeight: 'medium', alignSelf: 'center' })}>{t`${selected.length} selected`}</span>
          <SimpleSelect
            label={t`Bulk action`}
            size="sm"
            value={action}
            onValueChange={(v) => setAction(v as BulkUserAction)}
            options={(['invite', 'deactivate', 'delete', ...(canAssign ? ['assign_subscription' as const] : [])] as BulkUserAction[]).map((a) => ({ value: a, label: labels[a] }))}
          />
          {action === 'assign_subscription' ? (
            <SimpleSelect
              label={t`Subscription`}
              size="sm"
              value={subscriptionId}
              onValueChange={setSubscriptionId}
              placeholder={t`Select a subscription`}
              options={(subscriptions.data?.data ?? []).map((s) => ({ value: s.id, label: s.name }))}
            />
          ) : null}
          <Button size="sm" disabled={!ready || bulk.isPending} onClick={() => setConfirming(true)}>
            <Trans>Apply</Trans>
          </Button>
          <Button size="sm" variant="ghost" onClick={onClear} disabled={bulk.isPending}>
            <Trans>Clear selection</Trans>
          </Button>
        </div>
      ) : null}
      {progress ? (
        <div className={css({ display: 'flex', gap: '2', alignItems: 'center', fontSize: 'sm' })}>
          <progress max={progress.total} value={progress.done} aria-label={t`Bulk action progress`} />
          <span aria-live="polite">{t`${progress.done} of ${progress.total} done`}</span>
        </div>
      ) : null}
      {outcome ? (
        <details open={outcome.results.some((r) => !r.ok)} data-testid="bulk-results">
          <summary className={css({ fontSize: 'sm', cursor: 'pointer' })}>{t`${succeeded} succeeded, ${outcome.results.length - succeeded} failed`}</summary>
          <ul className={css({ fontSize: 'sm', mt: '1', display: 'flex', flexDirection: 'column', gap: '0.5' })}>
            {outcome.results.map((r) => (
              <li key={r.id} data-ok={r.ok}>
                {outcome.emails.get(r.id) ?? r.id}: {r.ok ? t`Done` : errorCodeMessage(i18n, r.code ?? 'internal_error')}
              </li>
            ))}
          </ul>
        </details>
      ) : null}
      <ConfirmDialog
        open={confirming}
        onOpenChange={(open) => {
          if (!open && !bulk.isPending) setConfirming(false);
        }}
        title={labels[action]}
        description={t`Apply "${labels[action]}" to ${selected.length} users? Each user is changed entirely or not at all.`}
        confirmLabel={t`Apply`}
        pending={bulk.isPending}
        onConfirm={run}
      />
    </div>
  );
}
