import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * docs/ARCHITECTURE.md "The layers": who touches the database. Services (server/services/), the OIDC provider's
 * adapter layer (server/oidc/, exactly the files of ADAPTER_LAYER) and the database module itself (server/db/);
 * besides them only the composition roots that open it and hand it on (COMPOSITION). Touching means importing
 * kysely or a server/db module other than the row types (server/db/schema.ts), or building a query. Everything
 * else under server/ (routes, plugins, lib…), and the SPA, the machines and the contract, does neither.
 */

const root = path.resolve(import.meta.dirname, '../../..');

/** The provider's adapter layer: the files of server/oidc/ that query the database (docs/ARCHITECTURE.md). */
const ADAPTER_LAYER = [
  'server/oidc/access.ts',
  'server/oidc/activity.ts',
  'server/oidc/adapter.ts',
  'server/oidc/auth-cache.ts',
  'server/oidc/backchannel-logout.ts',
  'server/oidc/claims.ts',
  'server/oidc/consent.ts',
  'server/oidc/dpop.ts',
  'server/oidc/error-log.ts',
  'server/oidc/grants.ts',
  'server/oidc/index.ts',
  'server/oidc/introspection.ts',
  'server/oidc/keys.ts',
  'server/oidc/provider.ts',
  'server/oidc/revocation.ts',
  'server/oidc/upstream-sessions.ts',
];

/**
 * Open the database and hand it on, or start its own upkeep: the app, the command-line tools, the app's type
 * declarations, the housekeeping plugin (planner statistics at start, server/db/statistics.ts).
 */
const COMPOSITION = ['server/app.ts', 'server/types.d.ts', 'server/cli/', 'server/plugins/app/maintenance.ts'];

const allowed = (file: string) =>
  file.startsWith('server/services/') || file.startsWith('server/db/') || ADAPTER_LAYER.includes(file) || COMPOSITION.some((c) => (c.endsWith('/') ? file.startsWith(c) : file === c));

function sources(dir: string): string[] {
  return readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((e) => {
    const rel = `${dir}/${e.name}`;
    if (e.isDirectory()) return sources(rel);
    return /\.(ts|tsx)$/.test(e.name) && !/\.test\.tsx?$/.test(e.name) ? [rel] : [];
  });
}

const QUERY = /\.(selectFrom|selectNoFrom|insertInto|updateTable|deleteFrom|replaceInto|mergeInto)\(|\bsql`|\.kysely\.(transaction|connection|schema)\b/;

/** How `file` touches the database, or an empty list. */
function touches(file: string): string[] {
  const text = readFileSync(path.join(root, file), 'utf8');
  const found: string[] = [];
  for (const m of text.matchAll(/\bfrom\s+'([^']+)'|\bimport\(\s*'([^']+)'\s*\)/g)) {
    const spec = m[1] ?? m[2] ?? '';
    if (spec === 'kysely') found.push("imports 'kysely'");
    else if (spec.startsWith('.')) {
      const target = path.relative(root, path.resolve(path.dirname(path.join(root, file)), spec)).split(path.sep).join('/');
      if (target.startsWith('server/db/') && target !== 'server/db/schema') found.push(`imports ${target}`);
    }
  }
  const q = text.match(QUERY);
  if (q) found.push(`builds a query (${q[0]})`);
  return found;
}

const files = ['server', 'src', 'machines', 'contract'].flatMap(sources);

describe('who touches the database (docs/ARCHITECTURE.md, "The layers")', () => {
  it('no file outside services, the provider adapter layer, server/db and the composition roots imports the database or builds a query', () => {
    const offenders = files.filter((f) => !allowed(f)).flatMap((f) => touches(f).map((how) => `${f}: ${how}`));
    expect(offenders).toEqual([]);
  });

  it('the adapter layer is exactly the files of server/oidc/ that touch the database (the list stays true)', () => {
    const oidcFiles = files.filter((f) => f.startsWith('server/oidc/'));
    expect(oidcFiles.filter((f) => touches(f).length > 0)).toEqual(ADAPTER_LAYER);
  });

  it('sees an import and a query where there is one (the check can fail)', () => {
    expect(touches('server/oidc/keys.ts')).toEqual(expect.arrayContaining(["imports 'kysely'", 'imports server/db/index']));
    expect(touches('server/services/admin/catalog.ts').some((how) => how.startsWith('builds a query'))).toBe(true);
    expect(touches('server/routes/admin/catalog.routes.ts')).toEqual([]);
  });
});
