import { afterEach, expect, it, vi } from 'vitest';
import argon2 from 'argon2';
import type { LightMyRequestResponse } from 'fastify';
import { describeEachDb, type TestApp } from '../../helpers/app';
import { createAccount, startAuthorize } from '../../helpers/auth';
import { registry } from '../../../server/lib/metrics';

/**
 * Lockout under parallel attempts (issue 9): an attempt reserves its slot before the secret is checked,
 * so N parallel attempts evaluate at most the limit (5), and the locked answer is the same whatever the secret.
 * "Evaluated" is counted by spying (call-through) on argon2.verify: every password check, real or dummy, runs it once.
 */
const PW = 'Correct-Horse-1!';
let n = 0;
const email = (p: string) => `${p}-${++n}-${Date.now()}@example.test`;
let ipSeq = 0;
/** A fresh client address per scenario, so the per-IP counter of one test does not leak into another. */
const freshIp = () => `198.51.${Math.floor(++ipSeq / 250) % 250}.${(ipSeq % 250) + 1}`;

/** The locked answer without the seconds that tick between two requests. */
const lockedShape = (r: LightMyRequestResponse) => ({ status: r.statusCode, body: r.body.replace(/\d+/g, '#') });

/** The value of one labelled series of a counter (0 when absent). */
async function metric(name: string, label: string, value: string): Promise<number> {
  const m = (await registry.getMetricsAsJSON()).find((x) => x.name === name);
  const v = (m?.values ?? []).find((x) => (x.labels as Record<string, string>)[label] === value);
  return Number(v?.value ?? 0);
}

afterEach(() => {
  vi.restoreAllMocks();
});

/** A sign-in step from the browser that started the authorization (`cookie`: its jar, with the interaction's binding). */
async function login(t: TestApp, url: string, payload: Record<string, string>, ip: string, cookie?: string) {
  return t.app.inject({ method: 'POST', url, payload, remoteAddress: ip, ...(cookie ? { headers: { cookie } } : {}) });
}

describeEachDb(
  'lockout: password sign-in',
  (get) => {
  for (const [url, type] of [
    ['/api/login', 'user'],
    ['/api/admin/login', 'admin'],
  ] as const) {
    it(`${url}: 50 parallel wrong passwords evaluate at most 5; the right one in the burst is answered like the wrong ones once locked`, async () => {
      const t = get();
      const acc = await createAccount(t, { type, email: email(type), password: PW });
      const s = await startAuthorize(t, { client: type === 'admin' ? 'admin-console' : 'portal' });
      const ip = freshIp();
      const lockoutsBefore = await metric('iam_lockouts_total', 'kind', 'email');
      const lockedBefore = await metric('iam_sign_ins_total', 'outcome', 'locked');
      const verify = vi.spyOn(argon2, 'verify');
      const passwords = Array.from({ length: 50 }, (_, i) => (i === 30 ? PW : `Wrong-Horse-${i}!`));
      const res = await Promise.all(passwords.map((password) => login(t, url, { email: acc.email, password, interaction: s.interaction ?? '' }, ip, s.jar.header())));
      // a success clears the counter (the password is known): then at most the limit again after it
      expect(verify.mock.calls.length).toBeLessThanOrEqual(res[30]!.statusCode === 200 ? 10 : 5);
      const statuses = res.map((r) => r.statusCode);
      expect(statuses.filter((c) => c !== 429).length).toBe(verify.mock.calls.length);
      const locked = res.filter((r) => r.statusCode === 429);
      expect(locked.length).toBeGreaterThanOrEqual(40);
      const right = res[30]!;
      const shapes = new Set(locked.map((r) => JSON.stringify(lockedShape(r))));
      expect(shapes.size).toBe(1);
      // metrics: the lock and the locked answers are counted
      if (right.statusCode !== 200) expect(await metric('iam_lockouts_total', 'kind', 'email')).toBe(lockoutsBefore + 1);
      expect(await metric('iam_sign_ins_total', 'outcome', 'locked')).toBe(lockedBefore + locked.length);
      // the right password: evaluated (200) or the identical locked answer, never a different error
      if (right.statusCode !== 200) expect(lockedShape(right)).toEqual(lockedShape(locked[0]!));
      // after the burst: right and wrong get the same answer, and neither is evaluated
      verify.mockClear();
      const after = await Promise.all([PW, 'Wrong-Horse-x!'].map((password) => login(t, url, { email: acc.email, password, interaction: s.interaction ?? '' }, ip, s.jar.header())));
      if (right.statusCode !== 200) {
        expect(verify).not.toHaveBeenCalled();
        expect(lockedShape(after[0]!)).toEqual(lockedShape(after[1]!));
        expect(after[0]!.json().error.code).toBe('account_locked');
      }
    });
  }
  },
  // 50 at once must reach the lockout logic: the login admission gate (server/lib/admission.ts) queues them all here
  { IAM_HASH_QUEUE: '1000' },
);
