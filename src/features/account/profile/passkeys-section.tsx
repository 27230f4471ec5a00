/**
 * The profile's "Passkeys" card (issue 33): the account's passkeys (name, kind, added, last used), rename, remove
 * (asks first), and "Add a passkey", driven by the passkey registration machine (profile mode). docs/ACCOUNT-SECURITY.md
 * "Passkeys".
 */
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useMachine } from '@xstate/react';
import { useMemo, useState, type FormEvent } from 'react';
import { css } from 'styled-system/css';
import type { PasskeyView } from '../../../../contract/passkeys';
import { passkeys as endpoints } from '../../../../contract/routes';
import {
  createPasskeyRegistrationActors,
  PASSKEY_REGISTRATION_SCREENS,
  passkeyRegistrationMachine,
  type PasskeyRegistrationMachine,
} from '../../../../machines/passkeyRegistration.machine';
import type { AccountKind } from '../../../api/account';
import { call } from '../../../api/call';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { TextField } from '../../../components/ui/text-field';
import { toaster } from '../../../components/ui/toaster';
import { inspectOptions } from '../../../lib/inspect';
import { cancelPasskeyCeremony, createPasskey, passkeysSupported } from '../../../lib/webauthn';
import { accountErrorText, apiErrorMessage } from '../error-words';
import { FormAlert, formStack, mutedText } from '../form-kit';
import { useDefaultPasskeyName } from '../passkeys/default-name';
import { PasskeyRegistrationView, usePasskeyNameError } from '../passkeys/passkey-registration-view';
import { Section } from './section';

export const passkeysKey = (kind: AccountKind) => ['account', kind, 'passkeys'] as const;

const item = css({ display: 'flex', gap: '4', justifyContent: 'space-between', alignItems: 'flex-start', flexWrap: 'wrap', py: '3', borderTopWidth: '1px', borderColor: 'border.default', _first: { borderTopWidth: '0', pt: '0' } });

export function PasskeysSection({ kind, machineOverride }: { kind: AccountKind; machineOverride?: PasskeyRegistrationMachine }) {
  const { t, i18n } = useLingui();
  const qc = useQueryClient();
  const query = useQuery({ queryKey: passkeysKey(kind), queryFn: () => call(endpoints.listPasskeys).then((r) => r.data) });
  const refresh = () => qc.invalidateQueries({ queryKey: passkeysKey(kind) });
  const defaultName = useDefaultPasskeyName();
  const real = useMemo(
    () =>
      passkeyRegistrationMachine.provide({
        actors: createPasskeyRegistrationActors({ call, createPasskey }),
        actions: { cancelCeremony: () => void cancelPasskeyCeremony() },
      }),
    [],
  );
  const [snapshot, send] = useMachine(
    (machineOverride ?? real).provide({ actions: { passkeyAdded: () => void refresh() } }),
    { ...inspectOptions(), input: { mode: 'profile', defaultName } },
  );
  const screen = PASSKEY_REGISTRATION_SCREENS.find((tag) => snapshot.hasTag(tag)) ?? 'screen:passkey-add.card';
  const { context } = snapshot;
  const addedName = context.added?.name ?? null;
  const [removing, setRemoving] = useState<PasskeyView | null>(null);
  const removingName = removing?.name ?? null;
  const [renaming, setRenaming] = useState<string | null>(null);
  const remove = useMutation({
    mutationFn: (id: string) => call(endpoints.deletePasskey, { params: { id } }),
    onSuccess: (_, id) => {
      const name = query.data?.find((p) => p.id === id)?.name ?? '';
      toaster.create({ type: 'success', title: i18n._(msg`Passkey removed: ${name}`) });
      setRemoving(null);
      return refresh();
    },
  });
  const supported = passkeysSupported();
  const dates = useMemo(() => {
    const f = new Intl.DateTimeFormat(i18n.locale || 'en', { dateStyle: 'medium', timeStyle: 'short' });
    return (iso: string) => f.format(new Date(iso));
  }, [i18n.locale]);

  const list = query.isPending ? null : query.isError ? (
    <p className={mutedText}>
      <Trans>An error occurred, please try again</Trans>
    </p>
  ) : query.data.length === 0 ? (
    <p className={mutedText}>
      <Trans>No passkeys yet. A passkey signs you in with your fingerprint, face, screen lock or security key, without a password.</Trans>
    </p>
  ) : (
    <ul aria-label={t`Passkeys`} className={css({ listStyle: 'none', p: '0', m: '0' })}>
      {query.data.map((p) => {
        const added = dates(p.created_at);
        const name = p.name;
        const used = p.last_used_at ? dates(p.last_used_at) : null;
        return renaming === p.id ? (
          <li key={p.id} className={item} data-passkey={p.id}>
            <RenameForm passkey={p} kind={kind} onDone={() => setRenaming(null)} />
          </li>
        ) : (
          <li key={p.id} className={item} data-passkey={p.id}>
            <div className={css({ minWidth: '0', display: 'flex', flexDirection: 'column', gap: '1' })}>
              <p className={css({ fontWeight: 'medium', display: 'flex', gap: '2', alignItems: 'center', flexWrap: 'wrap' })}>
                <span>{p.name}</span>
                <Badge tone="neutral">{p.backup_eligible ? t`Synced passkey` : t`Security key`}</Badge>
              </p>
              <p className={mutedText}>
                {used ? (
                  <Trans>
                    Added {added} · Last used {used}
                  </Trans>
                ) : (
                  <Trans>Added {added} · Never used</Trans>
                )}
              </p>
            </div>
            <div className={css({ display: 'flex', gap: '2', flexWrap: 'wrap' })}>
              <Button variant="outline" size="sm" aria-label={t`Rename passkey: ${name}`} onClick={() => setRenaming(p.id)}>
                <Trans>Rename</Trans>
              </Button>
              <Button
                variant="outline"
                size="sm"
                aria-label={t`Remove passkey: ${name}`}
                onClick={() => {
                  remove.reset();
                  setRemoving(p);
                }}
              >
                <Trans>Remove</Trans>
              </Button>
            </div>
          </li>
        );
      })}
    </ul>
  );

  return (
    <Section
      id="passkeys"
      screen={screen === 'screen:passkey-add.card' || screen === 'screen:passkey-add.added' ? screen : undefined}
      title={<Trans>Passkeys</Trans>}
      description={<Trans>Sign in without a password, with your fingerprint, face, screen lock or a security key. A passkey also counts as your second factor.</Trans>}
    >
      <div className={css({ display: 'flex', flexDirection: 'column', gap: '4' })}>
        {list}
        {screen === 'screen:passkey-add.added' && addedName !== null ? (
          <div className={formStack}>
            <FormAlert tone="success">
              <Trans>Passkey added: {addedName}</Trans>
            </FormAlert>
            <div>
              <Button variant="outline" onClick={() => send({ type: 'DISMISS' })}>
                <Trans>Done</Trans>
              </Button>
            </div>
          </div>
        ) : null}
        {screen === 'screen:passkey-add.name' || screen === 'screen:passkey-add.prompt' ? (
          <PasskeyRegistrationView screen={screen} loading={snapshot.hasTag('loading')} name={context.name} error={context.error} cancellable send={send} />
        ) : null}
        {/* after "Passkey added" the person may add another one at once (START), or close the notice (Done) */}
        {screen === 'screen:passkey-add.card' || screen === 'screen:passkey-add.added' ? (
          <div className={formStack}>
            {context.error && screen === 'screen:passkey-add.card' ? <FormAlert focus={false}>{accountErrorText(i18n, context.error)}</FormAlert> : null}
            {supported ? (
              <div>
                <Button variant="outline" onClick={() => send({ type: 'START' })}>
                  <Trans>Add a passkey</Trans>
                </Button>
              </div>
            ) : (
              <p className={mutedText}>
                <Trans>This browser cannot create passkeys. Use a current browser on this site's address to add one.</Trans>
              </p>
            )}
          </div>
        ) : null}
      </div>
      <ConfirmDialog
        open={removing !== null}
        onOpenChange={(open) => {
          if (!open) setRemoving(null);
        }}
        title={t`Remove this passkey?`}
        description={removingName !== null ? t`"${removingName}" can no longer sign in to your account. Remove it from the device as well.` : ''}
        confirmLabel={t`Remove passkey`}
        pending={remove.isPending}
        error={remove.isError ? apiErrorMessage(i18n, remove.error) : undefined}
        onConfirm={() => removing && remove.mutate(removing.id)}
      />
    </Section>
  );
}

function RenameForm({ passkey, kind, onDone }: { passkey: PasskeyView; kind: AccountKind; onDone: () => void }) {
  const { t, i18n } = useLingui();
  const qc = useQueryClient();
  const [name, setName] = useState(passkey.name);
  const [local, setLocal] = useState<string | null>(null);
  const nameError = usePasskeyNameError();
  const rename = useMutation({
    mutationFn: (value: string) => call(endpoints.renamePasskey, { params: { id: passkey.id }, body: { name: value } }),
    onSuccess: async () => {
      toaster.create({ type: 'success', title: i18n._(msg`Passkey renamed`) });
      await qc.invalidateQueries({ queryKey: passkeysKey(kind) });
      onDone();
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const invalid = nameError(name);
    setLocal(invalid);
    if (!invalid) rename.mutate(name.trim());
  };
  const error = local ?? (rename.isError ? apiErrorMessage(i18n, rename.error) : null);
  return (
    <form noValidate onSubmit={submit} className={css({ display: 'flex', flexDirection: 'column', gap: '3', width: 'full' })}>
      <TextField label={t`Name`} name="passkey_rename" value={name} maxLength={64} autoFocus errorText={error ?? undefined} disabled={rename.isPending} onChange={(e) => setName(e.target.value)} />
      <div className={css({ display: 'flex', gap: '2' })}>
        <Button type="submit" size="sm" disabled={rename.isPending} aria-busy={rename.isPending}>
          <Trans>Save</Trans>
        </Button>
        <Button variant="outline" size="sm" onClick={onDone}>
          <Trans>Cancel</Trans>
        </Button>
      </div>
    </form>
  );
}
