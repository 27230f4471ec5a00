import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { css } from 'styled-system/css';
import { sessions as endpoints } from '../../../../contract/routes';
import type { AccountKind } from '../../../api/account';
import { call } from '../../../api/call';
import { SessionList } from '../../../components/session-list';
import { Button } from '../../../components/ui/button';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { toaster } from '../../../components/ui/toaster';
import { apiErrorMessage } from '../error-words';
import { Section } from './section';

/** The calls of one kind of account (the same answers for both). */
const ofKind = (kind: AccountKind) =>
  kind === 'admin'
    ? {
        list: () => call(endpoints.listAdminSessions).then((r) => r.data),
        end: (session: string) => call(endpoints.endAdminSession, { params: { session } }),
        endOthers: () => call(endpoints.endOtherAdminSessions).then((r) => r.data.ended),
      }
    : {
        list: () => call(endpoints.listUserSessions).then((r) => r.data),
        end: (session: string) => call(endpoints.endUserSession, { params: { session } }),
        endOthers: () => call(endpoints.endOtherUserSessions).then((r) => r.data.ended),
      };

export const sessionsKey = (kind: AccountKind) => ['account', kind, 'sessions'] as const;

/** The profile's "Sessions" card (issue 33): the account's live sessions, "End session", "End all other sessions". */
export function SessionsSection({ kind }: { kind: AccountKind }) {
  const { t, i18n } = useLingui();
  const e = ofKind(kind);
  const qc = useQueryClient();
  const query = useQuery({ queryKey: sessionsKey(kind), queryFn: e.list });
  const [confirmOthers, setConfirmOthers] = useState(false);
  const refresh = () => qc.invalidateQueries({ queryKey: sessionsKey(kind) });
  const endOthers = useMutation({
    mutationFn: e.endOthers,
    onSuccess: (n) => {
      toaster.create({ type: 'success', title: i18n._(msg`Other sessions ended: ${n}`) });
      setConfirmOthers(false);
      return refresh();
    },
  });
  const others = (query.data ?? []).filter((s) => !s.current).length;
  return (
    <Section id="sessions" title={<Trans>Sessions</Trans>} description={<Trans>Where your account is signed in. End a session you do not recognise, then change your password.</Trans>}>
      {query.isPending ? null : query.isError ? (
        <p className={css({ fontSize: 'sm', color: 'fg.muted' })}>
          <Trans>An error occurred, please try again</Trans>
        </p>
      ) : (
        <div className={css({ display: 'flex', flexDirection: 'column', gap: '4' })}>
          <SessionList
            own
            sessions={query.data}
            onEnd={async (s) => {
              await e.end(s.id);
              await refresh();
            }}
            errorMessage={(err) => apiErrorMessage(i18n, err)}
            onEnded={(label) => toaster.create({ type: 'success', title: i18n._(msg`Session ended: ${label}`) })}
          />
          {others > 0 ? (
            <div>
              <Button variant="outline" onClick={() => setConfirmOthers(true)}>
                <Trans>End all other sessions</Trans>
              </Button>
            </div>
          ) : null}
        </div>
      )}
      <ConfirmDialog
        open={confirmOthers}
        onOpenChange={setConfirmOthers}
        title={t`End all other sessions?`}
        description={t`Every other browser and device signed in to your account is signed out, with the apps it signed in to. This browser stays signed in.`}
        confirmLabel={t`End all other sessions`}
        pending={endOthers.isPending}
        error={endOthers.isError ? apiErrorMessage(i18n, endOthers.error) : undefined}
        onConfirm={() => endOthers.mutate()}
      />
    </Section>
  );
}
