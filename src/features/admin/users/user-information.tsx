import { Trans, useLingui } from '@lingui/react/macro';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useMachine } from '@xstate/react';
import { useEffect, useId, useMemo, useState } from 'react';
import { css } from 'styled-system/css';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { DetailList } from '../../../components/ui/detail-list';
import { EmptyRow } from '../../../components/ui/empty-row';
import { ArrowLeftIcon, CheckCircleIcon, KeyIcon, LogOutIcon, MailIcon, PowerIcon } from '../../../components/ui/icons-more';
import { MultiSelect } from '../../../components/ui/multi-select';
import { SecretBox } from '../../../components/ui/secret-box';
import * as Table from '../../../components/ui/table';
import { TableFrame } from '../../../components/ui/table-frame';
import { apiKeyMachine, createApiKeyActors, type ApiKeyScreen } from '../../../../machines/apiKey.machine';
import { createInvitationResendActors, invitationResendMachine, type InvitationResendScreen } from '../../../../machines/invitationResend.machine';
import { call } from '../../../api/call';
import { inspectOptions } from '../../../lib/inspect';
import { useSsoProviderName } from '../api/config';
import { subscriptionsQueryOptions } from '../api/catalog';
import { adminKeys } from '../api/keys';
import type { UserDetail } from '../api/types';
import { useEndUserSessions, useUpdateUser, userQueryOptions, useVerifyUser } from '../api/users';
import { StateBadge } from '../components/state-badge';
import { adminErrorText, useErrorText } from '../components/feedback';
import { useNotify } from '../components/notify';
import { useFormat, useLanguageName } from '../components/format';

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
  const ids = { activity: useId(), account: useId(), subs: useId(), key: useId(), history: useId() };

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

function SubscriptionRoles({ user, canEdit, titleId }: { user: UserDetail; canEdit: boolean; titleId: string }) {
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

const INVITE_SCREENS: readonly InvitationResendScreen[] = ['screen:invite.ready', 'screen:invite.sent', 'screen:invite.failed'];

/** "Send invitation" again: the outcome beside the button, in its own words (machines/invitationResend.machine.ts). */
function InvitationButton({ user }: { user: UserDetail }) {
  const { t, i18n } = useLingui();
  const qc = useQueryClient();
  const machine = useMemo(
    () =>
      invitationResendMachine.provide({
        actors: createInvitationResendActors({ call }),
        actions: { userChanged: () => void qc.invalidateQueries({ queryKey: adminKeys.user(user.id) }) },
      }),
    [qc, user.id],
  );
  const [snapshot, send] = useMachine(machine, { ...inspectOptions(), input: { userId: user.id } });
  const screen = INVITE_SCREENS.find((tag) => snapshot.hasTag(tag));
  const busy = snapshot.hasTag('busy');
  const { error } = snapshot.context;
  // a verified user gets no invitation; a refusal saying so stays readable after the page reloads
  if (user.email_verified && screen !== 'screen:invite.failed') return null;
  return (
    <div data-screen={screen} className={css({ display: 'flex', flexDirection: 'column', alignItems: 'flex-end', gap: '1' })}>
      {snapshot.can({ type: 'RETRY' }) ? (
        <Button variant="outline" onClick={() => send({ type: 'RETRY' })}>
          <MailIcon />
          <Trans>Try again</Trans>
        </Button>
      ) : (
        <Button variant="outline" onClick={() => send({ type: 'SEND' })} disabled={!snapshot.can({ type: 'SEND' })} aria-busy={busy || undefined}>
          <MailIcon />
          <Trans>Send invitation</Trans>
        </Button>
      )}
      {screen === 'screen:invite.sent' ? (
        <span role="status" className={css({ fontSize: 'xs', color: 'fg.success' })}>
          {t`Invitation sent to ${user.email}`}
        </span>
      ) : null}
      {screen === 'screen:invite.failed' && error ? (
        <span role="alert" className={css({ fontSize: 'xs', color: 'fg.error', maxWidth: '64', textAlign: 'end' })}>
          {adminErrorText(i18n, error)}
        </span>
      ) : null}
    </div>
  );
}

/** A technical user's API key: generate (shown once), replace and revoke after confirming (machines/apiKey.machine.ts). */
function ApiKeyCard({ user, titleId }: { user: UserDetail; titleId: string }) {
  const { t, i18n } = useLingui();
  const fmt = useFormat();
  const qc = useQueryClient();
  const machine = useMemo(
    () =>
      apiKeyMachine.provide({
        actors: createApiKeyActors({ call }),
        actions: { keyChanged: () => void qc.invalidateQueries({ queryKey: adminKeys.user(user.id) }) },
      }),
    [qc, user.id],
  );
  const [snapshot, send] = useMachine(machine, { ...inspectOptions(), input: { userId: user.id, hasKey: user.has_api_key } });
  useEffect(() => {
    send({ type: 'KEY_STATUS', hasKey: user.has_api_key });
  }, [user.has_api_key, send]);
  const { key, hasKey, notice, error } = snapshot.context;
  const busy = snapshot.hasTag('busy');
  const screen: ApiKeyScreen = snapshot.hasTag('screen:apikey.shown') ? 'screen:apikey.shown' : 'screen:apikey.card';
  const events = user.api_key_events ?? [];
  return (
    <div data-screen={screen}>
      <Card
        title={t`API key`}
        titleId={titleId}
        description={hasKey ? t`This technical user has an API key. Generating a new one revokes the old key.` : t`Technical users call the API with a bearer API key.`}
        actions={
          <div className={css({ display: 'flex', gap: '2', flexWrap: 'wrap' })}>
            {hasKey ? (
              <Button variant="outline" onClick={() => send({ type: 'REVOKE' })} disabled={!snapshot.can({ type: 'REVOKE' })} aria-busy={busy || undefined}>
                <Trans>Revoke API key</Trans>
              </Button>
            ) : null}
            <Button onClick={() => send({ type: 'GENERATE' })} disabled={!snapshot.can({ type: 'GENERATE' })} aria-busy={busy || undefined}>
              <KeyIcon />
              <Trans>Generate API key</Trans>
            </Button>
          </div>
        }
      >
        {error ? (
          <p role="alert" className={css({ fontSize: 'sm', color: 'fg.error', bg: 'danger.50', borderRadius: 'md', px: '3', py: '2' })}>
            {adminErrorText(i18n, error)}
          </p>
        ) : null}
        {notice ? (
          <p role="status" className={css({ fontSize: 'sm', color: 'fg.success' })}>
            {notice === 'revoked' ? <Trans>API key revoked</Trans> : <Trans>This user had no API key</Trans>}
          </p>
        ) : null}
        {key ? (
          <div className={css({ display: 'flex', flexDirection: 'column', gap: '2' })}>
            <SecretBox label={t`New API key`} value={key} />
            <div>
              <Button variant="outline" onClick={() => send({ type: 'ACKNOWLEDGE' })}>
                <Trans>I have stored the key</Trans>
              </Button>
            </div>
          </div>
        ) : null}
        {user.api_key && hasKey && !key ? (
          <p className={css({ fontSize: 'sm', color: 'fg.muted' })} data-testid="api-key-current">
            {t`Current key iam_${user.api_key.prefix}_…, generated ${fmt.dateTime(user.api_key.created_at)}`}
          </p>
        ) : null}
        {events.length > 0 ? (
          <div className={css({ display: 'flex', flexDirection: 'column', gap: '2', mt: '3' })}>
            <h3 className={css({ fontSize: 'sm', fontWeight: 'semibold' })}>
              <Trans>Key history</Trans>
            </h3>
            <ul className={css({ display: 'flex', flexDirection: 'column', gap: '1', fontSize: 'sm' })} data-testid="api-key-events">
              {events.map((e) => {
                const keyName = e.key_prefix ? `iam_${e.key_prefix}_…` : '—';
                const who = e.actor_email ?? '—';
                const when = fmt.dateTime(e.created_at);
                return <li key={e.id}>{e.event === 'generated' ? t`${when}: ${keyName} generated by ${who}` : t`${when}: ${keyName} revoked by ${who}`}</li>;
              })}
            </ul>
          </div>
        ) : null}
      </Card>
      <ConfirmDialog
        open={snapshot.hasTag('screen:apikey.confirm-replace')}
        onOpenChange={(open) => (open ? undefined : send({ type: 'DISMISS' }))}
        screen="screen:apikey.confirm-replace"
        title={t`Generate a new API key?`}
        description={t`The current key stops working immediately.`}
        confirmLabel={t`Generate API key`}
        pending={busy}
        onConfirm={() => send({ type: 'CONFIRM' })}
      />
      <ConfirmDialog
        open={snapshot.hasTag('screen:apikey.confirm-revoke')}
        onOpenChange={(open) => (open ? undefined : send({ type: 'DISMISS' }))}
        screen="screen:apikey.confirm-revoke"
        title={t`Revoke the API key?`}
        description={t`Calls with this key stop working immediately. ${user.email} is told by e-mail.`}
        confirmLabel={t`Revoke API key`}
        pending={busy}
        onConfirm={() => send({ type: 'CONFIRM' })}
      />
    </div>
  );
}
