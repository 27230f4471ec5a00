import { describe, expect, it } from 'vitest';
import { createActor, type AnyMachineSnapshot, type EventObject } from 'xstate';
import * as account from '../contract/account';
import * as auth from '../contract/auth';
import type { Call, EndpointShape } from '../contract/endpoint';
import type { CallFailureError } from './testing/failure';
import { createTwoFactorActors, type TwoFactorSetupContext } from './twoFactorSetup.machine';
import { RECOVERY_CODES, SECRET, twoFactorSetupModel } from './twoFactorSetup.model';
import { modelPaths, pathTitle, reachableStates, stateKey, walkPath } from './testing/graph';

const paths = modelPaths(twoFactorSetupModel);
const ctx = (s: AnyMachineSnapshot) => s.context as TwoFactorSetupContext;

const routeTag: Record<string, string> = {
  disabled: 'route:2fa-status',
  enabled: 'route:2fa-status',
  'authenticator.qr': 'route:2fa-qr',
  'sms.code.cooldown': 'route:2fa-sms-code',
  'sms.code.ready': 'route:2fa-sms-code',
  recoveryCodes: 'route:2fa-recovery-codes',
};

function expectedErrorCode(event: EventObject, before: TwoFactorSetupContext): string | null {
  if (!event.type.startsWith('xstate.error.actor.')) return null;
  const error = (event as EventObject & { error: CallFailureError }).error;
  if (error.kind !== 'http') return 'network';
  if (error.status === 429) return 'too_many_attempts';
  if (event.type.endsWith('disableTwoFactor')) return before.disableWith === 'password' ? 'invalid_credentials' : 'invalid_otp';
  return event.type.endsWith('enableAuthenticator') || event.type.endsWith('enableSms') ? 'invalid_otp' : 'unexpected';
}

describe(`twoFactorSetup machine (model-based, every simple path: ${paths.length})`, () => {
  it('reaches exactly the expected states and every final/leaf state', () => {
    expect([...reachableStates(paths)].sort()).toEqual([...twoFactorSetupModel.expectedStates].sort());
    for (const final of twoFactorSetupModel.finalStates) expect(paths.some((p) => stateKey(p.state.value) === final)).toBe(true);
  });

  it('SMS without a valid phone is refused with phone_required', () => {
    const refused = paths.some((p) => p.steps.some((s, i) => s.event.type === 'CHOOSE_SMS' && stateKey(s.state.value) === 'disabled' && ctx(s.state).error?.code === 'phone_required' && i > 0));
    expect(refused).toBe(true);
  });

  // 6.8k simple paths: walked in batches of 100 per test (per-test overhead dominates otherwise); a failure names its path
  const batches = Array.from({ length: Math.ceil(paths.length / 100) }, (_, b) => paths.slice(b * 100, b * 100 + 100).map((path, i) => ({ path, index: b * 100 + i })));
  batches.forEach((batch, b) => {
    it(`paths ${b * 100 + 1}–${b * 100 + batch.length}`, () => {
      for (const { path, index } of batch) {
        try {
          checkPath(path);
        } catch (error) {
          throw new Error(`${pathTitle(path, index)}\n${String(error)}`);
        }
      }
    });
  });
});

function checkPath(path: (typeof paths)[number]): void {
  {
    {
      const result = walkPath(twoFactorSetupModel, path);
      path.steps.forEach((step, i) => {
        const value = stateKey(step.state.value);
        const c = ctx(step.state);
        if (routeTag[value]) expect(step.state.hasTag(routeTag[value] as never), value).toBe(true);
        if (i > 0) {
          const code = expectedErrorCode(step.event, ctx(path.steps[i - 1]!.state));
          if (code) expect(c.error?.code).toBe(code);
        }
        if (value === 'authenticator.qr') expect([c.secret, c.otpauthUrl]).toEqual([SECRET.secret, SECRET.otpauth_url]);
        if (value === 'recoveryCodes') expect(c.recoveryCodes).toEqual(RECOVERY_CODES);
        if (value === 'enabled') expect([c.enabled, c.recoveryCodes]).toEqual([true, null]);
        if (value === 'disabled') expect([c.enabled, c.method]).toEqual([false, null]);
        if (value.startsWith('sms.') ) expect(c.phone).toMatch(/^\+\d+$/);
        for (const rec of result.stepLogs[i]!) {
          if (rec.name === 'enableAuthenticator' || rec.name === 'enableSms') expect(rec.data).toEqual({ one_time_password: '123456' });
          if (rec.name === 'disableTwoFactor') {
            const ev = step.event as EventObject & { password?: string };
            expect(rec.data).toEqual(ev.password !== undefined ? { password: 'Current-password-1' } : { one_time_password: '654321' });
          }
        }
      });
    }
  }
}

describe('twoFactorSetup real actors', () => {
  const calls: Array<{ endpoint: EndpointShape; input: unknown }> = [];
  const call = (async (endpoint: EndpointShape, input?: unknown) => {
    calls.push({ endpoint, input });
    return { data: { secret: 's', otpauth_url: 'u', recovery_codes: ['r'] } };
  }) as Call;
  const actors = createTwoFactorActors({ call });
  const run = (logic: (typeof actors)[keyof typeof actors], input?: object) =>
    new Promise<void>((resolve, reject) => {
      const a = createActor(logic as never, { input } as never) as unknown as { subscribe: (o: object) => void; start: () => void };
      a.subscribe({ complete: resolve, error: reject });
      a.start();
    });
  it.each([
    ['createSecret', undefined, account.createTotpSecret, undefined],
    ['enableAuthenticator', { one_time_password: '1' }, account.enableTotp, { body: { one_time_password: '1' } }],
    ['sendSmsCode', undefined, account.sendEnrollmentSms, undefined],
    ['resendSmsCode', undefined, auth.resendSms, undefined],
    ['enableSms', { one_time_password: '1' }, account.enableSms, { body: { one_time_password: '1' } }],
    ['disableTwoFactor', { password: 'p' }, account.disableTwoFactor, { body: { password: 'p' } }],
    ['disableTwoFactor', { one_time_password: '1' }, account.disableTwoFactor, { body: { one_time_password: '1' } }],
  ] as const)('%s → POST %s', async (name, input, endpoint, expected) => {
    await run(actors[name], input);
    expect(calls.at(-1)).toEqual({ endpoint, input: expected });
    expect(endpoint.method).toBe('POST');
  });
});
