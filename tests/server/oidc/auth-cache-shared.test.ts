import { describe, expect, it } from 'vitest';
import { AuthCache, type AuthEntry } from '../../../server/oidc/auth-cache';

/**
 * One lookup per token at a time (AuthCache.shared): when an entry ages out, every read of that token in flight misses
 * at once; they wait for one signature check and one statement instead of running one each. A flush (a local write, a
 * message from another instance) drops the lookups in flight: a read that starts after it never gets what a lookup
 * started before it found. Driven by hand (promises resolved by the test): no timing.
 */

const entry = (sub: string) => ({ claims: { sub, client_id: 'portal', gid: 'g' }, account: { id: sub }, grantExpiresAt: null, kid: 'k' }) as unknown as AuthEntry;

function deferred<T>() {
  let resolve!: (v: T) => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<T>((res, rej) => ((resolve = res), (reject = rej)));
  return { promise, resolve, reject };
}

describe('AuthCache.shared', () => {
  it('reads of one token in flight together run one lookup and get its answer', async () => {
    const cache = new AuthCache(1000);
    const d = deferred<AuthEntry | null>();
    let calls = 0;
    const lookup = () => (calls++, d.promise);
    const reads = [cache.shared('t', lookup), cache.shared('t', lookup), cache.shared('t', lookup)];
    expect(calls).toBe(1);
    d.resolve(entry('a'));
    expect((await Promise.all(reads)).map((e) => e?.account.id)).toEqual(['a', 'a', 'a']);
    // done: the next miss looks up again
    cache.shared('t', () => (calls++, Promise.resolve(entry('b'))));
    expect(calls).toBe(2);
  });

  it('other tokens are not shared, and a refusal reaches every read that waited for it', async () => {
    const cache = new AuthCache(1000);
    const d = deferred<AuthEntry | null>();
    let calls = 0;
    const a = cache.shared('t', () => (calls++, d.promise));
    const b = cache.shared('t', () => (calls++, d.promise));
    const other = cache.shared('u', () => (calls++, Promise.resolve(entry('u'))));
    expect(calls).toBe(2);
    d.reject(new Error('invalid_token'));
    await expect(a).rejects.toThrow('invalid_token');
    await expect(b).rejects.toThrow('invalid_token');
    expect((await other)?.account.id).toBe('u');
  });

  it('a flush drops the lookups in flight: a read after it runs its own', async () => {
    const cache = new AuthCache(1000);
    const before = deferred<AuthEntry | null>();
    const after = deferred<AuthEntry | null>();
    const first = cache.shared('t', () => before.promise);
    cache.flush();
    let calls = 0;
    const second = cache.shared('t', () => (calls++, after.promise));
    expect(calls).toBe(1);
    before.resolve(entry('old'));
    after.resolve(entry('new'));
    expect((await first)?.account.id).toBe('old');
    expect((await second)?.account.id).toBe('new');
  });

  it('with the cache off (TTL 0) every read looks up itself', async () => {
    const cache = new AuthCache(0);
    let calls = 0;
    await Promise.all([cache.shared('t', () => (calls++, Promise.resolve(null))), cache.shared('t', () => (calls++, Promise.resolve(null)))]);
    expect(calls).toBe(2);
  });
});
