import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { useQuery } from '@tanstack/react-query';
import { css } from 'styled-system/css';
import { Card } from '../../../components/ui/card';
import { SimpleSelect } from '../../../components/ui/simple-select-lazy';
import * as Table from '../../../components/ui/table';
import { Toolbar } from '../../../components/ui/toolbar';
import { auditQueryOptions } from '../api/logs';
import { useFormat } from '../components/format';
import { QueryTable } from '../components/query-rows';
import { LogPagination } from './log-pagination';
import { auditFilters, type DashboardSearch } from './search';

/**
 * The audited actions (server/services: recordAudit) in the admin's words; an action not listed shows its code
 * (tests/spa/admin-audit.test.tsx: every action the server records under a literal name has words here).
 */
export const ACTION_LABELS: Record<string, MessageDescriptor> = {
  'admin.create': msg`Admin created`,
  'admin.role_change': msg`Admin role changed`,
  'invitation.sent': msg`Invitation sent`,
  'lock.cleared': msg`Lock cleared`,
  'passkey.counter_regression': msg`Passkey refused: its counter went back (a cloned authenticator?)`,
  'passkey.registered': msg`Passkey added`,
  'passkey.removed': msg`Passkey removed by its owner`,
  'passkey.renamed': msg`Passkey renamed`,
  'role.create': msg`Role created`,
  'role.delete': msg`Role deleted`,
  'role.update': msg`Role changed`,
  'service_app.create': msg`Service app created`,
  'service_app.delete': msg`Service app deleted`,
  'service_app.update': msg`Service app changed`,
  'settings.second_factor': msg`Second-factor requirement changed`,
  'subscription.create': msg`Subscription created`,
  'subscription.delete': msg`Subscription deleted`,
  'subscription.update': msg`Subscription changed`,
  'user.api_key_generated': msg`API key generated`,
  'user.api_key_revoked': msg`API key revoked`,
  'user.create': msg`User created`,
  'user.import': msg`Users imported`,
  'user.import_cancel': msg`User import cancelled`,
  'user.passkey_removed': msg`Passkey removed by an admin`,
  'user.password_set': msg`Password set by an admin`,
  'user.sessions_ended': msg`Sessions ended by an admin`,
  'user.session_ended': msg`Session ended`,
  'user.other_sessions_ended': msg`Other sessions ended by the user`,
  'admin.session_ended': msg`Admin session ended`,
  'admin.other_sessions_ended': msg`Other sessions ended by the admin`,
  'user.update': msg`User changed`,
  'user.verified_manually': msg`User verified manually`,
};

const ALL_ACTIONS = 'all';

/**
 * The audit trail of admin changes (GET /api/admin/audit, super_admin only): who did what to which target, from which
 * address and when, newest first, e.g. every lock a manager or super_admin cleared (`lock.cleared`, the key as target).
 * Targets, e-mails and addresses are data: shown as text, never translated.
 */
export function AuditCard({ search, update, titleId }: { search: DashboardSearch; update: (patch: Partial<DashboardSearch>) => void; titleId: string }) {
  const { t, i18n } = useLingui();
  const fmt = useFormat();
  const filters = auditFilters(search);
  const q = useQuery(auditQueryOptions(filters));
  const rows = q.data?.data ?? [];
  const label = (action: string) => {
    const known = ACTION_LABELS[action];
    return known ? i18n._(known) : null;
  };
  return (
    <Card title={t`Audit trail`} titleId={titleId} description={t`Changes made by admins (who, what, when), newest first.`}>
      <Toolbar>
        <SimpleSelect
          label={t`Action`}
          size="sm"
          value={filters.action ?? ALL_ACTIONS}
          onValueChange={(v) => update({ u_action: v === ALL_ACTIONS ? undefined : v, u_page: undefined })}
          options={[{ value: ALL_ACTIONS, label: t`All actions` }, ...Object.keys(ACTION_LABELS).map((action) => ({ value: action, label: label(action) ?? action }))]}
        />
      </Toolbar>
      <QueryTable
        label={t`Audit trail`}
        query={q}
        items={rows}
        columns={5}
        empty={filters.action ? <Trans>No results for given search</Trans> : <Trans>No changes recorded</Trans>}
        headers={
          <>
            <Table.Header>{t`Action`}</Table.Header>
            <Table.Header>{t`Target`}</Table.Header>
            <Table.Header>{t`Admin`}</Table.Header>
            <Table.Header>{t`IP address`}</Table.Header>
            <Table.Header>{t`Timestamp`}</Table.Header>
          </>
        }
      >
        {(e) => (
          <Table.Row key={e.id}>
            <Table.Cell>
              <span>{label(e.action) ?? e.action}</span>
              <span className={css({ display: 'block', fontFamily: 'mono', fontSize: 'xs', color: 'fg.muted' })} translate="no">
                {e.action}
              </span>
            </Table.Cell>
            <Table.Cell className={css({ fontFamily: 'mono', fontSize: 'xs', maxWidth: '80', overflowWrap: 'anywhere' })} translate="no">
              {e.target_type}
              {e.target_id ? ` · ${e.target_id}` : ''}
            </Table.Cell>
            <Table.Cell translate="no">{e.actor_email ?? t`System`}</Table.Cell>
            <Table.Cell className={css({ fontFamily: 'mono', fontSize: 'xs' })}>{e.ip_address ?? '—'}</Table.Cell>
            <Table.Cell className={css({ whiteSpace: 'nowrap' })}>{fmt.dateTime(e.created_at)}</Table.Cell>
          </Table.Row>
        )}
      </QueryTable>
      <LogPagination meta={q.data?.meta} onPage={(u_page) => update({ u_page })} onSize={(u_size) => update({ u_size, u_page: undefined })} />
    </Card>
  );
}
