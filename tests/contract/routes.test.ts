import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import * as account from '../../contract/account';
import { allEndpoints } from '../../contract/index';
import * as routes from '../../contract/routes';
import * as routesAdmin from '../../contract/routes-admin';
import { renderRouteTables } from '../../scripts/routes-gen';

const ROOT = path.resolve(import.meta.dirname, '../..');

/**
 * The schema-free tables (contract/routes.ts, contract/routes-admin.ts) the SPA calls through are generated from the
 * endpoint modules (scripts/routes-gen.ts): the committed files must be what the generator writes now (CI runs the
 * tests with --ignore-scripts, so an endpoint added without `npm run routes:gen` fails here), and what it writes must
 * list every endpoint with its method and path.
 */
describe('contract/routes.ts and contract/routes-admin.ts', () => {
  it.each(Object.entries(renderRouteTables()))('%s is up to date (npm run routes:gen)', (file, generated) => {
    expect(readFileSync(path.join(ROOT, file), 'utf8'), `${file} differs from what scripts/routes-gen.ts generates: run npm run routes:gen`).toBe(generated);
  });

  const table = { ...routes, ...routesAdmin } as unknown as Record<string, Record<string, unknown>>;

  it('split the areas: no area in both', () => {
    expect(Object.keys(routes).filter((area) => area in routesAdmin)).toEqual([]);
  });

  it('has every endpoint of the contract, with its method and path and nothing else', () => {
    for (const { name, endpoint } of allEndpoints()) {
      const [area, key] = name.split('.') as [string, string];
      expect(table[area]?.[key], `${name} is missing from contract/routes.ts`).toEqual({ method: endpoint.method, path: endpoint.path });
    }
  });

  it('has no entry the contract does not define', () => {
    const defined = new Set(allEndpoints().map(({ name }) => name));
    const listed = Object.entries(table)
      .filter(([area]) => area !== 'accountByKind')
      .flatMap(([area, entries]) => Object.keys(entries).map((key) => `${area}.${key}`));
    expect(listed.filter((name) => !defined.has(name))).toEqual([]);
    expect(listed.length).toBe(defined.size);
  });

  it('maps accountByKind as contract/account.ts byKind does', () => {
    for (const kind of ['user', 'admin'] as const) {
      const expected = Object.fromEntries(Object.entries(account.byKind[kind]).map(([key, e]) => [key, { method: e.method, path: e.path }]));
      expect(routes.accountByKind[kind]).toEqual(expected);
    }
  });
});
