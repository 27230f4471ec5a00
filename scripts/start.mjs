// `npm start`: build the SPA when dist/ is missing or older than the sources, compile the server when build/ is
// (scripts/build-server.mjs), then print the command that runs the compiled server — plain Node, no TypeScript loader —
// as one shell-quoted line. package.json's start script `exec`s it, so the shell and this script are replaced by the
// server: npm's child IS the server (npm forwards SIGINT and SIGTERM to it) and no wrapper process stays alive beside
// it (issue 30.8: npm + this script + the server were 222–226 MB; BENCHMARKS.md "Start-up").
// Build output goes to stderr: stdout carries only the command.
import { existsSync, statSync, readdirSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
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

/** One word for a POSIX shell: single-quoted, a single quote inside written as '\''. */
export function shellQuote(word) {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`;
}

/**
 * The server's command line: `env` with the settings of scripts/server-runtime.mjs that the environment does not set
 * already (a value set there is inherited as it is), then node with its flags and the entry.
 */
export function serverCommand(entry, env = process.env, node = process.execPath) {
  const settings = serverEnv({ NODE_ENV: 'production', ...env });
  const added = Object.entries(settings).filter(([k, v]) => env[k] === undefined && typeof v === 'string');
  return ['env', ...added.map(([k, v]) => `${k}=${v}`), node, ...serverNodeArgs(env), entry].map(shellQuote).join(' ');
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const index = 'dist/index.html';
  const stale = !existsSync(index) || Math.max(newest('src'), newest('locales')) > statSync(index).mtimeMs;
  if (stale) {
    // the build's output on stderr (the terminal), never in the command line on stdout
    const r = spawnSync('npm', ['run', 'build'], { stdio: ['inherit', process.stderr, 'inherit'] });
    if (r.status !== 0) process.exit(r.status ?? 1);
  }
  const entry = await ensureServerBuilt();
  process.stdout.write(`${serverCommand(entry)}\n`);
}
