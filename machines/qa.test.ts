/**
 * Issue 13: one source for QA. For every machine with QA words (machines/qa.ts): every scenario, step and
 * screen has words and no words are stale; every state a person can rest in shows a screen; screen tags
 * are unique across machines; every `data-screen` in src/ names a machine's screen and every screen of a
 * machine is rendered by some component. `npm run paths` speaks only in those words.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { linkForms } from '../scripts/paths-links';
import { models } from './models';
import { browserCoverage, modelsWithQa, PENDING_QA, qaByMachine, qaModules } from './qa';
import type { MachineModel } from './testing/graph';
import { machineDoc, machineMarkdown } from './testing/paths-doc';
import { EXIT_TAG, qaCases, stepKey, type Coverage, type ScreenTag } from './testing/qa';

const ROOT = join(import.meta.dirname, '..');

interface NodeInfo {
  id: string;
  tags: string[];
  transient: boolean;
}

/** Every state node below the root with its own and inherited tags; transient = it can only pass (`always`). */
function stateNodes(model: MachineModel): NodeInfo[] {
  interface RawNode {
    id: string;
    type: string;
    tags: string[];
    always?: unknown[];
    on: Record<string, unknown>;
    invoke: unknown[];
    after: unknown[];
    states: Record<string, RawNode>;
  }
  const out: NodeInfo[] = [];
  const visit = (node: RawNode, inherited: string[], isRoot: boolean) => {
    const tags = [...inherited, ...node.tags];
    const leaf = Object.keys(node.states).length === 0;
    if (!isRoot && leaf && node.type !== 'history') {
      const transient = (node.always?.length ?? 0) > 0 && Object.keys(node.on).length === 0 && node.invoke.length === 0 && node.after.length === 0;
      out.push({ id: node.id, tags, transient });
    }
    for (const child of Object.values(node.states)) visit(child, tags, false);
  };
  visit(model.machine.root as unknown as RawNode, [], true);
  return out;
}

const isScreen = (tag: string): tag is ScreenTag => tag.startsWith('screen:');

/** Screen tags of a machine; `rendered` leaves out the tags only `exit` states carry (other pages show those). */
function machineScreens(model: MachineModel): { all: Set<ScreenTag>; rendered: Set<ScreenTag> } {
  const all = new Set<ScreenTag>();
  const rendered = new Set<ScreenTag>();
  for (const node of stateNodes(model)) {
    for (const tag of node.tags.filter(isScreen)) {
      all.add(tag);
      if (!node.tags.includes(EXIT_TAG)) rendered.add(tag);
    }
  }
  return { all, rendered };
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.(tsx?|jsx?)$/.test(name) ? [path] : [];
  });
}

const TAG_LITERAL = /['"`](screen:[a-z0-9-]+\.[a-z0-9.-]+)['"`]/g;
const literals = (text: string) => [...text.matchAll(TAG_LITERAL)].map((m) => m[1]!);

interface Rendered {
  tag: string;
  where: string;
}

/**
 * The screen tags src/ renders, read from the sources: a JSX attribute `data-screen` or `screen` (the shared
 * cards pass it on as `data-screen`) with a literal (`screen="screen:login.credentials"`, or literals inside
 * `{…}` such as a ternary). An attribute with a computed value (`data-screen={screen}` picked with
 * `snapshot.hasTag`) renders the tag literals of its file and of the machine modules the file imports
 * (their screen lists, e.g. `TWO_FACTOR_SCREENS`). An attribute that only passes a prop on (the cards) adds nothing.
 */
function renderedInSrc(): Rendered[] {
  const out: Rendered[] = [];
  for (const file of sourceFiles(join(ROOT, 'src'))) {
    const text = readFileSync(file, 'utf8');
    const where = relative(ROOT, file);
    let dynamic = false;
    for (const m of text.matchAll(/\s(?:data-screen|screen)=(?:"([^"]*)"|'([^']*)'|\{([^}]*)\})/g)) {
      if (m[3] === undefined) out.push({ tag: m[1] ?? m[2] ?? '', where });
      else if (literals(m[3]).length) for (const tag of literals(m[3])) out.push({ tag, where });
      else dynamic = true;
    }
    if (!dynamic) continue;
    for (const tag of literals(text)) out.push({ tag, where });
    for (const m of text.matchAll(/from\s+['"]((?:\.\.\/)+machines\/[\w.]+)['"]/g)) {
      const module = join(dirname(file), `${m[1]!}.ts`);
      if (existsSync(module)) for (const tag of literals(readFileSync(module, 'utf8'))) out.push({ tag, where: `${where} (via ${relative(ROOT, module)})` });
    }
  }
  return out;
}

/** Every step key the cases of a coverage use (`withFolded`: also the user events folded into an outcome's step). */
function stepKeys(model: MachineModel, coverage: Coverage, withFolded = false): Set<string> {
  const qa = qaByMachine.get(model.name)!;
  return new Set(qaCases(model, qa, coverage).flatMap((c) => c.steps.flatMap((s) => [s.key, ...(withFolded && s.events.length > 1 ? [stepKey(s.events[0]!)] : [])])));
}

describe('QA words: registry', () => {
  it('every machines/*.qa.ts file is imported by machines/qa.ts', () => {
    const files = readdirSync(join(ROOT, 'machines')).filter((f) => f.endsWith('.qa.ts'));
    expect(files.filter((f) => !(f in qaModules)), 'add these to qaModules in machines/qa.ts').toEqual([]);
  });

  it('every QA export names a model of machines/models.ts', () => {
    const names = new Set(models.map((m) => m.name));
    expect([...qaByMachine.keys()].filter((name) => !names.has(name))).toEqual([]);
  });

  it('every model has QA words, except those still pending (PENDING_QA)', () => {
    const missing = models.filter((m) => !qaByMachine.has(m.name) && !PENDING_QA.includes(m.name)).map((m) => m.name);
    expect(missing, 'these models have no machines/<name>.qa.ts words (issue 13): write them, or (temporarily) list them in PENDING_QA').toEqual([]);
    const landed = PENDING_QA.filter((name) => qaByMachine.has(name));
    expect(landed, 'these have QA words now: remove them from PENDING_QA in machines/qa.ts').toEqual([]);
  });

  for (const name of PENDING_QA) it.todo(`${name}: QA words pending (machines/${name}.qa.ts)`);
});

describe('screen tags across machines', () => {
  const machines = [...new Set(models.map((m) => m.machine))];
  const modelOf = (machine: unknown) => models.find((m) => m.machine === machine)!;

  it('are unique: no screen tag belongs to two machines', () => {
    const owner = new Map<string, string>();
    const clashes: string[] = [];
    for (const machine of machines) {
      const model = modelOf(machine);
      for (const tag of machineScreens(model).all) {
        const other = owner.get(tag);
        if (other && other !== model.machine.id) clashes.push(`${tag}: ${other} and ${model.machine.id}`);
        owner.set(tag, model.machine.id);
      }
    }
    expect(clashes).toEqual([]);
  });

  it('every data-screen in src/ names a screen tag of some machine (no screen the machines do not explain)', () => {
    const known = new Set(machines.flatMap((machine) => [...machineScreens(modelOf(machine)).all]));
    const unknown = renderedInSrc().filter((r) => !known.has(r.tag as ScreenTag));
    expect(unknown.map((r) => `${r.where}: screen "${r.tag}"`)).toEqual([]);
  });
});

describe.each(modelsWithQa().map(({ model, qa }) => [model.name, model, qa] as const))('QA words of %s', (name, model, qa) => {
  const transitions = stepKeys(model, 'transitions');
  const shortest = stepKeys(model, 'shortest');
  const simple = model.strategy === 'simple' ? stepKeys(model, 'simple', true) : new Set<string>();
  const screens = machineScreens(model);

  it('every scenario has words, and only scenarios do', () => {
    const scenarios = model.scenarios.map((s) => s.name);
    expect(scenarios.filter((s) => !qa.scenarios[s]), 'scenarios without words').toEqual([]);
    expect(Object.keys(qa.scenarios).filter((s) => !scenarios.includes(s)), 'words for scenarios the model does not have').toEqual([]);
  });

  it('every step of the cases (every transition; shortest paths) has words', () => {
    const missing = [...new Set([...transitions, ...shortest])].filter((key) => !qa.steps[key]?.trim());
    expect(missing, `steps without words in machines/${name}.qa.ts`).toEqual([]);
  });

  it('no stale step words (a key no case takes, not even folded into an outcome)', () => {
    const used = new Set([...transitions, ...shortest, ...simple, ...stepKeys(model, 'transitions', true), ...stepKeys(model, 'shortest', true)]);
    expect(Object.keys(qa.steps).filter((key) => !used.has(key))).toEqual([]);
  });

  it('every screen tag of the machine has words, and no stale screen words', () => {
    expect([...screens.all].filter((tag) => !qa.screens[tag]?.trim()), 'screen tags without words').toEqual([]);
    expect(Object.keys(qa.screens).filter((tag) => !screens.all.has(tag as ScreenTag)), 'words for screens the machine does not have').toEqual([]);
  });

  it('every state a person can rest in shows a screen (a screen:* tag, own or inherited)', () => {
    const blind = stateNodes(model).filter((node) => !node.transient && !node.tags.some(isScreen));
    expect(blind.map((node) => node.id), 'states without a screen tag').toEqual([]);
  });

  it('every screen tag is rendered by a component (data-screen in src/), except exit screens', () => {
    const rendered = new Set(renderedInSrc().map((r) => r.tag));
    expect([...screens.rendered].filter((tag) => !rendered.has(tag)), 'screen tags no component renders as data-screen').toEqual([]);
  });

  it('`npm run paths` speaks in words: no event names, no JSON payloads, no missing words', () => {
    for (const coverage of ['transitions', 'shortest'] as const) {
      const text = machineMarkdown(machineDoc(model, qa, coverage, browserCoverage(name)));
      expect(text).not.toMatch(/xstate\./);
      expect(text).not.toMatch(/\{"[\w-]+":/);
      expect(text).not.toContain('⚠');
      expect(text).toMatch(new RegExp(`### ${name}-0*1(\\.1)? `)); // a long first case is split: its part 1
    }
    // the session chart's documents take ~19 s on a quiet 2-core runner (every path of a large chart, twice)
  }, 120_000);
});

describe('npm run paths header', () => {
  it('shows the link forms the server mails today, not the old /verify/verify?url=', () => {
    const links = linkForms().map((l) => l.link);
    expect(links).toEqual([
      '$APP_URL/verify/user?url=<signed link>',
      '$APP_URL/verify/admin?url=<signed link>',
      '$APP_URL/reset-password?url=<signed link>',
      '$APP_URL/admin/reset-password?url=<signed link>',
      '$APP_URL/admin/setup?token=<one-time token>',
    ]);
  });
});
