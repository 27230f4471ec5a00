import argon2 from 'argon2';
import { defaultHashGateLimits } from '../config';
import { AppError } from '../errors';
import { hashQueue } from '../lib/metrics';

/** OWASP argon2id parameters (m=19456 KiB, t=2, p=1). */
export const ARGON2_OPTIONS = { type: argon2.argon2id, memoryCost: 19456, timeCost: 2, parallelism: 1 } as const;

/**
 * Caps concurrent hashes: each costs ~19 MiB and tens of ms of CPU. Work beyond the cap waits in a
 * short queue; when that is full too the caller gets 503 at once instead of piling up.
 */
export class HashGate {
  private active = 0;
  private readonly waiters: (() => void)[] = [];
  constructor(
    public maxActive: number,
    public maxQueue: number,
  ) {}
  /** New limits (the app's configuration at start); work already admitted or waiting is not affected. */
  configure(limits: { concurrency: number; queue: number }): void {
    this.maxActive = limits.concurrency;
    this.maxQueue = limits.queue;
  }
  async run<T>(fn: () => Promise<T>): Promise<T> {
    if (this.active >= this.maxActive) {
      if (this.waiters.length >= this.maxQueue) {
        hashQueue.refused();
        throw new AppError(503, 'service_unavailable', { headers: { 'retry-after': '1' } });
      }
      await new Promise<void>((resolve) => {
        this.waiters.push(resolve);
        hashQueue.setDepth(this.waiters.length);
      });
      hashQueue.setDepth(this.waiters.length);
    }
    this.active++;
    try {
      return await fn();
    } finally {
      this.active--;
      this.waiters.shift()?.();
    }
  }
  get load() {
    return { active: this.active, queued: this.waiters.length };
  }
}

/** One gate per process (it caps this process's CPU and memory); buildApp sets its limits from the configuration (IAM_HASH_CONCURRENCY, IAM_HASH_QUEUE). */
const defaults = defaultHashGateLimits();
export const hashGate = new HashGate(defaults.concurrency, defaults.queue);

export function hashPassword(password: string): Promise<string> {
  return hashGate.run(() => argon2.hash(password, ARGON2_OPTIONS));
}

/** Constant-time verification (argon2.verify). A malformed hash counts as a mismatch. */
export function verifyPassword(hash: string, password: string): Promise<boolean> {
  return hashGate.run(async () => {
    try {
      return await argon2.verify(hash, password);
    } catch {
      return false;
    }
  });
}

let dummyHash: Promise<string> | undefined;
/** Spends the same time as a real verification, for unknown accounts (no enumeration by timing). */
export async function verifyAgainstDummy(password: string): Promise<false> {
  dummyHash ??= argon2.hash('dummy-password-for-timing-Aa1!', ARGON2_OPTIONS);
  await verifyPassword(await dummyHash, password);
  return false;
}
