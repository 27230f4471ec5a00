/**
 * The browser drivers of the generated walk (e2e/paths.spec.ts): every `e2e/paths/<machine>.driver.ts` module's
 * export shaped like a `MachineDriver`, keyed by its `machine`. Found by file name, so a new driver needs no
 * registration; a machine with QA words and no driver fails the walk ("no browser driver for …").
 */
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { MachineDriver } from './driver';

function isDriver(value: unknown): value is MachineDriver {
  if (!value || typeof value !== 'object') return false;
  const v = value as Partial<Record<keyof MachineDriver, unknown>>;
  return typeof v.machine === 'string' && [v.start, v.steps, v.screens].every((part) => part !== null && typeof part === 'object');
}

export async function loadDrivers(): Promise<Map<string, MachineDriver>> {
  const dir = dirname(fileURLToPath(import.meta.url));
  const map = new Map<string, MachineDriver>();
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.driver.ts')).sort()) {
    const module = (await import(pathToFileURL(join(dir, file)).href)) as Record<string, unknown>;
    for (const value of Object.values(module)) {
      if (!isDriver(value)) continue;
      if (map.has(value.machine)) throw new Error(`two browser drivers for "${value.machine}" (again in e2e/paths/${file})`);
      map.set(value.machine, value);
    }
  }
  return map;
}
