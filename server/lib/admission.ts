/**
 * Admission control for the sign-in flow (docs/OPERATIONS.md "Overload"): each expensive step admits a bounded
 * number of requests at once, lets a short bounded queue wait, and refuses the rest AT ONCE (503 + Retry-After,
 * before any body is read, any database row is touched or any password is hashed). Refusals are not logged one by
 * one: `RefusalCounter` writes one line per interval with the counts per step (and Prometheus counts them).
 *
 * Steps, in the order a sign-in passes them:
 *  - `authorize`: a new authorization request (GET/POST /oidc/auth). Besides its own bound it refuses while the
 *    login step is pressed (its queue half full): new sign-ins are turned away at the door, cheaply, so the ones
 *    already admitted finish (their work is not wasted on a refusal further on);
 *  - `login`: the password step (POST /api/login, /api/admin/login), sized from the argon2 capacity;
 *  - `resume`: the provider's resume after the login (/oidc/auth/:uid) — admitted flows, a generous bound;
 *  - `token`: the token endpoint (POST /oidc/token).
 */
import { Counter } from 'prom-client';
import { registry } from './metrics';

export type AdmissionStep = 'authorize' | 'login' | 'resume' | 'token';
export const ADMISSION_STEPS: readonly AdmissionStep[] = ['authorize', 'login', 'resume', 'token'];

export interface GateLimits {
  /** requests admitted at once */
  concurrency: number;
  /** requests that may wait for a slot; beyond that a request is refused at once */
  queue: number;
}

/** Releases an admitted request's slot; safe to call more than once. */
export type Release = () => void;

/** Bounded concurrency with a short bounded queue. */
export class AdmissionGate {
  private active = 0;
  private readonly waiters: (() => void)[] = [];
  constructor(
    readonly step: AdmissionStep,
    public limits: GateLimits,
    /** refuse new work while this says so (the downstream step is pressed) */
    private readonly shed?: () => boolean,
  ) {}

  /** A release function at once, a promise of one after a wait in the queue, or null: refused. */
  enter(): Release | Promise<Release> | null {
    if (this.shed?.()) return null;
    if (this.active < this.limits.concurrency && this.waiters.length === 0) {
      this.active++;
      return this.releaser();
    }
    if (this.waiters.length >= this.limits.queue) return null;
    return new Promise<Release>((resolve) => {
      this.waiters.push(() => {
        this.active++;
        resolve(this.releaser());
      });
    });
  }

  private releaser(): Release {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.active--;
      this.waiters.shift()?.();
    };
  }

  /** Every slot taken and the queue at least half full (any queued request when the queue is 1 long; full when 0). */
  get pressed(): boolean {
    return this.active >= this.limits.concurrency && this.waiters.length * 2 >= this.limits.queue;
  }

  get load(): { active: number; queued: number } {
    return { active: this.active, queued: this.waiters.length };
  }
}

const refusalsTotal = new Counter({
  name: 'iam_admission_refusals_total',
  help: 'Requests refused at once (503 + Retry-After) because a sign-in step was at its admission limit',
  labelNames: ['step'] as const,
  registers: [registry],
});

export interface CounterLog {
  warn(obj: object, msg: string): void;
}

/** Counts refusals per step; `flush()` (every interval, from the app) writes one log line when there were any. */
export class RefusalCounter {
  private counts = new Map<AdmissionStep, number>();
  private since = Date.now();
  constructor(private readonly log: CounterLog) {}

  count(step: AdmissionStep): void {
    this.counts.set(step, (this.counts.get(step) ?? 0) + 1);
    refusalsTotal.inc({ step });
  }

  /** Refusals not yet written to the log, per step. */
  pending(): Partial<Record<AdmissionStep, number>> {
    return Object.fromEntries(this.counts);
  }

  flush(): void {
    if (this.counts.size === 0) {
      this.since = Date.now();
      return;
    }
    const refused = this.pending();
    const total = [...this.counts.values()].reduce((a, b) => a + b, 0);
    const seconds = Math.max(1, Math.round((Date.now() - this.since) / 1000));
    this.counts = new Map();
    this.since = Date.now();
    this.log.warn({ refused, total, seconds }, `overload: ${total} requests refused with 503 in the last ${seconds} s (admission limits)`);
  }
}

/** The gates of one app, sized from the password-hash limits (IAM_HASH_CONCURRENCY, IAM_HASH_QUEUE). */
export interface Admission {
  gates: Record<AdmissionStep, AdmissionGate>;
  refusals: RefusalCounter;
  /** Seconds a refused client is told to wait (Retry-After). */
  retryAfterSeconds: number;
}

export function createAdmission(hash: GateLimits, log: CounterLog): Admission {
  const login = new AdmissionGate('login', { concurrency: hash.concurrency, queue: hash.queue });
  const flow = Math.max(8, hash.concurrency * 4);
  return {
    gates: {
      login,
      authorize: new AdmissionGate('authorize', { concurrency: flow, queue: flow }, () => login.pressed),
      resume: new AdmissionGate('resume', { concurrency: flow, queue: flow * 2 }),
      token: new AdmissionGate('token', { concurrency: flow, queue: flow * 2 }),
    },
    refusals: new RefusalCounter(log),
    retryAfterSeconds: 1,
  };
}
