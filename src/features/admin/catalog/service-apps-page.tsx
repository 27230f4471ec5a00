import { zodResolver } from '@hookform/resolvers/zod';
import { Trans, useLingui } from '@lingui/react/macro';
import { useQuery } from '@tanstack/react-query';
import { useMemo, useState, type ReactNode } from 'react';
import { Controller, useForm, type FieldError, type Path, type UseFormSetError } from 'react-hook-form';
import { css } from 'styled-system/css';
import { z } from 'zod';
import {
  POST_LOGOUT_REDIRECT_URIS_MAX,
  redirectUriListIssues,
  REDIRECT_URI_MAX_LENGTH,
  REDIRECT_URIS_MAX,
  REDIRECT_URIS_MIN,
} from '../../../../contract/domain/redirect-uris';
import { BACKCHANNEL_LOGOUT_URI_MAX, backchannelLogoutUriProblem } from '../../../../contract/domain/formats';
import { isApiError } from '../../../api/errors';
import { Badge } from '../../../components/ui/badge';
import { DetailList } from '../../../components/ui/detail-list';
import { Button } from '../../../components/ui/button';
import * as Dialog from '../../../components/ui/dialog';
import { DialogClose } from '../../../components/ui/dialog-close';
import { DialogFooter } from '../../../components/ui/dialog-footer';
import { SecretBox } from '../../../components/ui/secret-box';
import { raiseWhenOpen } from '../../../components/ui/select';
import { SimpleSelect } from '../../../components/ui/simple-select';
import { Switch } from '../../../components/ui/switch';
import * as Table from '../../../components/ui/table';
import { TextListField } from '../../../components/ui/text-list-field';
import { applyServerFieldErrors, useFieldError } from '../../../lib/field-errors';
import { serviceAppsQueryOptions, useServiceAppMutations, type ServiceAppInput } from '../api/catalog';
import type { ServiceApp } from '../api/types';
import type { LogoutDelivery } from '../../../../contract/admin/service-apps';
import { FormField } from '../components/form';
import { useFormat } from '../components/format';
import { CatalogForm, CatalogPage, markNameTaken, RolePicker, useCatalogSave } from './catalog-page';
import { ConnectIcon, ServiceAppIntegration } from './service-app-integration';

export function ServiceAppsPage() {
  const { t } = useLingui();
  const apps = useQuery(serviceAppsQueryOptions());
  const { remove } = useServiceAppMutations();
  const [secret, setSecret] = useState<{ name: string; value: string } | null>(null);
  const [connecting, setConnecting] = useState<ServiceApp | null>(null);

  return (
    <CatalogPage<ServiceApp>
      title={t`Service apps`}
      createLabel={t`Add service app`}
      query={apps}
      rowTestId="service-app-row"
      empty={<Trans>No service apps yet. Add the first one.</Trans>}
      nameOf={(app) => app.display_name}
      columns={[
        {
          header: t`Name`,
          cell: (app) => (
            <Table.Cell>
              <div className={css({ display: 'flex', flexDirection: 'column' })}>
                <span className={css({ fontWeight: 'medium' })}>{app.display_name}</span>
                <span className={css({ color: 'fg.muted', fontSize: 'xs', fontFamily: 'mono' })}>{app.name}</span>
              </div>
            </Table.Cell>
          ),
        },
        {
          header: t`Redirect URIs`,
          cell: (app) => (
            <Table.Cell className={css({ fontSize: 'xs' })}>
              <span className={css({ fontFamily: 'mono', overflowWrap: 'anywhere' })}>{app.redirect_uris[0]}</span>
              {app.redirect_uris.length > 1 ? <span className={css({ color: 'fg.muted', ms: '1.5', whiteSpace: 'nowrap' })}>{t`+${app.redirect_uris.length - 1} more`}</span> : null}
              {deliveryFailing(app.logout_delivery) ? (
                <div className={css({ mt: '1' })}>
                  <Badge tone="warning">{t`Logout delivery failing`}</Badge>
                </div>
              ) : null}
            </Table.Cell>
          ),
        },
        {
          header: t`Client type`,
          cell: (app) => <Table.Cell>{app.client_type === 'confidential' ? <Badge tone="warning">{t`Confidential`}</Badge> : <Badge>{t`Public (PKCE)`}</Badge>}</Table.Cell>,
        },
        {
          header: t`Allowed roles`,
          cell: (app) => (
            <Table.Cell>
              <div className={css({ display: 'flex', gap: '1', flexWrap: 'wrap' })}>
                {app.roles.length === 0 ? <span className={css({ color: 'fg.subtle' })}>—</span> : app.roles.map((r) => <Badge key={r.id} tone="info">{r.name}</Badge>)}
              </div>
            </Table.Cell>
          ),
        },
      ]}
      rowActions={(app) => (
        <Button variant="ghost" size="sm" aria-label={t`Connect ${app.display_name}`} title={t`Discovery URL and set-ups`} onClick={() => setConnecting(app)}>
          <ConnectIcon />
        </Button>
      )}
      form={(app, close) => (
        <ServiceAppForm
          app={app}
          onDone={(saved) => {
            close();
            if (saved?.client_secret) setSecret({ name: saved.display_name, value: saved.client_secret });
          }}
        />
      )}
      formClassName={css({ maxWidth: 'lg' })}
      remove={remove}
      confirmDelete={{
        title: t`Delete service app`,
        description: (app) => t`Are you sure you want to delete ${app.display_name}? Users can no longer sign in to it.`,
        deleted: t`Service app deleted`,
      }}
    >
      <DoneDialog
        open={secret !== null}
        onClose={() => setSecret(null)}
        className={css({ maxWidth: 'lg' })}
        title={<Trans>Client secret</Trans>}
        description={secret ? t`The client secret of ${secret.name}. Store it in the app's configuration.` : ''}
      >
        {secret ? <SecretBox label={t`Client secret`} value={secret.value} /> : null}
      </DoneDialog>
      <DoneDialog
        open={connecting !== null}
        onClose={() => setConnecting(null)}
        className={css({ maxWidth: '3xl' })}
        title={connecting ? t`Connect ${connecting.display_name}` : ''}
        description={<Trans>Give these values to the app's developers. Stock OpenID Connect software works with them unchanged.</Trans>}
      >
        {connecting ? <ServiceAppIntegration app={connecting} /> : null}
      </DoneDialog>
    </CatalogPage>
  );
}

/** A dialog that shows something and closes with "Done". */
function DoneDialog({ open, onClose, className, title, description, children }: { open: boolean; onClose: () => void; className: string; title: ReactNode; description: ReactNode; children: ReactNode }) {
  return (
    <Dialog.Root open={open} onOpenChange={(d) => !d.open && onClose()} lazyMount unmountOnExit>
      <Dialog.Panel className={className}>
        <Dialog.Title>{title}</Dialog.Title>
        <Dialog.Description>{description}</Dialog.Description>
        <DialogClose />
        {children}
        <DialogFooter>
          <Button onClick={onClose}>
            <Trans>Done</Trans>
          </Button>
        </DialogFooter>
      </Dialog.Panel>
    </Dialog.Root>
  );
}

/** Whether the app's logout tokens are failing: some were given up, or the last attempt failed after the last delivery. */
function deliveryFailing(d: LogoutDelivery): boolean {
  return d.failed > 0 || (d.last_failure !== null && (d.last_delivered_at === null || d.last_failure.at > d.last_delivered_at));
}

/**
 * How the back-channel logout deliveries to this app went (docs/INTEGRATING.md section 7): the last delivery, the last
 * failed attempt with its error in words, and how many tokens wait or were given up.
 */
function LogoutDeliveryStatus({ delivery }: { delivery: LogoutDelivery }) {
  const { t } = useLingui();
  const fmt = useFormat();
  const errorText = (error: string): string => {
    const status = /^http_(\d{3})$/.exec(error)?.[1];
    if (status) return t`the app answered HTTP ${status}`;
    if (error === 'timeout') return t`no answer in time`;
    if (error === 'connection_refused') return t`connection refused`;
    if (error === 'signing') return t`the token could not be signed`;
    return t`network error`;
  };
  const failure = delivery.last_failure;
  return (
    <section aria-label={t`Logout delivery`} data-testid="logout-delivery" className={css({ borderWidth: '1px', borderColor: 'border.default', borderRadius: 'md', p: '3', display: 'flex', flexDirection: 'column', gap: '2' })}>
      <h3 className={css({ fontSize: 'sm', fontWeight: 'semibold' })}>
        <Trans>Logout delivery</Trans>
      </h3>
      <DetailList
        items={[
          { key: 'delivered', label: t`Last delivered`, value: delivery.last_delivered_at ? fmt.dateTime(delivery.last_delivered_at) : t`Nothing delivered yet` },
          { key: 'failure', label: t`Last failure`, value: failure ? `${fmt.dateTime(failure.at)} (${errorText(failure.error)})` : '—' },
          { key: 'pending', label: t`Waiting to be sent`, value: String(delivery.pending) },
          { key: 'failed', label: t`Given up after retries`, value: String(delivery.failed) },
        ]}
      />
    </section>
  );
}

const URI_LISTS = ['redirect_uris', 'post_logout_redirect_uris'] as const;
type UriList = (typeof URI_LISTS)[number];

/**
 * The rules of a list of redirect (or post-logout) URIs, as the server checks them (contract/domain/redirect-uris.ts):
 * each problem on its row (`redirect_uris.2`), a code as the message; URIs the app has registered already pass.
 */
const uriList = (min: number, max: number, registered: readonly string[]) =>
  z
    .array(z.string().trim())
    .superRefine((list, ctx) => {
      for (const issue of redirectUriListIssues(list, { min, max, registered: new Set(registered) })) {
        const message = issue.code === 'too_long' ? `too_long:${REDIRECT_URI_MAX_LENGTH + 1}` : issue.code === 'too_big' ? `too_big:${max}` : issue.code;
        ctx.addIssue({ code: 'custom', path: issue.index === null ? [] : [issue.index], message });
      }
    });

/** An optional endpoint URI of the app (back-channel logout, initiate login): empty for none, else the contract's rules. */
const appEndpointUri = () =>
  z
    .string()
    .trim()
    .max(BACKCHANNEL_LOGOUT_URI_MAX, { error: `too_long:${BACKCHANNEL_LOGOUT_URI_MAX}` })
    .superRefine((value, ctx) => {
      const problem = value === '' || value.length > BACKCHANNEL_LOGOUT_URI_MAX ? null : backchannelLogoutUriProblem(value);
      if (problem) ctx.addIssue({ code: 'custom', message: problem });
    });

const schemaFor = (app: ServiceApp | null) =>
  z.object({
    name: z.string().trim().min(2, { error: 'too_short:2' }).max(64, { error: 'too_long:64' }).regex(/^[a-z0-9][a-z0-9-]*$/, { error: 'invalid' }),
    display_name: z.string().trim().min(1, { error: 'required' }).max(100, { error: 'too_long:100' }),
    redirect_uris: uriList(REDIRECT_URIS_MIN, REDIRECT_URIS_MAX, app?.redirect_uris ?? []),
    post_logout_redirect_uris: uriList(0, POST_LOGOUT_REDIRECT_URIS_MAX, app?.post_logout_redirect_uris ?? []),
    role_ids: z.array(z.string()),
    client_type: z.enum(['public', 'confidential']),
    pkce_required: z.boolean(),
    client_credentials: z.boolean(),
    token_endpoint_auth_method: z.enum(['client_secret_basic', 'client_secret_post']),
    // empty: the home page opens the app's url
    initiate_login_uri: appEndpointUri(),
    // empty: the app is not told when sessions end
    backchannel_logout_uri: appEndpointUri(),
    backchannel_logout_session_required: z.boolean(),
  });
type Values = z.infer<ReturnType<typeof schemaFor>>;

/** A server 422 on a list's entries (`redirect_uris.2: https_required`) onto its rows; true when one was applied. */
function applyUriErrors(error: unknown, setError: UseFormSetError<Values>): boolean {
  if (!isApiError(error) || !error.fields) return false;
  let applied = false;
  for (const [name, codes] of Object.entries(error.fields)) {
    const list = URI_LISTS.find((l) => name === l || name.startsWith(`${l}.`));
    const code = codes[0];
    if (!list || !code) continue;
    setError(name as Path<Values>, { type: 'server', message: code === 'too_long' ? `too_long:${REDIRECT_URI_MAX_LENGTH + 1}` : code }, { shouldFocus: !applied });
    applied = true;
  }
  return applied;
}

/** The error of each row of a list and of the list itself, from react-hook-form's errors of an array field. */
function listErrors(errors: unknown): { rows: (FieldError | undefined)[]; list: FieldError | undefined } {
  if (!errors || typeof errors !== 'object') return { rows: [], list: undefined };
  const rows = Array.isArray(errors) ? (errors as (FieldError | undefined)[]) : [];
  const own = errors as Partial<FieldError> & { root?: FieldError };
  return { rows, list: typeof own.message === 'string' ? (own as FieldError) : own.root };
}

function UriListEditor({ list, values, errors, onChange, onBlur }: { list: UriList; values: string[]; errors: unknown; onChange: (v: string[]) => void; onBlur: () => void }) {
  const { t } = useLingui();
  const fieldError = useFieldError();
  const redirect = list === 'redirect_uris';
  const itemLabel = (n: number) => (redirect ? t`Redirect URI ${n}` : t`Post-logout redirect URI ${n}`);
  const { rows, list: own } = listErrors(errors);
  const max = redirect ? REDIRECT_URIS_MAX : POST_LOGOUT_REDIRECT_URIS_MAX;
  return (
    <TextListField
      testId={redirect ? 'redirect-uris' : 'post-logout-uris'}
      legend={redirect ? t`Redirect URIs` : t`Post-logout redirect URIs`}
      hint={
        redirect
          ? t`Where the provider may send people back to the app after they sign in (the app's callback, e.g. https://app.example.com/auth/callback). The app must send one of these exactly, character for character; no wildcards. https, or plain http on localhost only.`
          : t`Where the app may send people after they sign out (its post_logout_redirect_uri). Optional; the same rules. Without one, people see the provider's signed-out page.`
      }
      values={values}
      onChange={onChange}
      onBlur={onBlur}
      errors={rows.map((e, i) => fieldError(e, itemLabel(i + 1)))}
      listError={fieldError(own, redirect ? t`Redirect URIs` : t`Post-logout redirect URIs`)}
      min={redirect ? REDIRECT_URIS_MIN : 0}
      max={max}
      type="url"
      placeholder={redirect ? 'https://app.example.com/auth/callback' : 'https://app.example.com/'}
      itemLabel={itemLabel}
      removeLabel={(n) => (redirect ? t`Remove redirect URI ${n}` : t`Remove post-logout redirect URI ${n}`)}
      addLabel={redirect ? t`Add redirect URI` : t`Add post-logout redirect URI`}
      fullText={t`At most ${max}`}
      emptyText={redirect ? undefined : t`None`}
    />
  );
}

function ServiceAppForm({ app, onDone }: { app: ServiceApp | null; onDone: (saved?: ServiceApp) => void }) {
  const { t } = useLingui();
  const save = useCatalogSave();
  const { create, update } = useServiceAppMutations();
  const schema = useMemo(() => schemaFor(app), [app]);
  const { register, control, handleSubmit, setError, formState, watch } = useForm<Values>({
    resolver: zodResolver(schema),
    defaultValues: {
      name: app?.name ?? '',
      display_name: app?.display_name ?? '',
      redirect_uris: app?.redirect_uris ?? [''],
      post_logout_redirect_uris: app?.post_logout_redirect_uris ?? [],
      role_ids: app?.roles.map((r) => r.id) ?? [],
      client_type: app?.client_type ?? 'public',
      pkce_required: app?.pkce_required ?? true,
      client_credentials: app?.client_credentials ?? false,
      token_endpoint_auth_method: app?.token_endpoint_auth_method === 'client_secret_post' ? 'client_secret_post' : 'client_secret_basic',
      initiate_login_uri: app?.initiate_login_uri ?? '',
      backchannel_logout_uri: app?.backchannel_logout_uri ?? '',
      backchannel_logout_session_required: app?.backchannel_logout_session_required ?? false,
    },
  });
  const confidential = watch('client_type') === 'confidential';
  const submit = handleSubmit(({ backchannel_logout_uri, initiate_login_uri, ...fields }) => {
    // an empty URI removes it: the app is no longer told
    const values = { ...fields, backchannel_logout_uri: backchannel_logout_uri === '' ? null : backchannel_logout_uri, initiate_login_uri: initiate_login_uri === '' ? null : initiate_login_uri };
    return save(
      // the per-app OIDC settings exist for confidential apps only; a public app always needs PKCE and sends no secret
      ((input: ServiceAppInput) => (app ? update.mutateAsync({ id: app.id, input }) : create.mutateAsync(input)))(
        values.client_type === 'confidential' ? values : (({ token_endpoint_auth_method: _method, ...rest }) => ({ ...rest, pkce_required: true, client_credentials: false }))(values),
      ),
      {
        success: app ? t`Service app updated` : t`Service app added`,
        nameOf: (saved) => saved.display_name,
        onDone,
        onError: (error) =>
          markNameTaken(error, setError) ||
          [
            applyUriErrors(error, setError),
            applyServerFieldErrors(error, setError, ['name', 'display_name', 'role_ids', 'client_type', 'pkce_required', 'client_credentials', 'token_endpoint_auth_method', 'initiate_login_uri', 'backchannel_logout_uri', 'backchannel_logout_session_required']),
          ].some(Boolean),
      },
    );
  });
  return (
    <CatalogForm
      editing={app !== null}
      createLabel={t`Add service app`}
      updateTitle={t`Update service app`}
      onSubmit={(e) => void submit(e)}
      onCancel={() => onDone()}
      submitting={formState.isSubmitting}
    >
      <div className={css({ display: 'grid', gridTemplateColumns: { base: '1fr', sm: '1fr 1fr' }, gap: '4' })}>
        <FormField label={t`Display name`} required error={formState.errors.display_name} {...register('display_name')} />
        <FormField label={t`Client ID`} required error={formState.errors.name} helperText={t`Lower-case letters, digits and -`} autoComplete="off" {...register('name')} />
      </div>
      {URI_LISTS.map((list) => (
        <Controller
          key={list}
          control={control}
          name={list}
          render={({ field }) => <UriListEditor list={list} values={field.value} errors={formState.errors[list]} onChange={field.onChange} onBlur={field.onBlur} />}
        />
      ))}
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
      <FormField
        label={t`Sign-in start URI`}
        type="url"
        placeholder="https://app.example.com/login"
        error={formState.errors.initiate_login_uri}
        helperText={t`Optional (initiate_login_uri). Where the home page opens the app, so that it starts its own sign-in; without it the home page opens the app's address. https://, or http:// on localhost only.`}
        autoComplete="off"
        {...register('initiate_login_uri')}
      />
      <div className={css({ display: 'flex', flexDirection: 'column', gap: '2' })}>
        <FormField
          label={t`Back-channel logout URI`}
          type="url"
          placeholder="https://app.example.com/backchannel-logout"
          error={formState.errors.backchannel_logout_uri}
          helperText={t`Optional. The app receives a signed logout token here whenever a session it signed in with ends (sign-out, deactivation, password change). https://, or http:// on localhost only.`}
          autoComplete="off"
          {...register('backchannel_logout_uri')}
        />
        <Controller
          control={control}
          name="backchannel_logout_session_required"
          render={({ field }) => <Switch label={t`The app needs the session id (sid) in the logout token`} checked={field.value} onCheckedChange={(d) => field.onChange(d.checked)} />}
        />
        {app && (app.backchannel_logout_uri || app.logout_delivery.last_delivered_at || app.logout_delivery.last_failure || app.logout_delivery.pending || app.logout_delivery.failed) ? (
          <LogoutDeliveryStatus delivery={app.logout_delivery} />
        ) : null}
      </div>
      <RolePicker control={control} label={t`Allowed roles`} />
    </CatalogForm>
  );
}
