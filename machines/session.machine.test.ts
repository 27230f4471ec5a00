import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, type AnyMachineSnapshot, type EventObject } from 'xstate';
import { createSessionActors, endSessionUrl, readStoredSession, sessionMachine, type SessionContext, type SessionEvent } from './session.machine';
import { ORIGIN, adminTokens, sessionConfig, sessionContextModel, sessionInput, sessionModel, userTokens } from './session.model';
import { pathTitle, modelPaths, reachableStates, stateKey, walkPath, type Recorded } from './testing/graph';
import type { Tokens } from './shared';


function ctx(snapshot: AnyMachineSnapshot): SessionContext {
  return snapshot.context as SessionContext;
}
const action = (name: string, data?: unknown): Recorded => ({ kind: 'action', name, data });
const actor = (name: string, data: unknown): Recorded => ({ kind: 'actor', name, data });
const loginPath = (admin: boolean) => (admin ? '/admin/login' : '/login');

/** The effects the spec requires for one transition (the oracle the walk is compared with). */
function expectedEffects(prev: AnyMachineSnapshot, event: EventObject, next: AnyMachineSnapshot): Recorded[] {
  const before = ctx(prev);
  const after = ctx(next);
  const from = stateKey(prev.value);
  const to = stateKey(next.value);
  const e = event as SessionEvent | (EventObject & { output?: unknown });
  const out: Recorded[] = [];
  switch (e.type) {
    case 'TOKENS_RECEIVED':
      if ('tokens' in e) {
        out.push(action('writeStorage', { key: 'token', value: JSON.stringify(e.tokens) }));
        out.push(action('writeStorage', { key: 'admin_session', value: String(e.tokens.client === 'admin-console') }));
      }
      break;
    case 'STORAGE_CHANGED':
      if (to === 'unauthenticated') out.push(action('clearQueryCache'), action('navigate', { to: loginPath(before.admin) }));
      break;
    case 'EXTERNAL_UNAUTHORIZED':
      if ('adminArea' in e) {
        out.push(action('clearQueryCache'), action('removeStorage', { keys: ['token', 'admin_session'] }), action('navigate', { to: loginPath(e.adminArea) }));
      }
      break;
    case 'LANGUAGE_CHANGED':
      out.push(action('writeStorage', { key: 'locale', value: 'de' }));
      if (to === 'authenticated.savingLocale') out.push(actor('saveLocale', { admin: before.admin, locale: 'de' }));
      break;
    case 'xstate.done.actor.saveLocale':
      out.push(action('resetCachedData'));
      break;
    case 'xstate.done.actor.refreshTokens':
      out.push(action('writeStorage', { key: 'token', value: JSON.stringify(e.output) }));
      break;
    case 'xstate.done.actor.revokeTokens':
    case 'xstate.error.actor.revokeTokens':
      out.push(action('removeStorage', { keys: ['token', 'admin_session'] }), action('redirect', { url: endSessionUrl(before) }));
      break;
  }
  if (to === 'refreshing' && from !== 'refreshing') {
    out.push(actor('refreshTokens', { tokenEndpoint: sessionConfig.token_endpoint, refreshToken: before.tokens!.refresh_token, clientId: before.tokens!.client }));
  }
  if (to === 'loggingOut' && from !== 'loggingOut') out.push(action('clearQueryCache'), actor('revokeTokens', { tokens: before.tokens }));
  void after;
  return out;
}

for (const model of [sessionModel, sessionContextModel]) {
  const paths = modelPaths(model);
  describe(`session machine (model-based, ${model.strategy} paths: ${paths.length}, key ${model.name === 'session' ? '(state, access token)' : '(state, tokens, admin, locale, error)'})`, () => {
    it('reaches exactly the expected states', () => {
      expect([...reachableStates(paths)].sort()).toEqual([...model.expectedStates].sort());
      for (const final of model.finalStates) expect(paths.some((p) => stateKey(p.state.value) === final)).toBe(true);
    });

    paths.forEach((path, index) => {
      it(pathTitle(path, index), () => {
        const result = walkPath(model, path);
        for (let i = 1; i < path.steps.length; i++) {
          const prev = result.snapshots[i - 1]!;
          const step = path.steps[i]!;
          expect(result.stepLogs[i], `step ${i} ${step.event.type}`).toEqual(expectedEffects(prev, step.event, result.snapshots[i]!));
        }
        const end = ctx(result.snapshot);
        const value = stateKey(result.snapshot.value);
        if (value.startsWith('authenticated') || value === 'refreshing') expect(end.tokens).not.toBeNull();
        if (value === 'unauthenticated' || value === 'authenticating') expect(end.tokens).toBeNull();
        const types = path.steps.map((s) => s.event.type);
        if (types.includes('xstate.done.actor.revokeTokens') || types.includes('xstate.error.actor.revokeTokens')) {
          expect(result.actions('redirect')).toHaveLength(1);
        }
      });
    });
  });
}

describe('session machine details', () => {
  it('restores a stored session (admin flag from admin_session) and starts signed in', () => {
    const actorRef = createActor(sessionMachine, {
      input: { ...sessionInput, stored: { token: JSON.stringify(adminTokens), admin_session: 'true', locale: 'fr' } },
    }).start();
    const snap = actorRef.getSnapshot();
    expect(snap.value).toEqual({ authenticated: 'idle' });
    expect(snap.context).toMatchObject({ tokens: adminTokens, admin: true, locale: 'fr' });
    expect(snap.hasTag('session:signed-in')).toBe(true);
  });

  it('treats unparsable stored tokens as signed out', () => {
    const actorRef = createActor(sessionMachine, { input: { ...sessionInput, stored: { token: '{nope', admin_session: null, locale: null } } }).start();
    expect(actorRef.getSnapshot().value).toBe('unauthenticated');
  });

  it('readStoredSession reads the spec keys', () => {
    const store = new Map([['token', 'x'], ['admin_session', 'true'], ['locale', 'de']]);
    expect(readStoredSession({ getItem: (k) => store.get(k) ?? null })).toEqual({ token: 'x', admin_session: 'true', locale: 'de' });
  });

  it('end-session URL: admin uses the admin login and client', () => {
    const url = new URL(endSessionUrl({ config: sessionConfig, origin: ORIGIN, tokens: adminTokens, admin: true }));
    expect(url.origin + url.pathname).toBe(sessionConfig.end_session_endpoint);
    expect(Object.fromEntries(url.searchParams)).toEqual({
      id_token_hint: 'id-admin',
      post_logout_redirect_uri: `${ORIGIN}/admin/login`,
      client_id: 'admin-console',
    });
  });

  it('real actors: refresh turns the token endpoint answer into stored tokens; saveLocale answers the saved locale', async () => {
    const refreshes: unknown[] = [];
    const saves: unknown[] = [];
    const impl = createSessionActors({
      refresh: async (input) => {
        refreshes.push(input);
        return { access_token: 'new', refresh_token: 'rt2', id_token: 'id2', expires_in: 60 };
      },
      saveLocale: async (input) => {
        saves.push(input);
        return { locale: input.locale };
      },
      now: () => 1_000,
    });
    const done = await new Promise<Tokens>((resolve, reject) => {
      const a = createActor(impl.refreshTokens, { input: { tokenEndpoint: sessionConfig.token_endpoint, refreshToken: 'rt-user', clientId: 'portal' } });
      a.subscribe({ complete: () => resolve(a.getSnapshot().output!), error: reject });
      a.start();
    });
    expect(done).toEqual({ access_token: 'new', refresh_token: 'rt2', id_token: 'id2', expires_at: 61_000, client: 'portal' });
    expect(refreshes).toEqual([{ tokenEndpoint: sessionConfig.token_endpoint, refreshToken: 'rt-user', clientId: 'portal' }]);

    const saved = await new Promise<{ locale: string }>((resolve, reject) => {
      const a = createActor(impl.saveLocale, { input: { admin: true, locale: 'it' } });
      a.subscribe({ complete: () => resolve(a.getSnapshot().output!), error: reject });
      a.start();
    });
    expect(saved).toEqual({ locale: 'it' });
    expect(saves).toEqual([{ admin: true, locale: 'it' }]);
  });

  it('signed-in language change keeps working when the save fails (error code kept)', () => {
    const a = createActor(
      sessionMachine.provide({
        actors: { saveLocale: fromPromise(() => Promise.reject(new Error('x'))) },
        actions: { writeStorage: () => {}, resetCachedData: () => {} },
      }),
      { input: { ...sessionInput, stored: { token: JSON.stringify(userTokens), admin_session: 'false', locale: null } } },
    ).start();
    a.send({ type: 'LANGUAGE_CHANGED', locale: 'de' });
    expect(a.getSnapshot().value).toEqual({ authenticated: 'savingLocale' });
  });
});

describe('inspector wiring', () => {
  it('attaches only in development with ?inspect', async () => {
    const { shouldInspect, inspect } = await import('./inspect');
    expect(shouldInspect(true, '?inspect')).toBe(true);
    expect(shouldInspect(true, '?foo=1&inspect=1')).toBe(true);
    expect(shouldInspect(true, '')).toBe(false);
    expect(shouldInspect(false, '?inspect')).toBe(false);
    expect(shouldInspect(true, undefined)).toBe(false);
    expect(inspect).toBeUndefined(); // node: no window
  });
});
