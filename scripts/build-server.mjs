// `npm run build:server`: compiles the server (server/, and what it imports from contract/) to plain JavaScript in
// build/, one output file per source file, so `node build/server/main.js` runs without a TypeScript loader.
//
// Why not bundle: the server finds its route files, migrations and message catalogs by directory
// (server/plugins/app/routes.ts, server/db/index.ts, server/i18n/index.ts, all relative to `import.meta.url`), and
// every module must stay one instance. One file per source keeps the tree as it is: only `.ts` becomes `.js`, and
// every relative import gets the extension Node's ESM loader needs (`./db/index` → `./db/index.js`). Packages stay
// imports of node_modules.
//
// Usage: node scripts/build-server.mjs [--if-stale]   (--if-stale: skip when build/ is newer than every source)
import { build } from 'esbuild';
import { existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/** Where `npm run build` and `npm start` put the compiled server: build/server/main.js is its entry. */
export const defaultOutdir = path.join(root, 'build');
const sourceDirs = ['server', 'contract'].map((d) => path.join(root, d));

function sources(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return sources(p);
    return /\.ts$/.test(e.name) && !/\.(d|test)\.ts$/.test(e.name) ? [p] : [];
  });
}

const entryPoints = sourceDirs.flatMap(sources).sort();

const stampText = () => `${entryPoints.map((f) => path.relative(root, f)).join('\n')}\n`;

/** True when `outdir` holds no complete build of today's source files, or one of them, this script or the lockfile changed after it. */
export function isStale(outdir = defaultOutdir) {
  const stamp = path.join(outdir, '.built');
  if (!existsSync(stamp)) return true;
  // a source added, renamed or deleted (a deleted route file's output would still be loaded by the route plugin)
  if (readFileSync(stamp, 'utf8') !== stampText()) return true;
  const built = statSync(stamp).mtimeMs;
  const inputs = [...entryPoints, path.join(root, 'package-lock.json'), fileURLToPath(import.meta.url)];
  return inputs.some((f) => statSync(f).mtimeMs > built);
}

/** esbuild plugin: every relative import stays an import (of the compiled sibling), with its `.js` extension. */
const relativeImportsWithExtension = {
  name: 'relative-imports-with-extension',
  setup(b) {
    b.onResolve({ filter: /^\.\.?(\/|$)/ }, async (args) => {
      if (args.kind === 'entry-point' || args.pluginData === 'inner') return undefined;
      const resolved = await b.resolve(args.path, { kind: args.kind, resolveDir: args.resolveDir, pluginData: 'inner' });
      if (resolved.errors.length > 0) return { errors: resolved.errors };
      const target = resolved.path;
      if (!entryPoints.includes(target)) {
        return { errors: [{ text: `${path.relative(root, target)} is imported by ${path.relative(root, args.importer)} but is not compiled (outside ${sourceDirs.map((d) => path.relative(root, d)).join(', ')})` }] };
      }
      let rel = path.relative(path.dirname(args.importer), target).replace(/\.ts$/, '.js').split(path.sep).join('/');
      if (!rel.startsWith('.')) rel = `./${rel}`;
      return { path: rel, external: true };
    });
  },
};

/** The compiled server's entry in `outdir`. */
export function serverEntry(outdir = defaultOutdir) {
  return path.join(outdir, 'server', 'main.js');
}

/** The entry of an up-to-date build in `outdir`: compiled first when it is stale (`npm start`, the benches). */
export async function ensureServerBuilt(outdir = defaultOutdir) {
  if (isStale(outdir)) await buildServer(outdir);
  return serverEntry(outdir);
}

/**
 * Compiles into `outdir` (replaced as a whole; the `.built` stamp is written last, so an interrupted build is stale).
 * @param {string} [outdir]
 * @returns {Promise<string>} the compiled entry, `<outdir>/server/main.js`
 */
export async function buildServer(outdir = defaultOutdir) {
  rmSync(outdir, { recursive: true, force: true });
  await build({
    entryPoints,
    outdir,
    outbase: root,
    bundle: true,
    packages: 'external',
    platform: 'node',
    format: 'esm',
    target: 'node20.19',
    sourcemap: 'linked',
    logLevel: 'warning',
    plugins: [relativeImportsWithExtension],
  });
  writeFileSync(path.join(outdir, 'package.json'), '{ "type": "module" }\n');
  writeFileSync(path.join(outdir, '.built'), stampText());
  return serverEntry(outdir);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const ifStale = process.argv.includes('--if-stale');
  if (ifStale && !isStale()) process.exit(0);
  const t0 = performance.now();
  await buildServer();
  console.error(`server compiled to ${path.relative(process.cwd(), defaultOutdir)}/ (${entryPoints.length} files, ${Math.round(performance.now() - t0)} ms)`);
}
