/** Graph model of the session machine: sample events per outcome, used by the tests and `npm run paths`. */
import type { AnyMachineSnapshot, EventObject } from 'xstate';
import { sessionMachine, type SessionContext, type SessionEvent, type SessionInput } from './session.machine';
import type { Tokens } from './shared';
import { doneEvent, errorEvent, stateKey, type MachineModel } from './testing/graph';
import { CallFailureError } from './testing/failure';

export const sessionConfig: SessionInput['config'] = {
  token_endpoint: 'https://iam.test/op/token',
  end_session_endpoint: 'https://iam.test/op/session/end',
  clients: { portal: 'portal', admin: 'admin-console' },
};
export const ORIGIN = 'https://iam.test';

export const userTokens: Tokens = { access_token: 'at-user', refresh_token: 'rt-user', id_token: 'id-user', expires_at: 1_000, client: 'portal' };
/** Admin tokens without a refresh token: a 401 logs out directly. */
export const adminTokens: Tokens = { access_token: 'at-admin', refresh_token: null, id_token: 'id-admin', expires_at: 1_000, client: 'admin-console' };
export const refreshedTokens: Tokens = { ...userTokens, access_token: 'at-refreshed', refresh_token: 'rt-refreshed', id_token: 'id-refreshed' };
export const otherTabTokens: Tokens = { ...userTokens, access_token: 'at-other-tab', refresh_token: 'rt-other-tab' };

/** An unsigned JWT-shaped ID token with the given claims (the session only reads its `locale` claim). */
export function idTokenWith(claims: Record<string, unknown>): string {
  const part = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
  return `${part({ alg: 'none' })}.${part(claims)}.`;
}
/** A user whose profile says Italian (issue 14): the account's language wins at sign-in. */
export const italianUserTokens: Tokens = { ...userTokens, access_token: 'at-user-it', id_token: idTokenWith({ sub: 'u-it', locale: 'it' }) };

export const sessionInput: SessionInput = {
  config: sessionConfig,
  origin: ORIGIN,
  stored: { token: null, admin_session: null, locale: null },
};

/** A stored user session (the page is opened again after a sign-in). */
export const signedInInput: SessionInput = { ...sessionInput, stored: { token: JSON.stringify(userTokens), admin_session: 'false', locale: 'en' } };

const invalidGrant = new CallFailureError({ kind: 'http', status: 400, code: 'invalid_grant', message: 'invalid_grant' });

function events(snapshot: AnyMachineSnapshot): EventObject[] {
  const context = snapshot.context as SessionContext;
  const current = context.tokens?.access_token ?? null;
  const list: SessionEvent[] = [
    { type: 'TOKENS_RECEIVED', tokens: userTokens, qaVariant: 'user' },
    { type: 'TOKENS_RECEIVED', tokens: adminTokens, qaVariant: 'admin' },
    { type: 'TOKENS_RECEIVED', tokens: italianUserTokens, qaVariant: 'user with locale it' },
    { type: 'REQUEST_UNAUTHORIZED', accessToken: current },
    { type: 'LOGOUT' },
    { type: 'STORAGE_CHANGED', key: 'token', newValue: JSON.stringify(otherTabTokens), qaVariant: 'tokens added' },
    { type: 'STORAGE_CHANGED', key: 'token', newValue: null, qaVariant: 'tokens removed' },
    { type: 'PUBLIC_LINK_OPENED' },
    { type: 'LANGUAGE_CHANGED', locale: 'de' },
  ];
  return [
    ...list,
    doneEvent('saveLocale', { locale: 'de' }),
    errorEvent('saveLocale', new CallFailureError({ kind: 'network', message: 'fetch failed' })),
    doneEvent('refreshTokens', refreshedTokens),
    errorEvent('refreshTokens', invalidGrant),
    doneEvent('revokeTokens', { upstreamLogoutUrl: null }),
    // after a failed refresh the access token is refused too: the revoke answers 401
    errorEvent('revokeTokens', new CallFailureError({ kind: 'http', status: 401, code: 'invalid_token', message: 'invalid_token' })),
    doneEvent('revokeForLink', { upstreamLogoutUrl: null }),
    errorEvent('revokeForLink', new CallFailureError({ kind: 'network', message: 'fetch failed' })),
    doneEvent('revokeElsewhere', { upstreamLogoutUrl: null }),
    errorEvent('revokeElsewhere', new CallFailureError({ kind: 'http', status: 401, code: 'invalid_token', message: 'invalid_token' })),
  ];
}

/**
 * Simple paths over (state, access token): 1071 paths. Locale/error context
 * variants (guest language change, failed profile save) are self-loops under
 * this key, so `sessionContextModel` adds the shortest path to every
 * (state, tokens, admin, locale, error) — enumerating simple paths over that
 * full key explodes.
 */
export const sessionModel: MachineModel<typeof sessionMachine> = {
  name: 'session',
  title: 'Session (tokens, refresh, logout, cross-tab, language)',
  machine: sessionMachine,
  scenarios: [{ name: 'signed out at start', input: sessionInput }],
  events,
  strategy: 'simple',
  injectedActions: ['writeStorage', 'removeStorage', 'redirect', 'navigate', 'clearQueryCache', 'resetCachedData', 'applyLocale'],
  // (the stale-token replay, REQUEST_UNAUTHORIZED with an older token, is a self-loop: session.machine.test.ts 'details')
  expectedStates: [
    'unauthenticated',
    'authenticated.idle',
    'authenticated.savingLocale',
    'refreshing',
    'loggingOut',
    'leavingForLink',
    'signedOutElsewhere',
  ],
  finalStates: ['unauthenticated', 'authenticated.idle'],
  serializeState: (snapshot) => {
    const c = snapshot.context as SessionContext;
    return JSON.stringify([stateKey(snapshot.value), c.tokens?.access_token ?? null]);
  },
};

export const sessionContextModel: MachineModel<typeof sessionMachine> = {
  ...sessionModel,
  name: 'session-context',
  title: 'Session, shortest path to every context variant (tokens, admin, locale, error)',
  // 'signed in at start' (a stored session restored) is what lets the graph reach `unauthenticated` again: from the
  // first scenario every sign-out returns to the start state, which no simple or shortest path revisits, so the
  // revoke outcomes (logout, reset link, another tab) are walked from here.
  scenarios: [
    { name: 'signed out at start', input: sessionInput },
    { name: 'signed in at start', input: signedInInput },
  ],
  strategy: 'shortest',
  serializeState: (snapshot) => {
    const c = snapshot.context as SessionContext;
    return JSON.stringify([stateKey(snapshot.value), c.tokens?.access_token ?? null, c.admin, c.locale, c.error]);
  },
};
