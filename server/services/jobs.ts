import { hostname } from 'node:os';
import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { epochMs, systemClock, type Clock } from './deps';

/**
 * Background jobs: the one runner of an app (built with its services, server/plugins/app/services.ts, and handed to
 * them as `deps.jobs`) for work that outlives its request and is kept in a table under a lease (owner, lease_until),
 * so instances sharing a database never run the same job twice and a job whose instance died is found again.
 *
 * What it does for a job kind (the users import, server/services/admin/import.ts, is the first):
 *  - lease: `run` starts the job's work; the job's row names this instance (INSTANCE_ID) as its owner;
 *  - heartbeat: while the work runs, `renew` pushes the lease forward every quarter of it; a renewal that finds the
 *    row no longer this instance's marks the lease lost, and the work stops at its next checkpoint (`stopReason`);
 *  - drain: on shutdown (`drain`, the app's preClose) every job stops at its next checkpoint with `shutdown` and the
 *    runner waits until they have released their rows;
 *  - reaper: `reaper` registers the check that closes the rows of dead owners (an expired lease); the runner runs it
 *    when the app is ready and then every period, until it drains.
 *
 * The back-channel logout delivery queue (server/oidc/backchannel-logout.ts) shares the instance id but keeps its own
 * loop: its leases are per row and last longer than an attempt (no heartbeat), an expired lease makes a row due
 * again (its claim query is its reaper), it wakes when a row is queued, and its owner is the provider runtime, built
 * before the services and stopped after them.
 */

/** This process, as the owner of the rows it works on (host, pid, random: a restarted process is a new owner). */
export const INSTANCE_ID = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;

/** Why a job must stop before it is done: the app shuts down, or another instance (or an admin) took its row. */
export type JobStop = 'shutdown' | 'lease_lost';

/** What the work of a job sees of its lease. */
export interface LeasedJob {
  /** The lease end a write of the job's row sets (now on the runner's clock + the lease period). */
  leaseUntil(): number;
  /** A fenced write found the row no longer this instance's: the lease is lost. */
  lost(): void;
  /** Null while the job may go on; checked by the work between its steps. */
  stopReason(): JobStop | null;
}

export interface JobRunner {
  readonly instanceId: string;
  /**
   * Runs a job in the background. `renew(leaseUntil)` extends the job's lease and answers whether the row is still
   * this instance's; `work` gets the lease and ends the job (it releases or closes the row itself).
   */
  run(job: { leaseMs: number; renew: (leaseUntil: number) => Promise<boolean>; onRenewError: (err: unknown) => void; work: (lease: LeasedJob) => Promise<void> }): void;
  /** Registers the check that closes the jobs of dead instances: run when the app is ready, then every `everyMs`. */
  reaper(name: string, everyMs: number, reap: () => Promise<unknown>): void;
  /** The app is ready: runs every reaper once and starts their periods. */
  start(): Promise<void>;
  /** Resolves when the jobs running now have ended (stopped, failed or done). */
  settled(): Promise<void>;
  /** Shutdown: no more reaper runs; running jobs stop at their next checkpoint; resolves when they have ended. */
  drain(): Promise<void>;
}

/** `clock`: the time leases are taken against (the app's `deps.clock`). */
export function createJobRunner(log: Pick<FastifyBaseLogger, 'warn'>, clock: Clock = systemClock): JobRunner {
  const running = new Set<Promise<void>>();
  const reapers: { name: string; everyMs: number; reap: () => Promise<unknown> }[] = [];
  const timers: NodeJS.Timeout[] = [];
  let draining = false;

  const reapOnce = (r: (typeof reapers)[number]) => r.reap().catch((err: unknown) => log.warn({ err: err instanceof Error ? err.message : String(err) }, `${r.name} check failed`));

  return {
    instanceId: INSTANCE_ID,
    run({ leaseMs, renew, onRenewError, work }) {
      let leaseLost = false;
      const lease: LeasedJob = {
        leaseUntil: () => epochMs(clock) + leaseMs,
        lost: () => {
          leaseLost = true;
        },
        stopReason: () => (leaseLost ? 'lease_lost' : draining ? 'shutdown' : null),
      };
      const heartbeat = setInterval(() => {
        renew(lease.leaseUntil())
          .then((held) => {
            if (!held) leaseLost = true;
          })
          .catch(onRenewError);
      }, Math.max(200, Math.floor(leaseMs / 4)));
      heartbeat.unref();
      const done = work(lease).finally(() => clearInterval(heartbeat));
      running.add(done);
      void done.finally(() => running.delete(done)).catch(() => undefined);
    },
    reaper(name, everyMs, reap) {
      reapers.push({ name, everyMs, reap });
    },
    async start() {
      for (const r of reapers) {
        const timer = setInterval(() => void reapOnce(r), r.everyMs);
        timer.unref();
        timers.push(timer);
      }
      await Promise.all(reapers.map(reapOnce));
    },
    async settled() {
      await Promise.allSettled([...running]);
    },
    async drain() {
      draining = true;
      for (const t of timers.splice(0)) clearInterval(t);
      await Promise.allSettled([...running]);
    },
  };
}
