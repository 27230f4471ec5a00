/**
 * The statechart walk (issue 13), generated: nothing here is written per path. For every machine with QA
 * words (machines/qa.ts) it takes the cases of `qaCases(model, qa, browserCoverage(machine))` — the very cases
 * `npm run paths` prints — and walks each in Chromium against the real server with the machine's driver
 * (e2e/paths/<machine>.driver.ts):
 *
 * 1. `driver.start[scenario]` prepares the accounts / server state and opens the first page;
 * 2. for every step `driver.steps[key]` (a key without a driver fails, naming the key and its words);
 * 3. for every screen tag of the state reached `driver.screens[tag]`, and then: the visible `[data-screen]`
 *    elements whose tag belongs to THIS machine are exactly the state's screens (a screen shown that the
 *    machine does not explain fails; an `exit` state expects none of its own).
 *
 * Rule for loading states: a state tagged `loading` (a request in flight) may pass faster than a check can
 * see it, so its screens are not asserted; the next step's check covers what follows. The walk never ends
 * on one (`transitionPaths` lets the first outcome answer).
 *
 * Coverage per machine: `browserCoverage` in machines/qa.ts (the CI budget). Each machine's walk time goes to
 * test-results/paths-walk.json and to the console. Drivers are found by file name (e2e/paths/drivers.ts).
 */
import type { TestInfo } from '@playwright/test';
import { expect, test } from './fixtures';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { browserCoverage, modelsWithQa } from '../machines/qa';
import { caseTitle, LOADING_TAG, EXIT_TAG, machineScreenTags, qaCases, tagsOfState, type QaCase } from '../machines/testing/qa';
import type { DriverContext } from './paths/driver';
import { loadDrivers } from './paths/drivers';
import { attachDevice, prepareContext } from './paths/passkey-prompt';
import { startLocalhostServer, type LocalhostServer } from './localhost-server';

const drivers = await loadDrivers();

const OUTPUT_DIR = process.env.E2E_OUTPUT_DIR ?? 'test-results';
const WALK_FILE = join(OUTPUT_DIR, 'paths-walk.json');

interface WalkRecord {
  machine: string;
  coverage: string;
  cases: number;
  walked: number;
  passed: number;
  seconds: number;
}

/** Adds a worker's share of a machine's walk (a failure restarts the worker: several shares per machine). */
function record(entry: WalkRecord): WalkRecord {
  mkdirSync(OUTPUT_DIR, { recursive: true });
  let all: Record<string, WalkRecord> = {};
  try {
    all = JSON.parse(readFileSync(WALK_FILE, 'utf8')) as Record<string, WalkRecord>;
  } catch {
    // the run's first share (Playwright empties test-results/ when a run starts)
  }
  const before = all[entry.machine];
  const total = before ? { ...entry, walked: before.walked + entry.walked, passed: before.passed + entry.passed, seconds: Math.round((before.seconds + entry.seconds) * 10) / 10 } : entry;
  all[entry.machine] = total;
  writeFileSync(WALK_FILE, JSON.stringify(all, null, 2));
  return total;
}

/**
 * Machines with QA words whose browser driver is not written yet (issue 13 stays open for them). Any other machine
 * without a driver fails the walk.
 */
const BROWSER_PENDING: Readonly<Record<string, string>> = {};

/**
 * Cases whose browser walk fails on a driver fault that is understood but not yet fixed: listed (fixme in the report),
 * not hidden. Issue 13 stays open until this list is empty.
 */
const CASE_FIXME: Readonly<Record<string, string>> = {};

/**
 * Scenarios whose cases cannot be walked on the walk's server yet, listed (fixme with the reason), not hidden.
 */
const SCENARIO_FIXME: Readonly<Record<string, string>> = {};

/**
 * What is walked on a server of its own on http://localhost:<port> (e2e/localhost-server.ts, same build): WebAuthn
 * does not run on the walk server's IP address (Chromium: "SecurityError: This is an invalid domain"). Such a case
 * gets a browser context on that origin whose pages hold the passkey prompt (e2e/paths/passkey-prompt.ts) and carry
 * Chromium's virtual authenticator; the drivers' server-side arrangements go to that server's data directory.
 */
const WEBAUTHN_MACHINES: ReadonlySet<string> = new Set(['passkeyRegistration']);
const WEBAUTHN_SCENARIOS: ReadonlySet<string> = new Set(['/login?interaction=uid-1 with passkeys']);
const WEBAUTHN_ADMIN = { email: 'walk.passkeys.admin@example.com', password: 'Walk-Passkeys-Admin-Passw0rd!' };
let webauthnServer: Promise<LocalhostServer> | undefined;
test.afterAll(async () => {
  const server = webauthnServer;
  webauthnServer = undefined;
  if (server) await (await server).close();
});

/** `data-screen` values of the visible elements. */
async function visibleScreens(ctx: DriverContext): Promise<string[]> {
  return ctx.page.locator('[data-screen]').evaluateAll((elements) =>
    elements.filter((el) => (el as HTMLElement).checkVisibility?.() ?? (el as HTMLElement).offsetParent !== null).map((el) => el.getAttribute('data-screen') ?? ''),
  );
}

/**
 * Which machines this run walks: E2E_WALKS = `only:a,b` or `except:a,b` (set by playwright.config.ts for the
 * walks-1 / walks-2 shards), unset: all. A name that is not a machine with QA words fails, so a renamed machine
 * cannot silently drop out of both shards.
 */
function walkedHere(): (name: string) => boolean {
  const spec = process.env.E2E_WALKS;
  if (!spec) return () => true;
  const [mode, list = ''] = spec.split(':');
  const names = list.split(',').filter(Boolean);
  const known = new Set(modelsWithQa().map((m) => m.model.name));
  for (const n of names) if (!known.has(n)) throw new Error(`E2E_WALKS names "${n}", which is not a machine with QA words (${[...known].join(', ')})`);
  return mode === 'only' ? (name) => names.includes(name) : (name) => !names.includes(name);
}
const walked = walkedHere();

for (const { model, qa } of modelsWithQa().filter(({ model }) => walked(model.name))) {
  const coverage = browserCoverage(model.name);
  const driver = drivers.get(model.name);

  test.describe(`${model.name} walk (${coverage})`, () => {
    const pending = BROWSER_PENDING[model.name];
    if (!driver && pending) {
      // Known and listed, not hidden: shows as "fixme" in the report with its reason. Remove the entry with the driver.
      test.fixme(`no browser driver for ${model.name} yet: ${pending}`, () => {});
      return;
    }
    if (!driver) {
      test(`no browser driver for ${model.name}`, () => {
        throw new Error(`machines/${model.name}.qa.ts has words but there is no e2e/paths/${model.name}.driver.ts exporting a MachineDriver for "${model.name}"`);
      });
      return;
    }
    const cases: QaCase[] = qaCases(model, qa, coverage);
    const own = machineScreenTags(model).all;
    let seconds = 0;
    let passed = 0;
    let walked = 0;

    test.afterAll(() => {
      if (walked === 0) return;
      const total = record({ machine: model.name, coverage, cases: cases.length, walked, passed, seconds: Math.round(seconds * 10) / 10 });
      console.log(`[paths] ${model.name}: ${total.passed}/${total.cases} cases (${coverage}) passed, ${total.walked} walked in ${total.seconds.toFixed(1)} s`);
    });

    for (const testCase of cases) {
      const fixme = CASE_FIXME[testCase.id] ?? SCENARIO_FIXME[testCase.scenario];
      if (fixme) {
        test.fixme(`${testCase.id} ${caseTitle(testCase)} — known driver fault: ${fixme}`, () => {});
        continue;
      }
      const webauthn = WEBAUTHN_MACHINES.has(model.name) || WEBAUTHN_SCENARIOS.has(testCase.scenario);
      test(`${testCase.id} ${caseTitle(testCase)}`, async ({ page, context, request, browser }, testInfo: TestInfo) => {
        // long cases (session-01: 33 steps, 75–160 s on a busy machine) get time per step, not one fixed bound
        test.setTimeout(Math.max(180_000, testCase.steps.length * 12_000));
        const started = Date.now();
        const ctx: DriverContext = { page, context, request, world: {}, testCase, events: [], lang: 'en' };
        const dataDir = process.env.E2E_DATA_DIR;
        if (webauthn) {
          const server = await (webauthnServer ??= startLocalhostServer('walk-passkeys', WEBAUTHN_ADMIN));
          process.env.E2E_DATA_DIR = server.dataDir;
          ctx.context = await browser.newContext({ baseURL: server.origin });
          await prepareContext(ctx.context);
          ctx.page = await ctx.context.newPage();
          ctx.request = server.api;
          ctx.passkeys = await attachDevice(ctx.page);
          ctx.origin = server.origin;
          ctx.admin = server.admin;
        }
        try {
          for (const [index, step] of testCase.steps.entries()) {
            const words = index === 0 ? (qa.scenarios[testCase.scenario] ?? testCase.scenario) : (qa.steps[step.key] ?? step.key);
            await test.step(`${index + 1}. ${words}`, async () => {
              ctx.step = index === 0 ? undefined : step;
              ctx.events = step.events;
              if (index === 0) {
                const start = driver.start[testCase.scenario];
                if (!start) throw new Error(`no browser start for the scenario "${testCase.scenario}" (${words}) in e2e/paths/${model.name}.driver.ts`);
                await start(ctx);
              } else {
                const perform = driver.steps[step.key];
                if (!perform) throw new Error(`no browser step for "${step.key}" (${words}) in e2e/paths/${model.name}.driver.ts`);
                await perform(ctx);
              }
              const tags = tagsOfState(model, step.state);
              if (tags.has(LOADING_TAG)) return; // may pass too fast to see: the next step's check covers it
              for (const tag of step.screens) {
                const check = driver.screens[tag];
                if (!check) throw new Error(`no browser check for the screen "${tag}" (${qa.screens[tag] ?? 'no words'}) in e2e/paths/${model.name}.driver.ts`);
                await check(ctx);
              }
              const expected = tags.has(EXIT_TAG) ? [] : [...step.screens].sort();
              await expect
                .poll(async () => (await visibleScreens(ctx)).filter((tag) => own.has(tag as `screen:${string}`)).sort(), {
                  message: `${step.state}: the visible screens of ${model.name} are exactly ${JSON.stringify(expected)}`,
                })
                .toEqual(expected);
            });
          }
          passed++;
        } finally {
          try {
            if (driver.finish) await driver.finish(ctx);
          } finally {
            if (webauthn) {
              process.env.E2E_DATA_DIR = dataDir;
              await ctx.context.close();
            }
          }
          const took = (Date.now() - started) / 1000;
          seconds += took;
          walked++;
          testInfo.annotations.push({ type: 'walk', description: `${model.name} ${testCase.id}: ${testCase.steps.length} steps in ${took.toFixed(1)} s` });
        }
      });
    }
  });
}
