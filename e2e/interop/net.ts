/** Loopback helpers of the interop suite: a free port on a given 127.0.0.x address, and waiting for a listener. */
import { connect, createServer } from 'node:net';

/** A port free right now on `host` (the relying party is registered for it, then binds it). */
export function freePort(host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, host, () => {
      const addr = srv.address();
      const port = typeof addr === 'object' && addr ? addr.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

/** Resolves once something accepts connections on host:port; rejects after `timeoutMs` or when `gaveUp()` says so. */
export async function waitForPort(host: string, port: number, timeoutMs: number, gaveUp: () => boolean = () => false): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const ok = await new Promise<boolean>((resolve) => {
      const socket = connect({ host, port });
      socket.once('connect', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (ok) return;
    if (gaveUp()) throw new Error(`process exited before listening on ${host}:${port}`);
    if (Date.now() > deadline) throw new Error(`nothing listens on ${host}:${port} after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
