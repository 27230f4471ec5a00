import { describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise, getNextSnapshot, type AnyMachineSnapshot, type EventObject } from 'xstate';
import { CallFailureError } from './testing/failure';
import { createLoginActors, LOGIN_SCREENS, loginMachine, type CodeInput, type CredentialsInput, type LoginContext, type LoginInput, type LoginResult, type NewPasswordInput, type PasskeyBrowser, type RecoveryInput, type SecondFactorResult } from './login.machine';
import type { PasskeyCredentialJSON } from '../contract/passkeys';
import { NEW_PASSWORD, PASSKEY_CREDENTIAL, PASSKEY_OPTIONS, REDIRECT_TO, RESET_TOKEN, loginModel } from './login.model';
import { isOutcome, screenTags, stepKey } from './testing/qa';
import { loginQa } from './login.qa';
import { toMachineError } from './errors';
import { toCeremonyError } from './webauthn';
import * as signIn from '../contract/auth';
import { pathTitle, modelPaths, reachableStates, stateKey, walkPath, type AnyPath } from './testing/graph';
import type { Call, Route } from '../contract/endpoint';
// the machine calls through the schema-free table (contract/routes.ts: method and path only)
import { account, auth } from '../contract/routes';

/** The browser's passkey side for the real-actor tests: answers with the model's credential, no prompt. */
const fakePasskeyBrowser: PasskeyBrowser = {
  get: async () => PASSKEY_CREDENTIAL as unknown as PasskeyCredentialJSON,
  create: async () => PASSKEY_CREDENTIAL as unknown as PasskeyCredentialJSON,
  autofillSupported: async () => true,
  cancel: () => {},
};

/**
 * Every simple path, plus every edge the simple paths leave out (the one that closes a loop, e.g. "Use a
 * one-time password instead" back to a code screen already seen, or a resent SMS back to the cooldown):
 * each simple path's end extended by each event that leads to a state already on it.
 */
const simplePaths = modelPaths(loginModel);
function closingEdges(): AnyPath[] {
  const serialize = loginModel.serializeState!;
  const seen = new Set<string>();
  const out: AnyPath[] = [];
  for (const path of simplePaths) {
    const last = path.steps.at(-1)!.state;
    if (last.status !== 'active') continue;
    const onPath = new Set(path.steps.map((s) => serialize(s.state)));
    for (const event of loginModel.events(last)) {
      if (!last.can(event)) continue;
      const next = getNextSnapshot(loginModel.machine, last as never, event as never) as AnyMachineSnapshot;
      const key = `${serialize(last)} ${stepKey(event)} ${serialize(next)}`;
      if (!onPath.has(serialize(next)) || seen.has(key)) continue;
      seen.add(key);
      out.push({ ...path, state: next, steps: [...path.steps, { event, state: next }] });
    }
  }
  return out;
}
const paths = [...simplePaths, ...closingEdges()];
const ctx = (s: AnyMachineSnapshot) => s.context as LoginContext;

/** A failed call is kept with the contract's code as sent (machines/errors.ts), `network` when no answer came. */
function expectedError(event: EventObject): { code: string; retryAfter?: number } | null {
  if (!event.type.startsWith('xstate.error.actor.')) return null;
  const error = (event as EventObject & { error: CallFailureError }).error;
  // a browser ceremony's failure (machines/webauthn.ts): its own code
  if (!('kind' in error)) return { code: toCeremonyError(error).code };
  if (error.kind !== 'http') return { code: 'network' };
  return { code: error.code ?? 'unexpected', ...(error.retryAfter !== undefined ? { retryAfter: error.retryAfter } : {}) };
}

/** `SUBMIT`, `SUBMIT_CODE`…: a person's own event, not an answer (`xstate.*`). */
const isPersonEvent = (event: EventObject) => !event.type.startsWith('xstate.');

describe(`login machine (model-based: ${simplePaths.length} simple paths + ${paths.length - simplePaths.length} loop-closing edges)`, () => {
  it('reaches exactly the expected states and every final state', () => {
    expect([...reachableStates(paths)].sort()).toEqual([...loginModel.expectedStates].sort());
    for (const final of loginModel.finalStates) expect(paths.some((p) => stateKey(p.state.value) === final)).toBe(true);
  });

  it('every error kind is reachable, kept as the contract code the server sent', () => {
    const codes = new Set(paths.flatMap((p) => p.steps.map((s) => ctx(s.state).error?.code).filter(Boolean)));
    expect([...codes].sort()).toEqual([
      'account_inactive',
      'account_locked',
      'interaction_expired',
      'interaction_foreign_browser',
      'invalid_credentials',
      'invalid_link',
      'network',
      'otp_invalid',
      'passkey_cancelled',
      'passkey_invalid',
      'passkey_timeout',
      'passkey_unknown',
      'recovery_code_invalid',
      'validation_failed',
    ]);
  });

  it('every state shows exactly one screen, and every screen tag is used', () => {
    const used = new Set<string>();
    for (const path of paths) {
      for (const step of path.steps) {
        const tags = screenTags(step.state);
        expect(tags, stateKey(step.state.value)).toHaveLength(1);
        expect(LOGIN_SCREENS, stateKey(step.state.value)).toContain(tags[0]);
        used.add(tags[0]!);
      }
    }
    expect([...used].sort()).toEqual([...LOGIN_SCREENS].sort());
  });

  it('a request a person sends keeps the screen they sent it from; starting over (again) shows the redirect', () => {
    for (const path of paths) {
      path.steps.forEach((step, i) => {
        const before = path.steps[i - 1]?.state;
        if (!before || !isPersonEvent(step.event) || !step.state.hasTag('loading')) return;
        const where = `${stateKey(before.value)} --${step.event.type}--> ${stateKey(step.state.value)}`;
        if (step.event.type === 'RESTART' || step.event.type === 'RETRY') expect(screenTags(step.state), where).toEqual(['screen:login.redirecting']);
        // "Sign in with a passkey" / "Use a passkey instead": the passkey's own screen, waiting for the browser
        else if (step.event.type === 'PASSKEY') expect(screenTags(step.state), where).toEqual([stateKey(step.state.value).startsWith('twoFactor.') ? 'screen:login.two-factor-passkey' : 'screen:login.passkey']);
        else expect(screenTags(step.state), where).toEqual(screenTags(before));
      });
    }
  });

  it('an answer shows the screen of what comes next: the second factor asked for, an inactive account, the redirect', () => {
    for (const path of paths) {
      for (const step of path.steps) {
        const output = (step.event as EventObject & { output?: { status?: string; method?: string } }).output;
        const error = expectedError(step.event);
        const screen = screenTags(step.state)[0];
        const where = `${step.event.type} → ${stateKey(step.state.value)}`;
        if (output?.status === 'complete') expect(screen, where).toBe('screen:login.redirecting');
        if (output?.status === 'password_expired') expect(screen, where).toBe('screen:login.expired-password');
        if (output?.status === 'two_factor_required') {
          expect(screen, where).toBe(output.method === 'SMS' ? 'screen:login.two-factor-sms' : output.method === 'PASSKEY' ? 'screen:login.two-factor-passkey' : 'screen:login.two-factor-otp');
        }
        if (output?.status === 'enrolment_required') expect(screen, where).toBe('screen:login.passkey-enrolment');
        if (error?.code === 'account_inactive') expect(screen, where).toBe('screen:login.account-inactive');
      }
    }
  });

  paths.forEach((path, index) => {
    it(pathTitle(path, index), () => {
      const result = walkPath(loginModel, path);
      const input = path.input as LoginInput;
      path.steps.forEach((step, i) => {
        const expected = expectedError(step.event);
        // an authorization started after another browser's link says so (the stored authorization keeps it)
        const foreignSoFar = path.steps.slice(0, i + 1).some((s) => (s.event as EventObject & { error?: CallFailureError }).error?.code === 'interaction_foreign_browser');
        // (a restart for this browser clears the error: the person just sees the new sign-in)
        if (expected && !(expected.code === 'interaction_foreign_browser' && stateKey(step.state.value) === 'authorizing')) expect(ctx(step.state).error).toMatchObject(expected);
        // requests of this step: endpoints' inputs
        for (const rec of result.stepLogs[i]!) {
          if (rec.kind !== 'actor') continue;
          const expectations: Record<string, unknown> = {
            startAuthorization: { admin: input.admin, rebind: foreignSoFar },
            checkInteraction: { interaction: input.interaction },
            submitCredentials: { admin: input.admin, email: 'ada@example.com', password: 'Secret-password-1', interaction: input.interaction },
            verifyOtp: { admin: input.admin, code: '123456', interaction: input.interaction },
            verifySmsCode: { admin: input.admin, code: '123456', interaction: input.interaction },
            resendSmsCode: { admin: input.admin, interaction: input.interaction },
            verifyRecoveryCode: { admin: input.admin, recoveryCode: 'ABCD-EFGH', interaction: input.interaction },
            changeExpiredPassword: { admin: input.admin, resetToken: RESET_TOKEN, password: NEW_PASSWORD, passwordConfirmation: NEW_PASSWORD },
            passkeyAutofill: { interaction: input.interaction },
            passkeyOptions: { interaction: input.interaction, purpose: stateKey(step.state.value).startsWith('twoFactor.') ? 'second_factor' : 'sign_in' },
            passkeyCeremony: { options: PASSKEY_OPTIONS },
            passkeySignIn: { interaction: input.interaction, credential: PASSKEY_CREDENTIAL },
            passkeySecondFactor: { interaction: input.interaction, credential: PASSKEY_CREDENTIAL },
            passkeyEnrolment: { mode: 'enrolment', defaultName: input.passkeyName, interaction: input.interaction, admin: input.admin },
          };
          expect(rec.data, rec.name).toEqual(expectations[rec.name]);
        }
        // the machine navigates to /expired-password exactly when the password_expired answer arrives
        const navigations = result.stepLogs[i]!.filter((r) => r.kind === 'action' && r.name === 'navigate').map((r) => r.data);
        const expiredAnswer = (step.event as EventObject & { output?: { status?: string } }).output?.status === 'password_expired';
        expect(navigations).toEqual(expiredAnswer ? [{ to: 'expired-password', admin: input.admin, resetToken: RESET_TOKEN }] : []);
      });
      const last = path.steps.at(-1)!;
      const value = stateKey(result.snapshot.value);
      if (value === 'leaving') {
        const viaAuthorization = last.event.type === 'xstate.done.actor.startAuthorization';
        expect(result.actions('redirect')).toEqual(viaAuthorization ? [] : [{ url: REDIRECT_TO }]);
        expect(result.snapshot.status).toBe('done');
      } else {
        expect(result.actions('redirect')).toEqual([]);
      }
      if (value.startsWith('expiredPassword')) expect(ctx(result.snapshot).resetToken).toBe(RESET_TOKEN);
      if (input.interaction === null && input.resetToken === undefined) expect(path.steps[0]!.state.value).toBe('authorizing');
      // with a link, this browser's hold on its sign-in is asked first
      if (input.interaction !== null) expect(path.steps[0]!.state.value).toBe('checkingInteraction');
      // another browser's sign-in: restarted for this browser where the SPA can, never for a service app or twice
      path.steps.forEach((step, i) => {
        if ((step.event as EventObject & { error?: CallFailureError }).error?.code !== 'interaction_foreign_browser') return;
        const own = !input.serviceApp && !input.rebound;
        expect(stateKey(step.state.value), `step ${i}`).toBe(own ? 'authorizing' : 'foreignBrowser');
        if (!own) expect(ctx(step.state).error?.code).toBe('interaction_foreign_browser');
      });
      if (input.resetToken === null) expect(path.steps[0]!.state.value).toBe('signInExpired');
    });
  });
});

describe('login: the second-factor method switches only when no request is in flight (issue 29)', () => {
  const SWITCHES = [{ type: 'USE_RECOVERY_CODE' }, { type: 'USE_ONE_TIME_PASSWORD' }] as const;
  // the passkey screen has rules of its own (below): no switch while the browser asks, none to a code the account lacks
  const twoFactorStates = paths.flatMap((p) => p.steps.map((s) => s.state)).filter((s) => stateKey(s.value).startsWith('twoFactor.') && !stateKey(s.value).startsWith('twoFactor.passkey'));

  it('the passkey as the second factor: switching to a code only from its screen at rest, and only when the account has a code', () => {
    const passkeyStates = paths.flatMap((p) => p.steps.map((s) => s.state)).filter((s) => stateKey(s.value).startsWith('twoFactor.passkey'));
    expect(new Set(passkeyStates.map((s) => stateKey(s.value)))).toEqual(new Set(['twoFactor.passkey.ready', 'twoFactor.passkey.requesting', 'twoFactor.passkey.prompting', 'twoFactor.passkey.verifying']));
    for (const state of passkeyStates) {
      const key = stateKey(state.value);
      const canSwitch = SWITCHES.some((event) => state.can(event));
      expect(canSwitch, `${key} (${ctx(state).method})`).toBe(key === 'twoFactor.passkey.ready' && ctx(state).method !== 'PASSKEY');
    }
  });

  it('on every path: refused in every two-factor state with a request in flight, allowed in every other one', () => {
    const seen = new Set<string>();
    for (const state of twoFactorStates) {
      const key = stateKey(state.value);
      seen.add(key);
      const canSwitch = SWITCHES.some((event) => state.can(event));
      expect(canSwitch, key).toBe(!state.hasTag('loading'));
    }
    expect([...seen].filter((key) => key.endsWith('verifying') || key.endsWith('resending')).sort()).toEqual([
      'twoFactor.otp.verifying',
      'twoFactor.recovery.verifying',
      'twoFactor.sms.resending',
      'twoFactor.sms.verifying',
    ]);
  });

  it('a slow recovery code, then "Use a one-time password instead": the code\'s answer is awaited and signs in; no OTP is asked', async () => {
    let answer: (result: SecondFactorResult) => void = () => {};
    const verifyOtp = vi.fn(async () => ({ status: 'complete', redirect_to: REDIRECT_TO }) as SecondFactorResult);
    const redirect = vi.fn();
    const actor = createActor(
      loginMachine.provide({
        actors: {
          // the link is this browser's (the check answers at once)
          checkInteraction: fromPromise<void, { interaction: string }>(async () => {}),
          submitCredentials: fromPromise<LoginResult, CredentialsInput>(async () => ({ status: 'two_factor_required', method: 'GOOGLE' })),
          verifyRecoveryCode: fromPromise<SecondFactorResult, RecoveryInput>(() => new Promise((resolve) => (answer = resolve))),
          verifyOtp: fromPromise<SecondFactorResult, CodeInput>(verifyOtp),
        },
        actions: { redirect: (_, params) => redirect(params), navigate: () => {} },
      }),
      { input: { admin: false, interaction: 'uid' } },
    ).start();
    await vi.waitFor(() => expect(actor.getSnapshot().value).toBe('credentials'));
    actor.send({ type: 'SUBMIT', email: 'a@b.c', password: 'x' });
    await vi.waitFor(() => expect(actor.getSnapshot().value).toEqual({ twoFactor: { otp: 'entering' } }));
    actor.send({ type: 'USE_RECOVERY_CODE' });
    actor.send({ type: 'SUBMIT_RECOVERY_CODE', recoveryCode: 'abcde-fghij' });
    expect(actor.getSnapshot().value).toEqual({ twoFactor: { recovery: 'verifying' } });
    // the person switches while the request is slow: the switch waits for the answer (the request is not dropped)
    actor.send({ type: 'USE_ONE_TIME_PASSWORD' });
    expect(actor.getSnapshot().value).toEqual({ twoFactor: { recovery: 'verifying' } });
    expect(actor.getSnapshot().hasTag('screen:login.two-factor-recovery')).toBe(true);
    answer({ status: 'complete', redirect_to: REDIRECT_TO });
    await vi.waitFor(() => expect(actor.getSnapshot().value).toBe('leaving'));
    expect(redirect).toHaveBeenCalledWith({ url: REDIRECT_TO });
    expect(verifyOtp).not.toHaveBeenCalled();
    actor.stop();
  });

  it('a wrong recovery code answered after the attempted switch: back at the recovery code with its error, then the switch works', async () => {
    let fail: (error: unknown) => void = () => {};
    const actor = createActor(
      loginMachine.provide({
        actors: {
          checkInteraction: fromPromise<void, { interaction: string }>(async () => {}),
          submitCredentials: fromPromise<LoginResult, CredentialsInput>(async () => ({ status: 'two_factor_required', method: 'SMS' })),
          verifyRecoveryCode: fromPromise<SecondFactorResult, RecoveryInput>(() => new Promise((_, reject) => (fail = reject))),
        },
        actions: { redirect: () => {}, navigate: () => {} },
      }),
      { input: { admin: false, interaction: 'uid' } },
    ).start();
    await vi.waitFor(() => expect(actor.getSnapshot().value).toBe('credentials'));
    actor.send({ type: 'SUBMIT', email: 'a@b.c', password: 'x' });
    await vi.waitFor(() => expect(actor.getSnapshot().value).toEqual({ twoFactor: { sms: 'cooldown' } }));
    actor.send({ type: 'USE_RECOVERY_CODE' });
    actor.send({ type: 'SUBMIT_RECOVERY_CODE', recoveryCode: 'abcde-fghij' });
    actor.send({ type: 'USE_ONE_TIME_PASSWORD' });
    fail(new CallFailureError({ kind: 'http', status: 422, code: 'recovery_code_invalid', message: 'invalid' }));
    await vi.waitFor(() => expect(actor.getSnapshot().value).toEqual({ twoFactor: { recovery: 'entering' } }));
    expect(ctx(actor.getSnapshot()).error?.code).toBe('recovery_code_invalid');
    actor.send({ type: 'USE_ONE_TIME_PASSWORD' });
    expect(actor.getSnapshot().value).toEqual({ twoFactor: { sms: 'cooldown' } });
    actor.stop();
  });
});

describe('login machine on /expired-password (started with the router state)', () => {
  it('starts at the new password with the token and changes it through the injected actor', async () => {
    const changed = vi.fn(async (_input: NewPasswordInput) => {});
    const actor = createActor(
      loginMachine.provide({ actors: { changeExpiredPassword: fromPromise<void, NewPasswordInput>(({ input }) => changed(input)) }, actions: { redirect: () => {}, navigate: () => {} } }),
      { input: { admin: true, interaction: null, resetToken: 'tok-9' } },
    ).start();
    expect(actor.getSnapshot().hasTag('screen:login.expired-password')).toBe(true);
    actor.send({ type: 'SUBMIT_NEW_PASSWORD', password: NEW_PASSWORD, passwordConfirmation: NEW_PASSWORD });
    await vi.waitFor(() => expect(actor.getSnapshot().hasTag('screen:login.password-changed')).toBe(true));
    expect(changed).toHaveBeenCalledWith({ admin: true, resetToken: 'tok-9', password: NEW_PASSWORD, passwordConfirmation: NEW_PASSWORD });
    actor.stop();
  });
});

describe('login machine keeps every code the sign-in endpoints answer with as sent', () => {
  const endpoints = [signIn.login, signIn.adminLogin, signIn.validateOtp, signIn.adminValidateOtp, signIn.verifySms, signIn.validateRecoveryCode, signIn.resendSms, signIn.interactionStatus];
  const answers = endpoints.flatMap((endpoint) => Object.entries(endpoint.errors as Partial<Record<number, readonly string[]>>).flatMap(([status, codes]) => (codes ?? []).map((code) => [Number(status), code] as const)));
  it.each(answers)('%i %s', (status, code) => {
    const kept = toMachineError(new CallFailureError({ kind: 'http', status, code, message: code }));
    expect(kept.code).toBe(code);
  });
  it('no answer is `network`, an unknown code `unexpected`', () => {
    expect(toMachineError(new CallFailureError({ kind: 'timeout', message: 't' })).code).toBe('network');
    expect(toMachineError(new CallFailureError({ kind: 'http', status: 502, code: 'bad_gateway', message: 'proxy' })).code).toBe('unexpected');
  });
});

describe('login real actors (endpoints and bodies)', () => {
  async function run<T>(logic: ReturnType<typeof createLoginActors>[keyof ReturnType<typeof createLoginActors>], input: unknown): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const a = createActor(logic as never, { input } as never) as unknown as { subscribe: (o: object) => void; start: () => void; getSnapshot: () => { output: T } };
      a.subscribe({ complete: () => resolve(a.getSnapshot().output), error: reject });
      a.start();
    });
  }
  const calls: Array<{ endpoint: Route; input: unknown }> = [];
  const call = (async (endpoint: Route, input?: unknown) => {
    calls.push({ endpoint, input });
    return { data: { status: 'complete', redirect_to: REDIRECT_TO } };
  }) as Call;
  const actors = createLoginActors({ call, startAuthorization: async () => {}, passkey: fakePasskeyBrowser });

  it.each([
    ['submitCredentials', { admin: false, email: 'a@b.c', password: 'p', interaction: 'i' }, auth.login, { email: 'a@b.c', password: 'p', interaction: 'i' }],
    ['submitCredentials', { admin: true, email: 'a@b.c', password: 'p', interaction: 'i' }, auth.adminLogin, { email: 'a@b.c', password: 'p', interaction: 'i' }],
    ['verifyOtp', { admin: false, code: '1', interaction: 'i' }, auth.validateOtp, { one_time_password: '1', interaction: 'i' }],
    ['verifyOtp', { admin: true, code: '1', interaction: 'i' }, auth.adminValidateOtp, { one_time_password: '1', interaction: 'i' }],
    ['verifySmsCode', { admin: false, code: '1', interaction: 'i' }, auth.verifySms, { one_time_password: '1', interaction: 'i' }],
    ['resendSmsCode', { admin: false, interaction: 'i' }, auth.resendSms, { interaction: 'i' }],
    ['verifyRecoveryCode', { admin: false, recoveryCode: 'R', interaction: 'i' }, auth.validateRecoveryCode, { recovery_code: 'R', interaction: 'i' }],
    ['changeExpiredPassword', { admin: false, resetToken: 't', password: 'p', passwordConfirmation: 'p' }, account.resetUserPassword, { reset_token: 't', password: 'p', password_confirmation: 'p' }],
    ['changeExpiredPassword', { admin: true, resetToken: 't', password: 'p', passwordConfirmation: 'p' }, account.resetAdminPassword, { reset_token: 't', password: 'p', password_confirmation: 'p' }],
  ] as const)('%s → %o', async (name, input, endpoint, body) => {
    await run(actors[name], input);
    expect(calls.at(-1)).toEqual({ endpoint, input: { body } });
    expect(endpoint.method).toBe('POST');
  });
});

describe('login: the link of another browser', () => {
  const foreign = new CallFailureError({ kind: 'http', status: 403, code: 'interaction_foreign_browser', message: 'foreign' });
  function run(input: LoginInput) {
    const started: Array<{ admin: boolean; rebind: boolean }> = [];
    const actor = createActor(
      loginMachine.provide({
        actors: {
          checkInteraction: fromPromise<void, { interaction: string }>(async () => {
            throw foreign;
          }),
          startAuthorization: fromPromise<void, { admin: boolean; rebind: boolean }>(async ({ input: i }) => void started.push(i)),
        },
        actions: { redirect: () => {}, navigate: () => {} },
      }),
      { input },
    ).start();
    return { actor, started };
  }
  it.each([false, true])('portal or admin console (admin %s): a fresh authorization of this browser, marked as such', async (admin) => {
    const { actor, started } = run({ admin, interaction: 'uid-of-another-browser' });
    await vi.waitFor(() => expect(actor.getSnapshot().value).toBe('leaving'));
    expect(started).toEqual([{ admin, rebind: true }]);
    actor.stop();
  });
  it("a service app's sign-in: no restart, the foreign-browser screen without a way on", async () => {
    const { actor, started } = run({ admin: false, interaction: 'uid', serviceApp: true });
    await vi.waitFor(() => expect(actor.getSnapshot().hasTag('screen:login.foreign-browser')).toBe(true));
    actor.send({ type: 'RESTART' });
    expect(actor.getSnapshot().value).toBe('foreignBrowser');
    expect(started).toEqual([]);
    actor.stop();
  });
  it('back from such a restart and still not this browser\'s: no loop, the screen; "Sign in again" tries once more', async () => {
    const { actor, started } = run({ admin: false, interaction: 'uid', rebound: true });
    await vi.waitFor(() => expect(actor.getSnapshot().hasTag('screen:login.foreign-browser')).toBe(true));
    expect(started).toEqual([]);
    actor.send({ type: 'RESTART' });
    await vi.waitFor(() => expect(started).toEqual([{ admin: false, rebind: true }]));
    actor.stop();
  });
});

describe('login SMS cooldown', () => {
  it('resend becomes possible only after 60 s', async () => {
    const { vi } = await import('vitest');
    vi.useFakeTimers();
    try {
      const actor = createActor(
        loginMachine.provide({
          actors: {
            checkInteraction: fromPromise<void, { interaction: string }>(async () => {}),
            submitCredentials: fromPromise<LoginResult, CredentialsInput>(async () => ({ status: 'two_factor_required', method: 'SMS' })),
          },
          actions: { redirect: () => {}, navigate: () => {} },
        }),
        { input: { admin: false, interaction: 'uid' } },
      ).start();
      await vi.advanceTimersByTimeAsync(0);
      actor.send({ type: 'SUBMIT', email: 'a@b.c', password: 'x' });
      await vi.advanceTimersByTimeAsync(0);
      expect(actor.getSnapshot().value).toEqual({ twoFactor: { sms: 'cooldown' } });
      actor.send({ type: 'RESEND_CODE' });
      expect(actor.getSnapshot().value).toEqual({ twoFactor: { sms: 'cooldown' } });
      await vi.advanceTimersByTimeAsync(60_000);
      expect(actor.getSnapshot().hasTag('sms:can-resend')).toBe(true);
      expect(actor.getSnapshot().hasTag('screen:login.two-factor-sms')).toBe(true);
      actor.stop();
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('login real actors: the check of the link', () => {
  it('checkInteraction → GET /api/interactions/:interaction', async () => {
    const calls: Array<{ endpoint: Route; input: unknown }> = [];
    const call = (async (endpoint: Route, input?: unknown) => {
      calls.push({ endpoint, input });
      return { data: { status: 'active' } };
    }) as Call;
    const actor = createActor(createLoginActors({ call, startAuthorization: async () => {}, passkey: fakePasskeyBrowser }).checkInteraction, { input: { interaction: 'uid-7' } });
    const done = new Promise<void>((resolve, reject) => actor.subscribe({ complete: resolve, error: reject }));
    actor.start();
    await done;
    expect(calls).toEqual([{ endpoint: auth.interactionStatus, input: { params: { interaction: 'uid-7' } } }]);
    expect(auth.interactionStatus.method).toBe('GET');
  });
});

describe('login QA words (login.qa.ts)', () => {
  it('have words for exactly the step keys of the paths (a user event folded into the outcome it starts)', () => {
    const keys = new Set<string>();
    for (const path of paths) {
      const events = path.steps.map((s) => s.event);
      events.forEach((event, i) => {
        const next = events[i + 1];
        if (!isOutcome(event) && next && isOutcome(next)) return;
        keys.add(stepKey(event));
      });
    }
    expect(Object.keys(loginQa.steps).sort()).toEqual([...keys].sort());
  });
  it('have a check for every screen tag and a start for every scenario', () => {
    expect(Object.keys(loginQa.screens).sort()).toEqual([...LOGIN_SCREENS].sort());
    expect(Object.keys(loginQa.scenarios).sort()).toEqual(loginModel.scenarios.map((s) => s.name).sort());
    expect(loginQa.machine).toBe(loginModel.name);
  });
});
