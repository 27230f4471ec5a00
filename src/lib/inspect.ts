/**
 * Stately inspector in development: open the app with `?inspect` and every
 * actor created with `inspectOptions()` (the session, screen machines) shows
 * up in the inspector window. Loaded lazily; never part of production code
 * paths (`import.meta.env.DEV` is false there).
 */
import type { InspectionEvent, Observer } from 'xstate';

type Inspect = Observer<InspectionEvent> | ((event: InspectionEvent) => void);

const state: { inspect: Inspect | null } = { inspect: null };

export function wantsInspector(search: string = typeof window === 'undefined' ? '' : window.location.search): boolean {
  return new URLSearchParams(search).has('inspect');
}

/** Call once at start, before actors are created. */
export async function setupInspector(): Promise<void> {
  if (!import.meta.env.DEV || !wantsInspector()) return;
  const { createBrowserInspector } = await import('@statelyai/inspect');
  state.inspect = createBrowserInspector({ autoStart: true }).inspect;
}

/** Spread into `createActor(machine, { ...inspectOptions() })` / `useMachine(machine, { ...inspectOptions() })`. */
export function inspectOptions(): { inspect?: Inspect } {
  return state.inspect ? { inspect: state.inspect } : {};
}
