import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';

/** The first port of the kernel's ephemeral range (outgoing connections take their local port from it). */
export function ephemeralPortsStart(): number {
  try {
    return Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]) || 32768;
  } catch {
    return 32768;
  }
}

/** Listens on 127.0.0.1:`port` and closes again: the port it was given, or null when that port is taken. */
function tryPort(port: number): Promise<number | null> {
  return new Promise((resolve) => {
    const s = createServer();
    s.once('error', () => resolve(null));
    s.listen(port, '127.0.0.1', () => {
      const addr = s.address();
      const got = typeof addr === 'object' && addr ? addr.port : null;
      s.close(() => resolve(got));
    });
  });
}

/**
 * A free loopback port (so APP_URL can name it before the app starts), chosen at random BELOW the ephemeral range:
 * the app listens on it seconds later, and a port from that range (what `listen(0)` hands out) can meanwhile become
 * the local port of any outgoing connection (database pools, fetch) of a test file running in parallel (EADDRINUSE).
 */
export async function freePort(use: 'server' | 'dependency' = 'server'): Promise<number> {
  // on a shared machine each engineer keeps to a range of their own: TEST_PORTS (servers), TEST_DEP_PORTS
  // (throwaway PostgreSQL clusters and redis-servers), each `first-last`
  const range = /^(\d+)-(\d+)$/.exec((use === 'dependency' ? process.env.TEST_DEP_PORTS : process.env.TEST_PORTS) ?? '');
  if (range) {
    const [lo, hi] = [Number(range[1]), Number(range[2])];
    for (let i = 0; i < 200; i++) {
      const port = await tryPort(lo + Math.floor(Math.random() * (hi - lo + 1)));
      if (port) return port;
    }
    throw new Error(`no free port in ${lo}-${hi}`);
  }
  const top = ephemeralPortsStart();
  const bottom = Math.max(1024, top - 12_000);
  for (let i = 0; i < 50 && top - bottom > 1000; i++) {
    const port = await tryPort(bottom + Math.floor(Math.random() * (top - bottom)));
    if (port) return port;
  }
  const any = await tryPort(0);
  if (!any) throw new Error('no free loopback port');
  return any;
}

/** fetch with a per-run cookie jar and manual redirects: a tiny browser. */
export class Browser {
  private jar = new Map<string, Map<string, string>>();
  async go(url: string, init: RequestInit = {}): Promise<Response> {
    const u = new URL(url);
    const cookies = this.jar.get(u.host);
    const headers = new Headers(init.headers);
    if (cookies?.size) headers.set('cookie', [...cookies].map(([k, v]) => `${k}=${v}`).join('; '));
    const res = await fetch(u, { ...init, headers, redirect: 'manual' });
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(';');
      const i = (pair ?? '').indexOf('=');
      const name = (pair ?? '').slice(0, i);
      const value = (pair ?? '').slice(i + 1);
      let m = this.jar.get(u.host);
      if (!m) this.jar.set(u.host, (m = new Map()));
      if (!value || /expires=Thu, 01 Jan 1970/i.test(c)) m.delete(name);
      else m.set(name, value);
    }
    return res;
  }
}
