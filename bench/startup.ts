/**
 * Start-up benchmark (issue 30.8): `npm run bench:startup`. Env: BENCH_RUNS (default 5).
 *
 * For the compiled server (`node build/server/main.js`, as npm start runs it: its node flags and environment) on
 * SQLite: the time from spawn to the first 200 of the discovery document, cold (an empty data directory: migrations,
 * the first signing keys, the first admin) and warm (the same directory again), with the server's own step log
 * (`startupMs` in its "IAM is at" line); the same through `npm start` (built already); the resident memory of the whole
 * process tree once idle (npm start's vs the server alone); and what loading the server's biggest packages costs alone
 * (each in a fresh Node), beside Node's own start. Needs a build (`npm run build`).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
// @ts-expect-error -- plain .mjs scripts without types
import { serverEnv, serverNodeArgs } from '../scripts/server-runtime.mjs';
import { ensureServerBuilt } from '../scripts/build-server.mjs';
import { freePort } from '../tests/helpers/http';

const RUNS = Number(process.env.BENCH_RUNS || 5);
const ROOT = path.resolve(import.meta.dirname, '..');

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? 0 : s.length % 2 ? (s[(s.length - 1) / 2] ?? 0) : ((s[s.length / 2 - 1] ?? 0) + (s[s.length / 2] ?? 0)) / 2;
};
const range = (xs: number[]) => `${Math.round(Math.min(...xs))}–${Math.round(Math.max(...xs))}`;

/** Resident set size (kB) of `pid` and all its descendants, from /proc. */
function treeRssKb(pid: number): { total: number; parts: Array<{ cmd: string; kb: number }> } {
  const procs = new Map<number, { ppid: number; cmd: string; kb: number }>();
  for (const e of readdirSync('/proc')) {
    if (!/^\d+$/.test(e)) continue;
    try {
      const stat = readFileSync(`/proc/${e}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      const kb = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${e}/status`, 'utf8'))?.[1] ?? 0);
      procs.set(Number(e), { ppid, cmd: readFileSync(`/proc/${e}/cmdline`, 'utf8').split('\0').slice(0, 2).join(' '), kb });
    } catch {
      // gone
    }
  }
  const parts: Array<{ cmd: string; kb: number }> = [];
  const walk = (p: number) => {
    const me = procs.get(p);
    if (me) parts.push({ cmd: me.cmd, kb: me.kb });
    for (const [c, info] of procs) if (info.ppid === p) walk(c);
  };
  walk(pid);
  return { total: parts.reduce((a, b) => a + b.kb, 0), parts };
}

interface Start {
  ms: number;
  steps: Record<string, number>;
  proc: ChildProcess;
}

async function start(cmd: string, args: string[], env: Record<string, string | undefined>, port: number): Promise<Start> {
  const t0 = performance.now();
  const proc = spawn(cmd, args, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  proc.stdout?.on('data', (d: Buffer) => (out += d.toString()));
  proc.stderr?.on('data', (d: Buffer) => (out += d.toString()));
  for (;;) {
    const ok = await fetch(`http://127.0.0.1:${port}/oidc/.well-known/openid-configuration`).then((r) => r.ok, () => false);
    if (ok) break;
    if (proc.exitCode !== null) throw new Error(`exited:\n${out}`);
    await sleep(5);
  }
  const ms = performance.now() - t0;
  for (let i = 0; i < 100 && !/"startupMs"/.test(out); i++) await sleep(10);
  const line = out.split('\n').find((l) => l.includes('"startupMs"'));
  const steps = line ? ((JSON.parse(line) as { startupMs: Record<string, number> }).startupMs) : {};
  return { ms, steps, proc };
}

async function stop(proc: ChildProcess): Promise<void> {
  const exited = new Promise((r) => proc.once('exit', r));
  proc.kill('SIGTERM');
  await exited;
}

function importCost(spec: string): number {
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', `const t = performance.now(); await import(${JSON.stringify(spec)}); console.log(performance.now() - t);`], { cwd: ROOT, encoding: 'utf8' });
  return Number(r.stdout.trim());
}

async function main(): Promise<void> {
  const entry = (await ensureServerBuilt()) as string;
  const baseEnv = (dir: string, port: number) => ({
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    PORT: String(port),
    HOST: '127.0.0.1',
    APP_URL: `http://127.0.0.1:${port}`,
    IAM_DATA_DIR: dir,
    IAM_ADMIN_EMAIL: 'admin@example.com',
    IAM_ADMIN_PASSWORD: 'Admin-Passw0rd!x',
    LOG_LEVEL: 'info',
    npm_config_update_notifier: 'false',
  });
  const rows: Array<{ what: string; ms: number[]; steps: Array<Record<string, number>> }> = [];
  const rss: Record<string, number[]> = { server: [], npm: [] };
  let npmParts: Array<{ cmd: string; kb: number }> = [];
  const cold = { what: 'node build/server/main.js, cold (empty data directory)', ms: [] as number[], steps: [] as Array<Record<string, number>> };
  const warm = { what: 'node build/server/main.js, warm (same data directory)', ms: [] as number[], steps: [] as Array<Record<string, number>> };
  const viaNpm = { what: 'npm start (built), warm', ms: [] as number[], steps: [] as Array<Record<string, number>> };
  for (let i = 0; i < RUNS; i++) {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'iam-bench-start-'));
    try {
      for (const row of [cold, warm]) {
        const port = await freePort();
        const s = await start(process.execPath, [...(serverNodeArgs() as string[]), entry], serverEnv({ NODE_ENV: 'production', ...baseEnv(dir, port) }) as Record<string, string>, port);
        row.ms.push(s.ms);
        row.steps.push(s.steps);
        if (row === warm) {
          await sleep(3000);
          rss.server?.push(treeRssKb(s.proc.pid ?? 0).total);
        }
        await stop(s.proc);
      }
      const port = await freePort();
      const s = await start('npm', ['start', '--silent'], baseEnv(dir, port), port);
      viaNpm.ms.push(s.ms);
      viaNpm.steps.push(s.steps);
      await sleep(3000);
      const tree = treeRssKb(s.proc.pid ?? 0);
      rss.npm?.push(tree.total);
      npmParts = tree.parts;
      await stop(s.proc);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  rows.push(cold, warm, viaNpm);

  const nodeBare: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const t = performance.now();
    spawnSync(process.execPath, ['-e', '0']);
    nodeBare.push(performance.now() - t);
  }
  console.log(`\nStart-up, ${RUNS} runs each, median (range) in ms; load ${os.loadavg()[0]?.toFixed(1)} at the end\n`);
  console.log('| start | to discovery 200 | modules | database | app | bootstrap | listen |');
  console.log('|---|---|---|---|---|---|---|');
  for (const r of rows) {
    const step = (k: string) => Math.round(median(r.steps.map((s) => s[k] ?? 0)));
    console.log(`| ${r.what} | ${Math.round(median(r.ms))} (${range(r.ms)}) | ${step('modules')} | ${step('database')} | ${step('app')} | ${step('bootstrap')} | ${step('listen')} |`);
  }
  console.log(`| node -e 0 (Node's own start, for scale) | ${Math.round(median(nodeBare))} (${range(nodeBare)}) | | | | | |`);
  console.log('\nResident memory once idle (3 s after the first discovery answer), whole process tree, MB:');
  console.log(`- the server alone: ${(median(rss.server ?? []) / 1024).toFixed(0)} (${range((rss.server ?? []).map((k) => k / 1024))})`);
  console.log(`- npm start: ${(median(rss.npm ?? []) / 1024).toFixed(0)} (${range((rss.npm ?? []).map((k) => k / 1024))}): ${npmParts.map((p) => `${p.cmd.split('/').pop()} ${(p.kb / 1024).toFixed(0)}`).join(' + ')}`);
  console.log('\nLoading one package alone in a fresh Node (its import, median ms):');
  for (const spec of ['fastify', 'oidc-provider', 'kysely', 'better-sqlite3', 'argon2', 'jose', 'pino', 'zod']) {
    const xs: number[] = [];
    for (let i = 0; i < RUNS; i++) xs.push(importCost(spec));
    console.log(`- ${spec}: ${Math.round(median(xs))}`);
  }
  const all: number[] = [];
  for (let i = 0; i < RUNS; i++) all.push(importCost(path.join(ROOT, 'build/server/app.js')));
  console.log(`- build/server/app.js (everything the server imports): ${Math.round(median(all))}`);
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
