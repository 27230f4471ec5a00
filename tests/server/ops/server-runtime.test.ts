import os from 'node:os';
import { describe, expect, it } from 'vitest';
// @ts-expect-error -- a plain .mjs script without types (the settings npm start uses)
import { serverEnv, serverNodeArgs } from '../../../scripts/server-runtime.mjs';

type Env = Record<string, string | undefined>;
const envOf = (env: Env): Env => serverEnv(env) as Env;

describe('server runtime environment (npm start)', () => {
  it('backs the mmap’d argon2id buffers with transparent huge pages', () => {
    const env = envOf({});
    // 4 KiB pages made every fresh 19 MiB buffer ~4 900 page faults: ~3× the CPU of the hash itself
    expect(env.GLIBC_TUNABLES).toBe('glibc.malloc.hugetlb=1');
    expect(env.MALLOC_MMAP_THRESHOLD_).toBe('131072');
    expect(env.MALLOC_ARENA_MAX).toBe('2');
  });

  it('gives the threadpool one argon2id hash per core plus 4 threads for file, DNS and crypto work', () => {
    expect(envOf({}).UV_THREADPOOL_SIZE).toBe(String(Math.max(1, os.availableParallelism()) + 4));
  });

  it('keeps a value already set in the environment', () => {
    expect(envOf({ GLIBC_TUNABLES: 'glibc.malloc.hugetlb=0' }).GLIBC_TUNABLES).toBe('glibc.malloc.hugetlb=0');
    expect(envOf({ IAM_HASH_CONCURRENCY: '3' }).UV_THREADPOOL_SIZE).toBe('7');
  });

  it('caps V8\'s old generation at 1 GiB, so its heap grows by at most 1.6× the live size between full GCs (4× uncapped)', () => {
    expect(serverNodeArgs({}) as string[]).toEqual(['--max-semi-space-size=1', '--max-old-space-size=1024']);
  });

  it('leaves the old-generation size to NODE_OPTIONS when it sets one', () => {
    expect(serverNodeArgs({ NODE_OPTIONS: '--enable-source-maps --max-old-space-size=4096' }) as string[]).toEqual(['--max-semi-space-size=1']);
  });
});
