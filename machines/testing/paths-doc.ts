/**
 * The QA document of `npm run paths` (scripts/paths.ts): numbered test cases in a person's words, built
 * from the graph models and the QA words beside each machine (machines/*.qa.ts). Never hand-written.
 */
import type { MachineModel } from './graph';
import { modelPaths } from './graph';
import { caseTitle, LOADING_TAG, modelStats, qaCases, type Coverage, type MachineQa, type ModelStats, type QaCase, type QaStep } from './qa';

export interface MachineCounts extends ModelStats {
  /** Every simple path (null when the model walks shortest paths because its simple paths explode). */
  simplePaths: number | null;
  shortestPaths: number;
  /** Cases of the listed coverage, and of the browser walk's coverage. */
  cases: number;
  browserCoverage: Coverage;
  browserCases: number;
}

export function machineCounts(model: MachineModel, qa: MachineQa, coverage: Coverage, browserCoverage: Coverage): MachineCounts {
  const count = (c: Coverage) => qaCases(model, qa, c).length;
  return {
    ...modelStats(model),
    simplePaths: model.strategy === 'simple' ? modelPaths({ ...model, strategy: 'simple' }).length : null,
    shortestPaths: modelPaths({ ...model, strategy: 'shortest' }).length,
    cases: count(coverage),
    browserCoverage,
    browserCases: browserCoverage === coverage ? count(coverage) : count(browserCoverage),
  };
}

/** The words of a step, or a loud marker (the consistency test fails on missing words). */
export function stepWords(qa: MachineQa, step: QaStep): string {
  return qa.steps[step.key] ?? `⚠ no words for the step "${step.key}" in machines/${qa.machine}.qa.ts`;
}

export function screenWords(qa: MachineQa, tag: `screen:${string}`): string {
  return qa.screens[tag] ?? `⚠ no words for the screen "${tag}" in machines/${qa.machine}.qa.ts`;
}

/** The longest case a person is asked to follow by hand; longer walks are split into parts. */
export const MAX_CASE_STEPS = 40;

/** How to do a step that needs the browser's developer tools (what the step's own words ask for). */
export const DEVTOOLS_HOW = {
  offline: 'Chrome/Firefox devtools (F12) → Network → throttling "Offline"; back to "No throttling" afterwards.',
  slow: 'Chrome/Firefox devtools (F12) → Network → throttling "Slow 3G" (or a custom profile with a few seconds of latency), so the moment before the server answers lasts long enough to see and act in; back to "No throttling" afterwards.',
} as const;

/** Whether (and how) a step needs devtools: the QA words' own list first, else what its words ask for. */
export function devtoolsHow(qa: MachineQa, key: string, words: string): string | null {
  const listed = qa.devtools?.[key];
  if (listed) return listed;
  if (/offline|cut the network/i.test(words)) return DEVTOOLS_HOW.offline;
  if (/does not answer yet|has not answered yet/i.test(words)) return DEVTOOLS_HOW.slow;
  return null;
}

export interface StepJson {
  n: number;
  key: string;
  do: string;
  state: string;
  loading: boolean;
  /** The screens the step ends on (tags) — for tools; a person reads `check`. */
  screens: string[];
  /** What to expect after this step: one check per step. */
  check: string;
  /** Set when the step cannot be done without the browser's developer tools: how to do it. */
  devtools: string | null;
}

export interface CaseJson {
  id: string;
  title: string;
  scenario: string;
  start: string;
  /** For a long walk split into parts: this part's number and the count (1 of 1 when not split). */
  part: { n: number; of: number };
  steps: StepJson[];
}

/**
 * The check after a step: the step's own expectation (`after`), else the words of the screen(s) it ends on when
 * they are new in the case, else a short note that the screen stays as it was after an earlier step.
 */
function stepCheck(qa: MachineQa, step: QaStep, seen: Map<string, number>, previous: string | null, n: number, loading: boolean): string {
  const own = qa.after?.[step.key];
  const screens = step.screens.join(' + ');
  const words = step.screens.map((tag) => screenWords(qa, tag)).join(' Also: ');
  const prefix = loading ? '(while it loads; may pass quickly) ' : '';
  if (own) return prefix + own;
  if (step.screens.length === 0) return prefix + 'The page leaves the flow (nothing of it stays on screen).';
  const first = seen.get(screens);
  if (first === undefined || first === n) return prefix + words;
  if (previous === screens) return `${prefix}The same screen stays (as after step ${first}), now with this step's outcome: no other screen appears.`;
  return `${prefix}Back on the screen of step ${first}: ${shortWords(words)}`;
}

/** The first sentence of a screen's words, for a screen already described once in the case. */
function shortWords(words: string): string {
  const sentence = /^(.+?[.!?])(\s|$)/.exec(words)?.[1] ?? words;
  return sentence.length < words.length ? `${sentence} …` : sentence;
}

export function caseJson(qa: MachineQa, testCase: QaCase, loadingStates: ReadonlySet<string>): CaseJson {
  const seen = new Map<string, number>();
  let previous: string | null = null;
  const steps = testCase.steps.map((step, i): StepJson => {
    const n = i + 1;
    const screens = step.screens.join(' + ');
    if (!seen.has(screens)) seen.set(screens, n);
    const loading = loadingStates.has(step.state);
    const words = stepWords(qa, step);
    const check = stepCheck(qa, step, seen, previous, n, loading);
    previous = screens;
    return { n, key: step.key, do: words, state: step.state, loading, screens: [...step.screens], check, devtools: devtoolsHow(qa, step.key, words) };
  });
  return {
    id: testCase.id,
    title: caseTitle(testCase),
    scenario: testCase.scenario,
    start: qa.scenarios[testCase.scenario] ?? `⚠ no words for the scenario "${testCase.scenario}"`,
    part: { n: 1, of: 1 },
    steps,
  };
}

/**
 * A case longer than MAX_CASE_STEPS split into parts a person can follow by hand: each part after the first starts
 * where the one before ended (its last check says what the screen shows), and its first step's check describes the
 * screen in full again.
 */
export function splitCase(qa: MachineQa, testCase: CaseJson, max = MAX_CASE_STEPS): CaseJson[] {
  if (testCase.steps.length <= max) return [testCase];
  const of = Math.ceil(testCase.steps.length / max);
  const parts: CaseJson[] = [];
  for (let index = 0; index < of; index++) {
    const slice = testCase.steps.slice(index * max, (index + 1) * max);
    const id = `${testCase.id}.${index + 1}`;
    const before = parts[index - 1];
    const last = before?.steps.at(-1);
    const start = before && last ? `Continue right after ${before.id} (its step ${last.n}); the screen shows: ${last.screens.map((tag) => screenWords(qa, tag as `screen:${string}`)).join(' Also: ') || 'the page has left the flow.'}` : testCase.start;
    const seen = new Map<string, number>();
    let previous: string | null = null;
    const steps = slice.map((step, i): StepJson => {
      const n = i + 1;
      const screens = step.screens.join(' + ');
      if (!seen.has(screens)) seen.set(screens, n);
      const qaStep: QaStep = { key: step.key, events: [], state: step.state, screens: step.screens as `screen:${string}`[] };
      const check = stepCheck(qa, qaStep, seen, previous, n, step.loading);
      previous = screens;
      return { ...step, n, check };
    });
    parts.push({ ...testCase, id, title: `${testCase.title} (part ${index + 1} of ${of})`, start, part: { n: index + 1, of }, steps });
  }
  return parts;
}

/** State values ("a.b") whose state node (or an ancestor) carries the `loading` tag. */
export function loadingStatesOf(model: MachineModel): Set<string> {
  const states = new Set<string>();
  for (const node of allStateNodes(model)) if (node.tags.includes(LOADING_TAG)) states.add(node.path);
  return states;
}

interface NodeInfo {
  path: string;
  tags: string[];
}

function allStateNodes(model: MachineModel): NodeInfo[] {
  const out: NodeInfo[] = [];
  const visit = (node: { path: string[]; tags: string[]; states: Record<string, unknown> }, inherited: string[]) => {
    const tags = [...inherited, ...node.tags];
    if (node.path.length) out.push({ path: node.path.join('.'), tags });
    for (const child of Object.values(node.states)) visit(child as typeof node, tags);
  };
  visit(model.machine.root as unknown as { path: string[]; tags: string[]; states: Record<string, unknown> }, []);
  return out;
}

export interface MachineDoc {
  machine: string;
  title: string;
  coverage: Coverage;
  counts: MachineCounts;
  cases: CaseJson[];
}

export function machineDoc(model: MachineModel, qa: MachineQa, coverage: Coverage, browserCoverage: Coverage, summary = false): MachineDoc {
  const loading = loadingStatesOf(model);
  const counts = machineCounts(model, qa, coverage, browserCoverage);
  const cases = summary ? [] : qaCases(model, qa, coverage).flatMap((c) => splitCase(qa, caseJson(qa, c, loading)));
  return { machine: model.name, title: model.title, coverage, counts, cases };
}

const COVERAGE_WORDS: Record<Coverage, string> = {
  simple: 'every simple path (no state twice)',
  shortest: 'the shortest path to every distinct state',
  transitions: 'every transition (state with its context × event) at least once, hence every state, chained into as few cases as possible',
  chart: 'every transition of the chart (state × step) at least once, hence every state, chained into as few cases as possible',
};

export function coverageWords(coverage: Coverage): string {
  return COVERAGE_WORDS[coverage];
}

export function machineMarkdown(doc: MachineDoc): string {
  const c = doc.counts;
  const lines: string[] = [];
  lines.push(`## ${doc.machine} — ${doc.title}`, '');
  lines.push('| states | distinct states (with context) | transitions | simple paths (unit tests) | shortest paths | cases listed | browser walk |');
  lines.push('|---|---|---|---|---|---|---|');
  lines.push(
    `| ${c.states} | ${c.graphStates} | ${c.transitions} | ${c.simplePaths ?? 'too many to enumerate'} | ${c.shortestPaths} | ${c.cases} (${doc.coverage}) | ${c.browserCases} cases (${c.browserCoverage}) |`,
    '',
  );
  for (const testCase of doc.cases) {
    lines.push(`### ${testCase.id} — ${testCase.title}`, '');
    lines.push(`Start: ${testCase.start}`, '');
    for (const step of testCase.steps) {
      lines.push(`${step.n}. ${step.devtools ? '🛠 **Needs devtools.** ' : ''}${step.do}`);
      if (step.devtools) lines.push(`   - How: ${step.devtools}`);
      lines.push(`   - Check: ${step.check}`);
    }
    lines.push('');
  }
  return lines.join('\n');
}
