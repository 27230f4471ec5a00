import { expect, it } from 'vitest';
import { allEndpoints } from '../../../contract/index';
import { describeEachDb } from '../../helpers/app';

/** Method and full URL of every route in fastify's printed route tree (`├── /seg (GET, HEAD)`, nested by 4 columns). */
function registeredRoutes(printed: string): Array<{ method: string; url: string }> {
  const stack: string[] = [];
  const out: Array<{ method: string; url: string }> = [];
  for (const line of printed.split('\n')) {
    const m = /^(.*?)(?:├── |└── )(.*)$/.exec(line);
    if (!m) continue;
    const depth = Math.floor([...m[1]!].length / 4);
    const [, segment = '', methods] = /^(.*?)(?: \(([A-Z, ]+)\))?$/.exec(m[2]!) ?? [];
    stack.length = depth;
    const url = (depth > 0 ? stack[depth - 1]! : '') + segment;
    stack[depth] = url;
    for (const method of methods?.split(',').map((x) => x.trim()) ?? []) if (method !== 'HEAD' && method !== 'OPTIONS') out.push({ method, url });
  }
  return out;
}

/** The server serves every endpoint of the contract, with the contract's method, path and error statuses. */
describeEachDb('routes from the contract', (get) => {
  it('registers every contract endpoint and documents its statuses', async () => {
    const { app } = get();
    const doc = (await app.inject({ method: 'GET', url: '/api/openapi.json' })).json() as {
      paths: Record<string, Record<string, { responses: Record<string, unknown> }>>;
    };
    const endpoints = allEndpoints();
    expect(endpoints.length).toBeGreaterThan(0);
    for (const { name, endpoint } of endpoints) {
      expect(app.hasRoute({ method: endpoint.method, url: endpoint.path }), `${name}: ${endpoint.method} ${endpoint.path}`).toBe(true);
      if (endpoint.hide) continue;
      const op = doc.paths[endpoint.path.replace(/:([A-Za-z_]+)/g, '{$1}')]?.[endpoint.method.toLowerCase()];
      expect(op, name).toBeDefined();
      for (const status of [String(endpoint.status ?? 200), ...Object.keys(endpoint.errors)]) expect(Object.keys(op!.responses), `${name} ${status}`).toContain(status);
    }
  });

  it('serves no /api route outside the contract', async () => {
    const { app } = get();
    const routes = registeredRoutes(app.printRoutes({ commonPrefix: false })).filter((r) => r.url.startsWith('/api'));
    expect(routes.length).toBeGreaterThan(50);
    const known = new Set(allEndpoints().map(({ endpoint }) => `${endpoint.method} ${endpoint.path}`));
    // not JSON endpoints of the API: the OpenAPI document and its UI, and the HTML/JS/CSS of the provider's own
    // pages (consent, denied, logout), which the browser reaches by the provider's redirects
    const notApi = (url: string) => url.startsWith('/api/docs') || url === '/api/openapi.json' || url.startsWith('/api/oidc-pages/');
    const outside = routes.filter((r) => !known.has(`${r.method} ${r.url}`) && !notApi(r.url));
    expect(outside).toEqual([]);
  });
});
