/**
 * Login and admin login (docs/SPEC.md §2, docs/DESIGN.md §6). Three situations:
 * - back from the provider with `code`/`error`, or `type=sso&provider` → ssoCallback machine (sso-callback-view.tsx);
 * - `?interaction=` → login machine: credentials → 2FA (OTP / SMS / recovery) → redirect_to (login-flow.tsx);
 * - neither → login machine starts the OIDC authorization (PKCE).
 * Screens are chosen by the machines' state tags.
 */
import type { LoginMachine } from '../../../../machines/login.machine';
import type { SsoCallbackMachine } from '../../../../machines/ssoCallback.machine';
import { lazy, Suspense } from 'react';
import { LoginFlow } from './login-flow';
import type { LoginSearch } from './login-search';
import { ScreenLoading } from './status-screens';

// Needed only when coming back from a provider: the SSO-callback machine and its view are a chunk of their own, off
// the first load of /login (issue 15).
const SsoCallbackView = lazy(() => import('./sso-callback-view').then((m) => ({ default: m.SsoCallbackView })));

export interface LoginScreenProps {
  admin: boolean;
  search: LoginSearch;
  /** Tests pass a machine with fake actors; the app builds the real one. */
  loginMachineOverride?: LoginMachine;
  ssoMachineOverride?: SsoCallbackMachine;
}

export function LoginScreen({ admin, search, loginMachineOverride, ssoMachineOverride }: LoginScreenProps) {
  const isCallback = Boolean(search.code || search.error || (search.type === 'sso' && search.provider && search.interaction));
  if (isCallback)
    return (
      <Suspense fallback={<ScreenLoading admin={admin} />}>
        <SsoCallbackView admin={admin} search={search} machineOverride={ssoMachineOverride} />
      </Suspense>
    );
  // where the visitor wanted to go travels in the stored authorization (startAuthorization's returnTo)
  return <LoginFlow admin={admin} interaction={search.interaction ?? null} serviceApp={search.type === 'sso'} returnTo={search.origin} loginHint={search.login_hint} machineOverride={loginMachineOverride} />;
}
