// How the server process is started (`npm start`, bench/signin.ts): V8 flags and environment for memory and threads.
// docs/OPERATIONS.md "Memory and threads" explains each; a variable already set in the environment wins.
import os from 'node:os';

/**
 * Node flags: a young generation of 1 MB semi-spaces (V8 grows them to 16 MB each on a busy start and keeps them:
 * ~30 MB of resident memory an idle server does not need; the extra scavenges cost little next to argon2id), and an old
 * generation capped at 1 GiB: below 2 GiB V8 lets the heap grow to at most 1.6× the live size before the next full GC
 * (1.3× at 256 MiB … 2× at 2 GiB) instead of 4× on a machine with ≥ 16 GB; with ~45 MB live that is a limit of ~75 MB
 * instead of ~180 MB, the garbage that made the sign-in peak. 1 GiB is ~20× the live heap under load; NODE_OPTIONS
 * with its own --max-old-space-size wins.
 */
export function serverNodeArgs(env = process.env) {
  return ['--max-semi-space-size=1', ...(/--max-old-space-size\b/.test(env.NODE_OPTIONS ?? '') ? [] : ['--max-old-space-size=1024'])];
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
