// The server's threads but the event loop run at a lower CPU priority (IAM_BACKGROUND_NICE, server/lib/thread-priority.ts),
// so the event loop is not kept waiting behind argon2id hashes. Read from /proc of the real (compiled) server process.
import { readdirSync, readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { lowerBackgroundThreadPriority } from '../../../server/lib/thread-priority';
import { startServerProcess, type ServerProcess } from '../../helpers/faults';

/** nice value of every thread of `pid` (field 19 of /proc/<pid>/task/<tid>/stat) */
function niceByThread(pid: number): Map<number, number> {
  const out = new Map<number, number>();
  for (const name of readdirSync(`/proc/${pid}/task`)) {
    const stat = readFileSync(`/proc/${pid}/task/${name}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    out.set(Number(name), Number(fields[16]));
  }
  return out;
}

let server: ServerProcess | undefined;
afterEach(async () => {
  await server?.stop();
  server = undefined;
});

async function signInAttempt(base: string): Promise<number> {
  const res = await fetch(`${base}/api/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: base },
    body: JSON.stringify({ email: 'nobody@example.com', password: 'not-the-password-1A!' }),
  });
  await res.arrayBuffer();
  return res.status;
}

describe.skipIf(process.platform !== 'linux')('background thread priority', () => {
  it('every thread but the event loop runs at nice 10 by default, also after a password hash has run on the pool', async () => {
    server = await startServerProcess({ NODE_ENV: 'production', UV_THREADPOOL_SIZE: '6' });
    await server.waitForOutput(/IAM is at/, 60_000);
    const pid = server.proc.pid ?? 0;
    expect(server.output()).toMatch(/background threads run at a lower CPU priority/);
    // an unknown e-mail is still hashed (no user enumeration by timing): argon2id runs on libuv's pool
    expect(await signInAttempt(server.base)).toBeLessThan(500);
    const nice = niceByThread(pid);
    expect(nice.get(pid)).toBe(0);
    const others = [...nice].filter(([tid]) => tid !== pid);
    // libuv's pool (6 here) and V8's platform threads
    expect(others.length).toBeGreaterThanOrEqual(6);
    expect(others.filter(([, n]) => n !== 10)).toEqual([]);
  });

  it('IAM_BACKGROUND_NICE=0 leaves every thread at the process priority', async () => {
    server = await startServerProcess({ NODE_ENV: 'production', IAM_BACKGROUND_NICE: '0' });
    await server.waitForOutput(/IAM is at/, 60_000);
    const pid = server.proc.pid ?? 0;
    expect(await signInAttempt(server.base)).toBeLessThan(500);
    expect([...niceByThread(pid).values()].every((n) => n === 0)).toBe(true);
    expect(server.output()).not.toMatch(/lower CPU priority/);
  });

  it('IAM_BACKGROUND_NICE outside 0–19 stops the start with a line naming it', async () => {
    server = await startServerProcess({ NODE_ENV: 'production', IAM_BACKGROUND_NICE: '20' });
    const proc = server.proc;
    const code = proc.exitCode ?? (await new Promise<number | null>((resolve) => proc.once('exit', resolve)));
    expect(code).not.toBe(0);
    expect(server.output()).toMatch(/IAM_BACKGROUND_NICE/);
  });

  it('0 does nothing (and never touches the calling thread)', async () => {
    expect(await lowerBackgroundThreadPriority(0)).toEqual({ lowered: [], skipped: 'disabled' });
    expect(niceByThread(process.pid).get(process.pid)).toBe(0);
  });
});
