import { expect, it } from 'vitest';
import { allEndpoints } from '../../../contract/index';
import { describeEachDb } from '../../helpers/app';

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
});
