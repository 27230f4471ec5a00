import { zodResolver } from '@hookform/resolvers/zod';
import { Trans, useLingui } from '@lingui/react/macro';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { css } from 'styled-system/css';
import { z } from 'zod';
import { SERVICE_PATH_RE } from '../../../../contract/domain/formats';
import { isApiError } from '../../../api/errors';
import { PageHeading } from '../../../components/page-heading';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import * as Dialog from '../../../components/ui/dialog';
import { DialogClose } from '../../../components/ui/dialog-close';
import { DialogFooter } from '../../../components/ui/dialog-footer';
import { PlusIcon } from '../../../components/ui/icons';
import { MultiSelect } from '../../../components/ui/multi-select';
import { SecretBox } from '../../../components/ui/secret-box';
import { raiseWhenOpen } from '../../../components/ui/select';
import { SimpleSelect } from '../../../components/ui/simple-select';
import { Switch } from '../../../components/ui/switch';
import * as Table from '../../../components/ui/table';
import { TableFrame } from '../../../components/ui/table-frame';
import { applyServerFieldErrors } from '../../../lib/field-errors';
import { rolesQueryOptions, serviceAppsQueryOptions, useServiceAppMutations, type ServiceAppInput } from '../api/catalog';
import type { ServiceApp } from '../api/types';
import { useNotify } from '../components/feedback';
import { FormField } from '../components/form';
import { QueryRows } from '../components/query-rows';
import { RowActions } from './roles-page';
import { ConnectIcon, ServiceAppIntegration } from './service-app-integration';

const COLUMNS = 5;

export function ServiceAppsPage() {
  const { t } = useLingui();
  const notify = useNotify();
  const apps = useQuery(serviceAppsQueryOptions());
  const { remove } = useServiceAppMutations();
  const [editing, setEditing] = useState<ServiceApp | 'new' | null>(null);
  const [toDelete, setToDelete] = useState<ServiceApp | null>(null);
  const [secret, setSecret] = useState<{ name: string; value: string } | null>(null);
  const [connecting, setConnecting] = useState<ServiceApp | null>(null);
  const rows = apps.data?.data ?? [];

  return (
    <>
      <PageHeading
        actions={
          <Button onClick={() => setEditing('new')}>
            <PlusIcon />
            <Trans>Add service app</Trans>
          </Button>
        }
      >
        <Trans>Service apps</Trans>
      </PageHeading>
      <Card>
        <TableFrame label={t`Service apps`} busy={apps.isFetching && !apps.isPending}>
          <Table.Root>
            <Table.Head>
              <Table.Row>
                <Table.Header>{t`Name`}</Table.Header>
                <Table.Header>{t`Address`}</Table.Header>
                <Table.Header>{t`Client type`}</Table.Header>
                <Table.Header>{t`Allowed roles`}</Table.Header>
                <Table.Header className={css({ textAlign: 'end' })}>{t`Actions`}</Table.Header>
              </Table.Row>
            </Table.Head>
            <Table.Body>
              <QueryRows query={apps} items={rows} columns={COLUMNS} skeletonRows={3} empty={<Trans>No service apps yet. Add the first one.</Trans>}>
                {(app) => (
                  <Table.Row key={app.id} data-testid="service-app-row">
                    <Table.Cell>
                      <div className={css({ display: 'flex', flexDirection: 'column' })}>
                        <span className={css({ fontWeight: 'medium' })}>{app.display_name}</span>
                        <span className={css({ color: 'fg.muted', fontSize: 'xs', fontFamily: 'mono' })}>{app.name}</span>
                      </div>
                    </Table.Cell>
                    <Table.Cell className={css({ fontSize: 'xs', fontFamily: 'mono', wordBreak: 'break-all' })}>
                      {app.url}
                      {app.path}
                    </Table.Cell>
                    <Table.Cell>{app.client_type === 'confidential' ? <Badge tone="warning">{t`Confidential`}</Badge> : <Badge>{t`Public (PKCE)`}</Badge>}</Table.Cell>
                    <Table.Cell>
                      <div className={css({ display: 'flex', gap: '1', flexWrap: 'wrap' })}>
                        {app.roles.length === 0 ? <span className={css({ color: 'fg.subtle' })}>—</span> : app.roles.map((r) => <Badge key={r.id} tone="info">{r.name}</Badge>)}
                      </div>
                    </Table.Cell>
                    <Table.Cell>
                      <div className={css({ display: 'flex', gap: '1', justifyContent: 'flex-end' })}>
                        <Button variant="ghost" size="sm" aria-label={t`Connect ${app.display_name}`} title={t`Discovery URL and set-ups`} onClick={() => setConnecting(app)}>
                          <ConnectIcon />
                        </Button>
                        <RowActions name={app.display_name} onEdit={() => setEditing(app)} onDelete={() => setToDelete(app)} />
                      </div>
                    </Table.Cell>
                  </Table.Row>
                )}
              </QueryRows>
            </Table.Body>
          </Table.Root>
        </TableFrame>
      </Card>
      <Dialog.Root open={editing !== null} onOpenChange={(d) => !d.open && setEditing(null)} lazyMount unmountOnExit>
        <Dialog.Panel className={css({ maxWidth: 'lg' })}>
          {editing !== null ? (
            <ServiceAppForm
              app={editing === 'new' ? null : editing}
              onDone={(saved) => {
                setEditing(null);
                if (saved?.client_secret) setSecret({ name: saved.display_name, value: saved.client_secret });
              }}
            />
          ) : null}
        </Dialog.Panel>
      </Dialog.Root>
      <Dialog.Root open={secret !== null} onOpenChange={(d) => !d.open && setSecret(null)} lazyMount unmountOnExit>
        <Dialog.Panel className={css({ maxWidth: 'lg' })}>
          <Dialog.Title>
            <Trans>Client secret</Trans>
          </Dialog.Title>
          <Dialog.Description>{secret ? t`The client secret of ${secret.name}. Store it in the app's configuration.` : ''}</Dialog.Description>
          <DialogClose />
          {secret ? <SecretBox label={t`Client secret`} value={secret.value} /> : null}
          <DialogFooter>
            <Button onClick={() => setSecret(null)}>
              <Trans>Done</Trans>
            </Button>
          </DialogFooter>
        </Dialog.Panel>
      </Dialog.Root>
      <Dialog.Root open={connecting !== null} onOpenChange={(d) => !d.open && setConnecting(null)} lazyMount unmountOnExit>
        <Dialog.Panel className={css({ maxWidth: '3xl' })}>
          <Dialog.Title>{connecting ? t`Connect ${connecting.display_name}` : ''}</Dialog.Title>
          <Dialog.Description>
            <Trans>Give these values to the app's developers. Stock OpenID Connect software works with them unchanged.</Trans>
          </Dialog.Description>
          <DialogClose />
          {connecting ? <ServiceAppIntegration app={connecting} /> : null}
          <DialogFooter>
            <Button onClick={() => setConnecting(null)}>
              <Trans>Done</Trans>
            </Button>
          </DialogFooter>
        </Dialog.Panel>
      </Dialog.Root>
      <ConfirmDialog
        open={toDelete !== null}
        onOpenChange={(open) => !open && setToDelete(null)}
        title={t`Delete service app`}
        description={toDelete ? t`Are you sure you want to delete ${toDelete.display_name}? Users can no longer sign in to it.` : ''}
        confirmLabel={t`Delete`}
        pending={remove.isPending}
        onConfirm={() =>
          toDelete &&
          remove.mutate(toDelete.id, {
            onSuccess: () => {
              notify.success(t`Service app deleted`, toDelete.display_name);
              setToDelete(null);
            },
            onError: (e) => notify.error(e),
          })
        }
      />
    </>
  );
}

const schema = z.object({
  name: z.string().trim().min(2, { error: 'too_short:2' }).max(64, { error: 'too_long:64' }).regex(/^[a-z0-9][a-z0-9-]*$/, { error: 'invalid' }),
  display_name: z.string().trim().min(1, { error: 'required' }).max(100, { error: 'too_long:100' }),
  url: z.string().trim().min(1, { error: 'required' }).pipe(z.url({ protocol: /^https?$/, error: 'invalid' })),
  path: z.string().trim().min(1, { error: 'required' }).regex(SERVICE_PATH_RE, { error: 'invalid' }),
  role_ids: z.array(z.string()),
  client_type: z.enum(['public', 'confidential']),
  pkce_required: z.boolean(),
  client_credentials: z.boolean(),
  token_endpoint_auth_method: z.enum(['client_secret_basic', 'client_secret_post']),
});
type Values = z.infer<typeof schema>;

function ServiceAppForm({ app, onDone }: { app: ServiceApp | null; onDone: (saved?: ServiceApp) => void }) {
  const { t } = useLingui();
  const notify = useNotify();
  const roles = useQuery(rolesQueryOptions());
  const { create, update } = useServiceAppMutations();
  const { register, control, handleSubmit, setError, formState, watch } = useForm<Values>({
    resolver: zodResolver(schema),
    defaultValues: {
      name: app?.name ?? '',
      display_name: app?.display_name ?? '',
      url: app?.url ?? '',
      path: app?.path ?? '/',
      role_ids: app?.roles.map((r) => r.id) ?? [],
      client_type: app?.client_type ?? 'public',
      pkce_required: app?.pkce_required ?? true,
      client_credentials: app?.client_credentials ?? false,
      token_endpoint_auth_method: app?.token_endpoint_auth_method === 'client_secret_post' ? 'client_secret_post' : 'client_secret_basic',
    },
  });
  const confidential = watch('client_type') === 'confidential';
  const submit = handleSubmit((values) =>
    // the per-app OIDC settings exist for confidential apps only; a public app always needs PKCE and sends no secret
    ((input: ServiceAppInput) => (app ? update.mutateAsync({ id: app.id, input }) : create.mutateAsync(input)))(
      values.client_type === 'confidential' ? values : (({ token_endpoint_auth_method: _method, ...rest }) => ({ ...rest, pkce_required: true, client_credentials: false }))(values),
    )
      .then((saved) => {
        notify.success(app ? t`Service app updated` : t`Service app added`, saved.display_name);
        onDone(saved);
      })
      .catch((error: unknown) => {
        if (isApiError(error) && error.code === 'name_taken') {
          setError('name', { type: 'server', message: 'invalid' });
          return;
        }
        if (!applyServerFieldErrors(error, setError, ['name', 'display_name', 'url', 'path', 'role_ids', 'client_type', 'pkce_required', 'client_credentials', 'token_endpoint_auth_method'])) notify.error(error);
      }),
  );
  return (
    <form onSubmit={(e) => void submit(e)} noValidate className={css({ display: 'flex', flexDirection: 'column', gap: '4' })}>
      <Dialog.Title>{app ? <Trans>Update service app</Trans> : <Trans>Add service app</Trans>}</Dialog.Title>
      <DialogClose />
      <div className={css({ display: 'grid', gridTemplateColumns: { base: '1fr', sm: '1fr 1fr' }, gap: '4' })}>
        <FormField label={t`Display name`} required error={formState.errors.display_name} {...register('display_name')} />
        <FormField label={t`Client ID`} required error={formState.errors.name} helperText={t`Lower-case letters, digits and -`} autoComplete="off" {...register('name')} />
      </div>
      <div className={css({ display: 'grid', gridTemplateColumns: { base: '1fr', sm: '2fr 1fr' }, gap: '4' })}>
        <FormField label={t`URL`} type="url" required placeholder="https://app.example.com" error={formState.errors.url} {...register('url')} />
        <FormField label={t`Path`} required placeholder="/callback" error={formState.errors.path} helperText={t`Starts with /`} {...register('path')} />
      </div>
      <Controller
        control={control}
        name="client_type"
        render={({ field }) => (
          <SimpleSelect portalled={false} className={raiseWhenOpen}
            label={t`Client type`}
            options={[
              { value: 'public', label: t`Public (PKCE, no secret)` },
              { value: 'confidential', label: t`Confidential (with client secret)` },
            ]}
            value={field.value}
            onValueChange={field.onChange}
          />
        )}
      />
      {confidential ? (
        <div className={css({ display: 'flex', flexDirection: 'column', gap: '2' })}>
          <Controller
            control={control}
            name="token_endpoint_auth_method"
            render={({ field }) => (
              <SimpleSelect portalled={false} className={raiseWhenOpen}
                label={t`Client authentication at the token endpoint`}
                options={[
                  { value: 'client_secret_basic', label: t`client_secret_basic (HTTP Basic header, default)` },
                  { value: 'client_secret_post', label: t`client_secret_post (secret in the request body)` },
                ]}
                value={field.value}
                onValueChange={field.onChange}
                invalid={Boolean(formState.errors.token_endpoint_auth_method)}
              />
            )}
          />
          <Controller
            control={control}
            name="pkce_required"
            render={({ field }) => <Switch label={t`Require PKCE (turn off only for software that cannot send it)`} checked={field.value} onCheckedChange={(d) => field.onChange(d.checked)} />}
          />
          <Controller
            control={control}
            name="client_credentials"
            render={({ field }) => <Switch label={t`Allow the client credentials grant (machine-to-machine access)`} checked={field.value} onCheckedChange={(d) => field.onChange(d.checked)} />}
          />
        </div>
      ) : null}
      <Controller
        control={control}
        name="role_ids"
        render={({ field }) => (
          <MultiSelect
            label={t`Allowed roles`}
            options={(roles.data?.data ?? []).map((r) => ({ value: r.id, label: r.name }))}
            value={field.value}
            onValueChange={field.onChange}
            placeholder={t`Select roles`}
            summary={(n) => t`${n} roles selected`}
          />
        )}
      />
      <DialogFooter>
        <Button variant="outline" onClick={() => onDone()}>
          <Trans>Cancel</Trans>
        </Button>
        <Button type="submit" disabled={formState.isSubmitting}>
          {app ? <Trans>Save</Trans> : <Trans>Add service app</Trans>}
        </Button>
      </DialogFooter>
    </form>
  );
}
