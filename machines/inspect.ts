/**
 * Stately inspector, attached only in development and only when the URL has
 * `?inspect`:
 *
 *   createActor(sessionMachine, { input, inspect })
 *
 * `@statelyai/inspect` is loaded with a dynamic import behind
 * `import.meta.env.DEV`, so production builds drop it. Events emitted before
 * the inspector has loaded are buffered and replayed.
 */
import type { InspectionEvent } from 'xstate';

export function shouldInspect(dev: boolean, search: string | undefined): boolean {
  return dev && search !== undefined && new URLSearchParams(search).has('inspect');
}

type Forward = (event: InspectionEvent) => void;

function createLazyInspect(): Forward | undefined {
  const dev = Boolean(import.meta.env?.DEV);
  const search = typeof window === 'undefined' ? undefined : window.location.search;
  if (!shouldInspect(dev, search)) return undefined;
  const buffer: InspectionEvent[] = [];
  let forward: Forward | null = null;
  void import('@statelyai/inspect').then(({ createBrowserInspector }) => {
    const inspector = createBrowserInspector();
    const observer = inspector.inspect;
    forward = (event) => observer.next?.(event);
    buffer.splice(0).forEach(forward);
  });
  return (event) => {
    if (forward) forward(event);
    else buffer.push(event);
  };
}

/** Pass as `createActor(machine, { inspect })`; undefined outside dev/?inspect. */
export const inspect: Forward | undefined = createLazyInspect();
