/**
 * Forgot password, reset password / verify invitation (verifyInvitation
 * machine), expired password and the first-start admin setup.
 */
import { zodResolver } from '@hookform/resolvers/zod';
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { useMutation, useQuery } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { useMachine } from '@xstate/react';
import { useEffect, useMemo, useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { css } from 'styled-system/css';
import { z } from 'zod';
import { createVerifyActors, verifyInvitationMachine, type VerifyFlow, type VerifyInvitationMachine } from '../../../../machines/verifyInvitation.machine';
import { apiGet, apiPost, http, isApiError } from '../../../api';
import { LoadingBar } from '../../../components/loading-bar';
import { AuthCard, PageHeading } from '../../../components/page-heading';
import { Button } from '../../../components/ui/button';
import * as Field from '../../../components/ui/field';
import { toaster } from '../../../components/ui/toast';
import { applyServerFieldErrors } from '../../../lib/field-errors';
import { inspectOptions } from '../../../lib/inspect';
import { clearResetToken, readResetToken } from '../login/login-search';
import { emailField, newPasswordFields, newPasswordSchema, requiredString, withPasswordMatch, type NewPasswordValues } from '../schemas';
import { apiErrorMessage, errorInfoMessage, FormAlert, formStack, linkClass, mutedText, PasswordChecklist, PasswordField, SubmitButton, useFieldError } from '../form-kit';

/** Route titles defined here so they land in the account catalog. */
export const pageTitles = {
  setup: msg`Set up the administrator account`,
  forgotPassword: msg`Forgot password`,
};

function BackToLogin({ admin }: { admin: boolean }) {
  return (
    <p className={css({ textAlign: 'center', mt: '2' })}>
      <Link to={admin ? '/admin/login' : '/login'} className={linkClass}>
        <Trans>Back to sign in</Trans>
      </Link>
    </p>
  );
}

/** The end of a password flow: 'sc' (setup complete) or 'cp' (changed password), with the way to sign in. */
function PasswordSavedCard({ flowCode, admin }: { flowCode: 'sc' | 'cp'; admin: boolean }) {
  return (
    <AuthCard>
      <SuccessIcon />
      <PageHeading>{flowCode === 'sc' ? <Trans>Your account is ready</Trans> : <Trans>Password changed</Trans>}</PageHeading>
      <FormAlert tone="success">
        {flowCode === 'sc' ? (
          <Trans>Your password is saved and your profile setup is complete. You can sign in now.</Trans>
        ) : (
          <Trans>Your password has been changed. Sign in with your new password.</Trans>
        )}
      </FormAlert>
      <div className={css({ mt: '6' })}>
        <Link to={admin ? '/admin/login' : '/login'} className={css({ display: 'flex', alignItems: 'center', justifyContent: 'center', height: '12', borderRadius: 'md', bg: 'accent.default', color: 'accent.fg', fontWeight: 'medium', _hover: { bg: 'accent.emphasized' } })}>
          <Trans>Go to sign in</Trans>
        </Link>
      </div>
    </AuthCard>
  );
}

function SuccessIcon() {
  return (
    <div aria-hidden="true" className={css({ width: '12', height: '12', borderRadius: 'full', bg: 'success.50', color: 'success.600', display: 'flex', alignItems: 'center', justifyContent: 'center', mb: '4' })}>
      <svg width="24" height="24" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2.5" strokeLinecap="round" strokeLinejoin="round">
        <path d="M20 6 9 17l-5-5" />
      </svg>
    </div>
  );
}

/* ------------------------------------------------------------------ forgot */

const forgotSchema = z.object({ email: emailField });

export function ForgotPasswordScreen({ admin }: { admin: boolean }) {
  const { t, i18n } = useLingui();
  const fieldError = useFieldError();
  const form = useForm<z.infer<typeof forgotSchema>>({ resolver: zodResolver(forgotSchema), defaultValues: { email: '' } });
  const [notFound, setNotFound] = useState(false);
  const mutation = useMutation({
    mutationFn: (email: string) => apiPost<unknown>(admin ? '/api/admin/forgot-password' : '/api/forgot-password', { email }, { credentials: 'omit' }),
    onError: (error) => {
      if (isApiError(error) && error.status === 404) return setNotFound(true);
      if (!applyServerFieldErrors(error, form.setError, ['email'])) toaster.create({ type: 'error', title: apiErrorMessage(i18n, error) });
    },
  });

  if (mutation.isSuccess) {
    return (
      <AuthCard>
        <SuccessIcon />
        <PageHeading>
          <Trans>Check your inbox</Trans>
        </PageHeading>
        <FormAlert tone="success">
          <Trans>If an account exists for {form.getValues('email')}, we have sent a link to reset the password. The link expires after a while, so use it soon.</Trans>
        </FormAlert>
        <BackToLogin admin={admin} />
      </AuthCard>
    );
  }

  return (
    <AuthCard>
      <PageHeading>{admin ? <Trans>Forgot admin password</Trans> : <Trans>Forgot password</Trans>}</PageHeading>
      <form
        noValidate
        className={formStack}
        onSubmit={form.handleSubmit((values) => {
          setNotFound(false);
          mutation.mutate(values.email);
        })}
      >
        <p className={mutedText}>
          <Trans>Enter the e-mail address of your account and we will send you a link to choose a new password.</Trans>
        </p>
        {notFound ? (
          <FormAlert>
            <Trans>Email not found</Trans>
          </FormAlert>
        ) : null}
        <Field.TextField label={t`E-mail`} type="email" autoComplete="email" required {...form.register('email')} errorText={fieldError(form.formState.errors.email, t`E-mail`)} />
        <SubmitButton loading={mutation.isPending}>
          <Trans>Send reset link</Trans>
        </SubmitButton>
      </form>
      <BackToLogin admin={admin} />
    </AuthCard>
  );
}

/* ------------------------------------------------- new password form (shared) */

function NewPasswordForm({
  submitLabel,
  loading,
  error,
  onSubmit,
  serverError,
}: {
  submitLabel: React.ReactNode;
  loading: boolean;
  error?: string | null;
  serverError?: unknown;
  onSubmit: (values: NewPasswordValues) => void;
}) {
  const { t } = useLingui();
  const fieldError = useFieldError();
  const form = useForm<NewPasswordValues>({ resolver: zodResolver(newPasswordSchema), defaultValues: { password: '', password_confirmation: '' }, mode: 'onTouched' });
  const password = useWatch({ control: form.control, name: 'password' });
  useEffect(() => {
    if (serverError) applyServerFieldErrors(serverError, form.setError, ['password', 'password_confirmation']);
  }, [serverError, form]);
  return (
    <form noValidate className={formStack} onSubmit={form.handleSubmit(onSubmit)}>
      {error ? <FormAlert>{error}</FormAlert> : null}
      <PasswordField
        label={t`New password`}
        autoComplete="new-password"
        required
        aria-describedby="password-rules"
        {...form.register('password')}
        errorText={fieldError(form.formState.errors.password, t`Password`)}
      />
      <PasswordChecklist id="password-rules" password={password} />
      <PasswordField
        label={t`Confirm new password`}
        autoComplete="new-password"
        required
        {...form.register('password_confirmation')}
        errorText={fieldError(form.formState.errors.password_confirmation, t`Password confirmation`)}
      />
      <SubmitButton loading={loading}>{submitLabel}</SubmitButton>
    </form>
  );
}

/* --------------------------------------------- reset password / verify invitation */

export interface PasswordLinkScreenProps {
  flow: VerifyFlow;
  admin: boolean;
  url: string | undefined;
  machineOverride?: VerifyInvitationMachine;
}

/** `/reset-password?url=`, `/admin/reset-password?url=`, `/verify/$type?url=`. */
export function PasswordLinkScreen({ flow, admin, url, machineOverride }: PasswordLinkScreenProps) {
  const { i18n } = useLingui();
  const real = useMemo(() => verifyInvitationMachine.provide({ actors: createVerifyActors({ http }) }), []);
  const [snapshot, send] = useMachine(machineOverride ?? real, { ...inspectOptions(), input: { flow, admin, url: url ?? null } });
  const heading = flow === 'verify' ? <Trans>Finish your profile setup</Trans> : <Trans>Choose a new password</Trans>;

  if (snapshot.hasTag('route:verify-done')) return <PasswordSavedCard flowCode={snapshot.context.flowCode === 'sc' ? 'sc' : 'cp'} admin={admin} />;
  if (snapshot.hasTag('route:verify-invalid')) {
    return (
      <AuthCard>
        <PageHeading>
          <Trans>Link expired or invalid</Trans>
        </PageHeading>
        <FormAlert focus={false}>
          <Trans>This link is invalid or has expired</Trans>
        </FormAlert>
        <p className={css({ mt: '4', fontSize: 'sm', color: 'fg.muted' })}>
          {flow === 'verify' ? (
            <Trans>Ask your administrator to send you a new invitation.</Trans>
          ) : (
            <Trans>
              Request a new link on the{' '}
              <Link to="/forgot-password" search={admin ? { type: 'admin' } : {}} className={linkClass}>
                forgot password
              </Link>{' '}
              page.
            </Trans>
          )}
        </p>
        <BackToLogin admin={admin} />
      </AuthCard>
    );
  }
  if (snapshot.hasTag('route:verify-unavailable')) {
    return (
      <AuthCard>
        <PageHeading>{heading}</PageHeading>
        <div className={formStack}>
          <FormAlert>{errorInfoMessage(i18n, snapshot.context.error)}</FormAlert>
          <Button size="lg" onClick={() => send({ type: 'RETRY' })}>
            <Trans>Try again</Trans>
          </Button>
        </div>
      </AuthCard>
    );
  }
  if (snapshot.hasTag('route:verify-form')) {
    const error = snapshot.context.error;
    const fieldsOnly = error?.code === 'validation_failed';
    return (
      <AuthCard>
        <PageHeading>{heading}</PageHeading>
        <p className={css({ fontSize: 'sm', color: 'fg.muted', mt: '-4', mb: '5' })}>
          {flow === 'verify' ? <Trans>Choose a password to finish setting up your account.</Trans> : <Trans>Choose a new password for your account.</Trans>}
        </p>
        <NewPasswordForm
          submitLabel={flow === 'verify' ? <Trans>Save password</Trans> : <Trans>Change password</Trans>}
          loading={snapshot.hasTag('loading')}
          error={error && !fieldsOnly ? errorInfoMessage(i18n, error) : null}
          serverError={error?.fields ? { fields: error.fields } : undefined}
          onSubmit={(values) => send({ type: 'SUBMIT', ...values })}
        />
      </AuthCard>
    );
  }
  return (
    <AuthCard>
      <PageHeading>{heading}</PageHeading>
      <LoadingBar label={i18n._(msg`Checking the link…`)} />
      <p className={mutedText}>
        <Trans>Checking the link…</Trans>
      </p>
    </AuthCard>
  );
}

/* ------------------------------------------------------------- expired password */

export function ExpiredPasswordScreen() {
  const { i18n } = useLingui();
  const [stored] = useState(() => readResetToken());
  const mutation = useMutation({
    mutationFn: (values: NewPasswordValues) =>
      apiPost<{ data: { flow: string } }>(stored?.admin ? '/api/admin/reset-password' : '/api/reset-password', { reset_token: stored?.token, ...values }),
    // the confirmation stays on this page: /login starts the OIDC round trip with a full page load
    onSuccess: () => clearResetToken(),
  });
  if (mutation.isSuccess) return <PasswordSavedCard flowCode="cp" admin={Boolean(stored?.admin)} />;
  if (!stored) {
    return (
      <AuthCard>
        <PageHeading>
          <Trans>Password expired</Trans>
        </PageHeading>
        <FormAlert focus={false}>
          <Trans>This page opens after signing in with an expired password. Please sign in again.</Trans>
        </FormAlert>
        <BackToLogin admin={false} />
      </AuthCard>
    );
  }
  const error = mutation.error;
  const fieldOnly = isApiError(error) && error.status === 422 && error.fields && ('password' in error.fields || 'password_confirmation' in error.fields);
  return (
    <AuthCard>
      <PageHeading>
        <Trans>Password expired</Trans>
      </PageHeading>
      <p className={css({ fontSize: 'sm', color: 'fg.muted', mt: '-4', mb: '5' })}>
        <Trans>Your password has expired. Choose a new one to continue.</Trans>
      </p>
      <NewPasswordForm
        submitLabel={<Trans>Change password</Trans>}
        loading={mutation.isPending}
        error={error && !fieldOnly ? (isApiError(error) && error.status === 403 ? errorInfoMessage(i18n, { code: 'link_invalid' }) : apiErrorMessage(i18n, error)) : null}
        serverError={error}
        onSubmit={(values) => mutation.mutate(values)}
      />
      <BackToLogin admin={stored.admin} />
    </AuthCard>
  );
}

/* ---------------------------------------------------------------- admin setup */

const setupSchema = withPasswordMatch(
  z.object({ email: emailField, first_name: requiredString(), last_name: requiredString(), ...newPasswordFields }),
);
type SetupValues = z.infer<typeof setupSchema>;

/** `/admin/setup?token=` — the one-time link the server prints on first start. */
export function AdminSetupScreen({ token }: { token: string | undefined }) {
  const { t, i18n } = useLingui();
  const navigate = useNavigate();
  const fieldError = useFieldError();
  const check = useQuery({
    queryKey: ['setup', token],
    enabled: Boolean(token),
    queryFn: ({ signal }) => apiGet<unknown>(`/api/setup/${encodeURIComponent(token ?? '')}`, { signal }),
  });
  const form = useForm<SetupValues>({
    resolver: zodResolver(setupSchema),
    mode: 'onTouched',
    defaultValues: { email: '', first_name: '', last_name: '', password: '', password_confirmation: '' },
  });
  const password = useWatch({ control: form.control, name: 'password' });
  const mutation = useMutation({
    mutationFn: (values: SetupValues) => apiPost<unknown>('/api/setup', { token, ...values }),
    onSuccess: () => {
      toaster.create({ type: 'success', title: i18n._(msg`Administrator account created`), description: i18n._(msg`Sign in with your new account.`) });
      void navigate({ to: '/admin/login' });
    },
    onError: (error) => {
      if (!applyServerFieldErrors(error, form.setError, ['email', 'first_name', 'last_name', 'password', 'password_confirmation'])) {
        toaster.create({ type: 'error', title: apiErrorMessage(i18n, error) });
      }
    },
  });

  const invalid = !token || (check.isError && isApiError(check.error) && [403, 404, 410].includes(check.error.status ?? 0)) || (isApiError(mutation.error) && mutation.error.status === 403);
  return (
    <AuthCard>
      <PageHeading>
        <Trans>Set up the administrator account</Trans>
      </PageHeading>
      {invalid ? (
        <FormAlert focus={false}>
          <Trans>This setup link is invalid or has already been used.</Trans>
        </FormAlert>
      ) : check.isError ? (
        <div className={formStack}>
          <FormAlert>
            <Trans>Error ocurred, please try again</Trans>
          </FormAlert>
          <Button onClick={() => void check.refetch()}>
            <Trans>Try again</Trans>
          </Button>
        </div>
      ) : check.isPending ? (
        <LoadingBar />
      ) : (
        <form noValidate className={formStack} onSubmit={form.handleSubmit((v) => mutation.mutate(v))}>
          <p className={mutedText}>
            <Trans>Create the first super administrator. This link works only once.</Trans>
          </p>
          <Field.TextField label={t`E-mail`} type="email" autoComplete="email" required {...form.register('email')} errorText={fieldError(form.formState.errors.email, t`E-mail`)} />
          <div className={css({ display: 'grid', gridTemplateColumns: { base: '1fr', sm: '1fr 1fr' }, gap: '4' })}>
            <Field.TextField label={t`First name`} autoComplete="given-name" required {...form.register('first_name')} errorText={fieldError(form.formState.errors.first_name, t`First name`)} />
            <Field.TextField label={t`Last name`} autoComplete="family-name" required {...form.register('last_name')} errorText={fieldError(form.formState.errors.last_name, t`Last name`)} />
          </div>
          <PasswordField label={t`Password`} autoComplete="new-password" required aria-describedby="setup-rules" {...form.register('password')} errorText={fieldError(form.formState.errors.password, t`Password`)} />
          <PasswordChecklist id="setup-rules" password={password} />
          <PasswordField
            label={t`Confirm password`}
            autoComplete="new-password"
            required
            {...form.register('password_confirmation')}
            errorText={fieldError(form.formState.errors.password_confirmation, t`Password confirmation`)}
          />
          <SubmitButton loading={mutation.isPending}>
            <Trans>Create administrator</Trans>
          </SubmitButton>
        </form>
      )}
    </AuthCard>
  );
}
