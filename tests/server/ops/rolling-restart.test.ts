import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort, startServerProcess, type ServerProcess } from '../../helpers/faults';

/**
 * Issue 30.6: a rolling restart behind a load balancer loses no request. Three real server processes (compiled, as
 * `npm start` runs them) on one SQLite file stand behind a small proxy written here, which — like HAProxy or a cloud
 * load balancer — polls each one's `/api/health/ready` every 100 ms, sends requests only to instances whose last
 * poll was 200, and never retries. While clients send requests through it without pause, each instance in turn gets
 * SIGTERM and a fresh process takes its place. With IAM_SHUTDOWN_DELAY_MS readiness answers 503 at once while the
 * listener keeps serving, so the proxy stops sending before the listener closes: every request gets its answer.
 */

interface Backend {
  port: number;
  healthy: boolean;
}

/** A round-robin HTTP proxy over the backends whose readiness poll last answered 200; counts what it could not forward. */
async function startProxy(port: number, backends: Backend[]): Promise<{ url: string; port: number; failed: () => number; close(): Promise<void> }> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 32 });
  let turn = 0;
  let failed = 0;
  let polling = true;
  // each backend polled on its own (a slow answer of one does not delay the others): an answer other than 200 or a
  // refused connection takes it out at once, a poll without an answer in 2 s only when the previous one failed too
  // (HAProxy's `fall`), so an overloaded machine does not empty the pool
  const pollOne = async (b: Backend) => {
    let timeouts = 0;
    while (polling && backends.includes(b)) {
      const result = await new Promise<'up' | 'down' | 'timeout'>((resolve) => {
        const req = http.get({ host: '127.0.0.1', port: b.port, path: '/api/health/ready', agent: false, timeout: 2000 }, (res) => {
          res.resume();
          resolve(res.statusCode === 200 ? 'up' : 'down');
        });
        req.on('timeout', () => {
          req.destroy();
          resolve('timeout');
        });
        req.on('error', () => resolve('down'));
      });
      timeouts = result === 'timeout' ? timeouts + 1 : 0;
      if (result !== 'timeout' || timeouts >= 2) b.healthy = result === 'up';
      await sleep(100);
    }
  };
  const pollers = new Map<Backend, Promise<void>>();
  const watch = setInterval(() => {
    for (const b of backends) if (!pollers.has(b)) pollers.set(b, pollOne(b));
  }, 20);
  const server = http.createServer((req, res) => {
    const healthy = backends.filter((b) => b.healthy);
    const target = healthy[turn++ % Math.max(1, healthy.length)];
    if (!target) {
      failed++;
      res.writeHead(503).end();
      return;
    }
    const up = http.request({ host: '127.0.0.1', port: target.port, method: req.method, path: req.url, headers: req.headers, agent }, (upRes) => {
      res.writeHead(upRes.statusCode ?? 502, upRes.headers);
      upRes.pipe(res);
    });
    up.on('error', () => {
      failed++;
      if (!res.headersSent) res.writeHead(502);
      res.end();
    });
    req.pipe(up);
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    failed: () => failed,
    async close() {
      polling = false;
      clearInterval(watch);
      await Promise.all(pollers.values());
      agent.destroy();
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    },
  };
}

describe('rolling restart behind a proxy that polls readiness', () => {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'iam-rolling-'));
  const procs: ServerProcess[] = [];
  afterAll(async () => {
    for (const p of procs) await p.stop('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('IAM_SHUTDOWN_DELAY_MS: three instances restarted one by one under steady load lose no request', async () => {
    const backends: Backend[] = [];
    const proxyPort = await freePort();
    const env = {
      IAM_DATA_DIR: dataDir,
      APP_URL: `http://127.0.0.1:${proxyPort}`,
      LOG_LEVEL: 'info',
      IAM_SHUTDOWN_DELAY_MS: '1000',
      IAM_RATE_LIMIT_PER_MINUTE: '1000000',
    };
    const start = async (): Promise<ServerProcess> => {
      const p = await startServerProcess(env);
      procs.push(p);
      await p.waitForOutput(/IAM is at/, 60_000);
      return p;
    };
    // one after the other: the first migrates the shared file
    const current: ServerProcess[] = [];
    for (let i = 0; i < 3; i++) {
      const p = await start();
      current.push(p);
      backends.push({ port: p.port, healthy: false });
    }
    // the proxy listens on the port APP_URL names (the instances redirect other host names to it)
    const proxy = await startProxy(proxyPort, backends);
    try {
      const until = Date.now() + 30_000;
      while (!backends.every((b) => b.healthy)) {
        if (Date.now() > until) throw new Error('instances not ready');
        await sleep(50);
      }

      // steady load: 4 clients, each one request after the other (10 ms apart), a mix of a database read, discovery and JWKS
      const counts = { sent: 0, ok: 0, lost: 0, statuses: {} as Record<string, number> };
      let running = true;
      const paths = ['/api/user', '/oidc/.well-known/openid-configuration', '/oidc/jwks', '/api/languages'];
      const client = async (c: number) => {
        for (let i = c; running; i++) {
          const p = paths[i % paths.length] ?? '/api/languages';
          counts.sent++;
          let status = 0;
          try {
            const res = await fetch(`${proxy.url}${p}`, { redirect: 'manual', signal: AbortSignal.timeout(10_000) });
            await res.arrayBuffer();
            status = res.status;
          } catch {
            status = 0;
          }
          counts.statuses[status] = (counts.statuses[status] ?? 0) + 1;
          // /api/user without a token is 401 from the guard: an answer; 0, 502 and 503 are lost requests
          if (status === 0 || status >= 500) counts.lost++;
          else counts.ok++;
          await sleep(10);
        }
      };
      const clients = Array.from({ length: 4 }, (_, c) => client(c));

      const t0 = performance.now();
      const steps: number[] = [];
      for (let i = 0; i < 3; i++) {
        await sleep(300);
        const old = current[i];
        if (!old) throw new Error('no instance');
        const s0 = performance.now();
        const code = await old.stop('SIGTERM');
        steps.push(Math.round(performance.now() - s0));
        expect(code).toBe(0);
        expect(old.output()).toMatch(/readiness answers 503; serving for 1000 ms before draining/);
        const s1 = performance.now();
        const fresh = await start();
        steps.push(Math.round(performance.now() - s1));
        current[i] = fresh;
        backends[i] = { port: fresh.port, healthy: false };
        const ready = Date.now() + 30_000;
        while (!backends[i]?.healthy) {
          if (Date.now() > ready) throw new Error('new instance not ready');
          await sleep(50);
        }
      }
      const rollMs = Math.round(performance.now() - t0);
      await sleep(300);
      running = false;
      await Promise.all(clients);

      console.info('rolling restart figures:', JSON.stringify({ ...counts, proxy_failed: proxy.failed(), roll_ms: rollMs, stop_start_ms: steps }));
      expect(counts.sent).toBeGreaterThan(100);
      expect(counts.lost).toBe(0);
      expect(proxy.failed()).toBe(0);
    } finally {
      await proxy.close();
    }
  }, 240_000);
});
