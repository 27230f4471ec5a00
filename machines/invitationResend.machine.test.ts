import { describe, expect, it } from 'vitest';
import { createActor, type AnyMachineSnapshot } from 'xstate';
import { adminUsers as users } from '../contract/routes-admin';
import type { Call, EndpointShape } from '../contract/endpoint';
import { createInvitationResendActors, type InvitationResendContext } from './invitationResend.machine';
import { INVITEE_ID, invitationResendModel } from './invitationResend.model';
import { invitationResendQa } from './invitationResend.qa';
import { modelPaths, pathTitle, reachableStates, stateKey, walkPath, type AnyPath } from './testing/graph';
import { screenTags, stepKey, transitionPaths } from './testing/qa';

const simple = modelPaths(invitationResendModel);
const paths = [...simple, ...transitionPaths(invitationResendModel)];
const ctx = (s: AnyMachineSnapshot) => s.context as InvitationResendContext;
const screenOf: Record<string, string[]> = { ready: ['screen:invite.ready'], sending: ['screen:invite.ready'], sent: ['screen:invite.sent'], failed: ['screen:invite.failed'] };

describe(`invitationResend machine (model-based: ${simple.length} simple paths + every transition)`, () => {
  it('reaches exactly the expected states', () => {
    expect([...reachableStates(simple)].sort()).toEqual([...invitationResendModel.expectedStates].sort());
  });

  it('the QA words name every step and every screen the paths take', () => {
    expect([...new Set(paths.flatMap((p) => p.steps.map((s) => stepKey(s.event))))].sort()).toEqual(Object.keys(invitationResendQa.steps).sort());
    expect([...new Set(paths.flatMap((p) => p.steps.flatMap((s) => screenTags(s.state))))].sort()).toEqual(Object.keys(invitationResendQa.screens).sort());
    expect(Object.keys(invitationResendQa.scenarios)).toEqual(invitationResendModel.scenarios.map((s) => s.name));
  });

  it('"Try again" only after no answer; an already verified user is a refusal that reloads the page', () => {
    const failed = paths.flatMap((p) => p.steps.map((s) => s.state)).filter((s) => stateKey(s.value) === 'failed');
    expect(failed.some((s) => ctx(s).error?.code === 'already_verified' && !s.can({ type: 'RETRY' }))).toBe(true);
    expect(failed.some((s) => ctx(s).error?.code === 'network' && s.can({ type: 'RETRY' }))).toBe(true);
  });

  it.each(paths.map((p, i) => [pathTitle(p, i), p] as const))('%s', (_title, path) => checkPath(path));
});

function checkPath(path: AnyPath): void {
  const result = walkPath(invitationResendModel, path);
  path.steps.forEach((step, i) => {
    const value = stateKey(step.state.value);
    expect(screenTags(result.snapshots[i]!), value).toEqual(screenOf[value]);
    expect(result.snapshots[i]!.hasTag('busy')).toBe(value === 'sending');
    if (value !== 'failed') expect(ctx(step.state).error).toBeNull();
    for (const rec of result.stepLogs[i]!) if (rec.kind === 'actor') expect([rec.name, rec.data, value]).toEqual(['sendInvitation', { userId: INVITEE_ID }, 'sending']);
    const stale = step.event.type === 'xstate.error.actor.sendInvitation' && ctx(step.state).error?.code === 'already_verified';
    expect(result.stepLogs[i]!.filter((r) => r.name === 'userChanged')).toHaveLength(stale ? 1 : 0);
    // the outcome is announced once, where it happens (the row icon's toast)
    expect(result.stepLogs[i]!.filter((r) => r.name === 'announceSent')).toHaveLength(step.event.type === 'xstate.done.actor.sendInvitation' ? 1 : 0);
    const failure = step.event.type === 'xstate.error.actor.sendInvitation' ? (step.event as { error?: unknown }).error : undefined;
    expect(result.stepLogs[i]!.filter((r) => r.name === 'announceFailed').map((r) => r.data)).toEqual(failure ? [{ error: failure }] : []);
  });
}

describe('invitationResend real actor', () => {
  it('POSTs the invite endpoint of the user', async () => {
    const calls: Array<{ endpoint: EndpointShape; input: unknown }> = [];
    const call = (async (endpoint: EndpointShape, input?: unknown) => {
      calls.push({ endpoint, input });
      return { data: { id: INVITEE_ID, invitation_sent: true } };
    }) as Call;
    const { sendInvitation } = createInvitationResendActors({ call });
    await new Promise<void>((resolve, reject) => {
      const a = createActor(sendInvitation, { input: { userId: INVITEE_ID } });
      a.subscribe({ complete: resolve, error: reject });
      a.start();
    });
    expect(calls).toEqual([{ endpoint: users.inviteUser, input: { params: { id: INVITEE_ID } } }]);
  });
});
