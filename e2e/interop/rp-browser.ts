/**
 * Serves the browser-only relying party (e2e/interop/browser, stock oidc-client-ts from node_modules) on
 * its own loopback origin. Every app path (/, /login, /callback, /refresh, /logout) gets index.html.
 */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const require = createRequire(import.meta.url);

export async function startBrowserRp(o: { issuer: string; host: string; port: number; clientId: string; scope: string }): Promise<{ url: string; close(): Promise<void> }> {
  const dir = join(import.meta.dirname, 'browser');
  const lib = join(dirname(require.resolve('oidc-client-ts')), '..', 'browser', 'oidc-client-ts.min.js');
  const files: Record<string, { type: string; body: string }> = {
    '/oidc-client-ts.min.js': { type: 'text/javascript', body: readFileSync(lib, 'utf8') },
    '/app.js': { type: 'text/javascript', body: readFileSync(join(dir, 'app.js'), 'utf8') },
    '/config.json': { type: 'application/json', body: JSON.stringify({ issuer: o.issuer, client_id: o.clientId, scope: o.scope }) },
  };
  const index = readFileSync(join(dir, 'index.html'), 'utf8');
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    const file = files[path] ?? (['/', '/login', '/callback', '/refresh', '/logout'].includes(path) ? { type: 'text/html; charset=utf-8', body: index } : undefined);
    if (!file) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': file.type, 'cache-control': 'no-store' });
    res.end(file.body);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(o.port, o.host, resolve);
  });
  return { url: `http://${o.host}:${o.port}`, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}
