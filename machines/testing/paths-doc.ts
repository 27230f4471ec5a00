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

export interface CaseJson {
  id: string;
  title: string;
  scenario: string;
  start: string;
  steps: Array<{ n: number; key: string; do: string; state: string; loading: boolean; check: Array<{ screen: string; words: string }> }>;
}

export function caseJson(qa: MachineQa, testCase: QaCase, loadingStates: ReadonlySet<string>): CaseJson {
  return {
    id: testCase.id,
    title: caseTitle(testCase),
    scenario: testCase.scenario,
    start: qa.scenarios[testCase.scenario] ?? `⚠ no words for the scenario "${testCase.scenario}"`,
    steps: testCase.steps.map((step, i) => ({
      n: i + 1,
      key: step.key,
      do: stepWords(qa, step),
      state: step.state,
      loading: loadingStates.has(step.state),
      check: step.screens.map((tag) => ({ screen: tag, words: screenWords(qa, tag) })),
    })),
  };
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
  const cases = summary ? [] : qaCases(model, qa, coverage).map((c) => caseJson(qa, c, loading));
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
      lines.push(`${step.n}. ${step.do}`);
      for (const check of step.check) lines.push(`   - Check${step.loading ? ' (while it loads; may pass quickly)' : ''}: ${check.words}`);
    }
    lines.push('');
  }
  return lines.join('\n');
}
