import { describe, expect, it } from 'vitest';
import { HashGate, hashPassword, verifyPassword, verifyAgainstDummy } from '../../../server/services/passwords';
import { AppError } from '../../../server/errors';

describe('password hashing', () => {
  it('uses argon2id with the OWASP parameters and verifies', async () => {
    const hash = await hashPassword('Correct-Horse-1!');
    expect(hash).toMatch(/^\$argon2id\$v=19\$m=19456,p=1,t=2\$/);
    expect(await verifyPassword(hash, 'Correct-Horse-1!')).toBe(true);
    expect(await verifyPassword(hash, 'Correct-Horse-2!')).toBe(false);
    expect(await verifyPassword('not-a-hash', 'x')).toBe(false);
    expect(await verifyAgainstDummy('anything')).toBe(false);
  });

  it('caps concurrent hashes and answers 503 at once when the queue is full', async () => {
    const gate = new HashGate(1, 1);
    let release!: () => void;
    const blocker = new Promise<void>((r) => (release = r));
    const first = gate.run(() => blocker);
    const second = gate.run(async () => 'queued');
    expect(gate.load).toEqual({ active: 1, queued: 1 });
    const third = gate.run(async () => 'never');
    await expect(third).rejects.toBeInstanceOf(AppError);
    await expect(third).rejects.toMatchObject({ status: 503, code: 'service_unavailable' });
    release();
    await first;
    expect(await second).toBe('queued');
    expect(gate.load).toEqual({ active: 0, queued: 0 });
  });
});
