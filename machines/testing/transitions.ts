/**
 * Every transition of a model, not only every state: the shortest path to each distinct state, extended by each
 * event the model offers there that the machine takes (loops back, retries, closes and timers are walked too).
 */
import { getNextSnapshot, type AnyStateMachine, type EventObject } from 'xstate';
import { modelPaths, type AnyPath, type MachineModel } from './graph';

export function transitionPaths(model: MachineModel, shortest: AnyPath[] = modelPaths({ ...model, strategy: 'shortest' })): AnyPath[] {
  const out: AnyPath[] = [];
  for (const path of shortest) {
    const { state } = path;
    if (state.status !== 'active') continue;
    for (const event of model.events(state)) {
      if (!state.can(event)) continue;
      const next = getNextSnapshot(model.machine as AnyStateMachine, state, event as EventObject);
      out.push({ ...path, state: next, steps: [...path.steps, { state: next, event }], weight: path.steps.length + 1 });
    }
  }
  return out;
}
