import { describe, expect, it } from 'vitest';
import { allEndpoints, pathOf } from '../../contract/index';

describe('contract endpoints', () => {
  it('builds paths with encoded parameters and refuses a missing one', () => {
    expect(pathOf({ path: '/api/admin/roles/:id' }, { id: 'a b/c' })).toBe('/api/admin/roles/a%20b%2Fc');
    expect(() => pathOf({ path: '/api/admin/roles/:id' }, {})).toThrow(/missing path parameter id/);
  });

  it('has one endpoint per method and path, each under /api', () => {
    const seen = new Map<string, string>();
    for (const { name, endpoint } of allEndpoints()) {
      expect(endpoint.path.startsWith('/api/'), name).toBe(true);
      const key = `${endpoint.method} ${endpoint.path}`;
      expect(seen.get(key), `${name} repeats ${key}`).toBeUndefined();
      seen.set(key, name);
    }
  });

  it('declares path parameters it uses', () => {
    for (const { name, endpoint } of allEndpoints()) {
      const inPath = [...endpoint.path.matchAll(/:([A-Za-z_]+)/g)].map((m) => m[1]);
      if (inPath.length === 0) continue;
      expect(endpoint.params, name).toBeDefined();
      const shape = (endpoint.params as unknown as { shape: Record<string, unknown> }).shape;
      for (const p of inPath) expect(Object.keys(shape), name).toContain(p);
    }
  });
});
