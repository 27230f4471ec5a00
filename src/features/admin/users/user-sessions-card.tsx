import { useLingui } from '@lingui/react/macro';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { adminSessions } from '../../../../contract/routes-admin';
import { call } from '../../../api/call';
import { css } from 'styled-system/css';
import { SessionList } from '../../../components/session-list';
import { Card } from '../../../components/ui/card';
import { adminKeys } from '../api/keys';
import { useErrorText } from '../components/feedback';
import { useNotify } from '../components/notify';

/** Under the user's detail key: the page's "End sessions" (all) invalidates it with the user. */
export const userSessionsKey = (id: string) => [...adminKeys.user(id), 'sessions'] as const;

/** The user information page's "Sessions" card (issue 33): the user's live sessions; an admin ends one (audited). */
export function UserSessionsCard({ userId, titleId }: { userId: string; titleId: string }) {
  const { t } = useLingui();
  const qc = useQueryClient();
  const notify = useNotify();
  const errorText = useErrorText();
  const query = useQuery({ queryKey: userSessionsKey(userId), queryFn: () => call(adminSessions.listUserSessionsOfUser, { params: { id: userId } }).then((r) => r.data) });
  return (
    <Card title={t`Sessions`} titleId={titleId} description={t`Where this user is signed in now.`}>
      {/* a passive load: no status or alert role of its own (the page announces its own loading and errors) */}
      {query.isPending ? null : query.isError ? (
        <p className={css({ fontSize: 'sm', color: 'fg.muted' })}>{errorText(query.error)}</p>
      ) : (
        <SessionList
          own={false}
          sessions={query.data}
          onEnd={async (s) => {
            await call(adminSessions.endSessionOfUser, { params: { id: userId, session: s.id } });
            await qc.invalidateQueries({ queryKey: userSessionsKey(userId) });
          }}
          errorMessage={errorText}
          onEnded={(label) => notify.success(t`Session ended`, label)}
        />
      )}
    </Card>
  );
}
