/**
 * `npm run paths` for the person following it by hand (issue 29): one check per step (what to expect after it), no
 * case longer than MAX_CASE_STEPS (long walks split into parts that continue where the last one ended), and steps
 * that need the browser's developer tools marked with how.
 */
import { describe, expect, it } from 'vitest';
import { models } from '../models';
import { browserCoverage, qaByMachine } from '../qa';
import { loginQa } from '../login.qa';
import { caseJson, DEVTOOLS_HOW, devtoolsHow, machineDoc, machineMarkdown, MAX_CASE_STEPS, splitCase, type CaseJson } from './paths-doc';
import type { MachineQa } from './qa';

const documented = models.flatMap((model) => {
  const qa = qaByMachine.get(model.name);
  return qa ? [{ model, qa }] : [];
});

describe('npm run paths: case length', () => {
  it.each(documented.map(({ model, qa }) => [model.name, model, qa] as const))('%s: no case (or part) longer than the bound, under the listed and the browser coverage', (_, model, qa) => {
    for (const coverage of ['transitions', browserCoverage(model.name)] as const) {
      const doc = machineDoc(model, qa, coverage, browserCoverage(model.name));
      const longest = Math.max(...doc.cases.map((c) => c.steps.length));
      expect(longest).toBeLessThanOrEqual(MAX_CASE_STEPS);
    }
  });

  it('a long walk is split into parts: numbered from 1, each starting where the one before ended, nothing lost', () => {
    const qa: MachineQa = { machine: 'demo', scenarios: { s: 'Open the demo.' }, steps: { start: 'Open it.', NEXT: 'Press "Next".' }, screens: { 'screen:demo.a': 'Screen A shows "A".', 'screen:demo.b': 'Screen B shows "B".' } };
    const steps = Array.from({ length: 95 }, (_, i) => ({ key: i === 0 ? 'start' : 'NEXT', events: [], state: i % 2 ? 'b' : 'a', screens: [i % 2 ? 'screen:demo.b' : 'screen:demo.a'] as `screen:${string}`[] }));
    const whole = caseJson(qa, { id: 'demo-01', machine: 'demo', scenario: 's', input: {}, steps }, new Set());
    const parts = splitCase(qa, whole, 40);
    expect(parts.map((p) => p.id)).toEqual(['demo-01.1', 'demo-01.2', 'demo-01.3']);
    expect(parts.map((p) => p.steps.length)).toEqual([40, 40, 15]);
    expect(parts.map((p) => p.part)).toEqual([
      { n: 1, of: 3 },
      { n: 2, of: 3 },
      { n: 3, of: 3 },
    ]);
    expect(parts[0]!.start).toBe('Open the demo.');
    // part 2 starts after part 1's step 40, which ended on screen B
    expect(parts[1]!.start).toBe('Continue right after demo-01.1 (its step 40); the screen shows: Screen B shows "B".');
    // each part describes its first screen in full again and numbers its steps from 1
    expect(parts[1]!.steps[0]).toMatchObject({ n: 1, check: 'Screen A shows "A".' });
    expect(parts.flatMap((p) => p.steps.map((s) => s.key))).toEqual(whole.steps.map((s) => s.key));
  });
});

describe('npm run paths: one check per step', () => {
  const fullWords = (qa: MachineQa, c: CaseJson) => c.steps.map((s) => s.screens.map((tag) => qa.screens[tag as `screen:${string}`]).join(' Also: '));

  it.each(documented.map(({ model, qa }) => [model.name, model, qa] as const))('%s: every step has one check, and a screen is described in full once per case (later: briefly)', (_, model, qa) => {
    const doc = machineDoc(model, qa, 'transitions', browserCoverage(model.name));
    for (const c of doc.cases) {
      const words = fullWords(qa, c);
      const fullChecks = new Map<string, number>();
      c.steps.forEach((step, i) => {
        expect(typeof step.check).toBe('string');
        expect(step.check.length).toBeGreaterThan(0);
        const own = qa.after?.[step.key];
        if (!own && words[i] && step.check.replace(/^\(while it loads; may pass quickly\) /, '') === words[i]) fullChecks.set(words[i]!, (fullChecks.get(words[i]!) ?? 0) + 1);
      });
      for (const [screen, count] of fullChecks) expect(count, `${c.id}: "${screen.slice(0, 40)}…" in full more than once`).toBe(1);
    }
  });

  it('a step that stays on the same screen says so instead of repeating the screen; a return points back to the first step that showed it', () => {
    const qa: MachineQa = { machine: 'demo', scenarios: { s: 'Open the demo.' }, steps: { start: 'Open it.', STAY: 'Press "Refresh".', GO: 'Press "Go".' }, screens: { 'screen:demo.a': 'Screen A. It lists things.', 'screen:demo.b': 'Screen B.' }, after: { GO: 'Screen B appears with the new item.' } };
    const step = (key: string, screen: string) => ({ key, events: [], state: screen, screens: [`screen:demo.${screen}`] as `screen:${string}`[] });
    const c = caseJson(qa, { id: 'demo-01', machine: 'demo', scenario: 's', input: {}, steps: [step('start', 'a'), step('STAY', 'a'), step('GO', 'b'), step('STAY', 'a')] }, new Set());
    expect(c.steps.map((s) => s.check)).toEqual([
      'Screen A. It lists things.',
      'The same screen stays (as after step 1), now with this step\'s outcome: no other screen appears.',
      'Screen B appears with the new item.',
      'Back on the screen of step 1: Screen A. …',
    ]);
  });
});

describe('npm run paths: steps that need devtools', () => {
  it('marks the steps that cut the network or catch the moment before the server answers, with how; not the others', () => {
    const words = (key: string) => loginQa.steps[key]!;
    expect(devtoolsHow(loginQa, 'submitCredentials fails network', words('submitCredentials fails network'))).toBe(DEVTOOLS_HOW.offline);
    expect(devtoolsHow(loginQa, 'SUBMIT', words('SUBMIT'))).toBe(DEVTOOLS_HOW.slow);
    expect(devtoolsHow(loginQa, 'USE_RECOVERY_CODE', words('USE_RECOVERY_CODE'))).toBeNull();
    expect(devtoolsHow(loginQa, 'verifyOtp succeeds complete', words('verifyOtp succeeds complete'))).toBeNull();
    expect(devtoolsHow({ ...loginQa, devtools: { USE_RECOVERY_CODE: 'Application tab → clear site data.' } }, 'USE_RECOVERY_CODE', words('USE_RECOVERY_CODE'))).toBe('Application tab → clear site data.');
  });

  it('the document shows the mark and the how under the step', () => {
    const login = documented.find(({ model }) => model.name === 'login')!;
    const text = machineMarkdown(machineDoc(login.model, login.qa, 'transitions', browserCoverage('login')));
    expect(text).toContain('🛠 **Needs devtools.** Cut the network');
    expect(text).toContain(`   - How: ${DEVTOOLS_HOW.offline}`);
    expect(text).toContain(`   - How: ${DEVTOOLS_HOW.slow}`);
    const marked = text.split('\n').filter((line) => /^\d+\. 🛠/.test(line));
    const unmarkedNetwork = text.split('\n').filter((line) => /^\d+\. (?!🛠).*(offline|does not answer yet)/i.test(line));
    expect(marked.length).toBeGreaterThan(0);
    expect(unmarkedNetwork).toEqual([]);
  });
});
