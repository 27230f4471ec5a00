// `npm start`: build the SPA when dist/ is missing or older than the sources, compile the server when build/ is
// (scripts/build-server.mjs), then run the compiled server: plain Node, no TypeScript loader in the process.
import { existsSync, statSync, readdirSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { ensureServerBuilt } from './build-server.mjs';
import { serverEnv, serverNodeArgs } from './server-runtime.mjs';

function newest(dir) {
  let t = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    t = Math.max(t, e.isDirectory() ? newest(p) : statSync(p).mtimeMs);
  }
  return t;
}
const index = 'dist/index.html';
const stale = !existsSync(index) || Math.max(newest('src'), newest('locales')) > statSync(index).mtimeMs;
if (stale) {
  const r = spawnSync('npm', ['run', 'build'], { stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
}
// compiled, not under a TypeScript loader (~35 MB less resident memory: docs/OPERATIONS.md "Memory and threads")
const entry = await ensureServerBuilt();
// memory and thread settings of the server process: scripts/server-runtime.mjs
const r = spawnSync(process.execPath, [...serverNodeArgs(), entry], { stdio: 'inherit', env: serverEnv({ NODE_ENV: 'production', ...process.env }) });
process.exit(r.status ?? 1);
