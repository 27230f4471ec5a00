import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TestProject } from 'vitest/node';
import { buildServer } from '../scripts/build-server.mjs';

declare module 'vitest' {
  interface ProvidedContext {
    /** the compiled server's entry (`<tmp>/server/main.js`), built once per run as `npm start` builds it */
    serverEntry: string;
  }
}

/**
 * SPA tests import compiled Lingui catalogs and Panda's styled-system, both
 * build artefacts. `npm test` runs them in `pretest`; this covers direct
 * `npx vitest` runs when they are missing.
 *
 * Tests that start the real server as a process run the compiled server, as `npm start` does: it is compiled once per
 * run into a directory of its own (not build/, which `.ci/run` builds for e2e at the same time).
 * (That the compiled tree matches the sources and runs: tests/build/server-build.test.ts.)
 */
export default async function setup(project: TestProject): Promise<() => void> {
  const root = fileURLToPath(new URL('..', import.meta.url));
  const run = (args: string[]) => execFileSync('npx', args, { cwd: root, stdio: 'ignore' });
  if (!existsSync(`${root}/locales/en/common.ts`)) run(['lingui', 'compile', '--typescript']);
  if (!existsSync(`${root}/styled-system/css/index.mjs`)) run(['panda', 'codegen']);
  // inside the checkout, so the compiled files find node_modules as build/ does
  const cache = path.join(root, 'node_modules', '.cache');
  mkdirSync(cache, { recursive: true });
  const dir = mkdtempSync(path.join(cache, 'iam-server-build-'));
  project.provide('serverEntry', await buildServer(dir));
  return () => rmSync(dir, { recursive: true, force: true });
}
