/**
 * QA words for the statecharts: ONE source for the human test cases (`npm run paths`)
 * and the generated browser walk (`e2e/paths.spec.ts`).
 *
 * Beside each machine lives `machines/<name>.qa.ts` exporting a `MachineQa`:
 * - `scenarios`: how a tester starts each of the model's scenarios ("open the invitation link from the mail");
 * - `steps`: a human step for every step key the model's graph can take (see `stepKey`);
 * - `screens`: an observable check for every `screen:*` tag the machine uses
 *   ("the code field says 'One time password is invalid'").
 *
 * A user event immediately followed by the outcome of the actor it started is ONE
 * step for a person ("type a wrong one-time password and press Verify"), keyed by
 * the outcome (`verifyOtp fails invalid_otp`); see `foldSteps`.
 *
 * Screens render `data-screen="<tag>"` (e.g. `data-screen="screen:login.two-factor"`)
 * on their root element so the browser walk can tell which screen is shown.
 * Screen tags are unique across machines: `screen:<machine-area>.<screen>`.
 */
import { getAdjacencyMap } from '@xstate/graph';
import { getInitialSnapshot, getNextSnapshot, type AnyActorLogic, type AnyMachineSnapshot, type AnyStateMachine, type EventObject } from 'xstate';
import { modelPaths, stateKey, type AnyPath, type MachineModel, type StepPath } from './graph';

export type ScreenTag = `screen:${string}`;

export interface MachineQa {
  /** The graph model's `name` (machines/models.ts). */
  machine: string;
  /** How a person starts each scenario, keyed by the model's scenario name. */
  scenarios: Record<string, string>;
  /** Human words for every step key (user events, folded actor outcomes, timers). */
  steps: Record<string, string>;
  /** Observable check per screen tag. */
  screens: Record<ScreenTag, string>;
  /**
   * What to expect right after a step, when it says more than its screen's words (`npm run paths` prints it as the
   * step's check). Without it the step's check is its screen's words the first time the screen shows in a case,
   * and a short "same screen" note after that.
   */
  after?: Record<string, string>;
  /**
   * Steps a person can only do with the browser's developer tools, with how (`npm run paths` marks them). Steps whose
   * words cut the network or catch the moment before the server answers are marked without being listed here.
   */
  devtools?: Record<string, string>;
}

interface FailureLike {
  kind?: string;
  status?: number;
  code?: string;
}

function outputStatus(output: unknown): string | null {
  if (output && typeof output === 'object' && 'status' in output && typeof (output as { status: unknown }).status === 'string') {
    return (output as { status: string }).status;
  }
  return null;
}

/**
 * The key a step is looked up by in `MachineQa.steps` and in the browser drivers:
 * - `xstate.init`                      → `start`
 * - `xstate.done.actor.<id>`           → `<id> succeeds` (+ ` <output.status>` when the output has a string status)
 * - `xstate.error.actor.<id>`          → `<id> fails <code|kind|status>`
 * - `xstate.after.<delay>.<state id>`  → `after <delay>`
 * - any other event                    → its `type` (a model may add a variant with `qaVariant` on the event)
 */
export function stepKey(event: EventObject): string {
  const { type } = event;
  if (type === 'xstate.init') return 'start';
  const done = /^xstate\.done\.actor\.(.+)$/.exec(type);
  if (done) {
    const status = outputStatus((event as EventObject & { output?: unknown }).output);
    return status ? `${done[1]} succeeds ${status}` : `${done[1]} succeeds`;
  }
  const error = /^xstate\.error\.actor\.(.+)$/.exec(type);
  if (error) {
    const failure = (event as EventObject & { error?: unknown }).error as FailureLike | undefined;
    const why = failure?.code ?? failure?.kind ?? (failure?.status !== undefined ? String(failure.status) : 'error');
    return `${error[1]} fails ${why}`;
  }
  const after = /^xstate\.after\.([^.]+)\./.exec(type);
  if (after) return `after ${after[1]}`;
  const variant = (event as EventObject & { qaVariant?: unknown }).qaVariant;
  return typeof variant === 'string' ? `${type} ${variant}` : type;
}

export function isOutcome(event: EventObject): boolean {
  return /^xstate\.(done|error)\.actor\./.test(event.type);
}

/** The screen tags of a snapshot, sorted. */
export function screenTags(snapshot: AnyMachineSnapshot): ScreenTag[] {
  return [...snapshot.tags].filter((t): t is ScreenTag => typeof t === 'string' && t.startsWith('screen:')).sort();
}

/** One step as a person performs it, and what they then check. */
export interface QaStep {
  /** Key into `MachineQa.steps` (the outcome's key when a user event was folded into it). */
  key: string;
  /** The machine events this step stands for (1, or 2 when folded), in order. */
  events: EventObject[];
  /** State reached ("a.b"), its screen tags, and the checks' words. */
  state: string;
  screens: ScreenTag[];
}

/** A numbered test case: a scenario and its steps. */
export interface QaCase {
  id: string;
  machine: string;
  scenario: string;
  input: unknown;
  steps: QaStep[];
}

// ---------------------------------------------------------------------------------------------
// Cases: folding a graph path into a person's steps, and choosing the paths (coverage).
// ---------------------------------------------------------------------------------------------

/**
 * A state tagged `exit` is where the machine hands the page over (navigate / redirect): its screen
 * tag names where the person lands ("the sign-in page opens") and is checked by the driver, but no
 * component of this machine renders it, so it is exempt from the `data-screen` rules.
 */
export const EXIT_TAG = 'exit';
/** A state tagged `loading` waits for a request: its screen may pass too fast to see (see e2e/paths.spec.ts). */
export const LOADING_TAG = 'loading';

/**
 * - `simple`: every simple path (@xstate/graph; no state twice);
 * - `shortest`: the shortest path to every distinct state (@xstate/graph);
 * - `transitions`: every transition — serialized state (value + the context the model tells apart) × event it
 *   handles — at least once, chained (`transitionPaths`);
 * - `chart`: every transition as the chart draws it — state value × step key — at least once, chained the same
 *   way (hence every state value): far fewer cases where the model tells many contexts apart (counters, errors).
 */
export type Coverage = 'simple' | 'shortest' | 'transitions' | 'chart';
export const COVERAGES: readonly Coverage[] = ['simple', 'shortest', 'transitions', 'chart'];

function isUserEvent(event: EventObject): boolean {
  return event.type !== 'xstate.init' && !isOutcome(event) && !event.type.startsWith('xstate.after.');
}

function outcomeActorId(event: EventObject): string | null {
  return /^xstate\.(?:done|error)\.actor\.(.+)$/.exec(event.type)?.[1] ?? null;
}

/** The child actor `id` of a snapshot, if any. */
function child(snapshot: AnyMachineSnapshot | undefined, id: string): unknown {
  return snapshot ? (snapshot.children as Record<string, unknown>)[id] : undefined;
}

/**
 * A graph path as a person walks it: a leading `xstate.init` is the step `start`; a user event
 * immediately followed by the outcome of an actor that very event started (a new child actor
 * with the outcome's id) is ONE step keyed by the outcome (`verifyOtp fails invalid_otp`);
 * every other event is a step of its own.
 */
export function foldSteps(path: StepPath): QaStep[] {
  const out: QaStep[] = [];
  const steps = path.steps;
  for (let i = 0; i < steps.length; i++) {
    const step = steps[i]!;
    const next = steps[i + 1];
    if (i === 0 && step.event.type === 'xstate.init') {
      out.push({ key: 'start', events: [step.event], state: stateKey(step.state.value), screens: screenTags(step.state) });
      continue;
    }
    const id = next ? outcomeActorId(next.event) : null;
    if (next && id && isUserEvent(step.event)) {
      const started = child(step.state, id);
      const before = i > 0 ? child(steps[i - 1]!.state, id) : undefined;
      if (started !== undefined && started !== before) {
        out.push({ key: stepKey(next.event), events: [step.event, next.event], state: stateKey(next.state.value), screens: screenTags(next.state) });
        i++;
        continue;
      }
    }
    out.push({ key: stepKey(step.event), events: [step.event], state: stateKey(step.state.value), screens: screenTags(step.state) });
  }
  return out;
}

const serializeEventForGraph = (event: EventObject): string => `${stepKey(event)} ${JSON.stringify(event)}`;

interface Edge {
  /** `${from} ${event}`: one transition of the graph. */
  id: string;
  event: EventObject;
  to: string;
}

export interface ModelGraph {
  scenario: string;
  input: unknown;
  initial: AnyMachineSnapshot;
  /** serialized state → a snapshot of it */
  nodes: Map<string, AnyMachineSnapshot>;
  /** serialized state → the transitions it takes (events the state handles), in the model's event order */
  edges: Map<string, Edge[]>;
}

/**
 * The graph of one scenario (`getAdjacencyMap` of @xstate/graph), keeping only the events a state
 * really handles (`snapshot.can`): an event a state ignores is no transition.
 */
export function modelGraph(model: MachineModel, scenario: { name: string; input: unknown }): ModelGraph {
  const serialize = model.serializeState ?? ((s: AnyMachineSnapshot) => JSON.stringify({ value: s.value, context: s.context }));
  const adjacency = getAdjacencyMap(model.machine as AnyActorLogic, {
    input: scenario.input,
    events: model.events,
    serializeState: (s: AnyMachineSnapshot) => serialize(s),
    serializeEvent: serializeEventForGraph,
  } as unknown as Parameters<typeof getAdjacencyMap>[1]) as Record<string, { state: unknown; transitions: Record<string, { event: EventObject; state: unknown }> }>;
  const nodes = new Map<string, AnyMachineSnapshot>();
  const edges = new Map<string, Edge[]>();
  for (const [from, entry] of Object.entries(adjacency)) {
    const snapshot = entry.state as AnyMachineSnapshot;
    nodes.set(from, snapshot);
    const list: Edge[] = [];
    for (const [eventId, t] of Object.entries(entry.transitions)) {
      const event = t.event;
      if (snapshot.status !== 'active' || !snapshot.can(event)) continue;
      list.push({ id: `${from} ${eventId}`, event, to: serialize(t.state as AnyMachineSnapshot) });
    }
    edges.set(from, list);
  }
  const initial = getInitialSnapshot(model.machine as AnyStateMachine, scenario.input) as AnyMachineSnapshot;
  return { scenario: scenario.name, input: scenario.input, initial, nodes, edges };
}

/** Counts for the QA header and the closing note. */
export interface ModelStats {
  /** Distinct state values reached ("a.b"), over all scenarios. */
  states: number;
  /** Distinct serialized states (value + the context the model tells apart). */
  graphStates: number;
  /** Distinct transitions: serialized state × event it handles, over all scenarios. */
  transitions: number;
}

export function modelStats(model: MachineModel): ModelStats {
  const values = new Set<string>();
  const graphStates = new Set<string>();
  const transitions = new Set<string>();
  for (const scenario of model.scenarios) {
    const graph = modelGraph(model, scenario);
    for (const [ser, snapshot] of graph.nodes) {
      values.add(stateKey(snapshot.value));
      graphStates.add(ser);
      for (const edge of graph.edges.get(ser) ?? []) transitions.add(edge.id);
    }
  }
  return { states: values.size, graphStates: graphStates.size, transitions: transitions.size };
}

/**
 * 'transitions' coverage: every transition (serialized state × handled event) at least once,
 * hence every state, greedily chained into few paths. Per scenario in the model's order: start at
 * the initial state, take the first uncovered transition of the current state, else go by the
 * shortest way to the nearest state that has one; when none is reachable, the path ends and the
 * next starts from the initial state again (a path never ends on a `loading` state: the first outcome
 * answers the request). Transitions are counted once over all scenarios
 * (the model's `serializeState` decides what is the same state); a scenario left with nothing new
 * still gets one path: the longest of its shortest paths (its deepest state, e.g. the happy path).
 * Snapshots are stepped with `getNextSnapshot`, so each step's state is the real successor.
 */
export function transitionPaths(model: MachineModel, granularity: 'graph' | 'chart' = 'graph'): AnyPath[] {
  const serialize = model.serializeState ?? ((s: AnyMachineSnapshot) => JSON.stringify({ value: s.value, context: s.context }));
  const covered = new Set<string>();
  const out: AnyPath[] = [];
  for (const scenario of model.scenarios) {
    const graph = modelGraph(model, scenario);
    const logic = model.machine as AnyStateMachine;
    const initialSer = serialize(graph.initial);
    /** What counts as one transition: the graph's edge, or the chart's (state value × step key). */
    const identity = (edge: Edge, from: string) => (granularity === 'graph' ? edge.id : `${stateKey(graph.nodes.get(from)!.value)} ${stepKey(edge.event)}`);
    const fromOf = new Map<Edge, string>();
    for (const [ser, list] of graph.edges) for (const edge of list) fromOf.set(edge, ser);
    const isCovered = (edge: Edge) => covered.has(identity(edge, fromOf.get(edge)!));
    const cover = (edge: Edge) => covered.add(identity(edge, fromOf.get(edge)!));
    const uncoveredFrom = (ser: string) => (graph.edges.get(ser) ?? []).find((e) => !isCovered(e));
    /** Shortest way (edges) from `from` to the nearest state satisfying `goal` (BFS in edge order). */
    const route = (from: string, goal: (ser: string) => boolean): Edge[] | null => {
      const previous = new Map<string, { via: Edge; from: string } | null>([[from, null]]);
      const queue = [from];
      while (queue.length) {
        const ser = queue.shift()!;
        if (goal(ser)) {
          const way: Edge[] = [];
          for (let at = previous.get(ser); at; at = previous.get(at.from)) way.unshift(at.via);
          return way;
        }
        for (const edge of graph.edges.get(ser) ?? []) {
          if (previous.has(edge.to)) continue;
          previous.set(edge.to, { via: edge, from: ser });
          queue.push(edge.to);
        }
      }
      return null;
    };
    const walk = (edgesTaken: Edge[]): AnyPath => {
      let snapshot = graph.initial;
      const steps: StepPath['steps'] = [{ event: { type: 'xstate.init' }, state: snapshot }];
      for (const edge of edgesTaken) {
        snapshot = getNextSnapshot(logic, snapshot, edge.event) as AnyMachineSnapshot;
        steps.push({ event: edge.event, state: snapshot });
      }
      return { state: snapshot, steps, weight: edgesTaken.length, scenario: scenario.name, input: scenario.input };
    };
    let produced = 0;
    while (route(initialSer, (ser) => uncoveredFrom(ser) !== undefined)) {
      const taken: Edge[] = [];
      let at = initialSer;
      for (;;) {
        const way = route(at, (ser) => uncoveredFrom(ser) !== undefined);
        if (!way) break;
        for (const edge of way) cover(edge);
        taken.push(...way);
        at = way.length ? way[way.length - 1]!.to : at;
        const edge = uncoveredFrom(at)!;
        cover(edge);
        taken.push(edge);
        at = edge.to;
      }
      // never stop on a request in flight: let the first outcome answer it
      for (let guard = 0; graph.nodes.get(at)?.hasTag(LOADING_TAG) && guard < 10; guard++) {
        const edge = (graph.edges.get(at) ?? [])[0];
        if (!edge) break;
        taken.push(edge);
        at = edge.to;
      }
      out.push(walk(taken));
      produced++;
    }
    if (produced === 0) {
      // the deepest state of this scenario by shortest way (first found on ties)
      let deepest: Edge[] = [];
      const depth = new Map<string, Edge[]>([[initialSer, []]]);
      const queue = [initialSer];
      while (queue.length) {
        const ser = queue.shift()!;
        const way = depth.get(ser)!;
        if (way.length > deepest.length) deepest = way;
        for (const edge of graph.edges.get(ser) ?? []) {
          if (depth.has(edge.to)) continue;
          depth.set(edge.to, [...way, edge]);
          queue.push(edge.to);
        }
      }
      out.push(walk(deepest));
    }
  }
  return out;
}

/** The graph paths of a coverage: @xstate/graph's simple or shortest paths, or `transitionPaths`. */
export function coveragePaths(model: MachineModel, coverage: Coverage): AnyPath[] {
  if (coverage === 'transitions') return transitionPaths(model, 'graph');
  if (coverage === 'chart') return transitionPaths(model, 'chart');
  return modelPaths({ ...model, strategy: coverage });
}

/** `login-07`: the machine and a number padded to the count's width (at least 2 digits). */
export function caseId(machine: string, index: number, total: number): string {
  return `${machine}-${String(index + 1).padStart(Math.max(2, String(total).length), '0')}`;
}

/** Numbered test cases of a model in a person's steps. */
export function qaCases(model: MachineModel, qa: MachineQa, coverage: Coverage): QaCase[] {
  if (qa.machine !== model.name) throw new Error(`QA words of "${qa.machine}" given for the model "${model.name}"`);
  const paths = coveragePaths(model, coverage);
  return paths.map((path, index) => ({
    id: caseId(model.name, index, paths.length),
    machine: model.name,
    scenario: path.scenario,
    input: path.input,
    steps: foldSteps(path),
  }));
}

/** A short title: the scenario and the states walked. */
export function caseTitle(testCase: QaCase): string {
  const states: string[] = [];
  for (const step of testCase.steps) if (states.at(-1) !== step.state) states.push(step.state);
  return `${testCase.scenario}: ${states.join(' → ')}`;
}

/** The screen tags of a state that a component of the machine renders (none for an `exit` state). */
export function renderedScreens(snapshot: AnyMachineSnapshot): ScreenTag[] {
  return snapshot.hasTag(EXIT_TAG) ? [] : screenTags(snapshot);
}

/** Every leaf state node of a model's machine ("a.b") with its own and inherited tags. */
export function stateNodeTags(model: MachineModel): Map<string, Set<string>> {
  interface RawNode {
    path: string[];
    tags: string[];
    states: Record<string, RawNode>;
  }
  const out = new Map<string, Set<string>>();
  const visit = (node: RawNode, inherited: string[]) => {
    const tags = [...inherited, ...node.tags];
    if (node.path.length && Object.keys(node.states).length === 0) out.set(node.path.join('.'), new Set(tags));
    for (const child of Object.values(node.states)) visit(child, tags);
  };
  visit(model.machine.root as unknown as RawNode, []);
  return out;
}

/** The tags of a state key as `stateKey` writes it ("a.b", parallel regions joined with "|"). */
export function tagsOfState(model: MachineModel, state: string): Set<string> {
  const nodes = stateNodeTags(model);
  const tags = new Set<string>();
  for (const part of state.split('|')) {
    const exact = nodes.get(part);
    // a compound value names its region; take every leaf below it that the value names
    const found = exact ? [exact] : [...nodes].filter(([path]) => path === part || path.startsWith(`${part}.`)).map(([, t]) => t);
    for (const set of found) for (const tag of set) tags.add(tag);
  }
  return tags;
}

/** Every screen tag of a model's machine, and those a component of the machine renders (not only on `exit` states). */
export function machineScreenTags(model: MachineModel): { all: Set<ScreenTag>; rendered: Set<ScreenTag> } {
  const all = new Set<ScreenTag>();
  const rendered = new Set<ScreenTag>();
  for (const tags of stateNodeTags(model).values()) {
    for (const tag of tags) {
      if (!tag.startsWith('screen:')) continue;
      all.add(tag as ScreenTag);
      if (!tags.has(EXIT_TAG)) rendered.add(tag as ScreenTag);
    }
  }
  return { all, rendered };
}
