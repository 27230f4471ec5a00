/**
 * The SSO / OIDC callback screens of /login and /admin/login (`?code=…`, `?error=…`, `?type=sso…`): the
 * ssoCallback machine (machines/ssoCallback.machine.ts) with its real actors and its navigation (`redirect`: full
 * page; `navigate`: the SPA route it decides, e.g. where the visitor wanted to go), and the screen its
 * `screen:sso.*` tag names. Reads tags (and the error through a selector) only.
 */
import { Trans, useLingui } from '@lingui/react/macro';
import { useQuery } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useMachine, useSelector } from '@xstate/react';
import { useMemo } from 'react';
import type { StorageKey } from '../../../../machines/shared';
import { STORAGE_KEYS } from '../../../../machines/shared';
import {
  createSsoActors,
  SSO_SCREENS,
  ssoCallbackMachine,
  type NavigateParams,
  type SsoCallbackMachine,
  type SsoError,
  type startAuthorization,
} from '../../../../machines/ssoCallback.machine';
import { configQueryOptions } from '../../../api/account';
import { oidcClient } from '../../../api/oidc';
import { LoadingBar } from '../../../components/loading-bar';
import { AuthCard } from '../../../components/page-heading';
import { Button } from '../../../components/ui/button';
import { inspectOptions } from '../../../lib/inspect';
import { useSessionValue } from '../../../lib/session-context';
import { readStorage, writeStorage } from '../../../lib/storage';
import { FormAlert, formStack, mutedText } from '../form-kit';
import { ScreenHeading } from './login-heading';
import type { LoginSearch } from './login-search';
import { SignInTitle } from './status-screens';

type ClientConfigData = Parameters<typeof startAuthorization>[0]['config'] & { sso_providers?: Array<{ id: string; name: string }> };

export function SsoCallbackView({ admin, search, machineOverride }: { admin: boolean; search: LoginSearch; machineOverride?: SsoCallbackMachine }) {
  const config = useQuery(configQueryOptions());
  if (!config.data && !machineOverride) {
    return (
      <AuthCard screen={config.isError ? SSO_SCREENS.error : SSO_SCREENS.signingIn}>
        <ScreenHeading title={<SignInTitle admin={admin} />} />
        {config.isError ? (
          <FormAlert>
            <Trans>An error occurred, please try again</Trans>
          </FormAlert>
        ) : (
          <LoadingBar />
        )}
      </AuthCard>
    );
  }
  return <SsoCallbackRunner admin={admin} search={search} machineOverride={machineOverride} configData={config.data} />;
}

function useRealSsoMachine(admin: boolean): SsoCallbackMachine {
  const session = useSessionValue();
  const navigate = useNavigate();
  return useMemo(
    () =>
      ssoCallbackMachine.provide({
        actors: createSsoActors({ exchangeCode: oidcClient.exchangeCode }),
        actions: {
          writeStorage: (_, p: { key: StorageKey; value: string }) => writeStorage(p.key, p.value),
          removeStorage: (_, p: { keys: StorageKey[] }) => p.keys.forEach((key) => writeStorage(key, null)),
          redirect: (_, p: { url: string }) => window.location.assign(p.url),
          navigate: (_, p: NavigateParams) => {
            if ('href' in p) void navigate({ href: p.href, replace: p.replace ?? false });
            else void navigate({ to: p.to, search: p.search ?? {}, replace: p.replace ?? false });
          },
          tokensReceived: (_, p) => session?.session?.send({ type: 'TOKENS_RECEIVED', tokens: p.tokens }),
        },
      }),
    // the machine is built once per page: the session and the router do not change under it
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [admin],
  );
}

function SsoCallbackRunner({ admin, search, machineOverride, configData }: { admin: boolean; search: LoginSearch; machineOverride?: SsoCallbackMachine; configData: ClientConfigData | undefined }) {
  const { i18n } = useLingui();
  const real = useRealSsoMachine(admin);
  const [snapshot, send, actor] = useMachine(machineOverride ?? real, {
    ...inspectOptions(),
    input: {
      admin,
      origin: window.location.origin,
      config: configData ?? { authorization_endpoint: '', token_endpoint: '', scope: '', clients: { portal: 'portal', admin: 'admin-console' } },
      query: search,
      storedAuthorization: readStorage(STORAGE_KEYS.codeVerifier),
      locale: i18n.locale,
    },
  });
  const error = useSelector(actor, (s) => s.context.error);
  const providerId = useSelector(actor, (s) => s.context.query.provider ?? null);
  const queryError = useSelector(actor, (s) => s.context.query.error ?? null);
  const providerName = configData?.sso_providers?.find((p) => p.id === providerId)?.name ?? null;

  if (snapshot.hasTag(SSO_SCREENS.accountNotFound)) {
    const reason = queryError === 'sso_email_missing' || queryError === 'sso_email_unverified' ? queryError : 'sso_account_not_found';
    return <AccountNotFoundScreen admin={admin} providerName={providerName} reason={reason} onBack={() => send({ type: 'BACK_TO_SIGN_IN' })} />;
  }
  if (snapshot.hasTag(SSO_SCREENS.expired)) return <SsoExpiredScreen admin={admin} onStartOver={() => send({ type: 'START_OVER' })} />;
  if (snapshot.hasTag(SSO_SCREENS.error)) return <SsoErrorScreen admin={admin} error={error} onRetry={() => send({ type: 'RETRY' })} />;
  return <SigningInScreen admin={admin} />;
}

/** `screen:sso.signing-in`: the code is being exchanged, or the browser is on its way (provider, app). */
function SigningInScreen({ admin }: { admin: boolean }) {
  return (
    <AuthCard screen={SSO_SCREENS.signingIn}>
      <ScreenHeading title={<SignInTitle admin={admin} />} />
      <LoadingBar />
      <p className={mutedText}>
        <Trans>Signing you in…</Trans>
      </p>
    </AuthCard>
  );
}

function SsoErrorMessage({ error }: { error: SsoError | null }) {
  if (error?.code === 'sso_failed') return <Trans>Signing in through your organization's provider did not work. Please try again.</Trans>;
  return <Trans>Sign-in could not be completed. Please try again.</Trans>;
}

/** `screen:sso.error`: the sign-in could not be completed; trying again may help. */
function SsoErrorScreen({ admin, error, onRetry }: { admin: boolean; error: SsoError | null; onRetry: () => void }) {
  return (
    <AuthCard screen={SSO_SCREENS.error}>
      <ScreenHeading title={<SignInTitle admin={admin} />} />
      <div className={formStack}>
        <FormAlert>
          <SsoErrorMessage error={error} />
        </FormAlert>
        <Button size="lg" onClick={onRetry}>
          <Trans>Try again</Trans>
        </Button>
      </div>
    </AuthCard>
  );
}

/** Why no account signs in: none here uses the identity, or the upstream sent no address / did not vouch for it. */
type NoAccountReason = 'sso_account_not_found' | 'sso_email_missing' | 'sso_email_unverified';

function NoAccountMessage({ providerName, reason }: { providerName: string | null; reason: NoAccountReason }) {
  const { t } = useLingui();
  const provider = providerName ?? t`Your organization's provider`;
  if (reason === 'sso_email_missing') {
    return <Trans>{provider} did not send your e-mail address, so no account here can be found for you. Trying again will not help: tell an administrator, the error log names what is missing.</Trans>;
  }
  if (reason === 'sso_email_unverified') {
    return <Trans>{provider} did not confirm that your e-mail address is verified, so no account here can be matched to it. Trying again will not help: tell an administrator, the error log names what is missing.</Trans>;
  }
  return providerName ? (
    <Trans>You signed in with {providerName}, but no account here uses it. Trying again will not help: ask an administrator to give you access.</Trans>
  ) : (
    <Trans>You signed in with your organization's provider, but no account here uses it. Trying again will not help: ask an administrator to give you access.</Trans>
  );
}

/** `screen:sso.account-not-found`: the provider knows the person, no account here signs in with it; no retry. */
function AccountNotFoundScreen({ admin, providerName, reason, onBack }: { admin: boolean; providerName: string | null; reason: NoAccountReason; onBack: () => void }) {
  return (
    <AuthCard screen={SSO_SCREENS.accountNotFound}>
      <ScreenHeading title={<Trans>No account for this sign-in</Trans>} />
      <div className={formStack}>
        <FormAlert>
          <NoAccountMessage providerName={providerName} reason={reason} />
        </FormAlert>
        <Button size="lg" variant="outline" onClick={onBack}>
          {admin ? <Trans>Back to admin sign in</Trans> : <Trans>Back to sign in</Trans>}
        </Button>
      </div>
    </AuthCard>
  );
}

/** `screen:sso.expired`: a reloaded or reused sign-in link (or one opened in another browser). */
function SsoExpiredScreen({ admin, onStartOver }: { admin: boolean; onStartOver: () => void }) {
  return (
    <AuthCard screen={SSO_SCREENS.expired}>
      <ScreenHeading title={<Trans>Sign-in link expired</Trans>} />
      <div className={formStack}>
        <p className={mutedText}>
          <Trans>This sign-in link has expired or was already used. Please sign in again.</Trans>
        </p>
        <Button size="lg" onClick={onStartOver}>
          {admin ? <Trans>Admin sign in</Trans> : <Trans>Sign in again</Trans>}
        </Button>
      </div>
    </AuthCard>
  );
}
