/**
 * Stately inspector in development: open the app with `?inspect` and every actor created with
 * `inspectOptions()` (the session, screen machines) shows up in the inspector window. The
 * inspector itself lives in machines/inspect.ts (lazy, dev only, buffers early events).
 */
import { inspect } from '../../machines/inspect';

/** Spread into `createActor(machine, { ...inspectOptions() })` / `useMachine(machine, { ...inspectOptions() })`. */
export function inspectOptions(): { inspect?: NonNullable<typeof inspect> } {
  return inspect ? { inspect } : {};
}
