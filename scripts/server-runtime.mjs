// How the server process is started (`npm start`, bench/signin.ts): V8 flags and environment for memory and threads.
// docs/OPERATIONS.md "Memory and threads" explains each; a variable already set in the environment wins.
import os from 'node:os';

/**
 * Node flags: a young generation of 1 MB semi-spaces (V8 grows them to 16 MB each on a busy start and keeps them:
 * ~30 MB of resident memory an idle server does not need; the extra scavenges cost little next to argon2id).
 */
export function serverNodeArgs() {
  return ['--max-semi-space-size=1'];
}

/**
 * Environment: the libuv threadpool gets 4 threads more than argon2id may use at once (IAM_HASH_CONCURRENCY, default 1 per
 * core), so file, DNS and crypto work never waits behind hashing; glibc hands each 19 MiB argon2id buffer back to the
 * system when the hash ends (fixed mmap threshold) and keeps at most 2 malloc arenas, so the resident size falls back
 * after a burst of sign-ins instead of staying at its peak; those mmap'd buffers are backed by transparent huge pages
 * (glibc.malloc.hugetlb=1: madvise(MADV_HUGEPAGE)), so a fresh buffer costs ~10 page faults instead of ~4 900 — with
 * 4 KiB pages the faults tripled the CPU of every hash (≈ 130 ms instead of ≈ 40 ms per verify on the 2-core box).
 */
export function serverEnv(env = process.env) {
  const cores = Math.max(1, os.availableParallelism?.() ?? os.cpus().length);
  const hashes = /^\d+$/.test(env.IAM_HASH_CONCURRENCY ?? '') ? Number(env.IAM_HASH_CONCURRENCY) : cores;
  return { UV_THREADPOOL_SIZE: String(hashes + 4), MALLOC_ARENA_MAX: '2', MALLOC_MMAP_THRESHOLD_: '131072', GLIBC_TUNABLES: 'glibc.malloc.hugetlb=1', ...env };
}
