/**
 * The QA words of every graph model (machines/models.ts), for the consistency tests (machines/qa.test.ts),
 * `npm run paths` and the generated browser walk (e2e/paths.spec.ts).
 *
 * A machine's words live beside it in `machines/<name>.qa.ts` (any export shaped like `MachineQa`, keyed
 * by its `machine`, which is the model's `name`); import the module here. machines/qa.test.ts fails for a
 * `*.qa.ts` file not imported here and for a model without words that is not in `PENDING_QA`.
 */
import { models } from './models';
import type { MachineModel } from './testing/graph';
import type { Coverage, MachineQa } from './testing/qa';
import * as apiKey from './apiKey.qa';
import * as csvImport from './csvImport.qa';
import * as disableCode from './disableCode.qa';
import * as invitationResend from './invitationResend.qa';
import * as login from './login.qa';
import * as passkeyRegistration from './passkeyRegistration.qa';
import * as session from './session.qa';
import * as ssoCallback from './ssoCallback.qa';
import * as twoFactorSetup from './twoFactorSetup.qa';
import * as verifyInvitation from './verifyInvitation.qa';

/** Every `machines/*.qa.ts` module (file name → module). */
export const qaModules: Record<string, Record<string, unknown>> = {
  'login.qa.ts': login,
  'verifyInvitation.qa.ts': verifyInvitation,
  'twoFactorSetup.qa.ts': twoFactorSetup,
  'disableCode.qa.ts': disableCode,
  'csvImport.qa.ts': csvImport,
  'invitationResend.qa.ts': invitationResend,
  'apiKey.qa.ts': apiKey,
  'ssoCallback.qa.ts': ssoCallback,
  'session.qa.ts': session,
  'passkeyRegistration.qa.ts': passkeyRegistration,
};

/**
 * Models whose words are still being written (issue 13): listed by `npm run paths` as such, skipped by the
 * browser walk, and reported by machines/qa.test.ts. Empty it as the `*.qa.ts` files land.
 */
export const PENDING_QA: readonly string[] = [];

export function isMachineQa(value: unknown): value is MachineQa {
  if (!value || typeof value !== 'object') return false;
  const v = value as Partial<Record<keyof MachineQa, unknown>>;
  return typeof v.machine === 'string' && [v.scenarios, v.steps, v.screens].every((part) => part !== null && typeof part === 'object');
}

/** Every `MachineQa` export of the registered modules, keyed by machine (a machine named twice throws). */
export const qaByMachine: ReadonlyMap<string, MachineQa> = (() => {
  const map = new Map<string, MachineQa>();
  for (const [file, module] of Object.entries(qaModules)) {
    for (const value of Object.values(module)) {
      if (!isMachineQa(value)) continue;
      if (map.has(value.machine)) throw new Error(`QA words for "${value.machine}" twice (again in machines/${file})`);
      map.set(value.machine, value);
    }
  }
  return map;
})();

export interface ModelWithQa {
  model: MachineModel;
  qa: MachineQa;
}

/** The models that have QA words, in machines/models.ts order. */
export function modelsWithQa(): ModelWithQa[] {
  return models.flatMap((model) => {
    const qa = qaByMachine.get(model.name);
    return qa ? [{ model, qa }] : [];
  });
}

/**
 * What the browser walk (e2e/paths.spec.ts) covers per machine, to keep the whole walk within CI's budget
 * (≈6 min): by default `chart` — every transition of the chart (state × step) at least once, hence the way to
 * every state — and `transitions` (every transition with its context: error shown or not, counters…) where
 * that stays cheap. Every simple path in the browser is far beyond the budget (login 1 176, twoFactorSetup 6 770).
 */
export const BROWSER_COVERAGE: Readonly<Record<string, Coverage>> = {
  verifyInvitation: 'transitions',
};

export function browserCoverage(machine: string): Coverage {
  return BROWSER_COVERAGE[machine] ?? 'chart';
}
