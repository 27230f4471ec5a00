import { createMachine, type AnyStateMachine, type AnyStateNode } from 'xstate';
import { describe, expect, it } from 'vitest';
import { CHARTS, statelyJson, statelySource } from './stately';

/**
 * Issue 29: the charts import into Stately's editor unchanged. The editor keeps a chart's structure and the names of
 * its implementations; so a chart rebuilt from its JSON (machines/stately.ts) must have the same states, initial
 * states, tags, transitions (event, targets, guard name, action names, reenter), entry/exit actions and invoked actor
 * names as the chart the app runs — and no implementation may be inline (an inline function would reach the editor
 * as an anonymous "inline:…" step, not a name QA and developers can read).
 */
type Named = { type: string } | string;

function nameOf(item: unknown, where: string, inline: string[]): string {
  if (typeof item === 'string') return item;
  if (item && typeof item === 'object' && typeof (item as { type?: unknown }).type === 'string') return (item as { type: string }).type;
  inline.push(where);
  return '<inline>';
}

interface Projection {
  id: string;
  type: string;
  initial: string[];
  tags: string[];
  entry: string[];
  exit: string[];
  invoke: { id: string; src: string; onDone: string[]; onError: string[] }[];
  on: Record<string, { targets: string[]; guard: string | null; actions: string[]; reenter: boolean }[]>;
  states: Record<string, Projection>;
}

/** A target as the definition gives it: '#id' or a state node (definition); its id either way. */
const targetId = (t: unknown): string => (typeof t === 'string' ? t : `#${String((t as { id?: unknown }).id)}`);

function project(node: AnyStateNode, inline: string[]): Projection {
  const d = node.definition;
  const transitions = (list: readonly unknown[], where: string) =>
    list.map((t, i) => {
      const tr = t as { target?: readonly string[]; guard?: unknown; actions?: readonly unknown[]; reenter?: boolean };
      return {
        targets: (tr.target ?? []).map(targetId),
        guard: tr.guard === undefined ? null : nameOf(tr.guard, `${where}[${i}] guard`, inline),
        actions: (tr.actions ?? []).map((a, j) => nameOf(a, `${where}[${i}] action ${j}`, inline)),
        reenter: Boolean(tr.reenter),
      };
    });
  const on: Projection['on'] = {};
  for (const [event, list] of Object.entries(d.on)) on[event] = transitions(list as readonly unknown[], `${d.id} on ${event}`);
  return {
    id: d.id,
    type: d.type,
    initial: (d.initial?.target ?? []).map(targetId),
    tags: [...d.tags].sort(),
    entry: d.entry.map((a, i) => nameOf(a, `${d.id} entry ${i}`, inline)),
    exit: d.exit.map((a, i) => nameOf(a, `${d.id} exit ${i}`, inline)),
    invoke: d.invoke.map((inv) => ({
      id: inv.id,
      src: typeof inv.src === 'string' ? inv.src : nameOf(undefined, `${d.id} invoke ${inv.id}`, inline),
      onDone: [],
      onError: [],
    })),
    on,
    states: Object.fromEntries(Object.entries(node.states).map(([key, child]) => [key, project(child as AnyStateNode, inline)])),
  };
}

const rebuilt = (machine: AnyStateMachine) => createMachine(JSON.parse(statelyJson(machine)) as Parameters<typeof createMachine>[0]);

describe('the charts in Stately’s editor', () => {
  for (const [name, machine] of Object.entries(CHARTS)) {
    it(`${name}: rebuilt from its JSON, the same chart, with every implementation named`, () => {
      const inline: string[] = [];
      const original = project(machine.root, inline);
      expect(inline, `inline implementations in ${name}`).toEqual([]);
      expect(project(rebuilt(machine).root, [])).toEqual(original);
    });
  }

  it('login: the shared onError helpers arrive as the ordinary guarded transitions they spread into', () => {
    const otp = project(rebuilt(CHARTS.login as AnyStateMachine).root, []).states.twoFactor?.states;
    const invoked = JSON.stringify(otp);
    for (const guard of ['isForeignBrowser', 'isSignInGone', 'isAccountInactive']) expect(invoked).toContain(guard);
    expect(invoked).toContain('#login.signInExpired');
    expect(invoked).toContain('#login.accountInactive');
  });

  it('npm run stately prints paste-ready source', () => {
    const source = statelySource('login', CHARTS.login as AnyStateMachine);
    expect(source).toMatch(/^import \{ createMachine \} from 'xstate';/);
    expect(source).toContain('"id": "login"');
    expect(source).not.toMatch(/=>|function/);
  });
});

export type { Named };
