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

export const pkceRequest: PkceAuthorizationRequest = {
  codeVerifier: 'n'.repeat(128),
  state: 't'.repeat(40),
  codeChallenge: 'challenge',
  codeChallengeMethod: 'S256',
  url: 'https://iam.test/op/auth?client_id=portal&state=tttt',
};
export const exchangedTokens: Tokens = { access_token: 'at', refresh_token: 'rt', id_token: 'it', expires_at: 1, client: 'portal' };

const base: SsoCallbackInput = { admin: false, origin: SSO_ORIGIN, config: ssoConfig, query: {}, storedAuthorization: null };

export const ssoScenarios: Array<{ name: string; input: SsoCallbackInput }> = [
  { name: '/login without parameters (start authorization)', input: base },
  { name: '/admin/login without parameters (admin client)', input: { ...base, admin: true } },
  { name: '/login?code&state (state matches)', input: { ...base, query: { code: 'the-code', state: STORED_STATE }, storedAuthorization } },
  { name: '/login?code&state (state mismatch)', input: { ...base, query: { code: 'the-code', state: 'forged' }, storedAuthorization } },
  { name: '/login?code&state (no stored verifier)', input: { ...base, query: { code: 'the-code', state: STORED_STATE } } },
  { name: '/login?error=access_denied', input: { ...base, query: { error: 'access_denied' } } },
  { name: '/login?type=sso&provider&interaction (upstream provider)', input: { ...base, query: { type: 'sso', provider: 'acme', interaction: 'uid-1' } } },
];

function events(_snapshot: AnyMachineSnapshot): EventObject[] {
  return [
    { type: 'RETRY' },
    doneEvent('createAuthorizationRequest', pkceRequest),
    errorEvent('createAuthorizationRequest', new Error('crypto unavailable')),
    doneEvent('exchangeCode', exchangedTokens),
    errorEvent('exchangeCode', new CallFailureError({ kind: 'http', status: 400, code: 'invalid_grant', message: 'invalid_grant' })),
  ];
}

export const ssoCallbackModel: MachineModel<typeof ssoCallbackMachine> = {
  name: 'ssoCallback',
  title: 'SSO callback (PKCE authorize, state check, code exchange, provider errors, upstream provider)',
  machine: ssoCallbackMachine,
  scenarios: ssoScenarios,
  events,
  strategy: 'simple',
  injectedActions: ['writeStorage', 'removeStorage', 'redirect', 'tokensReceived'],
  expectedStates: ['preparing', 'redirecting', 'exchanging', 'authenticated', 'failed'],
  finalStates: ['redirecting', 'authenticated', 'failed'],
};
