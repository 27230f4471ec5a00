import { describe, expect, it } from 'vitest';
import { createActor, type AnyMachineSnapshot } from 'xstate';
import * as account from '../contract/account';
import type { Call, EndpointShape } from '../contract/endpoint';
import { createDisableCodeActors, DISABLE_CODE_SCREENS, type DisableCodeContext } from './disableCode.machine';
import { disableCodeModel } from './disableCode.model';
import { disableCodeQa } from './disableCode.qa';
import { modelPaths, pathTitle, reachableStates, stateKey, walkPath, type AnyPath } from './testing/graph';
import { screenTags, stepKey, transitionPaths } from './testing/qa';

const simple = modelPaths(disableCodeModel);
const paths = [...simple, ...transitionPaths(disableCodeModel)];
const ctx = (s: AnyMachineSnapshot) => s.context as DisableCodeContext;
const screenOf: Record<string, string[]> = { ready: ['screen:2fa-code.ready'], sending: ['screen:2fa-code.ready'], sent: ['screen:2fa-code.sent'] };

describe(`disableCode machine (model-based: ${simple.length} simple paths + every transition)`, () => {
  it('reaches exactly the expected states', () => {
    expect([...reachableStates(simple)].sort()).toEqual([...disableCodeModel.expectedStates].sort());
    for (const final of disableCodeModel.finalStates) expect(simple.some((p) => stateKey(p.state.value) === final)).toBe(true);
  });

  it('the QA words name every step and every screen the paths take', () => {
    expect([...new Set(paths.flatMap((p) => p.steps.map((s) => stepKey(s.event))))].sort()).toEqual(Object.keys(disableCodeQa.steps).sort());
    const screens = [...new Set(paths.flatMap((p) => p.steps.flatMap((s) => screenTags(s.state))))].sort();
    expect(screens).toEqual(Object.keys(disableCodeQa.screens).sort());
    expect(screens).toEqual([...DISABLE_CODE_SCREENS].sort());
    expect(Object.keys(disableCodeQa.scenarios)).toEqual(disableCodeModel.scenarios.map((s) => s.name));
  });

  it('a refusal is shown on the ready screen and cleared by the next request; the code may be asked for again after it was sent', () => {
    const states = paths.flatMap((p) => p.steps.map((s) => s.state));
    expect(states.some((s) => stateKey(s.value) === 'ready' && ctx(s).error?.code === 'too_many_requests' && ctx(s).error?.retryAfter === 30)).toBe(true);
    expect(states.some((s) => stateKey(s.value) === 'ready' && ctx(s).error?.code === 'network')).toBe(true);
    expect(states.filter((s) => stateKey(s.value) === 'sent').every((s) => s.can({ type: 'SEND' }) && ctx(s).error === null)).toBe(true);
  });

  it.each(paths.map((p, i) => [pathTitle(p, i), p] as const))('%s', (_title, path) => checkPath(path));
});

function checkPath(path: AnyPath): void {
  const result = walkPath(disableCodeModel, path);
  path.steps.forEach((step, i) => {
    const value = stateKey(step.state.value);
    expect(screenTags(result.snapshots[i]!), value).toEqual(screenOf[value]);
    expect(result.snapshots[i]!.hasTag('busy')).toBe(value === 'sending');
    if (value !== 'ready') expect(ctx(step.state).error).toBeNull();
    const failed = step.event.type === 'xstate.error.actor.sendCode';
    if (value === 'ready' && i > 0) expect(ctx(step.state).error !== null).toBe(failed);
    for (const rec of result.stepLogs[i]!) if (rec.kind === 'actor') expect([rec.name, value]).toEqual(['sendCode', 'sending']);
  });
}

describe('disableCode real actor', () => {
  it('POSTs /api/2fa/sms/send (with SMS two-factor on, the code that confirms turning it off)', async () => {
    const calls: Array<{ endpoint: EndpointShape; input: unknown }> = [];
    const call = (async (endpoint: EndpointShape, input?: unknown) => {
      calls.push({ endpoint, input });
      return { data: { status: 'sent' } };
    }) as Call;
    const { sendCode } = createDisableCodeActors({ call });
    await new Promise<void>((resolve, reject) => {
      const a = createActor(sendCode);
      a.subscribe({ complete: resolve, error: reject });
      a.start();
    });
    expect(calls).toEqual([{ endpoint: account.sendEnrollmentSms, input: undefined }]);
  });
});
