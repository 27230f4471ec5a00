import { describe, expect, it } from 'vitest';
import { AdmissionGate, RefusalCounter, createAdmission, type Release } from '../../../server/lib/admission';

describe('AdmissionGate', () => {
  it('admits `concurrency` at once, queues `queue` more and refuses the next one at once', async () => {
    const gate = new AdmissionGate('login', { concurrency: 2, queue: 2 });
    const a = gate.enter();
    const b = gate.enter();
    expect(typeof a).toBe('function');
    expect(typeof b).toBe('function');
    const c = gate.enter();
    const d = gate.enter();
    expect(c).toBeInstanceOf(Promise);
    expect(d).toBeInstanceOf(Promise);
    expect(gate.load).toEqual({ active: 2, queued: 2 });
    // the fifth is refused without waiting for anything
    expect(gate.enter()).toBeNull();

    // a released slot goes to the first in the queue, in order
    (a as Release)();
    const releaseC = await (c as Promise<Release>);
    expect(gate.load).toEqual({ active: 2, queued: 1 });
    // releasing twice gives back one slot only
    (a as Release)();
    expect(gate.load).toEqual({ active: 2, queued: 1 });
    (b as Release)();
    const releaseD = await (d as Promise<Release>);
    releaseC();
    releaseD();
    expect(gate.load).toEqual({ active: 0, queued: 0 });
    expect(typeof gate.enter()).toBe('function');
  });

  it('is pressed when every slot is taken and half the queue waits', () => {
    const gate = new AdmissionGate('login', { concurrency: 1, queue: 4 });
    gate.enter();
    expect(gate.pressed).toBe(false);
    gate.enter();
    expect(gate.pressed).toBe(false);
    gate.enter();
    expect(gate.pressed).toBe(true);
  });

  it('authorization refuses new sign-ins while the login step is pressed', () => {
    const admission = createAdmission({ concurrency: 1, queue: 4 }, { warn: () => {} });
    const authorize = admission.gates.authorize.enter();
    expect(typeof authorize).toBe('function');
    (authorize as Release)();
    admission.gates.login.enter();
    admission.gates.login.enter();
    expect(typeof admission.gates.authorize.enter()).toBe('function');
    admission.gates.login.enter(); // half the queue waits: pressed
    expect(admission.gates.authorize.enter()).toBeNull();
    // the steps of sign-ins already admitted are not affected
    expect(admission.gates.resume.enter()).not.toBeNull();
    expect(admission.gates.token.enter()).not.toBeNull();
  });
});

describe('RefusalCounter', () => {
  it('writes one line with the counts per step, not one per refusal', () => {
    const lines: { obj: object; msg: string }[] = [];
    const counter = new RefusalCounter({ warn: (obj, msg) => lines.push({ obj, msg }) });
    counter.flush();
    expect(lines).toHaveLength(0);
    for (let i = 0; i < 500; i++) counter.count('authorize');
    for (let i = 0; i < 20; i++) counter.count('login');
    counter.count('token');
    expect(lines).toHaveLength(0);
    expect(counter.pending()).toEqual({ authorize: 500, login: 20, token: 1 });
    counter.flush();
    expect(lines).toHaveLength(1);
    expect(lines[0]?.obj).toMatchObject({ refused: { authorize: 500, login: 20, token: 1 }, total: 521 });
    expect(lines[0]?.obj).not.toHaveProperty('err');
    expect(counter.pending()).toEqual({});
    counter.flush();
    expect(lines).toHaveLength(1);
  });
});
