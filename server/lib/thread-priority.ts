import { readdirSync } from 'node:fs';
import { access } from 'node:fs/promises';
import os from 'node:os';

export interface ThreadPriorityResult {
  /** threads whose nice value was raised (their OS thread ids) */
  lowered: number[];
  /** why nothing was done, when nothing was */
  skipped?: string;
}

/**
 * Gives every thread of this process but the main one (the event loop) a lower CPU priority: `niceness` above the
 * main thread's nice value, at most 19 (Linux; elsewhere nothing). Those are libuv's threadpool, where argon2id hashes
 * run for 20–30 ms each, and V8's GC and compiler helpers. On a machine whose cores the hashes keep busy, the event loop otherwise waits for a core
 * behind them: every request waits — the cheap refusals of an overloaded sign-in gate too (their latency goal is
 * p99 ≤ 50 ms). With the hashes niced, the scheduler runs the event loop first and the hashes take the rest: the
 * same CPU, spent in the other order.
 *
 * libuv creates its whole pool on the first piece of work it gets; one file check makes sure it exists before the
 * threads are listed (threads created later by the main thread start at its nice value). A process may always
 * lower its own threads' priority; a failure (a sandbox that forbids setpriority) is reported, not thrown.
 */
export async function lowerBackgroundThreadPriority(niceness: number): Promise<ThreadPriorityResult> {
  if (niceness <= 0) return { lowered: [], skipped: 'disabled' };
  if (process.platform !== 'linux') return { lowered: [], skipped: `not on ${process.platform}` };
  await access('.');
  // relative to the event loop's own priority (a server started under `nice -n 5` gets 15), so it is only ever lowered
  const target = Math.min(19, os.getPriority(process.pid) + niceness);
  const lowered: number[] = [];
  for (const name of readdirSync('/proc/self/task')) {
    const tid = Number(name);
    if (!Number.isInteger(tid) || tid === process.pid) continue;
    try {
      os.setPriority(tid, target);
      lowered.push(tid);
    } catch (err) {
      return { lowered, skipped: err instanceof Error ? err.message : String(err) };
    }
  }
  return { lowered };
}
