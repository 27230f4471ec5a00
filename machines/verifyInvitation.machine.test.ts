import { describe, expect, it } from 'vitest';
import { createActor, type AnyMachineSnapshot } from 'xstate';
import { createVerifyActors, UnknownLinkError, verifyInvitationMachine, type VerifyInvitationContext, type VerifyInvitationInput } from './verifyInvitation.machine';
import { SIGNED_URL, verifyInvitationModel } from './verifyInvitation.model';
import { modelPaths, pathTitle, reachableStates, stateKey, walkPath } from './testing/graph';
import * as account from '../contract/account';
import type { Call, EndpointShape } from '../contract/endpoint';

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
  const calls: Array<{ endpoint: EndpointShape; input: unknown }> = [];
  const call = (async (endpoint: EndpointShape, input?: unknown) => {
    calls.push({ endpoint, input });
    return { data: { flow: 'sc' } };
  }) as Call;
  const actors = createVerifyActors({ call });
  const run = (logic: (typeof actors)[keyof typeof actors], input: object) =>
    new Promise<void>((resolve, reject) => {
      const a = createActor(logic as never, { input } as never) as unknown as { subscribe: (o: object) => void; start: () => void };
      a.subscribe({ complete: resolve, error: reject });
      a.start();
    });
  const link = (path: string) => `https://iam.test${path}?token=T0k3n&expires=1700000000&signature=${'a'.repeat(64)}`;

  it.each([
    [{ flow: 'verify', admin: false }, link(account.checkUserInvitationLink.path), account.checkUserInvitationLink, { query: { token: 'T0k3n', expires: '1700000000', signature: 'a'.repeat(64) } }],
    [{ flow: 'verify', admin: true }, link(account.checkAdminInvitationLink.path), account.checkAdminInvitationLink, { query: { token: 'T0k3n', expires: '1700000000', signature: 'a'.repeat(64) } }],
    [{ flow: 'reset', admin: false }, SIGNED_URL, account.checkUserResetToken, { body: { url: SIGNED_URL } }],
    [{ flow: 'reset', admin: true }, SIGNED_URL, account.checkAdminResetToken, { body: { url: SIGNED_URL } }],
  ] as const)('checkLink %o', async (input, url, endpoint, expected) => {
    await run(actors.checkLink, { ...input, url });
    expect(calls.at(-1)).toEqual({ endpoint, input: expected });
  });

  it.each([
    ['not a URL', 'nonsense'],
    ['a user link on the admin page', link(account.checkUserInvitationLink.path)],
  ])('checkLink refuses %s without a call (the page shows the invalid link)', async (_, url) => {
    const before = calls.length;
    await expect(run(actors.checkLink, { flow: 'verify', admin: true, url })).rejects.toBeInstanceOf(UnknownLinkError);
    expect(calls.length).toBe(before);
  });

  it.each([
    [{ flow: 'verify', admin: false }, account.finishUserInvitation],
    [{ flow: 'verify', admin: true }, account.finishAdminInvitation],
    [{ flow: 'reset', admin: false }, account.resetUserPassword],
    [{ flow: 'reset', admin: true }, account.resetAdminPassword],
  ] as const)('savePassword %o → %s', async (input, endpoint) => {
    await run(actors.savePassword, { ...input, url: SIGNED_URL, password: 'p', password_confirmation: 'p' });
    expect(calls.at(-1)).toEqual({ endpoint, input: { body: { url: SIGNED_URL, password: 'p', password_confirmation: 'p' } } });
  });
});

describe('verifyInvitation with a link that is not one', () => {
  it('shows the invalid-link page', async () => {
    const actor = createActor(verifyInvitationMachine.provide({ actors: createVerifyActors({ call: (async () => ({})) as Call }) }), {
      input: { flow: 'verify', admin: false, url: 'https://iam.test/somewhere-else' },
    }).start();
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(actor.getSnapshot().hasTag('route:verify-invalid')).toBe(true);
  });
});
