import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, type AnyMachineSnapshot, type EventObject } from 'xstate';
import type { CallFailureError } from './testing/failure';
import { createLoginActors, loginMachine, type CredentialsInput, type LoginContext, type LoginResult } from './login.machine';
import { REDIRECT_TO, loginModel } from './login.model';
import { pathTitle, modelPaths, reachableStates, stateKey, walkPath } from './testing/graph';
import * as auth from '../contract/auth';
import type { Call, EndpointShape } from '../contract/endpoint';

const paths = modelPaths(loginModel);
const ctx = (s: AnyMachineSnapshot) => s.context as LoginContext;

function expectedError(event: EventObject): { code: string; retryAfter?: number } | null {
  if (!event.type.startsWith('xstate.error.actor.')) return null;
  const error = (event as EventObject & { error: CallFailureError }).error;
  if (error.kind !== 'http') return { code: 'network' };
  if (error.status === 500) return { code: 'unexpected' };
  if (error.status === 429) return { code: 'too_many_attempts', retryAfter: error.retryAfter };
  const actor = event.type.slice('xstate.error.actor.'.length);
  const invalid: Record<string, string> = {
    submitCredentials: 'invalid_credentials',
    verifyOtp: 'invalid_otp',
    verifySmsCode: 'invalid_otp',
    verifyRecoveryCode: 'invalid_recovery_code',
  };
  return { code: invalid[actor] ?? 'unexpected' };
}

const routeTags: Record<string, string> = {
  credentials: 'route:login',
  submitting: 'route:login',
  authorizationFailed: 'route:login',
  passwordExpired: 'route:expired-password',
};

describe(`login machine (model-based, every simple path: ${paths.length})`, () => {
  it('reaches exactly the expected states and every final state', () => {
    expect([...reachableStates(paths)].sort()).toEqual([...loginModel.expectedStates].sort());
    for (const final of loginModel.finalStates) expect(paths.some((p) => stateKey(p.state.value) === final)).toBe(true);
  });

  it('every error kind is reachable as a stable code', () => {
    const codes = new Set(paths.flatMap((p) => p.steps.map((s) => ctx(s.state).error?.code).filter(Boolean)));
    expect([...codes].sort()).toEqual(['invalid_credentials', 'invalid_otp', 'invalid_recovery_code', 'network', 'too_many_attempts', 'unexpected']);
  });

  paths.forEach((path, index) => {
    it(pathTitle(path, index), () => {
      const result = walkPath(loginModel, path);
      const input = path.input as { admin: boolean; interaction: string | null };
      path.steps.forEach((step, i) => {
        const value = stateKey(step.state.value);
        const expected = expectedError(step.event);
        if (expected) expect(ctx(step.state).error).toMatchObject(expected);
        if (routeTags[value]) expect(step.state.hasTag(routeTags[value] as never)).toBe(true);
        if (value.startsWith('twoFactor')) expect(step.state.hasTag('route:two-factor')).toBe(true);
        // HTTP bodies requested in this step
        for (const rec of result.stepLogs[i]!) {
          if (rec.kind !== 'actor') continue;
          const expectations: Record<string, unknown> = {
            startAuthorization: { admin: input.admin },
            submitCredentials: { admin: input.admin, email: 'ada@example.com', password: 'Secret-password-1', interaction: input.interaction },
            verifyOtp: { admin: input.admin, code: '123456', interaction: input.interaction },
            verifySmsCode: { admin: input.admin, code: '123456', interaction: input.interaction },
            resendSmsCode: { admin: input.admin, interaction: input.interaction },
            verifyRecoveryCode: { admin: input.admin, recoveryCode: 'ABCD-EFGH', interaction: input.interaction },
          };
          expect(rec.data, rec.name).toEqual(expectations[rec.name]);
        }
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
      if (value === 'passwordExpired') expect(ctx(result.snapshot).resetToken).toBe('reset-token-1');
      if (input.interaction === null) expect(path.steps[0]!.state.value).toBe('authorizing');
    });
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
  const calls: Array<{ endpoint: EndpointShape; input: unknown }> = [];
  const call = (async (endpoint: EndpointShape, input?: unknown) => {
    calls.push({ endpoint, input });
    return { data: { status: 'complete', redirect_to: REDIRECT_TO } };
  }) as Call;
  const actors = createLoginActors({ call, startAuthorization: async () => {} });

  it.each([
    ['submitCredentials', { admin: false, email: 'a@b.c', password: 'p', interaction: 'i' }, auth.login, { email: 'a@b.c', password: 'p', interaction: 'i' }],
    ['submitCredentials', { admin: true, email: 'a@b.c', password: 'p', interaction: 'i' }, auth.adminLogin, { email: 'a@b.c', password: 'p', interaction: 'i' }],
    ['verifyOtp', { admin: false, code: '1', interaction: 'i' }, auth.validateOtp, { one_time_password: '1', interaction: 'i' }],
    ['verifyOtp', { admin: true, code: '1', interaction: 'i' }, auth.adminValidateOtp, { one_time_password: '1', interaction: 'i' }],
    ['verifySmsCode', { admin: false, code: '1', interaction: 'i' }, auth.verifySms, { one_time_password: '1', interaction: 'i' }],
    ['resendSmsCode', { admin: false, interaction: 'i' }, auth.resendSms, { interaction: 'i' }],
    ['verifyRecoveryCode', { admin: false, recoveryCode: 'R', interaction: 'i' }, auth.validateRecoveryCode, { recovery_code: 'R', interaction: 'i' }],
  ] as const)('%s → %o', async (name, input, endpoint, body) => {
    await run(actors[name], input);
    expect(calls.at(-1)).toEqual({ endpoint, input: { body } });
    expect(endpoint.method).toBe('POST');
  });
});

describe('login SMS cooldown', () => {
  it('resend becomes possible only after 60 s', async () => {
    const { vi } = await import('vitest');
    vi.useFakeTimers();
    try {
      const actor = createActor(
        loginMachine.provide({
          actors: { submitCredentials: fromPromise<LoginResult, CredentialsInput>(async () => ({ status: 'two_factor_required', method: 'SMS' })) },
          actions: { redirect: () => {} },
        }),
        { input: { admin: false, interaction: 'uid' } },
      ).start();
      actor.send({ type: 'SUBMIT', email: 'a@b.c', password: 'x' });
      await vi.advanceTimersByTimeAsync(0);
      expect(actor.getSnapshot().value).toEqual({ twoFactor: { sms: 'cooldown' } });
      actor.send({ type: 'RESEND_CODE' });
      expect(actor.getSnapshot().value).toEqual({ twoFactor: { sms: 'cooldown' } });
      await vi.advanceTimersByTimeAsync(60_000);
      expect(actor.getSnapshot().hasTag('sms:can-resend')).toBe(true);
      actor.stop();
    } finally {
      vi.useRealTimers();
    }
  });
});
