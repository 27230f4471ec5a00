import { UserPasskeysCard } from './user-passkeys-card';
import { UserSessionsCard } from './user-sessions-card';
import { Trans, useLingui } from '@lingui/react/macro';
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useId, useState } from 'react';
import { css } from 'styled-system/css';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { DetailList } from '../../../components/ui/detail-list';
import { EmptyRow } from '../../../components/ui/empty-row';
import { ArrowLeftIcon, CheckCircleIcon, LogOutIcon, PowerIcon } from '../../../components/ui/icons-more';
import * as Table from '../../../components/ui/table';
import { TableFrame } from '../../../components/ui/table-frame';
import { useSsoProviderName } from '../api/config';
import type { UserDetail } from '../api/types';
import { useEndUserSessions, useUpdateUser, userQueryOptions, useVerifyUser } from '../api/users';
import { StateBadge } from '../components/state-badge';
import { useErrorText } from '../components/feedback';
import { useNotify } from '../components/notify';
import { useFormat, useLanguageName } from '../components/format';
import { ApiKeyCard } from './api-key-card';
import { InvitationButton } from './invitation-button';
import { SubscriptionRoles } from './subscription-roles';

export function UserInformation({ id, canEditRoles }: { id: string; canEditRoles: boolean }) {
  const { t } = useLingui();
  const errorText = useErrorText();
  const user = useQuery(userQueryOptions(id));

  return (
    <div className={css({ display: 'flex', flexDirection: 'column', gap: '6' })}>
      <Link
        to="/admin/user-management"
        className={css({ display: 'inline-flex', alignItems: 'center', gap: '2', fontSize: 'sm', color: 'fg.muted', alignSelf: 'flex-start', borderRadius: 'md', _hover: { color: 'accent.text' }, _focusVisible: { outline: '2px solid', outlineColor: 'focusRing', outlineOffset: '2px' } })}
      >
        <ArrowLeftIcon />
        <Trans>Back to user management</Trans>
      </Link>
      {user.isPending ? (
        <div aria-busy="true" className={css({ display: 'flex', flexDirection: 'column', gap: '4' })}>
          <span className={css({ srOnly: true })}>{t`Loading…`}</span>
          {[120, 200, 160].map((h) => (
            <div key={h} style={{ height: h }} className={css({ bg: 'bg.muted', borderRadius: 'xl', animation: 'pulse 1.4s ease-in-out infinite' })} />
          ))}
        </div>
      ) : user.isError ? (
        <p role="alert" className={css({ color: 'fg.error' })}>
          {user.error && 'status' in user.error && user.error.status === 404 ? <Trans>This user does not exist.</Trans> : errorText(user.error)}
        </p>
      ) : (
        <UserDetailView user={user.data} canEditRoles={canEditRoles} />
      )}
    </div>
  );
}

function UserDetailView({ user, canEditRoles }: { user: UserDetail; canEditRoles: boolean }) {
  const { t } = useLingui();
  const providerName = useSsoProviderName();
  const fmt = useFormat();
  const languageName = useLanguageName();
  const notify = useNotify();
  const update = useUpdateUser(user.id);
  const verify = useVerifyUser();
  const endSessions = useEndUserSessions();
  const [confirmStatus, setConfirmStatus] = useState(false);
  const [confirmEnd, setConfirmEnd] = useState(false);
  const name = `${user.first_name} ${user.last_name}`.trim() || user.email;
  const latest = user.latest_activity;
  const active = user.status === 'ACTIVE';
  const ids = { activity: useId(), account: useId(), subs: useId(), key: useId(), history: useId(), sessions: useId(), passkeys: useId() };

  return (
    <>
      <div className={css({ display: 'flex', justifyContent: 'space-between', alignItems: 'flex-start', gap: '4', flexWrap: 'wrap' })}>
        <div className={css({ minWidth: '0' })}>
          <h1 className={css({ textStyle: 'pageTitle', wordBreak: 'break-word' })}>{name}</h1>
          <p className={css({ color: 'fg.muted', fontSize: 'sm', wordBreak: 'break-all' })}>{user.email}</p>
          <div className={css({ display: 'flex', gap: '2', mt: '2', flexWrap: 'wrap' })}>
            <StateBadge state={user.state} />
            {user.email_verified ? <Badge tone="info">{t`Verified`}</Badge> : <Badge tone="warning">{t`Not verified`}</Badge>}
            {user.technical ? <Badge tone="info">{t`Technical`}</Badge> : null}
          </div>
        </div>
        <div className={css({ display: 'flex', gap: '2', flexWrap: 'wrap' })}>
          {user.auth_type === 'CREDENTIALS' ? <InvitationButton user={user} /> : null}
          {!user.email_verified ? (
            <Button variant="outline" onClick={() => verify.mutate(user.id, { onSuccess: () => notify.success(t`User verified`, user.email), onError: (e) => notify.error(e) })} disabled={verify.isPending}>
              <CheckCircleIcon />
              <Trans>Verify manually</Trans>
            </Button>
          ) : null}
          <Button variant="outline" onClick={() => setConfirmEnd(true)}>
            <LogOutIcon />
            <Trans>End sessions</Trans>
          </Button>
          <Button variant={active ? 'outline' : 'solid'} onClick={() => setConfirmStatus(true)}>
            <PowerIcon />
            {active ? <Trans>Deactivate</Trans> : <Trans>Activate</Trans>}
          </Button>
        </div>
      </div>

      <div className={css({ display: 'grid', gridTemplateColumns: { base: '1fr', xl: '1fr 1fr' }, gap: '6', alignItems: 'start' })}>
        <Card title={t`Latest activity`} titleId={ids.activity}>
          {latest ? (
            <DetailList
              items={[
                { key: 'in', label: t`Logged in at`, value: fmt.dateTime(latest.logged_in_at) },
                { key: 'out', label: t`Logged out at`, value: fmt.dateTime(latest.logged_out_at) },
                { key: 'ip', label: t`IP address`, value: latest.ip_address ?? '—' },
                { key: 'origin', label: t`Origin`, value: latest.origin ?? '—' },
              ]}
            />
          ) : (
            <p className={css({ fontSize: 'sm', color: 'fg.muted' })}>
              <Trans>This user has not signed in yet.</Trans>
            </p>
          )}
        </Card>
        <Card title={t`Account`} titleId={ids.account}>
          <DetailList
            items={[
              { key: 'auth', label: t`Auth type`, value: user.auth_type === 'SSO' ? 'SSO' : t`Credentials` },
              { key: 'provider', label: t`Provider`, value: user.provider ? providerName(user.provider) : '—' },
              { key: 'locale', label: t`Language`, value: languageName(user.locale) },
              { key: 'phone', label: t`Phone`, value: user.phone ?? '—' },
              { key: 'created', label: t`Created at`, value: fmt.dateTime(user.created_at) },
              { key: 'updated', label: t`Updated at`, value: fmt.dateTime(user.updated_at) },
              { key: 'by', label: t`Created by`, value: user.created_by_admin ? user.created_by_admin.email : '—' },
              { key: '2fa', label: t`Two-factor authentication`, value: user.two_factor.enabled ? (user.two_factor.method === 'SMS' ? t`SMS` : t`Authenticator app`) : t`Off` },
            ]}
          />
        </Card>
      </div>

      <SubscriptionRoles user={user} canEdit={canEditRoles} titleId={ids.subs} />

      {user.technical ? <ApiKeyCard user={user} titleId={ids.key} /> : null}

      <UserSessionsCard userId={user.id} titleId={ids.sessions} />

      <UserPasskeysCard userId={user.id} titleId={ids.passkeys} />

      <Card title={t`Recent sign-ins`} titleId={ids.history}>
        <TableFrame label={t`Recent sign-ins`}>
          <Table.Root>
            <Table.Head>
              <Table.Row>
                <Table.Header>{t`Logged in at`}</Table.Header>
                <Table.Header>{t`Logged out at`}</Table.Header>
                <Table.Header>{t`IP address`}</Table.Header>
                <Table.Header>{t`Origin`}</Table.Header>
              </Table.Row>
            </Table.Head>
            <Table.Body>
              {(user.user_authentication_activities ?? []).length === 0 ? (
                <EmptyRow columns={4}>
                  <Trans>No sign-ins yet</Trans>
                </EmptyRow>
              ) : (
                (user.user_authentication_activities ?? []).slice(0, 10).map((a) => (
                  <Table.Row key={a.id}>
                    <Table.Cell>{fmt.dateTime(a.logged_in_at)}</Table.Cell>
                    <Table.Cell>{fmt.dateTime(a.logged_out_at)}</Table.Cell>
                    <Table.Cell>{a.ip_address ?? '—'}</Table.Cell>
                    <Table.Cell>{a.origin ?? '—'}</Table.Cell>
                  </Table.Row>
                ))
              )}
            </Table.Body>
          </Table.Root>
        </TableFrame>
      </Card>

      <ConfirmDialog
        open={confirmEnd}
        onOpenChange={setConfirmEnd}
        title={t`End sessions`}
        description={t`${user.email} is signed out everywhere: in the portal and in every service app (apps with a back-channel logout address are told). They can sign in again.`}
        confirmLabel={t`End sessions`}
        pending={endSessions.isPending}
        onConfirm={() =>
          endSessions.mutate(user.id, {
            onSuccess: () => {
              notify.success(t`Sessions ended`, user.email);
              setConfirmEnd(false);
            },
            onError: (e) => notify.error(e),
          })
        }
      />
      <ConfirmDialog
        open={confirmStatus}
        onOpenChange={setConfirmStatus}
        title={active ? t`Deactivate user` : t`Activate user`}
        description={active ? t`${user.email} can no longer sign in and their sessions end.` : t`${user.email} can sign in again.`}
        confirmLabel={active ? t`Deactivate` : t`Activate`}
        pending={update.isPending}
        onConfirm={() =>
          update.mutate(
            { status: active ? 'INACTIVE' : 'ACTIVE' },
            {
              onSuccess: () => {
                notify.success(active ? t`User deactivated` : t`User activated`, user.email);
                setConfirmStatus(false);
              },
              onError: (e) => notify.error(e),
            },
          )
        }
      />
    </>
  );
}
