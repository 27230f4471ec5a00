import { afterAll } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';

/**
 * Sets environment variables for the whole test file (read at module load, before the apps are built:
 * some limits are read from process.env rather than the app's config) and restores them after the file.
 */
export function raiseEnvForFile(vars: Record<string, string>): void {
  const saved = Object.fromEntries(Object.keys(vars).map((k) => [k, process.env[k]]));
  Object.assign(process.env, vars);
  afterAll(() => {
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  });
}

/** The stable error code of a product error answer ({error:{code}}), or undefined for any other body. */
export function errorCode(res: LightMyRequestResponse): string | undefined {
  try {
    return (JSON.parse(res.body) as { error?: { code?: string } }).error?.code;
  } catch {
    return undefined;
  }
}
