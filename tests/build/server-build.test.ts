// The compiled server (scripts/build-server.mjs): what `npm start`, the e2e suite and the benches run.
// tests/global-setup.ts compiles it once per run; these tests check that the tree it wrote matches the sources, that
// every import in it resolves under Node's own ESM loader (no TypeScript loader in the process), and that it serves.
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { buildServer, isStale } from '../../scripts/build-server.mjs';
import { startServerProcess, type ServerProcess } from '../helpers/faults';

const ROOT = path.resolve(import.meta.dirname, '../..');
const entry = inject('serverEntry');
const outdir = path.dirname(path.dirname(entry));

function files(dir: string, re: RegExp): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return files(p, re);
    return re.test(e.name) ? [p] : [];
  });
}

const sources = ['server', 'contract'].flatMap((d) => files(path.join(ROOT, d), /\.ts$/)).filter((f) => !/\.(d|test)\.ts$/.test(f));
const compiled = files(outdir, /\.js$/);

describe('compiled server tree', () => {
  it('has one .js file for every source file, and nothing else', () => {
    const expected = sources.map((f) => path.relative(ROOT, f).replace(/\.ts$/, '.js')).sort();
    expect(compiled.map((f) => path.relative(outdir, f)).sort()).toEqual(expected);
    expect(expected).toContain('server/main.js');
    // found by directory at run time: route files, migrations, message catalogs
    expect(expected.filter((f) => /^server\/routes\/.*\.routes\.js$/.test(f)).length).toBeGreaterThan(5);
    expect(expected.filter((f) => /^server\/db\/migrations\/\d{4}_.+\.js$/.test(f)).length).toBeGreaterThan(10);
    expect(expected.filter((f) => f.startsWith('server/i18n/messages/')).length).toBeGreaterThan(3);
  });

  it('imports every relative module by its compiled file, with the extension Node needs, and never a TypeScript loader', () => {
    const bad: string[] = [];
    let relative = 0;
    for (const file of compiled) {
      const text = readFileSync(file, 'utf8');
      for (const m of text.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)"([^"]+)"/g)) {
        const spec = m[1] ?? '';
        if (/^(tsx|ts-node|esbuild)(\/|$)/.test(spec) || spec.endsWith('.ts')) bad.push(`${path.relative(outdir, file)}: ${spec}`);
        if (!spec.startsWith('.')) continue;
        relative++;
        const target = path.resolve(path.dirname(file), spec);
        if (!spec.endsWith('.js') || !existsSync(target)) bad.push(`${path.relative(outdir, file)}: ${spec}`);
      }
    }
    expect(bad).toEqual([]);
    expect(relative).toBeGreaterThan(300);
  });

  it('is stale once a source is newer than it, or the set of source files changed', async () => {
    const dir = mkdtempSync(path.join(ROOT, 'node_modules', '.cache', 'iam-server-build-stale-'));
    try {
      await buildServer(dir);
      expect(isStale(dir)).toBe(false);
      const stamp = path.join(dir, '.built');
      const list = readFileSync(stamp, 'utf8');
      // a route file deleted from the sources: its compiled copy would still be loaded
      writeFileSync(stamp, list.replace(/^server\/routes\/.*\n/m, ''));
      expect(isStale(dir)).toBe(true);
      writeFileSync(stamp, list);
      expect(isStale(dir)).toBe(false);
      utimesSync(stamp, new Date(0), new Date(0));
      expect(isStale(dir)).toBe(true);
      rmSync(stamp);
      expect(isStale(dir)).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('compiled server process', () => {
  let server: ServerProcess | undefined;
  afterAll(async () => {
    await server?.stop();
  });

  it('starts on SQLite with plain node and serves the API, its routes, migrations and localized errors', async () => {
    server = await startServerProcess({ NODE_ENV: 'production' });
    await server.waitForOutput(/IAM is at/, 60_000);
    expect(server.proc.spawnargs.slice(1)).toEqual([entry]);

    const health = await fetch(`${server.base}/api/health`);
    expect(health.status).toBe(200);
    const languages = (await fetch(`${server.base}/api/languages`).then((r) => r.json())) as { data?: unknown };
    expect(JSON.stringify(languages)).toMatch(/"de"/);

    // a route file found by directory, a query on the migrated database, the error text from the message catalogs
    const login = (lang: string) =>
      fetch(`${server?.base}/api/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'accept-language': lang, origin: server?.base ?? '' },
        body: JSON.stringify({ email: 'nobody@example.com', password: 'not-the-password-1A!' }),
      });
    const [en, de] = await Promise.all([login('en'), login('de')]);
    expect(en.status).toBeGreaterThanOrEqual(400);
    expect(en.status).toBeLessThan(500);
    expect(de.status).toBe(en.status);
    const enBody = (await en.json()) as { error: { code: string; message: string } };
    const deBody = (await de.json()) as { error: { code: string; message: string } };
    expect(deBody.error.code).toBe(enBody.error.code);
    expect(deBody.error.message).not.toBe(enBody.error.message);
    expect(deBody.error.message.length).toBeGreaterThan(5);

    // the OIDC provider (its own module tree, loaded by server/oidc)
    const discovery = (await fetch(`${server.base}/oidc/.well-known/openid-configuration`).then((r) => r.json())) as { issuer?: string };
    expect(discovery.issuer).toBeTruthy();
  });
});
