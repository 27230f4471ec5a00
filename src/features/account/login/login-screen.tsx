/**
 * Login and admin login (docs/SPEC.md §2, docs/DESIGN.md §6). Three situations:
 * - back from the provider with `code`/`error`, or `type=sso&provider` → ssoCallback machine;
 * - `?interaction=` → login machine: credentials → 2FA (OTP / SMS / recovery) → redirect_to;
 * - neither → login machine starts the OIDC authorization (PKCE).
 * Screens are chosen by the machines' state tags.
 */
import { zodResolver } from '@hookform/resolvers/zod';
import { Trans, useLingui } from '@lingui/react/macro';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { useMachine } from '@xstate/react';
import { useEffect, useMemo, useRef, useState, type FormEvent } from 'react';
import { useForm } from 'react-hook-form';
import { css } from 'styled-system/css';
import { z } from 'zod';
import { createLoginActors, loginMachine, type LoginMachine } from '../../../../machines/login.machine';
import { STORAGE_KEYS, type StorageKey } from '../../../../machines/shared';
import { createSsoActors, ssoCallbackMachine, startAuthorization, upstreamStartUrl, type SsoCallbackMachine } from '../../../../machines/ssoCallback.machine';
import { configQueryOptions } from '../../../api/account';
import { call } from '../../../api/call';
import { oidcClient } from '../../../api/oidc';
import { LoadingBar } from '../../../components/loading-bar';
import { AuthCard, PageHeading } from '../../../components/page-heading';
import { Button } from '../../../components/ui/button';
import { CodeInput } from '../../../components/ui/code-input';
import { TextField } from '../../../components/ui/text-field';
import { useFieldError } from '../../../lib/field-errors';
import { afterLoginTarget } from '../../../lib/guards';
import { inspectOptions } from '../../../lib/inspect';
import { useSessionValue } from '../../../lib/session-context';
import { readStorage, writeStorage } from '../../../lib/storage';
import { errorInfoMessage, FormAlert, formStack, linkClass, mutedText, PasswordField, SubmitButton, usePinTranslations } from '../form-kit';
import { emailField } from '../schemas';
import { rememberOrigin, storeResetToken, takeOrigin, type LoginSearch } from './login-search';

export interface LoginScreenProps {
  admin: boolean;
  search: LoginSearch;
  /** Tests pass a machine with fake actors; the app builds the real one. */
  loginMachineOverride?: LoginMachine;
  ssoMachineOverride?: SsoCallbackMachine;
}

export function LoginScreen({ admin, search, loginMachineOverride, ssoMachineOverride }: LoginScreenProps) {
  const isCallback = Boolean(search.code || search.error || (search.type === 'sso' && search.provider && search.interaction));
  if (isCallback) return <SsoCallbackView admin={admin} search={search} machineOverride={ssoMachineOverride} />;
  return <LoginFlow admin={admin} search={search} machineOverride={loginMachineOverride} />;
}

function Heading({ admin }: { admin: boolean }) {
  return (
    <div className={css({ mb: '6' })}>
      <PageHeading>{admin ? <Trans>Admin sign in</Trans> : <Trans>Sign in</Trans>}</PageHeading>
      <p className={mutedText} style={{ marginTop: '-1rem' }}>
        {admin ? <Trans>Sign in to the admin panel.</Trans> : <Trans>Welcome back. Sign in to your account.</Trans>}
      </p>
    </div>
  );
}

function useRealLoginMachine(admin: boolean): LoginMachine {
  const queryClient = useQueryClient();
  return useMemo(
    () =>
      loginMachine.provide({
        actors: createLoginActors({
          call,
          startAuthorization: async () => {
            const config = await queryClient.ensureQueryData(configQueryOptions());
            await startAuthorization({
              admin,
              origin: window.location.origin,
              config,
              writeStorage: (key: StorageKey, value: string) => writeStorage(key, value),
              redirect: (url) => window.location.assign(url),
            });
          },
        }),
        actions: { redirect: (_, params: { url: string }) => window.location.assign(params.url) },
      }),
    [admin, queryClient],
  );
}

function LoginFlow({ admin, search, machineOverride }: { admin: boolean; search: LoginSearch; machineOverride?: LoginMachine }) {
  const real = useRealLoginMachine(admin);
  const navigate = useNavigate();
  // Remember where the visitor wanted to go before the authorization round trip.
  useEffect(() => rememberOrigin(search.origin), [search.origin]);
  const [snapshot, send] = useMachine(machineOverride ?? real, { ...inspectOptions(), input: { admin, interaction: search.interaction ?? null } });

  const expired = snapshot.hasTag('route:expired-password');
  useEffect(() => {
    if (expired && snapshot.context.resetToken) {
      storeResetToken(snapshot.context.resetToken, admin);
      void navigate({ to: '/expired-password', search: admin ? { type: 'admin' } : {} });
    }
  }, [expired, snapshot.context.resetToken, admin, navigate]);

  const loading = snapshot.hasTag('loading');
  const { i18n } = useLingui();
  const error = errorInfoMessage(i18n, snapshot.context.error);

  if (snapshot.hasTag('route:two-factor')) {
    return (
      <AuthCard>
        <TwoFactorStep
          method={snapshot.hasTag('two-factor:recovery') ? 'recovery' : snapshot.hasTag('two-factor:sms') ? 'sms' : 'otp'}
          canResend={snapshot.hasTag('sms:can-resend')}
          loading={loading}
          error={error}
          onCode={(code) => send({ type: 'SUBMIT_CODE', code })}
          onRecovery={(recoveryCode) => send({ type: 'SUBMIT_RECOVERY_CODE', recoveryCode })}
          onUseRecovery={() => send({ type: 'USE_RECOVERY_CODE' })}
          onUseOtp={() => send({ type: 'USE_ONE_TIME_PASSWORD' })}
          onResend={() => send({ type: 'RESEND_CODE' })}
        />
      </AuthCard>
    );
  }

  if (snapshot.hasTag('route:login') && snapshot.context.interaction) {
    return (
      <AuthCard>
        <Heading admin={admin} />
        <CredentialsForm admin={admin} interaction={snapshot.context.interaction} loading={loading} error={error} onSubmit={(email, password) => send({ type: 'SUBMIT', email, password })} />
      </AuthCard>
    );
  }

  // Authorization starting (or failed to start): the browser is about to leave for the provider.
  return (
    <AuthCard>
      <Heading admin={admin} />
      {snapshot.value === 'authorizationFailed' ? (
        <div className={formStack}>
          <FormAlert>{error}</FormAlert>
          <Button size="lg" onClick={() => send({ type: 'RETRY' })}>
            <Trans>Try again</Trans>
          </Button>
        </div>
      ) : (
        <>
          <LoadingBar />
          <p className={mutedText}>
            <Trans>Redirecting to the secure sign-in…</Trans>
          </p>
        </>
      )}
    </AuthCard>
  );
}

const credentialsSchema = z.object({ email: emailField, password: z.string().min(1, 'required') });
type CredentialsValues = z.infer<typeof credentialsSchema>;

function CredentialsForm(props: { admin: boolean; interaction: string; loading: boolean; error: string | null; onSubmit: (email: string, password: string) => void }) {
  const { t } = useLingui();
  const fieldError = useFieldError();
  const config = useQuery(configQueryOptions());
  const providers = props.admin ? [] : (config.data?.sso_providers ?? []);
  const form = useForm<CredentialsValues>({ resolver: zodResolver(credentialsSchema), defaultValues: { email: '', password: '' } });
  const { errors } = form.formState;
  return (
    <form noValidate className={formStack} onSubmit={form.handleSubmit((v) => props.onSubmit(v.email, v.password))} aria-describedby={props.error ? 'login-error' : undefined}>
      {props.error ? (
        <div id="login-error">
          <FormAlert>{props.error}</FormAlert>
        </div>
      ) : null}
      <TextField label={t`E-mail`} type="email" autoComplete="username" required {...form.register('email')} errorText={fieldError(errors.email, t`E-mail`)} />
      <PasswordField label={t`Password`} autoComplete="current-password" required {...form.register('password')} errorText={fieldError(errors.password, t`Password`)} />
      <div className={css({ display: 'flex', justifyContent: 'flex-end', mt: '-2' })}>
        <Link to="/forgot-password" search={props.admin ? { type: 'admin' } : {}} className={linkClass}>
          <Trans>Forgot password?</Trans>
        </Link>
      </div>
      <SubmitButton loading={props.loading}>
        <Trans>Sign in</Trans>
      </SubmitButton>
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
                <a href={upstreamStartUrl(provider.id, props.interaction)} className={css({ display: 'flex', alignItems: 'center', justifyContent: 'center', height: '11', borderWidth: '1px', borderColor: 'border.strong', borderRadius: 'md', fontSize: 'sm', fontWeight: 'medium', color: 'fg.default', bg: 'bg.surface', _hover: { bg: 'bg.subtle' } })}>
                  <Trans>Continue with {provider.name}</Trans>
                </a>
              </li>
            ))}
          </ul>
        </>
      ) : null}
    </form>
  );
}

export interface TwoFactorStepProps {
  method: 'otp' | 'sms' | 'recovery';
  canResend: boolean;
  loading: boolean;
  error: string | null;
  onCode: (code: string) => void;
  onRecovery: (code: string) => void;
  onUseRecovery: () => void;
  onUseOtp: () => void;
  onResend: () => void;
}

/** Second step: 6-digit one-time password (authenticator or SMS) or a recovery code. */
export function TwoFactorStep(props: TwoFactorStepProps) {
  const { t } = useLingui();
  const [code, setCode] = useState<string[]>([]);
  const [recovery, setRecovery] = useState('');
  const [localError, setLocalError] = useState<string | null>(null);
  const submitted = useRef(false);
  const pinTranslations = usePinTranslations();
  const error = localError ?? props.error;

  useEffect(() => {
    // a failed attempt clears the digits so the next code can be typed at once
    if (props.error) setCode([]);
    submitted.current = false;
  }, [props.error]);

  const submitCode = (value: string) => {
    if (value.length === 0) return setLocalError(t`Please enter one time password`);
    if (!/^\d{6}$/.test(value)) return setLocalError(t`One time password is invalid`);
    setLocalError(null);
    submitted.current = true;
    props.onCode(value);
  };

  if (props.method === 'recovery') {
    const onSubmit = (event: FormEvent) => {
      event.preventDefault();
      if (!recovery.trim()) return setLocalError(t`Please enter a recovery code`);
      setLocalError(null);
      props.onRecovery(recovery.trim());
    };
    return (
      <form noValidate className={formStack} onSubmit={onSubmit}>
        <PageHeading>
          <Trans>Use a recovery code</Trans>
        </PageHeading>
        <p className={mutedText}>
          <Trans>Enter one of the recovery codes you saved when you turned on two-factor authentication. Each code works once.</Trans>
        </p>
        {error ? <FormAlert>{error}</FormAlert> : null}
        <TextField label={t`Recovery code`} name="recovery_code" autoComplete="one-time-code" value={recovery} onChange={(e) => setRecovery(e.currentTarget.value)} required />
        <SubmitButton loading={props.loading}>
          <Trans>Verify</Trans>
        </SubmitButton>
        <Button variant="link" onClick={props.onUseOtp}>
          <Trans>Use a one-time password instead</Trans>
        </Button>
      </form>
    );
  }

  const value = code.join('');
  return (
    <form
      noValidate
      className={formStack}
      onSubmit={(event) => {
        event.preventDefault();
        submitCode(value);
      }}
    >
      <PageHeading>
        <Trans>Two-factor verification</Trans>
      </PageHeading>
      <p className={mutedText}>
        {props.method === 'sms' ? (
          <Trans>We sent a 6-digit code to your phone. It may take up to a minute to arrive.</Trans>
        ) : (
          <Trans>Open your authenticator app and enter the 6-digit code for this account.</Trans>
        )}
      </p>
      {error ? <FormAlert>{error}</FormAlert> : null}
      <CodeInput
        label={t`One time password`}
        name="one_time_password"
        translations={pinTranslations}
        value={code}
        invalid={Boolean(error)}
        disabled={props.loading}
        onValueChange={(details) => {
          setCode(details.value);
          setLocalError(null);
        }}
        onValueComplete={(details) => {
          if (!submitted.current) submitCode(details.valueAsString);
        }}
      />
      <SubmitButton loading={props.loading}>
        <Trans>Verify</Trans>
      </SubmitButton>
      <div className={css({ display: 'flex', flexWrap: 'wrap', justifyContent: 'space-between', gap: '2' })}>
        {props.method === 'sms' ? (
          <Button variant="link" disabled={!props.canResend || props.loading} onClick={props.onResend}>
            {props.canResend ? <Trans>Resend code</Trans> : <Trans>Resend available in a minute</Trans>}
          </Button>
        ) : null}
        <Button variant="link" onClick={props.onUseRecovery}>
          <Trans>Use a recovery code</Trans>
        </Button>
      </div>
    </form>
  );
}

function SsoCallbackView({ admin, search, machineOverride }: { admin: boolean; search: LoginSearch; machineOverride?: SsoCallbackMachine }) {
  const session = useSessionValue();
  const navigate = useNavigate();
  const config = useQuery(configQueryOptions());
  if (!config.data && !machineOverride) {
    return (
      <AuthCard>
        <Heading admin={admin} />
        {config.isError ? (
          <FormAlert>
            <Trans>Error ocurred, please try again</Trans>
          </FormAlert>
        ) : (
          <LoadingBar />
        )}
      </AuthCard>
    );
  }
  return (
    <SsoCallbackRunner
      admin={admin}
      search={search}
      machine={
        machineOverride ??
        ssoCallbackMachine.provide({
          actors: createSsoActors({ exchangeCode: oidcClient.exchangeCode }),
          actions: {
            writeStorage: (_, p: { key: StorageKey; value: string }) => writeStorage(p.key, p.value),
            removeStorage: (_, p: { keys: StorageKey[] }) => p.keys.forEach((key) => writeStorage(key, null)),
            redirect: (_, p: { url: string }) => window.location.assign(p.url),
            tokensReceived: (_, p) => {
              session?.session?.send({ type: 'TOKENS_RECEIVED', tokens: p.tokens });
              const kind = p.tokens.client === 'admin-console' || admin ? 'admin' : 'user';
              void navigate({ to: afterLoginTarget(kind, takeOrigin()), replace: true });
            },
          },
        })
      }
      configData={config.data}
    />
  );
}

function SsoCallbackRunner({ admin, search, machine, configData }: { admin: boolean; search: LoginSearch; machine: SsoCallbackMachine; configData: Parameters<typeof startAuthorization>[0]['config'] | undefined }) {
  const { i18n } = useLingui();
  const [snapshot, send] = useMachine(machine, {
    ...inspectOptions(),
    input: {
      admin,
      origin: window.location.origin,
      config: configData ?? { authorization_endpoint: '', token_endpoint: '', scope: '', clients: { portal: 'portal', admin: 'admin-console' } },
      query: search,
      storedAuthorization: readStorage(STORAGE_KEYS.codeVerifier),
    },
  });
  return (
    <AuthCard>
      <Heading admin={admin} />
      {snapshot.hasTag('route:sso-error') ? (
        <div className={formStack}>
          <FormAlert>{errorInfoMessage(i18n, snapshot.context.error)}</FormAlert>
          <Button size="lg" onClick={() => send({ type: 'RETRY' })}>
            <Trans>Try again</Trans>
          </Button>
        </div>
      ) : (
        <>
          <LoadingBar />
          <p className={mutedText}>
            <Trans>Signing you in…</Trans>
          </p>
        </>
      )}
    </AuthCard>
  );
}
