import { describe, expect, it } from 'vitest';
import { createActor, type AnyMachineSnapshot } from 'xstate';
import { createVerifyActors, UnknownLinkError, verifyInvitationMachine, type VerifyInvitationContext, type VerifyInvitationInput } from './verifyInvitation.machine';
import { PASSWORD, SIGNED_ADMIN_URL, SIGNED_URL, verifyInvitationModel } from './verifyInvitation.model';
import { modelPaths, pathTitle, reachableStates, stateKey, walkPath, type AnyPath } from './testing/graph';
import { screenTags, transitionPaths } from './testing/qa';
import * as account from '../contract/account';
import type { Call, EndpointShape } from '../contract/endpoint';

const paths = modelPaths(verifyInvitationModel);
const chained = transitionPaths(verifyInvitationModel);
const ctx = (s: AnyMachineSnapshot) => s.context as VerifyInvitationContext;

/** The screen each state shows (saving keeps the form, with the button busy). */
const screenOf: Record<string, string[]> = {
  checking: ['screen:verify.checking'],
  unavailable: ['screen:verify.unavailable'],
  form: ['screen:verify.form'],
  saving: ['screen:verify.form'],
  invalid: ['screen:verify.invalid'],
  done: ['screen:verify.done'],
  toSignIn: ['screen:verify.to-sign-in'],
  toForgotPassword: ['screen:verify.to-forgot-password'],
};

function checkPath(path: AnyPath): void {
  const result = walkPath(verifyInvitationModel, path);
  const input = path.input as VerifyInvitationInput;
  for (const req of result.actorInputs('checkLink')) expect(req).toEqual({ flow: input.flow, admin: input.admin, url: input.url });
  for (const req of result.actorInputs('savePassword')) {
    expect(req).toEqual({ flow: input.flow, admin: input.admin, url: input.url, password: PASSWORD, password_confirmation: PASSWORD });
  }
  // an invitation link of the other kind is refused without a request
  if (input.flow === 'verify' && input.url !== null && input.admin !== (input.url === SIGNED_ADMIN_URL)) expect(result.log.filter((r) => r.kind === 'actor')).toEqual([]);
  path.steps.forEach((step) => {
    const value = stateKey(step.state.value);
    expect(screenTags(step.state), value).toEqual(screenOf[value]);
    expect(step.state.hasTag('loading'), value).toBe(value === 'checking' || value === 'saving');
    expect(step.state.hasTag('exit'), value).toBe(value.startsWith('to'));
  });
  const value = stateKey(result.snapshot.value);
  const end = ctx(result.snapshot);
  const last = path.steps.at(-1)!.event as { type: string; error?: { status?: number; kind?: string } };
  if (value === 'done') expect(end.flowCode).toBe(input.flow === 'verify' ? 'sc' : 'cp');
  if (value === 'invalid') expect(end.error).toEqual({ code: 'invalid_link', retryable: false });
  if (value === 'form' && last.type === 'xstate.error.actor.savePassword') {
    if (last.error?.status === 422) expect(end.error).toMatchObject({ code: 'validation_failed', fields: { password: ['password_common'] } });
    else expect(end.error?.code).toBe('network');
  }
  if (value === 'form' && last.type === 'INPUT_REJECTED') expect(end.error).toBeNull();
  if (value === 'unavailable') expect(end.error?.code).toBe('network');
  if (input.url === null) expect(result.log.filter((r) => r.kind === 'actor')).toEqual([]);
  // the machine leaves the page itself, once, to the page of its exit state
  const navigations = result.actions('navigate');
  if (value === 'toSignIn') expect(navigations).toEqual([{ to: input.admin ? '/admin/login' : '/login' }]);
  else if (value === 'toForgotPassword') expect(navigations).toEqual([input.admin ? { to: '/forgot-password', search: { type: 'admin' } } : { to: '/forgot-password' }]);
  else expect(navigations).toEqual([]);
}

describe(`verifyInvitation machine (model-based, every simple path: ${paths.length})`, () => {
  it('reaches exactly the expected states and every final state', () => {
    expect([...reachableStates(paths)].sort()).toEqual([...verifyInvitationModel.expectedStates].sort());
    for (const final of verifyInvitationModel.finalStates) expect(paths.some((p) => stateKey(p.state.value) === final)).toBe(true);
  });

  paths.forEach((path, index) => {
    it(pathTitle(path, index), () => checkPath(path));
  });
});

describe(`verifyInvitation machine (every transition, the browser walk's ${chained.length} paths)`, () => {
  chained.forEach((path, index) => {
    it(pathTitle(path, index), () => checkPath(path));
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
  it('shows the invalid-link page without asking the server', async () => {
    let calls = 0;
    const actor = createActor(verifyInvitationMachine.provide({ actors: createVerifyActors({ call: (async () => {
      calls++;
      return { data: {} };
    }) as unknown as Call }) }), {
      input: { flow: 'verify', admin: false, url: 'https://iam.test/somewhere-else' },
    }).start();
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(actor.getSnapshot().hasTag('screen:verify.invalid')).toBe(true);
    expect(calls).toBe(0);
  });
});
