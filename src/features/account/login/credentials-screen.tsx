/** `screen:login.credentials`: e-mail and password (and the SSO providers' buttons for users). */
import { Trans, useLingui } from '@lingui/react/macro';
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useEffect } from 'react';
import { useForm } from 'react-hook-form';
import { css } from 'styled-system/css';
import type { MachineError } from '../../../../machines/errors';
import { upstreamStartUrl } from '../../../../machines/sso-authorize';
import { configQueryOptions } from '../../../api/account';
import { AuthCard } from '../../../components/page-heading';
import { Button } from '../../../components/ui/button';
import { TextField } from '../../../components/ui/text-field';
import { useFieldError } from '../../../lib/field-errors';
import { FormAlert, formStack, linkClass, PasswordField, SubmitButton } from '../form-kit';
import { lazyResolver } from '../../../lib/lazy-resolver';
import type { CredentialsValues } from './credentials-schema';
import { loginErrorMessage } from './login-errors';
import { ScreenHeading } from './login-heading';
import { SignInTitle } from './status-screens';

/** zod and the schema load with the first validation (or once the form has rendered), not with the screen. */
const credentialsResolver = lazyResolver<CredentialsValues>(() => import('./credentials-schema').then((m) => m.credentialsResolver));

export interface CredentialsScreenProps {
  admin: boolean;
  interaction: string;
  /** Pre-fills the e-mail field (the app's `login_hint`). */
  loginHint?: string | undefined;
  loading: boolean;
  error: MachineError | null;
  onSubmit: (email: string, password: string) => void;
  /** "Sign in with a passkey" (only where the browser can run a passkey ceremony). */
  onPasskey?: (() => void) | undefined;
}

export function CredentialsScreen(props: CredentialsScreenProps) {
  const { t, i18n } = useLingui();
  const fieldError = useFieldError();
  const config = useQuery(configQueryOptions());
  const providers = props.admin ? [] : (config.data?.sso_providers ?? []);
  const form = useForm<CredentialsValues>({ resolver: credentialsResolver, defaultValues: { email: props.loginHint ?? '', password: '' } });
  const { errors } = form.formState;
  const message = loginErrorMessage(i18n, props.error, 'credentials');
  const { setError } = form;
  useEffect(() => {
    void credentialsResolver.preload().catch(() => undefined); // retried by the first validation
  }, []);
  useEffect(() => {
    // a server field error lands on its field (the form alert carries the rest)
    if (message?.place === 'email' || message?.place === 'password') setError(message.place, { type: 'server', message: message.text }, { shouldFocus: true });
  }, [message?.place, message?.text, setError]);
  const serverField = (name: 'email' | 'password', label: string) => (errors[name]?.type === 'server' ? errors[name]?.message : fieldError(errors[name], label));
  const alert = message?.place === 'form' ? message.text : null;
  return (
    <AuthCard screen="screen:login.credentials">
      <ScreenHeading
        title={<SignInTitle admin={props.admin} />}
        description={props.admin ? <Trans>Sign in to the admin panel.</Trans> : <Trans>Welcome back. Sign in to your account.</Trans>}
      />
      <form noValidate className={formStack} onSubmit={form.handleSubmit((v) => props.onSubmit(v.email, v.password))} aria-describedby={alert ? 'login-error' : undefined}>
        {alert ? (
          <div id="login-error">
            <FormAlert>
              {alert}
              {props.error?.code === 'invalid_credentials' && providers.length > 0 ? (
                // said to every wrong password while SSO providers exist: it tells nothing about the account (no enumeration)
                <span data-part="sso-hint" className={css({ display: 'block', mt: '1' })}>
                  <Trans>Do you sign in with single sign-on? Use your organization's button below instead of a password.</Trans>
                </span>
              ) : null}
            </FormAlert>
          </div>
        ) : null}
        <TextField label={t`E-mail`} type="email" autoComplete="username webauthn" required {...form.register('email')} errorText={serverField('email', t`E-mail`)} />
        <PasswordField label={t`Password`} autoComplete="current-password" required {...form.register('password')} errorText={serverField('password', t`Password`)} />
        <div className={css({ display: 'flex', justifyContent: 'flex-end', mt: '-2' })}>
          <Link to="/forgot-password" search={props.admin ? { type: 'admin' } : {}} className={linkClass}>
            <Trans>Forgot password?</Trans>
          </Link>
        </div>
        <SubmitButton loading={props.loading}>
          <Trans>Sign in</Trans>
        </SubmitButton>
        {props.onPasskey ? (
          <Button variant="outline" disabled={props.loading} onClick={props.onPasskey}>
            <Trans>Sign in with a passkey</Trans>
          </Button>
        ) : null}
        {providers.length > 0 ? (
          <>
            <div className={css({ display: 'flex', alignItems: 'center', gap: '3', color: 'fg.subtle', fontSize: 'xs', textTransform: 'uppercase', letterSpacing: 'wide' })} aria-hidden="true">
              <span className={css({ flex: '1', height: '1px', bg: 'border.default' })} />
              <Trans>or</Trans>
              <span className={css({ flex: '1', height: '1px', bg: 'border.default' })} />
            </div>
            <ul className={css({ display: 'flex', flexDirection: 'column', gap: '2' })} aria-label={t`Single sign-on`}>
              {providers.map((provider) => (
                <li key={provider.id}>
                  <a href={upstreamStartUrl(provider.id, props.interaction, i18n.locale)} className={css({ display: 'flex', alignItems: 'center', justifyContent: 'center', height: '11', borderWidth: '1px', borderColor: 'border.strong', borderRadius: 'md', fontSize: 'sm', fontWeight: 'medium', color: 'fg.default', bg: 'bg.surface', _hover: { bg: 'bg.subtle' } })}>
                    <Trans>Continue with {provider.name}</Trans>
                  </a>
                </li>
              ))}
            </ul>
          </>
        ) : null}
      </form>
    </AuthCard>
  );
}
