import os from 'node:os';
import { describe, expect, it } from 'vitest';
// @ts-expect-error -- a plain .mjs script without types (the settings npm start uses)
import { serverEnv } from '../../../scripts/server-runtime.mjs';

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
});
