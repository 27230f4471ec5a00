import { describe, expect, it } from 'vitest';
import { createActor, type AnyMachineSnapshot } from 'xstate';
import type { Call, EndpointShape } from '../contract/endpoint';
import { passkeys } from '../contract/routes';
import { createPasskeyRegistrationActors, type PasskeyRegistrationContext } from './passkeyRegistration.machine';
import { CREDENTIAL, OPTIONS, PASSKEY, passkeyRegistrationModel, SIGNED_IN } from './passkeyRegistration.model';
import { passkeyRegistrationQa } from './passkeyRegistration.qa';
import { itWalksInBatches } from './testing/batches';
import { modelPaths, reachableStates, stateKey, walkPath, type AnyPath } from './testing/graph';
import { screenTags, stepKey, transitionPaths } from './testing/qa';

const shortest = modelPaths(passkeyRegistrationModel);
const paths = [...shortest, ...transitionPaths(passkeyRegistrationModel)];
const ctx = (s: AnyMachineSnapshot) => s.context as PasskeyRegistrationContext;

const screenOf: Record<string, string[]> = {
  card: ['screen:passkey-add.card'],
  naming: ['screen:passkey-add.name'],
  requestingOptions: ['screen:passkey-add.name'],
  prompting: ['screen:passkey-add.prompt'],
  saving: ['screen:passkey-add.prompt'],
  added: ['screen:passkey-add.added'],
  signedIn: ['screen:passkey-add.prompt'],
  failed: ['screen:passkey-add.prompt'],
};

describe(`passkeyRegistration machine (model-based: ${shortest.length} shortest paths + ${paths.length - shortest.length} transitions)`, () => {
  it('reaches exactly the expected states', () => {
    expect([...reachableStates(shortest)].sort()).toEqual([...passkeyRegistrationModel.expectedStates].sort());
  });

  it('the QA words name every step and every screen the paths take', () => {
    expect([...new Set(paths.flatMap((p) => p.steps.map((s) => stepKey(s.event))))].sort()).toEqual(Object.keys(passkeyRegistrationQa.steps).sort());
    expect([...new Set(paths.flatMap((p) => p.steps.flatMap((s) => screenTags(s.state))))].sort()).toEqual(Object.keys(passkeyRegistrationQa.screens).sort());
    expect(Object.keys(passkeyRegistrationQa.scenarios)).toEqual(passkeyRegistrationModel.scenarios.map((s) => s.name));
  });

  it('an enrolment has no card and cannot be cancelled (the sign-in needs the passkey); it ends with the sign-in\'s answer or why it cannot go on', () => {
    const enrolment = paths.filter((p) => p.scenario === 'enrolment at sign-in');
    expect(enrolment.length).toBeGreaterThan(0);
    for (const p of enrolment) {
      for (const s of p.steps) {
        expect(stateKey(s.state.value)).not.toMatch(/^(card|added)$/);
        if (stateKey(s.state.value) === 'naming') expect(s.state.can({ type: 'CANCEL' })).toBe(false);
      }
    }
    const ends = new Set(enrolment.map((p) => p.steps.at(-1)!.state).filter((s) => s.status === 'done').map((s) => JSON.stringify(s.output)));
    expect([...ends].sort()).toEqual([JSON.stringify({ status: 'failed', error: { code: 'interaction_expired', retryable: false, status: 400 } }), JSON.stringify({ status: 'signed_in', result: SIGNED_IN })].sort());
  });

  itWalksInBatches(paths, checkPath);
});

function checkPath(path: AnyPath): void {
  const result = walkPath(passkeyRegistrationModel, path);
  path.steps.forEach((step, i) => {
    const value = stateKey(step.state.value);
    const c = ctx(step.state);
    const snapshot = result.snapshots[i]!;
    expect(screenTags(snapshot), value).toEqual(screenOf[value]);
    expect(snapshot.hasTag('loading')).toBe(['requestingOptions', 'saving', 'signedIn', 'failed'].includes(value));
    // the options (with their challenge) live only while the browser is asked or the answer saved
    if (value === 'prompting') expect(c.options).toEqual(OPTIONS);
    if (value === 'naming' || value === 'card' || value === 'added') expect([c.options, c.credential]).toEqual([null, null]);
    if (value === 'saving') expect(c.credential).toEqual(CREDENTIAL);
    if (value === 'added') expect(c.added).toEqual(PASSKEY);
    const type = step.event.type;
    const key = stepKey(step.event);
    // a ceremony's failure and the machine's own time-out are kept as ceremony codes (machines/webauthn.ts)
    if (type === 'xstate.error.actor.createCredential') expect(c.error?.code).toBe(key.replace('createCredential fails ', ''));
    if (key === 'after ceremonyTimeout') expect(c.error).toEqual({ code: 'passkey_timeout', retryable: true });
    if (type === 'CANCEL' && value === 'naming') expect(c.error).toBeNull();
    const logs = result.stepLogs[i]!;
    // the browser's prompt is closed when the person cancels or the machine stops waiting, never otherwise
    const cancelled = logs.filter((r) => r.name === 'cancelCeremony').length;
    expect(cancelled, key).toBe(key === 'after ceremonyTimeout' || (type === 'CANCEL' && path.steps[i - 1] && stateKey(path.steps[i - 1]!.state.value) === 'prompting') ? 1 : 0);
    expect(logs.filter((r) => r.name === 'passkeyAdded').length).toBe(type === 'xstate.done.actor.save' && value === 'added' ? 1 : 0);
    for (const rec of logs) {
      if (rec.name === 'getOptions') expect(rec.data).toEqual({ mode: c.mode, interaction: c.mode === 'enrolment' ? 'uid-1' : '' });
      if (rec.name === 'createCredential') expect(rec.data).toEqual({ options: OPTIONS });
      if (rec.name === 'save') expect(rec.data).toEqual({ mode: c.mode, interaction: c.mode === 'enrolment' ? 'uid-1' : '', name: 'Chrome on Linux', credential: CREDENTIAL });
    }
  });
}

describe('passkeyRegistration real actors', () => {
  const calls: Array<{ endpoint: EndpointShape; input: unknown }> = [];
  const call = (async (endpoint: EndpointShape, input?: unknown) => {
    calls.push({ endpoint, input });
    if (endpoint === passkeys.registerPasskey) return { data: PASSKEY };
    if (endpoint === passkeys.passkeyEnrol) return { data: SIGNED_IN };
    return { data: { options: OPTIONS } };
  }) as Call;
  const created: unknown[] = [];
  const actors = createPasskeyRegistrationActors({ call, createPasskey: async (options) => (created.push(options), CREDENTIAL as never) });
  const run = (logic: unknown, input: unknown) =>
    new Promise<unknown>((resolve, reject) => {
      const a = createActor(logic as never, { input } as never) as unknown as { subscribe: (o: object) => void; start: () => void; getSnapshot: () => { output: unknown } };
      a.subscribe({ complete: () => resolve(a.getSnapshot().output), error: reject });
      a.start();
    });
  it('profile: registration-options, the browser, POST /api/passkeys with the name', async () => {
    expect(await run(actors.getOptions, { mode: 'profile', interaction: '' })).toEqual(OPTIONS);
    expect(calls.at(-1)).toEqual({ endpoint: passkeys.passkeyRegistrationOptions, input: undefined });
    expect(await run(actors.createCredential, { options: OPTIONS })).toEqual(CREDENTIAL);
    expect(created).toEqual([OPTIONS]);
    expect(await run(actors.save, { mode: 'profile', interaction: '', name: 'Key', credential: CREDENTIAL })).toEqual({ kind: 'added', passkey: PASSKEY });
    expect(calls.at(-1)).toEqual({ endpoint: passkeys.registerPasskey, input: { body: { name: 'Key', credential: CREDENTIAL } } });
  });
  it("enrolment: the interaction's enrolment-options and enrol", async () => {
    await run(actors.getOptions, { mode: 'enrolment', interaction: 'uid-1' });
    expect(calls.at(-1)).toEqual({ endpoint: passkeys.passkeyEnrolmentOptions, input: { body: { interaction: 'uid-1' } } });
    expect(await run(actors.save, { mode: 'enrolment', interaction: 'uid-1', name: 'Key', credential: CREDENTIAL })).toEqual({ kind: 'signed_in', result: SIGNED_IN });
    expect(calls.at(-1)).toEqual({ endpoint: passkeys.passkeyEnrol, input: { body: { interaction: 'uid-1', name: 'Key', credential: CREDENTIAL } } });
  });
});
