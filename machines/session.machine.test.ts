import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, waitFor, type AnyMachineSnapshot, type EventObject } from 'xstate';
import { accountLocale, createSessionActors, endSessionUrl, readStoredSession, sessionMachine, type RefreshInput, type RevokeOutput, type SessionContext, type SessionEvent } from './session.machine';
import {
  ORIGIN,
  adminTokens,
  idTokenWith,
  italianUserTokens,
  refreshedTokens,
  sessionConfig,
  sessionContextModel,
  sessionInput,
  sessionModel,
  userTokens,
} from './session.model';
import { sessionContextQa, sessionQa } from './session.qa';
import { screenTags, stepKey, transitionPaths } from './testing/qa';
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
        // issue 14: the account's saved language (ID token claim) wins over the guest's stored choice
        const locale = accountLocale(e.tokens);
        if (locale) out.push(action('writeStorage', { key: 'locale', value: locale }), action('applyLocale', { locale }));
      }
      break;
    case 'STORAGE_CHANGED':
      // signed in in another tab while signed out here: this account's home
      if (from === 'unauthenticated' && to.startsWith('authenticated')) out.push(action('navigate', { to: after.admin ? '/admin/dashboard' : '/' }));
      break;
    case 'xstate.done.actor.revokeElsewhere':
    case 'xstate.error.actor.revokeElsewhere':
      // signed out by another tab: this area's login page, storage untouched (it is already empty there)
      out.push(action('navigate', { to: loginPath(before.admin) }));
      break;
    case 'xstate.done.actor.revokeForLink':
    case 'xstate.error.actor.revokeForLink':
      // reset/verify page: tokens cleared, no redirect, no navigation (the page stays)
      out.push(action('removeStorage', { keys: ['token', 'admin_session'] }));
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
  // every way of signing out revokes the grant server-side first (POST /api/logout)
  if (['loggingOut', 'leavingForLink', 'signedOutElsewhere'].includes(to) && from !== to) out.push(action('clearQueryCache'), actor('revokeTokens', { tokens: before.tokens }));
  return out;
}

/**
 * Every transition of the context model (every serialized state × every event it handles, both scenarios) at least
 * once, chained (`transitionPaths`, the browser walk's coverage too): simple and shortest paths never revisit a state,
 * so they miss the transitions back into one already seen (every sign-out's outcome returns to `unauthenticated`).
 */
const everyTransition = transitionPaths(sessionContextModel);

describe(`session machine (every transition: ${everyTransition.length} chained paths)`, () => {
  it('walks every transition with the effects the spec requires', () => {
    for (const [index, path] of everyTransition.entries()) {
      const result = walkPath(sessionContextModel, path);
      for (let i = 1; i < path.steps.length; i++) {
        const step = path.steps[i]!;
        expect(result.stepLogs[i], `${pathTitle(path, index)} step ${i} ${step.event.type}`).toEqual(expectedEffects(result.snapshots[i - 1]!, step.event, result.snapshots[i]!));
      }
    }
  });
});

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
        if (value === 'unauthenticated') expect(end.tokens).toBeNull();
        const types = path.steps.map((s) => s.event.type);
        const logouts = types.filter((t) => t === 'xstate.done.actor.revokeTokens' || t === 'xstate.error.actor.revokeTokens').length;
        // only an own logout leaves for the end-session page; another tab's sign-out or a reset link never redirects
        expect(result.actions('redirect')).toHaveLength(logouts);
        // nothing but a sign-in (TOKENS_RECEIVED) or a refresh writes the token key: a sign-out elsewhere is never written back
        const writes = (result.actions('writeStorage') as Array<{ key: string }>).filter((w) => w.key === 'token').length;
        expect(writes).toBe(types.filter((t) => t === 'TOKENS_RECEIVED' || t === 'xstate.done.actor.refreshTokens').length);
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
      revoke: async () => ({ upstreamLogoutUrl: null }),
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

  it('a 401 of a request sent with an older token only replays: the refresh already happened (no second refresh)', () => {
    const a = createActor(sessionMachine, { input: { ...sessionInput, stored: { token: JSON.stringify(userTokens), admin_session: 'false', locale: null } } }).start();
    a.send({ type: 'REQUEST_UNAUTHORIZED', accessToken: 'at-stale' });
    expect(a.getSnapshot().value).toEqual({ authenticated: 'idle' });
    expect(a.getSnapshot().context.tokens).toEqual(userTokens);
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

/**
 * Two tabs of one browser: two session actors over one shared localStorage; a write in one tab reaches the other as a
 * `storage` event (STORAGE_CHANGED), like the browser does (never to the writing tab itself).
 */
function twoTabs(options: { stored: Record<string, string>; refresh?: () => Promise<Tokens>; upstreamLogoutUrl?: string }) {
  const store = new Map(Object.entries(options.stored));
  const log: string[] = [];
  const tabs: Array<ReturnType<typeof createActor<typeof sessionMachine>>> = [];
  const makeTab = (name: string) => {
    const storageEvent = (key: string, newValue: string | null) => {
      for (const other of tabs) if (other !== tabs[name === 'A' ? 0 : 1]) other.send({ type: 'STORAGE_CHANGED', key, newValue });
    };
    const machine = sessionMachine.provide({
      actors: {
        revokeTokens: fromPromise<RevokeOutput, { tokens: Tokens }>(async ({ input }) => {
          log.push(`${name} revoke ${input.tokens.access_token} (token stored: ${store.has('token')})`);
          return { upstreamLogoutUrl: options.upstreamLogoutUrl ?? null };
        }),
        refreshTokens: fromPromise<Tokens, RefreshInput>(() => (options.refresh ? options.refresh() : new Promise<never>(() => {}))),
        saveLocale: fromPromise(async () => ({ locale: 'en' })),
      },
      actions: {
        writeStorage: (_, p: { key: string; value: string }) => {
          log.push(`${name} write ${p.key}`);
          store.set(p.key, p.value);
          storageEvent(p.key, p.value);
        },
        removeStorage: (_, p: { keys: string[] }) => {
          for (const key of p.keys) {
            log.push(`${name} remove ${key}`);
            store.delete(key);
            storageEvent(key, null);
          }
        },
        redirect: (_, p: { url: string }) => void log.push(`${name} redirect ${new URL(p.url).pathname}`),
        navigate: (_, p: { to: string }) => void log.push(`${name} navigate ${p.to}`),
        clearQueryCache: () => void log.push(`${name} clear cache`),
        resetCachedData: () => {},
        applyLocale: (_, p: { locale: string }) => void log.push(`${name} apply ${p.locale}`),
      },
    });
    const tab = createActor(machine, { input: { ...sessionInput, stored: readStoredSession({ getItem: (k) => store.get(k) ?? null }) } });
    tabs.push(tab);
    return tab;
  };
  const a = makeTab('A');
  const b = makeTab('B');
  a.start();
  b.start();
  /** Another tab (or the person in devtools) removes the key directly. */
  const removeElsewhere = (key: string) => {
    store.delete(key);
    for (const tab of tabs) tab.send({ type: 'STORAGE_CHANGED', key, newValue: null });
  };
  return { a, b, store, log, removeElsewhere };
}

const settle = (ref: { getSnapshot: () => AnyMachineSnapshot }) => waitFor(ref as Parameters<typeof waitFor>[0], (s) => !s.hasTag('loading'));

describe('cross-tab (issue 13)', () => {
  const adminStored = { token: JSON.stringify(adminTokens), admin_session: 'true', locale: 'en' };

  it('log out here: revoke first, then clear and end-session; the other tab revokes its copy and lands on the plain login page, signed out', async () => {
    const { a, b, store, log } = twoTabs({ stored: adminStored });
    a.send({ type: 'LOGOUT' });
    await settle(a);
    await settle(b);
    expect(a.getSnapshot().hasTag('screen:session.signed-out')).toBe(true);
    expect(b.getSnapshot().hasTag('screen:session.signed-out')).toBe(true);
    expect(b.getSnapshot().context.tokens).toBeNull();
    expect(store.has('token')).toBe(false);
    // the grant (and the provider session) ends before any tab can see the tokens go
    expect(log.indexOf('A revoke at-admin (token stored: true)')).toBeLessThan(log.indexOf('B clear cache'));
    expect(log.filter((line) => line.startsWith('A '))).toEqual(['A clear cache', 'A revoke at-admin (token stored: true)', 'A remove token', 'A remove admin_session', 'A redirect /op/session/end']);
    // the other tab: the plain login page (no stale `code`), no end-session race, nothing written back
    expect(log.filter((line) => line.startsWith('B '))).toEqual(['B clear cache', 'B revoke at-admin (token stored: false)', 'B navigate /admin/login']);
  });

  it('log out of an SSO session: the upstream sign-out page the server named replaces the end-session page (issue 31)', async () => {
    const { a, b, log } = twoTabs({ stored: adminStored, upstreamLogoutUrl: 'https://idp.example/upstream/logout?id_token_hint=h' });
    a.send({ type: 'LOGOUT' });
    await settle(a);
    await settle(b);
    expect(log.filter((line) => line.startsWith('A '))).toEqual(['A clear cache', 'A revoke at-admin (token stored: true)', 'A remove token', 'A remove admin_session', 'A redirect /upstream/logout']);
  });

  it('token removed elsewhere: this tab signs out (revokes its copy, login page) and never writes the token back, even with a refresh in flight', async () => {
    let answer: (tokens: Tokens) => void = () => {};
    const { a, store, log, removeElsewhere } = twoTabs({
      stored: { token: JSON.stringify(userTokens), admin_session: 'false', locale: 'en' },
      refresh: () => new Promise<Tokens>((resolve) => (answer = resolve)),
    });
    a.send({ type: 'REQUEST_UNAUTHORIZED', accessToken: userTokens.access_token });
    expect(a.getSnapshot().value).toBe('refreshing');
    removeElsewhere('token');
    await settle(a);
    answer(refreshedTokens); // the refresh answers late
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(a.getSnapshot().hasTag('session:guest')).toBe(true);
    expect(store.has('token')).toBe(false);
    expect(log.filter((line) => line.startsWith('A '))).toEqual(['A clear cache', 'A revoke at-user (token stored: false)', 'A navigate /login']);
  });

  it('Logout while a refresh is in flight does not wait for it: revoke, clear, end-session; the late answer writes nothing back', async () => {
    let answer: (tokens: Tokens) => void = () => {};
    const { a, b, store, log } = twoTabs({
      stored: { token: JSON.stringify(userTokens), admin_session: 'false', locale: 'en' },
      refresh: () => new Promise<Tokens>((resolve) => (answer = resolve)),
    });
    a.send({ type: 'REQUEST_UNAUTHORIZED', accessToken: userTokens.access_token });
    expect(a.getSnapshot().value).toBe('refreshing');
    a.send({ type: 'LOGOUT' });
    await settle(a);
    expect(a.getSnapshot().hasTag('screen:session.signed-out')).toBe(true);
    expect(log.filter((line) => line.startsWith('A '))).toEqual(['A clear cache', 'A revoke at-user (token stored: true)', 'A remove token', 'A remove admin_session', 'A redirect /op/session/end']);
    answer(refreshedTokens); // the refresh answers after the sign-out
    await new Promise((resolve) => setTimeout(resolve, 0));
    await settle(b);
    expect(a.getSnapshot().value).toBe('unauthenticated');
    expect(a.getSnapshot().context.tokens).toBeNull();
    expect(store.has('token')).toBe(false);
    expect(log.filter((line) => line === 'A write token')).toEqual([]);
    expect(b.getSnapshot().hasTag('session:guest')).toBe(true);
  });

  it('a reset/verify link (PUBLIC_LINK_OPENED): revoke, clear the tokens, no reload, no redirect, no navigation; the other tab follows', async () => {
    const { a, b, store, log } = twoTabs({ stored: adminStored });
    a.send({ type: 'PUBLIC_LINK_OPENED' });
    await settle(a);
    await settle(b);
    expect(a.getSnapshot().hasTag('screen:session.signed-out')).toBe(true);
    expect(b.getSnapshot().hasTag('screen:session.signed-out')).toBe(true);
    expect(store.has('token')).toBe(false);
    expect(log.filter((line) => line.startsWith('A '))).toEqual(['A clear cache', 'A revoke at-admin (token stored: true)', 'A remove token', 'A remove admin_session']);
    expect(log.filter((line) => line.startsWith('B '))).toEqual(['B clear cache', 'B revoke at-admin (token stored: false)', 'B navigate /admin/login']);
  });

  it('a tab signed in elsewhere follows (tokens added) and a signed-out tab ignores a link event', () => {
    const { a, b } = twoTabs({ stored: {} });
    b.send({ type: 'PUBLIC_LINK_OPENED' });
    expect(b.getSnapshot().value).toBe('unauthenticated');
    a.send({ type: 'TOKENS_RECEIVED', tokens: userTokens });
    expect(b.getSnapshot().hasTag('screen:session.signed-in')).toBe(true);
    expect(b.getSnapshot().context.tokens).toEqual(userTokens);
  });
});

describe('language at sign-in (issue 14)', () => {
  it("the account's saved language (ID token `locale`) wins over the guest's stored choice: stored and applied", () => {
    const { a, store, log } = twoTabs({ stored: { locale: 'en' } });
    a.send({ type: 'TOKENS_RECEIVED', tokens: italianUserTokens });
    expect(a.getSnapshot().context.locale).toBe('it');
    expect(store.get('locale')).toBe('it');
    expect(log).toContain('A apply it');
  });

  it('tokens without a usable locale claim keep the stored choice', () => {
    const { a, store, log } = twoTabs({ stored: { locale: 'fr' } });
    a.send({ type: 'TOKENS_RECEIVED', tokens: { ...userTokens, id_token: idTokenWith({ sub: 'x', locale: 'xx' }) } });
    expect(store.get('locale')).toBe('fr');
    expect(log.some((line) => line.includes('apply'))).toBe(false);
  });

  it('accountLocale reads de-CH as de and ignores opaque tokens', () => {
    expect(accountLocale({ id_token: idTokenWith({ locale: 'de-CH' }) })).toBe('de');
    expect(accountLocale({ id_token: 'id-user' })).toBeNull();
    expect(accountLocale(null)).toBeNull();
  });
});

describe('QA words (machines/session.qa.ts)', () => {
  it('name every step key and every screen tag the session graph can take, and nothing else', () => {
    const keys = new Set<string>(['start']);
    const screens = new Set<string>();
    for (const path of [...modelPaths(sessionModel), ...everyTransition]) {
      path.steps.forEach((step, i) => {
        screenTags(step.state).forEach((tag) => screens.add(tag));
        if (i === 0) return;
        keys.add(stepKey(step.event));
      });
    }
    // outcomes are folded with the user event that started them, or stand alone: both use the outcome's key
    expect(Object.keys(sessionQa.steps).sort()).toEqual([...keys].sort());
    expect(Object.keys(sessionQa.screens).sort()).toEqual([...screens].sort());
    expect(Object.keys(sessionQa.scenarios)).toEqual(sessionModel.scenarios.map((s) => s.name));
    expect(Object.keys(sessionContextQa.scenarios)).toEqual(sessionContextModel.scenarios.map((s) => s.name));
    expect(sessionContextQa.machine).toBe(sessionContextModel.name);
  });

  it('every non-transient state has exactly one screen tag', () => {
    for (const path of modelPaths(sessionContextModel)) for (const step of path.steps) expect(screenTags(step.state)).toHaveLength(1);
  });
});

describe('inspector wiring', () => {
  it('attaches only in development with ?inspect', async () => {
    const { inspectModeOf, inspect } = await import('./inspect');
    expect(inspectModeOf(true, '?inspect')).toBe('popup');
    expect(inspectModeOf(true, '?foo=1&inspect=1')).toBe('popup');
    expect(inspectModeOf(true, '')).toBeNull();
    expect(inspectModeOf(false, '?inspect')).toBeNull();
    expect(inspectModeOf(true, undefined)).toBeNull();
    expect(inspect).toBeUndefined(); // node: no window
  });
});
