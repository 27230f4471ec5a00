/**
 * Browser drivers for the generated statechart walk (`e2e/paths.spec.ts`).
 *
 * One driver per machine, `e2e/paths/<machine>.driver.ts`, beside nothing hand-written
 * per path: the suite takes the cases from the machines' graph models and QA words
 * (machines/testing/qa.ts) and, for every step, runs `steps[key]`, then for every
 * screen tag of the state reached runs `screens[tag]` and checks that the visible
 * `[data-screen]` elements of this machine are exactly the state's screen tags.
 * A step key or screen tag without a driver entry fails the case (it never skips).
 *
 * Everything happens against the real server of playwright.config.ts: mails and SMS
 * from the outbox (e2e/helpers.ts), TOTP computed, time-outs and expired links
 * arranged server-side (the SQLite file under E2E_DATA_DIR), network failures with
 * `page.route(...).abort()`.
 */
import type { APIRequestContext, BrowserContext, Page } from '@playwright/test';
import type { EventObject } from 'xstate';
import type { QaCase, QaStep, ScreenTag } from '../../machines/testing/qa';
import type { PasskeyDevice } from './passkey-prompt';

export interface DriverContext {
  page: Page;
  context: BrowserContext;
  request: APIRequestContext;
  /** Per-case scratch space (accounts created in `start`, codes, counters). */
  world: Record<string, unknown>;
  /** The case being walked, and the step being performed (undefined in `start`). */
  testCase: QaCase;
  step?: QaStep;
  /** The machine events of the current step (outcome last). */
  events: EventObject[];
  /** The language the walk runs in ('en' unless a case says otherwise). */
  lang: string;
  /**
   * WebAuthn walks only (e2e/paths.spec.ts): the page's virtual authenticator and held prompt, the origin of the
   * walk's localhost server (the page's base URL) and that server's first super_admin.
   */
  passkeys?: PasskeyDevice;
  origin?: string;
  admin?: { email: string; password: string };
}

export type DriverFn = (ctx: DriverContext) => Promise<void>;

export interface MachineDriver {
  machine: string;
  /** Prepare each scenario (accounts, server state) and open its first page, keyed by scenario name. */
  start: Record<string, DriverFn>;
  /** Perform each step key (see `stepKey` in machines/testing/qa.ts). */
  steps: Record<string, DriverFn>;
  /** Assert each screen tag is what the page shows. */
  screens: Record<ScreenTag, DriverFn>;
  /** Optional clean-up after a case. */
  finish?: DriverFn;
}

/**
 * The step after the current one (in `start`: the first step after opening). Outcomes that follow the opening
 * directly (the link check, the authorization) cannot be caused after the fact: `start` arranges them
 * beforehand (expire a link, cut the network) from this step's key, and the outcome's step then only waits.
 */
export function nextStep(ctx: DriverContext): QaStep | undefined {
  const steps = ctx.testCase.steps;
  const index = ctx.step ? steps.indexOf(ctx.step) : 0;
  return steps[index + 1];
}

/** True when the current step starts with a user event (e.g. `RETRY`) folded into the outcome it caused. */
export function startedBy(ctx: DriverContext, type: string): boolean {
  return ctx.events.length > 1 && ctx.events[0]?.type === type;
}
