import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { vi } from 'vitest';
import { accountStateOf } from '../../contract/common';

export interface Recorded {
  method: string;
  path: string;
  query: URLSearchParams;
  body: string;
}

export type Handler = (req: Recorded) => { status?: number; body: unknown } | undefined;

/**
 * A real local HTTP server standing in for the admin API. The SPA's `api`
 * (ofetch) calls relative `/api/...` URLs; the only stub is at the network
 * boundary: global fetch resolves them against this server's origin.
 */
export async function startAdminServer(handler: Handler) {
  const requests: Recorded[] = [];
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://x');
      const rec: Recorded = { method: req.method ?? 'GET', path: url.pathname, query: url.searchParams, body: Buffer.concat(chunks).toString('utf8') };
      requests.push(rec);
      const out = handler(rec) ?? { status: 404, body: { error: { code: 'not_found', message: 'Not found' } } };
      res.writeHead(out.status ?? 200, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify(out.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const realFetch = globalThis.fetch;
  vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
    const raw = input instanceof Request ? input.url : String(input);
    const target = new URL(raw, origin);
    const rewritten = new URL(target.pathname + target.search, origin);
    if (input instanceof Request) return realFetch(new Request(rewritten, input), init);
    // jsdom's FormData/File are not Node's: encode multipart bodies for Node's fetch.
    if (init?.body instanceof FormData) {
      const { body, contentType } = await encodeMultipart(init.body);
      const headers = new Headers(init.headers);
      headers.set('Content-Type', contentType);
      return realFetch(rewritten, { ...init, body, headers });
    }
    return realFetch(rewritten, init);
  });
  return {
    requests,
    origin,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export function account(i: number, patch: Record<string, unknown> = {}) {
  const a = {
    id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
    type: 'user',
    email: `user${i}@example.com`,
    first_name: `First${i}`,
    last_name: `Last${i}`,
    phone: null,
    locale: 'en',
    status: 'ACTIVE',
    auth_type: 'CREDENTIALS',
    provider: null,
    technical: false,
    role: null,
    avatar_url: null,
    email_verified: true,
    has_password: true,
    two_factor: { enabled: false, method: null },
    has_api_key: false,
    created_by: null,
    created_at: '2026-01-02T10:00:00.000Z',
    updated_at: '2026-01-02T10:00:00.000Z',
    ...patch,
  };
  return { ...a, state: 'state' in patch ? patch.state : accountStateOf(a as Parameters<typeof accountStateOf>[0]) };
}

async function encodeMultipart(form: FormData): Promise<{ body: string; contentType: string }> {
  const boundary = `----test${Math.random().toString(16).slice(2)}`;
  let body = '';
  for (const [name, value] of form.entries()) {
    if (typeof value === 'string') {
      body += `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
    } else {
      const text = await new Promise<string>((resolve, reject) => {
        const reader = new FileReader();
        reader.onload = () => resolve(String(reader.result));
        reader.onerror = () => reject(reader.error);
        reader.readAsText(value);
      });
      body += `--${boundary}\r\nContent-Disposition: form-data; name="${name}"; filename="${value.name}"\r\nContent-Type: ${value.type || 'application/octet-stream'}\r\n\r\n${text}\r\n`;
    }
  }
  body += `--${boundary}--\r\n`;
  return { body, contentType: `multipart/form-data; boundary=${boundary}` };
}
