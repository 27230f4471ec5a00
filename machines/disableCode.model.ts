/** Graph model of the SMS that turns SMS two-factor off (profile, "Send code by SMS"). */
import type { AnyMachineSnapshot, EventObject } from 'xstate';
import { disableCodeMachine, type DisableCodeContext, type DisableCodeEvent } from './disableCode.machine';
import { CallFailureError } from './testing/failure';
import { doneEvent, errorEvent, stateKey, type MachineModel } from './testing/graph';

export const DISABLE_CODE_PHONE = '+41791234567';
/** The server's answers (server/services/two-factor.ts): one SMS per 30 s. */
export const disableCodeErrors = {
  throttled: new CallFailureError({ kind: 'http', status: 429, code: 'too_many_requests', message: 'Too many requests', retryAfter: 30 }),
  network: new CallFailureError({ kind: 'network', message: 'fetch failed' }),
};

function events(snapshot: AnyMachineSnapshot): EventObject[] {
  const user: DisableCodeEvent[] = [{ type: 'SEND' }];
  const outcomes: EventObject[] =
    stateKey(snapshot.value) === 'sending' ? [doneEvent('sendCode', undefined), errorEvent('sendCode', disableCodeErrors.throttled), errorEvent('sendCode', disableCodeErrors.network)] : [];
  return [...user, ...outcomes];
}

export const disableCodeModel: MachineModel<typeof disableCodeMachine> = {
  name: 'disableCode',
  title: 'The SMS that turns SMS two-factor off (sent, again, or refused: too soon, no network)',
  machine: disableCodeMachine,
  scenarios: [{ name: 'SMS two-factor on, turning it off with a one-time password', input: { phone: DISABLE_CODE_PHONE } }],
  events,
  strategy: 'simple',
  injectedActions: [],
  expectedStates: ['ready', 'sending', 'sent'],
  finalStates: ['ready', 'sent'],
  serializeState: (snapshot) => JSON.stringify([stateKey(snapshot.value), (snapshot.context as DisableCodeContext).error?.code ?? null]),
};
