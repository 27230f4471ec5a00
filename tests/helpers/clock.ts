import type { Clock } from '../../server/services/deps';

/** A services clock the test moves (deps.clock, BuildOptions.clock): it stands still until `set` or `advance`. */
export interface TestClock extends Clock {
  /** Epoch milliseconds it reads now. */
  ms(): number;
  set(ms: number): void;
  advance(ms: number): void;
}

export function testClock(startMs: number): TestClock {
  let at = startMs;
  return {
    now: () => new Date(at),
    nowIso: () => new Date(at).toISOString(),
    ms: () => at,
    set: (ms) => {
      at = ms;
    },
    advance: (ms) => {
      at += ms;
    },
  };
}
