import { describe, expect, it } from 'vitest';
import { createActor, transition, type AnyMachineSnapshot, type EventObject } from 'xstate';
import * as account from '../contract/account';
import * as auth from '../contract/auth';
import type { Call, EndpointShape } from '../contract/endpoint';
import type { CallFailureError } from './testing/failure';
import { createTwoFactorActors, type TwoFactorScreen, type TwoFactorSetupContext } from './twoFactorSetup.machine';
import { screenTags, stepKey } from './testing/qa';
import { twoFactorSetupQa } from './twoFactorSetup.qa';
import { TWO_FACTOR_SCREENS } from './twoFactorSetup.machine';
import { RECOVERY_CODES, SECRET, twoFactorSetupModel } from './twoFactorSetup.model';
import { modelPaths, pathTitle, reachableStates, stateKey, walkPath, type AnyPath } from './testing/graph';
import { itWalksInBatches } from './testing/batches';

const paths = modelPaths(twoFactorSetupModel);

/**
 * Simple paths never come back to a state they visited, so transitions back (Cancel to the method choice, a resend
 * that restarts the cooldown) are on none of them. Every transition: the shortest path to each state, plus each
 * event the state takes.
 */
function edgePaths(): AnyPath[] {
  const serialize = twoFactorSetupModel.serializeState!;
  const seen = new Set<string>();
  return modelPaths({ ...twoFactorSetupModel, strategy: 'shortest' }).flatMap((path) =>
    twoFactorSetupModel
      .events(path.state)
      .filter((event) => path.state.can(event))
      .flatMap((event) => {
        const [next] = transition(twoFactorSetupModel.machine, path.state as never, event as never);
        const key = `${serialize(path.state)} ${JSON.stringify(event)}`;
        if (seen.has(key)) return [];
        seen.add(key);
        return [{ ...path, state: next, steps: [...path.steps, { state: next, event }] } as AnyPath];
      }),
  );
}
const edges = edgePaths();
const ctx = (s: AnyMachineSnapshot) => s.context as TwoFactorSetupContext;

/** The one screen each state shows (a request in flight keeps the screen it started from). */
const screenOf: Record<string, TwoFactorScreen> = {
  disabled: 'screen:2fa.off',
  'authenticator.creatingSecret': 'screen:2fa.off',
  'sms.sending': 'screen:2fa.off',
  'authenticator.qr': 'screen:2fa.authenticator',
  'authenticator.enabling': 'screen:2fa.authenticator',
  'sms.code.cooldown': 'screen:2fa.sms-code',
  'sms.code.ready': 'screen:2fa.sms-code',
  'sms.resending': 'screen:2fa.sms-code',
  'sms.enabling': 'screen:2fa.sms-code',
  recoveryCodes: 'screen:2fa.recovery-codes',
  enabled: 'screen:2fa.on',
  disabling: 'screen:2fa.on',
};
const loadingStates = new Set(['authenticator.creatingSecret', 'authenticator.enabling', 'sms.sending', 'sms.resending', 'sms.enabling', 'disabling']);

/** A failed call is kept with the contract's code as sent (machines/errors.ts), `network` when no answer came. */
function expectedErrorCode(event: EventObject): string | null {
  if (!event.type.startsWith('xstate.error.actor.')) return null;
  const error = (event as EventObject & { error: CallFailureError }).error;
  return error.kind === 'http' ? (error.code ?? 'unexpected') : 'network';
}

describe(`twoFactorSetup machine (model-based, every simple path: ${paths.length})`, () => {
  it('reaches exactly the expected states and every final/leaf state', () => {
    expect([...reachableStates(paths)].sort()).toEqual([...twoFactorSetupModel.expectedStates].sort());
    for (const final of twoFactorSetupModel.finalStates) expect(paths.some((p) => stateKey(p.state.value) === final)).toBe(true);
  });

  it('has QA words for every step key and screen tag its paths use, and no others', () => {
    const keys = new Set([...paths, ...edges].flatMap((p) => p.steps.map((s) => stepKey(s.event))));
    expect([...keys].sort()).toEqual(Object.keys(twoFactorSetupQa.steps).sort());
    const screens = new Set(paths.flatMap((p) => p.steps.flatMap((s) => screenTags(s.state))));
    expect([...screens].sort()).toEqual(Object.keys(twoFactorSetupQa.screens).sort());
    expect([...screens].sort()).toEqual([...TWO_FACTOR_SCREENS].sort());
  });

  it('SMS without a valid phone is refused with phone_required', () => {
    const refused = paths.some((p) => p.steps.some((s, i) => s.event.type === 'CHOOSE_SMS' && stateKey(s.state.value) === 'disabled' && ctx(s.state).error?.code === 'phone_required' && i > 0));
    expect(refused).toBe(true);
  });

  it(`every transition (${edges.length} edges after the shortest path to their state)`, () => {
    edges.forEach((path, index) => {
      try {
        checkPath(path);
      } catch (error) {
        throw new Error(`edge ${pathTitle(path, index)} + ${path.steps.at(-1)!.event.type}\n${String(error)}`);
      }
    });
    const keys = new Set(edges.map((p) => stepKey(p.steps.at(-1)!.event)));
    expect(keys.has('CANCEL') && keys.has('resendSmsCode succeeds')).toBe(true);
  });

  // every simple path: walked in batches of 100 per test (per-test overhead dominates otherwise); a failure names its path
  itWalksInBatches(paths, checkPath);
});

function checkPath(path: AnyPath): void {
  {
    {
      const result = walkPath(twoFactorSetupModel, path);
      path.steps.forEach((step, i) => {
        const value = stateKey(step.state.value);
        const c = ctx(step.state);
        expect(screenTags(step.state), value).toEqual([screenOf[value]]);
        expect(step.state.hasTag('loading'), value).toBe(loadingStates.has(value));
        expect(step.state.hasTag('sms:can-resend'), value).toBe(value === 'sms.code.ready');
        if (i > 0) {
          const code = expectedErrorCode(step.event);
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
