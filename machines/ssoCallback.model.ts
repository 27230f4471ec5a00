/** Graph model of the SSO callback machine: one scenario per query string the page can be opened with. */
import type { AnyMachineSnapshot, EventObject } from 'xstate';
import { CallFailureError } from './testing/failure';
import type { PkceAuthorizationRequest } from './pkce';
import { ssoCallbackMachine, type SsoCallbackInput } from './ssoCallback.machine';
import type { Tokens } from './shared';
import { doneEvent, errorEvent, type MachineModel } from './testing/graph';

export const ssoConfig: SsoCallbackInput['config'] = {
  authorization_endpoint: 'https://iam.test/op/auth',
  token_endpoint: 'https://iam.test/op/token',
  scope: 'openid profile email offline_access',
  clients: { portal: 'portal', admin: 'admin-console' },
};
export const SSO_ORIGIN = 'https://iam.test';
export const STORED_STATE = 's'.repeat(40);
export const STORED_VERIFIER = 'v'.repeat(128);
export const storedAuthorization = JSON.stringify({ code_verifier: STORED_VERIFIER, state: STORED_STATE });
/** Stored by startAuthorization for `/login?origin=/profile`: the landing path travels with verifier and state. */
export const storedAuthorizationWithReturn = JSON.stringify({ code_verifier: STORED_VERIFIER, state: STORED_STATE, returnTo: '/profile' });

export const pkceRequest: PkceAuthorizationRequest = {
  codeVerifier: 'n'.repeat(128),
  state: 't'.repeat(40),
  codeChallenge: 'challenge',
  codeChallengeMethod: 'S256',
  url: 'https://iam.test/op/auth?client_id=portal&state=tttt',
};
export const exchangedTokens: Tokens = { access_token: 'at', refresh_token: 'rt', id_token: 'it', expires_at: 1, client: 'portal' };
export const adminTokens: Tokens = { ...exchangedTokens, client: 'admin-console' };

const base: SsoCallbackInput = { admin: false, origin: SSO_ORIGIN, config: ssoConfig, query: {}, storedAuthorization: null };

export const ssoScenarios: Array<{ name: string; input: SsoCallbackInput }> = [
  { name: '/login without parameters (start authorization)', input: base },
  { name: '/admin/login without parameters (admin client)', input: { ...base, admin: true } },
  { name: '/login?code&state (state matches)', input: { ...base, query: { code: 'the-code', state: STORED_STATE }, storedAuthorization } },
  { name: '/login?code&state (state mismatch)', input: { ...base, query: { code: 'the-code', state: 'forged' }, storedAuthorization } },
  { name: '/login?code&state (no stored verifier)', input: { ...base, query: { code: 'the-code', state: STORED_STATE } } },
  { name: '/admin/login?code&state (admin client, state matches)', input: { ...base, admin: true, query: { code: 'the-code', state: STORED_STATE }, storedAuthorization } },
  { name: '/login?code&state after /login?origin=/profile', input: { ...base, query: { code: 'the-code', state: STORED_STATE }, storedAuthorization: storedAuthorizationWithReturn } },
  { name: '/login?origin=/profile&error=access_denied (retry keeps the origin)', input: { ...base, query: { origin: '/profile', error: 'access_denied' } } },
  { name: '/login?error=access_denied', input: { ...base, query: { error: 'access_denied' } } },
  { name: '/login?type=sso&provider&interaction (upstream provider)', input: { ...base, query: { type: 'sso', provider: 'acme', interaction: 'uid-1' }, locale: 'de' } },
  { name: '/login?interaction&error=sso_failed (upstream provider failed)', input: { ...base, query: { interaction: 'uid-1', error: 'sso_failed', provider: 'acme' } } },
  { name: '/login?interaction&error=sso_account_not_found (no SSO account here)', input: { ...base, query: { interaction: 'uid-1', error: 'sso_account_not_found', provider: 'acme' } } },
  { name: '/login?error=sso_account_not_found (interaction gone)', input: { ...base, query: { error: 'sso_account_not_found' } } },
  { name: '/login?interaction&error=sso_email_unverified (the upstream did not vouch for the address)', input: { ...base, query: { interaction: 'uid-1', error: 'sso_email_unverified', provider: 'acme' } } },
  { name: '/login?error=interaction_expired (reloaded or reused SSO callback)', input: { ...base, query: { error: 'interaction_expired' } } },
];

function events(snapshot: AnyMachineSnapshot): EventObject[] {
  return [
    { type: 'RETRY' },
    { type: 'START_OVER' },
    { type: 'BACK_TO_SIGN_IN' },
    doneEvent('createAuthorizationRequest', pkceRequest),
    errorEvent('createAuthorizationRequest', new Error('crypto unavailable')),
    doneEvent('exchangeCode', snapshot.context.admin ? adminTokens : exchangedTokens),
    errorEvent('exchangeCode', new CallFailureError({ kind: 'http', status: 400, code: 'invalid_grant', message: 'invalid_grant' })),
  ];
}

export const ssoCallbackModel: MachineModel<typeof ssoCallbackMachine> = {
  name: 'ssoCallback',
  title: 'SSO callback (PKCE authorize, state check, code exchange, landing where the visitor wanted, provider errors, upstream provider and its answers)',
  machine: ssoCallbackMachine,
  scenarios: ssoScenarios,
  events,
  strategy: 'simple',
  injectedActions: ['writeStorage', 'removeStorage', 'redirect', 'navigate', 'tokensReceived'],
  expectedStates: ['preparing', 'redirecting', 'exchanging', 'authenticated', 'failed', 'accountNotFound', 'expired', 'leaving'],
  finalStates: ['redirecting', 'authenticated', 'failed', 'accountNotFound', 'expired', 'leaving'],
};
