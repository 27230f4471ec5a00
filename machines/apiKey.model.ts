/** Graph model of the API-key machine (a technical user's key on the user page). */
import type { AnyMachineSnapshot, EventObject } from 'xstate';
import { apiKeyMachine, type ApiKeyContext, type ApiKeyEvent } from './apiKey.machine';
import { CallFailureError } from './testing/failure';
import { doneEvent, errorEvent, stateKey, type MachineModel } from './testing/graph';

export const USER_ID = '00000000-0000-4000-8000-000000000007';
export const NEW_KEY = 'iam_0123abcd_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA';
export const apiKeyErrors = {
  notTechnical: new CallFailureError({ kind: 'http', status: 422, code: 'not_technical', message: 'API keys can only be generated for technical users' }),
  notFound: new CallFailureError({ kind: 'http', status: 404, code: 'not_found', message: 'Not found' }),
  network: new CallFailureError({ kind: 'network', message: 'fetch failed' }),
};

function events(snapshot: AnyMachineSnapshot): EventObject[] {
  const c = snapshot.context as ApiKeyContext;
  const user: ApiKeyEvent[] = [{ type: 'GENERATE' }, { type: 'REVOKE' }, { type: 'CONFIRM' }, { type: 'DISMISS' }, { type: 'ACKNOWLEDGE' }, { type: 'KEY_STATUS', hasKey: !c.hasKey }];
  const outcomes: Record<string, EventObject[]> = {
    generating: [doneEvent('generateKey', { apiKey: NEW_KEY }), errorEvent('generateKey', apiKeyErrors.notTechnical), errorEvent('generateKey', apiKeyErrors.network)],
    revoking: [doneEvent('revokeKey', { revoked: true }), errorEvent('revokeKey', apiKeyErrors.notFound), errorEvent('revokeKey', apiKeyErrors.network)],
  };
  return [...user, ...(outcomes[stateKey(snapshot.value)] ?? [])];
}

export const apiKeyModel: MachineModel<typeof apiKeyMachine> = {
  name: 'apiKey',
  title: "A technical user's API key (generate, replace after confirming, shown once, revoke after confirming)",
  machine: apiKeyMachine,
  scenarios: [
    { name: 'technical user without a key', input: { userId: USER_ID, hasKey: false } },
    { name: 'technical user with a key', input: { userId: USER_ID, hasKey: true } },
  ],
  events,
  strategy: 'shortest',
  injectedActions: ['keyChanged'],
  expectedStates: ['card', 'confirmingReplace', 'generating', 'shown', 'confirmingRevoke', 'revoking'],
  finalStates: ['card', 'shown'],
  serializeState: (snapshot) => {
    const c = snapshot.context as ApiKeyContext;
    return JSON.stringify([stateKey(snapshot.value), c.hasKey, c.key !== null, c.notice, c.error?.code ?? null]);
  },
};
