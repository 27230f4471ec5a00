import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync, cpSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from '../../helpers/faults';
// @ts-expect-error -- a plain .mjs script without types
import { serverCommand, shellQuote } from '../../../scripts/start.mjs';

/**
 * Issue 30.8: `npm start` (the README's first command) leaves one process beside npm: the server itself. The start
 * script builds what is stale, prints the server's command line, and package.json's start script `exec`s it, so neither
 * the shell nor the script stays alive (they were 55 MB beside npm's 58 and the server's ~110), the server gets npm
 * start's memory and thread settings, and npm's forwarded SIGTERM reaches it directly.
 */
const ROOT = path.resolve(import.meta.dirname, '..', '..', '..');
const quote = shellQuote as (w: string) => string;
const command = serverCommand as (entry: string, env: Record<string, string | undefined>, node: string) => string;

describe('the start command line', () => {
  it('quotes every word for the shell, and adds only the settings the environment does not set', () => {
    expect(quote('/opt/iam/build/server/main.js')).toBe('/opt/iam/build/server/main.js');
    expect(quote("/home/o'brien/my iam/main.js")).toBe(`'/home/o'\\''brien/my iam/main.js'`);
    const line = command('/srv/my iam/build/server/main.js', { MALLOC_ARENA_MAX: '4', NODE_OPTIONS: '--max-old-space-size=2048' }, '/usr/bin/node');
    expect(line).toMatch(/^env UV_THREADPOOL_SIZE=\d+ MALLOC_MMAP_THRESHOLD_=131072 GLIBC_TUNABLES=glibc\.malloc\.hugetlb=1 NODE_ENV=production \/usr\/bin\/node --max-semi-space-size=1 '\/srv\/my iam\/build\/server\/main\.js'$/);
    expect(line).not.toContain('MALLOC_ARENA_MAX');
  });
});

/** pid → [ppid, command line] of every process, from /proc. */
function processes(): Map<number, { ppid: number; cmd: string }> {
  const all = new Map<number, { ppid: number; cmd: string }>();
  for (const e of readdirSync('/proc')) {
    if (!/^\d+$/.test(e)) continue;
    try {
      const stat = readFileSync(`/proc/${e}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      all.set(Number(e), { ppid, cmd: readFileSync(`/proc/${e}/cmdline`, 'utf8').split('\0').join(' ').trim() });
    } catch {
      // ended meanwhile
    }
  }
  return all;
}

describe.skipIf(process.platform !== 'linux')('npm start', () => {
  // a copy of the project's start path: package.json (its real scripts), scripts/ and the server's sources; the
  // server is compiled into this directory's build/, the SPA stands for an up-to-date build (dist/ newer than src/)
  const dir = mkdtempSync(path.join(os.tmpdir(), 'iam-npm-start-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('runs the server as npm’s only child, with npm start’s settings, and stops it with npm’s SIGTERM', async () => {
    cpSync(path.join(ROOT, 'package.json'), path.join(dir, 'package.json'));
    cpSync(path.join(ROOT, 'package-lock.json'), path.join(dir, 'package-lock.json'));
    cpSync(path.join(ROOT, 'scripts'), path.join(dir, 'scripts'), { recursive: true });
    // the compiled sources are copied (the build refuses imports from outside the project), the rest linked
    for (const d of ['server', 'contract']) cpSync(path.join(ROOT, d), path.join(dir, d), { recursive: true });
    for (const d of ['node_modules', 'src', 'locales']) symlinkSync(path.join(ROOT, d), path.join(dir, d));
    mkdirSync(path.join(dir, 'dist'));
    writeFileSync(path.join(dir, 'dist', 'index.html'), '<!doctype html><title>IAM</title>');
    const port = await freePort();
    const data = path.join(dir, 'data');
    const npm = spawn('npm', ['start', '--silent'], {
      cwd: dir,
      env: { PATH: process.env.PATH, HOME: process.env.HOME, PORT: String(port), HOST: '127.0.0.1', APP_URL: `http://127.0.0.1:${port}`, IAM_DATA_DIR: data, LOG_LEVEL: 'info', npm_config_update_notifier: 'false' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    npm.stdout.on('data', (d: Buffer) => (out += d.toString()));
    npm.stderr.on('data', (d: Buffer) => (out += d.toString()));
    const exited = new Promise<number | null>((resolve) => npm.on('exit', (code) => resolve(code)));
    try {
      const until = Date.now() + 60_000;
      for (;;) {
        const ok = await fetch(`http://127.0.0.1:${port}/oidc/.well-known/openid-configuration`).then((r) => r.ok, () => false);
        if (ok) break;
        if (npm.exitCode !== null || Date.now() > until) throw new Error(`npm start did not serve discovery:\n${out}`);
        await sleep(100);
      }
      const all = processes();
      const children = [...all].filter(([, p]) => p.ppid === npm.pid);
      expect(children.map(([, p]) => p.cmd)).toEqual([expect.stringMatching(/node --max-semi-space-size=1 --max-old-space-size=1024 \S*build\/server\/main\.js$/)]);
      const [serverPid] = children[0] ?? [];
      expect([...all].filter(([, p]) => p.ppid === serverPid)).toEqual([]);
      const environ = readFileSync(`/proc/${serverPid}/environ`, 'utf8').split('\0');
      for (const setting of ['MALLOC_ARENA_MAX=2', 'MALLOC_MMAP_THRESHOLD_=131072', 'GLIBC_TUNABLES=glibc.malloc.hugetlb=1', 'NODE_ENV=production']) expect(environ).toContain(setting);
      expect(environ.find((e) => e.startsWith('UV_THREADPOOL_SIZE='))).toMatch(/^UV_THREADPOOL_SIZE=\d+$/);
      npm.kill('SIGTERM');
      expect(await exited).toBe(0);
      expect(processes().has(serverPid ?? -1)).toBe(false);
      expect(out).toContain('"msg":"shut down"');
    } finally {
      if (npm.exitCode === null) npm.kill('SIGKILL');
    }
  }, 90_000);
});
