import { describe, expect, it } from 'vitest';
import { createActor, type AnyMachineSnapshot } from 'xstate';
import * as account from '../contract/account';
import type { Call, EndpointShape } from '../contract/endpoint';
import { createApiKeyActors, type ApiKeyContext } from './apiKey.machine';
import { apiKeyModel, NEW_KEY, USER_ID } from './apiKey.model';
import { apiKeyQa } from './apiKey.qa';
import { modelPaths, reachableStates, stateKey, walkPath, type AnyPath } from './testing/graph';
import { screenTags, stepKey, transitionPaths } from './testing/qa';
import { itWalksInBatches } from './testing/batches';

const shortest = modelPaths(apiKeyModel);
const paths = [...shortest, ...transitionPaths(apiKeyModel)];
const ctx = (s: AnyMachineSnapshot) => s.context as ApiKeyContext;

const screenOf: Record<string, string[]> = {
  card: ['screen:apikey.card'],
  generating: ['screen:apikey.card'],
  revoking: ['screen:apikey.card'],
  confirmingReplace: ['screen:apikey.card', 'screen:apikey.confirm-replace'],
  confirmingRevoke: ['screen:apikey.card', 'screen:apikey.confirm-revoke'],
  shown: ['screen:apikey.shown'],
};

describe(`apiKey machine (model-based: ${shortest.length} shortest paths + ${paths.length - shortest.length} transitions)`, () => {
  it('reaches exactly the expected states', () => {
    expect([...reachableStates(shortest)].sort()).toEqual([...apiKeyModel.expectedStates].sort());
  });

  it('the QA words name every step and every screen the paths take', () => {
    expect([...new Set(paths.flatMap((p) => p.steps.map((s) => stepKey(s.event))))].sort()).toEqual(Object.keys(apiKeyQa.steps).sort());
    expect([...new Set(paths.flatMap((p) => p.steps.flatMap((s) => screenTags(s.state))))].sort()).toEqual(Object.keys(apiKeyQa.screens).sort());
    expect(Object.keys(apiKeyQa.scenarios)).toEqual(apiKeyModel.scenarios.map((s) => s.name));
  });

  it('replacing or revoking a key asks first; a user without a key is not offered a revoke', () => {
    const states = paths.flatMap((p) => p.steps.map((s) => s.state)).filter((s) => stateKey(s.value) === 'card');
    for (const s of states) {
      expect(s.can({ type: 'REVOKE' })).toBe(ctx(s).hasKey);
      const next = paths.flatMap((p) => p.steps).find((step, i, all) => all[i - 1]?.state === s && step.event.type === 'GENERATE');
      if (next) expect(stateKey(next.state.value)).toBe(ctx(s).hasKey ? 'confirmingReplace' : 'generating');
    }
  });

  itWalksInBatches(paths, checkPath);
});

function checkPath(path: AnyPath): void {
  const result = walkPath(apiKeyModel, path);
  path.steps.forEach((step, i) => {
    const value = stateKey(step.state.value);
    const c = ctx(step.state);
    expect(screenTags(result.snapshots[i]!), value).toEqual(screenOf[value]);
    expect(result.snapshots[i]!.hasTag('busy')).toBe(value === 'generating' || value === 'revoking');
    // the key is shown once: only on the `shown` screen, gone as soon as it is left
    expect(c.key).toBe(value === 'shown' ? NEW_KEY : null);
    if (value === 'confirmingRevoke' || value === 'confirmingReplace' || value === 'revoking') expect(c.hasKey).toBe(true);
    const type = step.event.type;
    if (type.startsWith('xstate.error.actor.')) {
      const code = (step.event as unknown as { error: { code?: string; kind: string } }).error;
      expect(c.error).toMatchObject({ code: code.code ?? 'network', retryable: code.kind === 'network' });
    }
    if (type === 'xstate.done.actor.revokeKey') expect([c.hasKey, c.notice]).toEqual([false, 'revoked']);
    for (const rec of result.stepLogs[i]!) {
      if (rec.kind === 'actor') expect(rec.data).toEqual({ userId: USER_ID });
      if (rec.name === 'generateKey') expect(value).toBe('generating');
      if (rec.name === 'revokeKey') expect(value).toBe('revoking');
    }
    const changed = result.stepLogs[i]!.filter((r) => r.name === 'keyChanged').length;
    expect(changed).toBe(type === 'xstate.done.actor.generateKey' || type === 'xstate.done.actor.revokeKey' ? 1 : 0);
  });
}

describe('apiKey real actors', () => {
  const calls: Array<{ endpoint: EndpointShape; input: unknown }> = [];
  const call = (async (endpoint: EndpointShape, input?: unknown) => {
    calls.push({ endpoint, input });
    return { data: { api_key: NEW_KEY, id: USER_ID, revoked: true } };
  }) as Call;
  const actors = createApiKeyActors({ call });
  const run = (logic: unknown) =>
    new Promise<unknown>((resolve, reject) => {
      const a = createActor(logic as never, { input: { userId: USER_ID } } as never) as unknown as { subscribe: (o: object) => void; start: () => void; getSnapshot: () => { output: unknown } };
      a.subscribe({ complete: () => resolve(a.getSnapshot().output), error: reject });
      a.start();
    });
  it('generate → POST token-generate, revoke → DELETE token', async () => {
    expect(await run(actors.generateKey)).toEqual({ apiKey: NEW_KEY });
    expect(calls.at(-1)).toEqual({ endpoint: account.generateApiKey, input: { params: { id: USER_ID } } });
    expect(await run(actors.revokeKey)).toEqual({ revoked: true });
    expect(calls.at(-1)).toEqual({ endpoint: account.revokeApiKey, input: { params: { id: USER_ID } } });
  });
});
