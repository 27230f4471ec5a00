import { Trans, useLingui } from '@lingui/react/macro';
import { useQueryClient } from '@tanstack/react-query';
import { useMachine } from '@xstate/react';
import { useMemo } from 'react';
import { css } from 'styled-system/css';
import { Button } from '../../../components/ui/button';
import { MailIcon } from '../../../components/ui/icons-more';
import { createInvitationResendActors, invitationResendMachine, type InvitationResendScreen } from '../../../../machines/invitationResend.machine';
import { call } from '../../../api/call';
import { inspectOptions } from '../../../lib/inspect';
import { adminKeys } from '../api/keys';
import type { UserDetail } from '../api/types';
import { adminErrorText } from '../components/feedback';

const INVITE_SCREENS: readonly InvitationResendScreen[] = ['screen:invite.ready', 'screen:invite.sent', 'screen:invite.failed'];

/** "Send invitation" again: the outcome beside the button, in its own words (machines/invitationResend.machine.ts). */
export function InvitationButton({ user }: { user: UserDetail }) {
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
