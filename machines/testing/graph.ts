/**
 * Model-based testing helpers on top of `xstate/graph`, shared by the machine
 * tests and `scripts/paths.ts` (so the QA paths are generated from the very
 * models the tests walk).
 *
 * Invoked actors and delays are not run while the graph is traversed: the
 * model's `events(snapshot)` feeds `xstate.done.actor.<id>` /
 * `xstate.error.actor.<id>` / `xstate.after.<delay>.<stateId>` events
 * explicitly, one per outcome. Walking a path replays the same events on a
 * real actor whose actors are recording fakes that never settle, so every
 * outcome comes from the path, and whose injected actions are recorders.
 */
import { createActor, fromPromise, type AnyActorLogic, type AnyMachineSnapshot, type AnyStateMachine, type EventObject, type StateValue } from 'xstate';
import { getShortestPaths, getSimplePaths, type StatePath } from '@xstate/graph';

export type StepPath = StatePath<AnyMachineSnapshot, EventObject>;
/** A path plus the input (scenario) it starts from. */
export interface AnyPath extends StepPath {
  scenario: string;
  input: unknown;
}

export interface MachineModel<TMachine extends AnyStateMachine = AnyStateMachine> {
  name: string;
  title: string;
  machine: TMachine;
  /** Inputs to start from (e.g. different query strings); paths are generated per scenario. */
  scenarios: Array<{ name: string; input: unknown }>;
  /** Events to try in a given state (user events plus actor outcomes). */
  events: (snapshot: AnyMachineSnapshot) => EventObject[];
  /** `simple` = every simple path; `shortest` = one shortest path per state (for machines whose simple paths explode). */
  strategy: 'simple' | 'shortest';
  /** Names of actions injected by the app (recorded while walking). */
  injectedActions: string[];
  /** Every state value expected to be reachable ("a.b" for nested). */
  expectedStates: string[];
  /** Final / leaf outcomes that must be reachable. */
  finalStates: string[];
  /** How snapshots are told apart (default: state value + selected context). */
  serializeState?: (snapshot: AnyMachineSnapshot) => string;
}

export function doneEvent(id: string, output: unknown): EventObject {
  return { type: `xstate.done.actor.${id}`, output } as EventObject;
}
export function errorEvent(id: string, error: unknown): EventObject {
  return { type: `xstate.error.actor.${id}`, error } as EventObject;
}
export function afterEvent(delay: string, stateId: string): EventObject {
  return { type: `xstate.after.${delay}.${stateId}` };
}

/** "a.b" for nested values; parallel values joined with "|". */
export function stateKey(value: StateValue): string {
  if (typeof value === 'string') return value;
  return Object.entries(value)
    .map(([key, child]) => (child === undefined || (typeof child === 'object' && Object.keys(child).length === 0) ? key : `${key}.${stateKey(child)}`))
    .join('|');
}

function defaultSerialize(snapshot: AnyMachineSnapshot): string {
  return JSON.stringify({ value: snapshot.value, context: snapshot.context });
}

export function modelPaths(model: MachineModel): AnyPath[] {
  return model.scenarios.flatMap(({ name, input }) => {
    const options = {
      input,
      events: model.events,
      filterEvents: (snapshot: AnyMachineSnapshot, event: EventObject) => snapshot.status === 'active' && snapshot.can(event),
      serializeState: model.serializeState ?? defaultSerialize,
    };
    const logic = model.machine as AnyActorLogic;
    const paths = (model.strategy === 'simple' ? getSimplePaths(logic, options) : getShortestPaths(logic, options)) as StepPath[];
    return paths.map((path) => ({ ...path, scenario: name, input }));
  });
}

export function reachableStates(paths: AnyPath[]): Set<string> {
  const states = new Set<string>();
  for (const path of paths) for (const step of path.steps) states.add(stateKey(step.state.value));
  return states;
}

export interface Recorded {
  kind: 'action' | 'actor';
  name: string;
  /** action params or actor input */
  data: unknown;
}

export interface WalkResult {
  log: Recorded[];
  snapshot: AnyMachineSnapshot;
  /** What each step requested (index = step index). */
  stepLogs: Recorded[][];
  /** The real actor's snapshot after each step. */
  snapshots: AnyMachineSnapshot[];
  actions: (name: string) => unknown[];
  actorInputs: (name: string) => unknown[];
}

/**
 * Replay a path on a real actor with recording fakes. Throws when the actor
 * diverges from the path (state value or context).
 */
export function walkPath(model: MachineModel, path: AnyPath): WalkResult {
  const log: Recorded[] = [];
  const actors: Record<string, AnyActorLogic> = {};
  for (const name of Object.keys(model.machine.implementations.actors)) {
    actors[name] = fromPromise(({ input }: { input: unknown }) => {
      log.push({ kind: 'actor', name, data: input });
      return new Promise<never>(() => {});
    });
  }
  const actions: Record<string, (args: unknown, params: unknown) => void> = {};
  for (const name of model.injectedActions) {
    actions[name] = (_args, params) => {
      log.push({ kind: 'action', name, data: params });
    };
  }
  const machine = model.machine.provide({ actors, actions } as Parameters<AnyStateMachine['provide']>[0]);
  const actor = createActor(machine, { input: path.input });
  const errors: unknown[] = [];
  actor.subscribe({ error: (err) => errors.push(err) });
  actor.start();
  const serialize = model.serializeState ?? defaultSerialize;
  const stepLogs: Recorded[][] = [];
  const snapshots: AnyMachineSnapshot[] = [];
  let seen = 0;
  path.steps.forEach((step, index) => {
    if (index > 0 || step.event.type !== 'xstate.init') actor.send(step.event);
    stepLogs.push(log.slice(seen));
    seen = log.length;
    const snapshot = actor.getSnapshot();
    snapshots.push(snapshot);
    if (errors.length) throw errors[0];
    const expected = serialize(step.state);
    const actual = serialize(snapshot);
    if (expected !== actual) {
      throw new Error(`step ${index} (${step.event.type}) diverged:\n expected ${expected}\n actual   ${actual}`);
    }
  });
  const snapshot = actor.getSnapshot();
  actor.stop();
  return {
    log,
    snapshot,
    stepLogs,
    snapshots,
    actions: (name) => log.filter((r) => r.kind === 'action' && r.name === name).map((r) => r.data),
    actorInputs: (name) => log.filter((r) => r.kind === 'actor' && r.name === name).map((r) => r.data),
  };
}

export function visited(path: AnyPath): string[] {
  return path.steps.map((s) => stateKey(s.state.value));
}

/** Short test title: scenario and the visited states. */
export function pathTitle(path: AnyPath, index: number): string {
  return `${path.scenario} #${index + 1}: ${visited(path).join(' → ')}`;
}
