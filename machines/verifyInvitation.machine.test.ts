import { describe, expect, it } from 'vitest';
import { createActor, type AnyMachineSnapshot } from 'xstate';
import { createVerifyActors, type VerifyInvitationContext, type VerifyInvitationInput } from './verifyInvitation.machine';
import { SIGNED_URL, verifyInvitationModel } from './verifyInvitation.model';
import { modelPaths, pathTitle, reachableStates, stateKey, walkPath } from './testing/graph';
import type { HttpInit } from './shared';

const paths = modelPaths(verifyInvitationModel);
const ctx = (s: AnyMachineSnapshot) => s.context as VerifyInvitationContext;

describe(`verifyInvitation machine (model-based, every simple path: ${paths.length})`, () => {
  it('reaches exactly the expected states and every final state', () => {
    expect([...reachableStates(paths)].sort()).toEqual([...verifyInvitationModel.expectedStates].sort());
    for (const final of verifyInvitationModel.finalStates) expect(paths.some((p) => stateKey(p.state.value) === final)).toBe(true);
  });

  paths.forEach((path, index) => {
    it(pathTitle(path, index), () => {
      const result = walkPath(verifyInvitationModel, path);
      const input = path.input as VerifyInvitationInput;
      for (const req of result.actorInputs('checkLink')) expect(req).toEqual({ flow: input.flow, admin: input.admin, url: SIGNED_URL });
      for (const req of result.actorInputs('savePassword')) {
        expect(req).toEqual({ flow: input.flow, admin: input.admin, url: SIGNED_URL, password: 'Str0ng-Password!', password_confirmation: 'Str0ng-Password!' });
      }
      const value = stateKey(result.snapshot.value);
      const end = ctx(result.snapshot);
      const last = path.steps.at(-1)!.event as { type: string; error?: { status?: number } };
      if (value === 'done') expect(end.flowCode).toBe(input.flow === 'verify' ? 'sc' : 'cp');
      if (value === 'invalid') expect(end.error).toEqual({ code: 'link_invalid' });
      if (value === 'form' && last.type === 'xstate.error.actor.savePassword') {
        if (last.error?.status === 422) expect(end.error).toMatchObject({ code: 'validation_failed', fields: { password: ['password_too_short'] } });
        else expect(end.error?.code).toBe('unexpected');
      }
      if (value === 'unavailable') expect(end.error?.code).toBe('network');
      if (input.url === null) expect(result.log).toEqual([]);
      expect(result.snapshot.hasTag(`route:verify-${value === 'saving' ? 'form' : value === 'unavailable' ? 'unavailable' : value}` as never) || value === 'checking').toBe(true);
    });
  });
});

describe('verifyInvitation real actors', () => {
  const calls: Array<{ url: string; init?: HttpInit }> = [];
  const http = async <T,>(url: string, init?: HttpInit): Promise<T> => {
    calls.push({ url, init });
    return { data: { flow: 'sc' } } as T;
  };
  const actors = createVerifyActors({ http });
  const run = (logic: (typeof actors)[keyof typeof actors], input: object) =>
    new Promise<void>((resolve, reject) => {
      const a = createActor(logic as never, { input } as never) as unknown as { subscribe: (o: object) => void; start: () => void };
      a.subscribe({ complete: resolve, error: reject });
      a.start();
    });

  it.each([
    [{ flow: 'verify', admin: false }, { url: SIGNED_URL, init: { method: 'GET' } }],
    [{ flow: 'reset', admin: false }, { url: '/api/reset-password-token', init: { method: 'POST', body: { url: SIGNED_URL } } }],
    [{ flow: 'reset', admin: true }, { url: '/api/admin/reset-password-token', init: { method: 'POST', body: { url: SIGNED_URL } } }],
  ])('checkLink %o', async (input, expected) => {
    await run(actors.checkLink, { ...input, url: SIGNED_URL });
    expect(calls.at(-1)).toEqual(expected);
  });

  it.each([
    [{ flow: 'verify', admin: false }, '/api/user/verify'],
    [{ flow: 'verify', admin: true }, '/api/admin/verify'],
    [{ flow: 'reset', admin: false }, '/api/reset-password'],
    [{ flow: 'reset', admin: true }, '/api/admin/reset-password'],
  ])('savePassword %o → %s', async (input, url) => {
    await run(actors.savePassword, { ...input, url: SIGNED_URL, password: 'p', password_confirmation: 'p' });
    expect(calls.at(-1)).toEqual({ url, init: { method: 'POST', body: { url: SIGNED_URL, password: 'p', password_confirmation: 'p' } } });
  });
});
