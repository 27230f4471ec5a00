import { createServer } from 'node:net';

/** A free loopback port (so APP_URL can name it before the app starts). */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const addr = s.address();
      const port = typeof addr === 'object' && addr ? addr.port : 0;
      s.close(() => resolve(port));
    });
  });
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
