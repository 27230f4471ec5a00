import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * SPA tests import compiled Lingui catalogs and Panda's styled-system, both
 * build artefacts. `npm test` runs them in `pretest`; this covers direct
 * `npx vitest` runs when they are missing.
 */
export default function setup(): void {
  const root = fileURLToPath(new URL('..', import.meta.url));
  const run = (args: string[]) => execFileSync('npx', args, { cwd: root, stdio: 'ignore' });
  if (!existsSync(`${root}/locales/en/common.ts`)) run(['lingui', 'compile', '--typescript']);
  if (!existsSync(`${root}/styled-system/css/index.mjs`)) run(['panda', 'codegen']);
}
