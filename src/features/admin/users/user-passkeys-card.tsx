import { Trans, useLingui } from '@lingui/react/macro';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { css } from 'styled-system/css';
import type { PasskeyView } from '../../../../contract/passkeys';
import { isApiError } from '../../../api/errors';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { useRemoveUserPasskey, userPasskeysQueryOptions } from '../api/passkeys';
import { useErrorText } from '../components/feedback';
import { useFormat } from '../components/format';
import { useNotify } from '../components/notify';

const item = css({ display: 'flex', gap: '4', justifyContent: 'space-between', alignItems: 'flex-start', flexWrap: 'wrap', py: '3', borderTopWidth: '1px', borderColor: 'border.default', _first: { borderTopWidth: '0', pt: '0' } });
const muted = css({ fontSize: 'sm', color: 'fg.muted' });

/**
 * The user information page's "Passkeys" card (issue 33): the user's passkeys (GET /api/admin/users/:id/passkeys,
 * every admin role may call it, as it may open this page); an admin removes one that is lost or no longer trusted
 * after confirming (DELETE …/passkeys/:passkey, audited `user.passkey_removed`).
 */
export function UserPasskeysCard({ userId, titleId }: { userId: string; titleId: string }) {
  const { t } = useLingui();
  const fmt = useFormat();
  const notify = useNotify();
  const errorText = useErrorText();
  const query = useQuery(userPasskeysQueryOptions(userId));
  const remove = useRemoveUserPasskey(userId);
  const [removing, setRemoving] = useState<PasskeyView | null>(null);
  const [error, setError] = useState<string | null>(null);

  /** What kind of authenticator holds it, from the sign-in's amr (`kind`) and the backup-eligible flag. */
  const kindOf = (p: PasskeyView): string => (p.kind === 'hwk' ? t`Security key` : p.backup_eligible ? t`Synced passkey` : t`Passkey on one device`);

  /** A refusal in the words of this card where it says more than the console's general words. */
  const removeErrorText = (e: unknown): string => {
    if (isApiError(e) && e.code === 'passkey_not_found') return t`This passkey had already been removed.`;
    return errorText(e);
  };

  const confirm = () => {
    if (!removing) return;
    const name = removing.name;
    setError(null);
    remove.mutate(removing.id, {
      onSuccess: () => {
        notify.success(t`Passkey removed`, name);
        setRemoving(null);
      },
      onError: (e) => setError(removeErrorText(e)),
    });
  };

  return (
    <Card title={t`Passkeys`} titleId={titleId} description={t`Remove a passkey that is lost or no longer trusted: it stops working at once.`}>
      {/* a passive load like the sessions card: the page announces its own loading and errors */}
      {query.isPending ? null : query.isError ? (
        <p className={muted}>{errorText(query.error)}</p>
      ) : query.data.length === 0 ? (
        <p className={muted}>
          <Trans>This user has no passkeys.</Trans>
        </p>
      ) : (
        <ul aria-labelledby={titleId} className={css({ listStyle: 'none', p: '0', m: '0' })}>
          {query.data.map((p) => {
            const created = fmt.dateTime(p.created_at);
            const lastUsed = p.last_used_at ? fmt.dateTime(p.last_used_at) : null;
            return (
              <li key={p.id} className={item} data-passkey={p.id}>
                <div className={css({ minWidth: '0', display: 'flex', flexDirection: 'column', gap: '1' })}>
                  <p className={css({ fontWeight: 'medium', display: 'flex', gap: '2', alignItems: 'center', flexWrap: 'wrap', wordBreak: 'break-word' })}>
                    <span>{p.name}</span>
                    <Badge tone="info">{kindOf(p)}</Badge>
                  </p>
                  <p className={muted}>{lastUsed ? <Trans>Added {created} · Last used {lastUsed}</Trans> : <Trans>Added {created} · Never used</Trans>}</p>
                </div>
                <Button
                  variant="outline"
                  size="sm"
                  aria-label={t`Remove passkey: ${p.name}`}
                  onClick={() => {
                    setError(null);
                    setRemoving(p);
                  }}
                >
                  <Trans>Remove</Trans>
                </Button>
              </li>
            );
          })}
        </ul>
      )}
      <ConfirmDialog
        open={removing !== null}
        onOpenChange={(open) => {
          if (!open) setRemoving(null);
        }}
        title={t`Remove this passkey?`}
        description={removing ? t`“${removing.name}” can no longer be used to sign in. If a setting requires a passkey, the user registers a new one at their next sign-in.` : ''}
        confirmLabel={t`Remove passkey`}
        pending={remove.isPending}
        error={error}
        onConfirm={confirm}
      />
    </Card>
  );
}
