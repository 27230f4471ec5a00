import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, waitFor, type AnyMachineSnapshot } from 'xstate';
import { afterSignInTarget, createSsoActors, parseStoredAuthorization, SSO_SCREENS, ssoCallbackMachine, startAuthorization, type AuthorizationRequestInput, type ExchangeCodeInput, type SsoCallbackContext } from './ssoCallback.machine';
import type { PkceAuthorizationRequest } from './pkce';
import { STORED_STATE, STORED_VERIFIER, SSO_ORIGIN, adminTokens, exchangedTokens, pkceRequest, ssoCallbackModel, ssoConfig, storedAuthorizationWithReturn } from './ssoCallback.model';
import { screenTags } from './testing/qa';
import { pathTitle, modelPaths, reachableStates, stateKey, walkPath } from './testing/graph';
import type { Tokens } from './shared';
import { ssoStart } from '../contract/auth';
import { pathOf } from '../contract/endpoint';

const paths = modelPaths(ssoCallbackModel);
const ctx = (s: AnyMachineSnapshot) => s.context as SsoCallbackContext;

describe('ssoCallback machine (model-based, every simple path per scenario)', () => {
  it('reaches exactly the expected states and every final/leaf state', () => {
    expect([...reachableStates(paths)].sort()).toEqual([...ssoCallbackModel.expectedStates].sort());
    for (const final of ssoCallbackModel.finalStates) expect(paths.some((p) => stateKey(p.state.value) === final)).toBe(true);
  });

  paths.forEach((path, index) => {
    it(pathTitle(path, index), () => {
      const result = walkPath(ssoCallbackModel, path);
      const end = ctx(result.snapshot);
      const input = path.input as SsoCallbackContext;
      const value = stateKey(result.snapshot.value);
      const types = path.steps.map((s) => s.event.type);

      // every authorization request is built for the right client and redirect URI
      for (const req of result.actorInputs('createAuthorizationRequest')) {
        expect(req).toEqual({
          authorizationEndpoint: ssoConfig.authorization_endpoint,
          clientId: input.admin ? 'admin-console' : 'portal',
          redirectUri: SSO_ORIGIN + (input.admin ? '/admin/login' : '/login'),
          scope: ssoConfig.scope,
        });
      }
      if (types.includes('xstate.done.actor.createAuthorizationRequest')) {
        // the new authorization keeps where the visitor wanted to go (the page's ?origin=, else the one of the sign-in
        // that came back, e.g. a retry after a failed exchange), nothing else
        const returnTo = input.query.origin ?? parseStoredAuthorization(input.storedAuthorization)?.returnTo;
        expect(result.actions('writeStorage')).toEqual([
          { key: 'code_verifier', value: JSON.stringify({ code_verifier: pkceRequest.codeVerifier, state: pkceRequest.state, ...(returnTo ? { returnTo } : {}) }) },
        ]);
        expect(result.actions('redirect')).toEqual([{ url: pkceRequest.url }]);
      }
      // the code is only exchanged when the state matched the stored one
      for (const req of result.actorInputs('exchangeCode')) {
        expect(input.query.state).toBe(STORED_STATE);
        expect(req).toEqual({
          tokenEndpoint: ssoConfig.token_endpoint,
          code: 'the-code',
          codeVerifier: STORED_VERIFIER,
          clientId: input.admin ? 'admin-console' : 'portal',
          redirectUri: `${SSO_ORIGIN}${input.admin ? '/admin/login' : '/login'}`,
        });
      }
      // every state the path shows has exactly one screen tag (transient states are never shown)
      for (const snapshot of result.snapshots) expect(screenTags(snapshot)).toHaveLength(1);
      if (value === 'authenticated') {
        const tokens = input.admin ? adminTokens : exchangedTokens;
        expect(result.actions('tokensReceived')).toEqual([{ tokens }]);
        expect(result.actions('removeStorage')).toEqual([{ keys: ['code_verifier'] }]);
        expect(end.tokens).toEqual(tokens);
        // the machine navigates: admins to the admin dashboard, others where they wanted to go (stored), else home
        const returnTo = parseStoredAuthorization(input.storedAuthorization)?.returnTo;
        expect(result.actions('navigate')).toEqual([input.admin ? { to: '/admin/dashboard', replace: true } : returnTo ? { href: returnTo, replace: true } : { to: '/', replace: true }]);
      } else {
        expect(result.actions('tokensReceived')).toEqual([]);
      }
      if (value === 'failed') {
        const last = types.at(-1);
        const expected =
          last === 'xstate.error.actor.exchangeCode' ? 'exchange_failed'
          : last === 'xstate.error.actor.createAuthorizationRequest' ? 'unexpected'
          : input.query.error === 'sso_failed' ? 'sso_failed'
          : input.query.error ? 'provider_error'
          : input.storedAuthorization ? 'state_mismatch' : 'missing_verifier';
        expect(end.error?.code).toBe(expected);
        expect(screenTags(result.snapshot)).toEqual([SSO_SCREENS.error]);
      }
      // the server's upstream-SSO answers: no account here → no "try again"; an expired callback → start over
      if (value === 'accountNotFound') {
        expect(['sso_account_not_found', 'sso_email_unverified']).toContain(input.query.error);
        expect(screenTags(result.snapshot)).toEqual([SSO_SCREENS.accountNotFound]);
        expect(result.snapshot.can({ type: 'RETRY' })).toBe(false);
      }
      if (value === 'expired') {
        expect(input.query.error).toBe('interaction_expired');
        expect(screenTags(result.snapshot)).toEqual([SSO_SCREENS.expired]);
      }
      if (value === 'leaving') {
        // back to the still open sign-in request's page, by the SPA router
        expect(result.actions('navigate')).toEqual([{ to: '/login', search: { interaction: 'uid-1' }, replace: true }]);
      }
      if (types.includes('BACK_TO_SIGN_IN') && !input.query.interaction) expect(result.actorInputs('createAuthorizationRequest')).toHaveLength(1);
      if (input.query.type === 'sso') {
        expect(value).toBe('redirecting');
        // the person's language goes upstream (ui_locales)
        expect(result.actions('redirect')).toEqual([{ url: `${pathOf(ssoStart, { provider: 'acme' })}?interaction=uid-1&ui_locales=de` }]);
      }
      if (['redirecting', 'authenticated', 'leaving'].includes(value)) expect(result.snapshot.status).toBe('done');
    });
  });
});

describe('afterSignInTarget and the stored authorization', () => {
  it('lands users where they wanted to go (same-site paths only: machines/sso-authorize.test.ts), admins on the dashboard', () => {
    expect(afterSignInTarget('user', '/profile')).toEqual({ href: '/profile' });
    expect(afterSignInTarget('user', '/profile?tab=security')).toEqual({ href: '/profile?tab=security' });
    expect(afterSignInTarget('user', undefined)).toEqual({ to: '/' });
    expect(afterSignInTarget('user', '//evil.example')).toEqual({ to: '/' });
    expect(afterSignInTarget('user', 'https://evil.example/')).toEqual({ to: '/' });
    expect(afterSignInTarget('user', '/login')).toEqual({ to: '/' });
    expect(afterSignInTarget('user', '/admin/users')).toEqual({ to: '/admin/dashboard' });
    expect(afterSignInTarget('admin', '/profile')).toEqual({ to: '/admin/dashboard' });
  });
  it('reads returnTo back only when it is a same-site path', () => {
    expect(parseStoredAuthorization(JSON.stringify({ code_verifier: 'v', state: 's', returnTo: '/x' }))).toEqual({ code_verifier: 'v', state: 's', returnTo: '/x' });
    expect(parseStoredAuthorization(JSON.stringify({ code_verifier: 'v', state: 's', returnTo: '//evil' }))).toEqual({ code_verifier: 'v', state: 's' });
  });
});

describe('a new sign-in after a failed exchange', () => {
  it('keeps the page the visitor wanted (found by the browser walk: /login?code=… carries no origin)', async () => {
    const writes: Array<{ key: string; value: string }> = [];
    const machine = ssoCallbackMachine.provide({
      actors: {
        createAuthorizationRequest: fromPromise<PkceAuthorizationRequest, AuthorizationRequestInput>(async () => pkceRequest),
        exchangeCode: fromPromise<Tokens, ExchangeCodeInput>(async () => {
          throw new Error('invalid_grant');
        }),
      },
      actions: {
        writeStorage: (_, params: { key: string; value: string }) => writes.push(params),
        removeStorage: () => {},
        redirect: () => {},
        navigate: () => {},
        tokensReceived: () => {},
      },
    });
    const actor = createActor(machine, {
      input: { admin: false, origin: SSO_ORIGIN, config: ssoConfig, query: { code: 'the-code', state: STORED_STATE }, storedAuthorization: storedAuthorizationWithReturn },
    }).start();
    await waitFor(actor, (s) => s.hasTag(SSO_SCREENS.error));
    actor.send({ type: 'RETRY' });
    await waitFor(actor, (s) => s.status === 'done');
    expect(writes).toHaveLength(1);
    expect(parseStoredAuthorization(writes[0]!.value)?.returnTo).toBe('/profile');
  });
});

describe('ssoCallback real actors', () => {
  it('exchangeCode passes the code, verifier, client and redirect URI and turns the answer into tokens', async () => {
    const exchanges: unknown[] = [];
    const { exchangeCode } = createSsoActors({
      exchangeCode: async (input) => {
        exchanges.push(input);
        return { access_token: 'a', refresh_token: 'r', id_token: 'i', expires_in: 10 };
      },
      now: () => 0,
    });
    const input = { tokenEndpoint: ssoConfig.token_endpoint, code: 'c', codeVerifier: 'v', clientId: 'portal', redirectUri: `${SSO_ORIGIN}/login` };
    const tokens = await new Promise<Tokens>((resolve, reject) => {
      const a = createActor(exchangeCode, { input });
      a.subscribe({ complete: () => resolve(a.getSnapshot().output!), error: reject });
      a.start();
    });
    expect(tokens).toEqual({ access_token: 'a', refresh_token: 'r', id_token: 'i', expires_at: 10_000, client: 'portal' });
    expect(exchanges).toEqual([input]);
  });

  it('startAuthorization stores verifier+state and redirects to the authorization endpoint with S256', async () => {
    const writes: Array<[string, string]> = [];
    const redirects: string[] = [];
    await startAuthorization({ admin: true, origin: SSO_ORIGIN, config: ssoConfig, returnTo: '/admin/users', writeStorage: (k, v) => writes.push([k, v]), redirect: (u) => redirects.push(u) });
    expect(writes[0]![0]).toBe('code_verifier');
    const stored = JSON.parse(writes[0]![1]) as { code_verifier: string; state: string; returnTo?: string };
    expect(stored.returnTo).toBe('/admin/users');
    expect(stored.code_verifier).toMatch(/^[A-Za-z0-9\-._~]{128}$/);
    expect(stored.state).toHaveLength(40);
    const url = new URL(redirects[0]!);
    expect(url.origin + url.pathname).toBe(ssoConfig.authorization_endpoint);
    expect(url.searchParams.get('client_id')).toBe('admin-console');
    expect(url.searchParams.get('redirect_uri')).toBe(`${SSO_ORIGIN}/admin/login`);
    expect(url.searchParams.get('state')).toBe(stored.state);
    expect(url.searchParams.get('code_challenge_method')).toBe('S256');
    expect(url.searchParams.get('response_type')).toBe('code');
    expect(url.searchParams.get('scope')).toBe(ssoConfig.scope);
  });
});
