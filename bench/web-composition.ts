/**
 * What the first-load JavaScript is made of: `npm run build && npx tsx bench/web-composition.ts`.
 *
 * For the entry chunk (+ its static imports) and for what each route of bench/web.ts adds to it, every byte of the
 * minified chunks is attributed, through the chunks' source maps (the build writes them), to the source module it
 * came from; modules are grouped by package (node_modules/<pkg>) or by top-level folder of the app. Each group's
 * bytes are concatenated and brotli-compressed on their own (quality 11, as the build does), so the groups add up to
 * a little more than the chunks compressed whole. Bytes without a mapping (chunk glue, imports/exports) are
 * "(unmapped)".
 *
 * Env: IAM_DIST_DIR (default ./dist), COMPOSITION_MODULES=1 to list the 40 largest modules of each set too,
 * COMPOSITION_ROUTES=/login,/admin/dashboard to report only the routes of bench/web-manifest.ts starting so.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants } from 'node:zlib';
import { TraceMap, decodedMappings } from '@jridgewell/trace-mapping';
import { ROUTES, closure, loadManifest, routeKeys, catalogsFor } from './web-manifest';

const dist = path.resolve(process.env.IAM_DIST_DIR || './dist');
const manifest = loadManifest(dist);
const entryKey = Object.keys(manifest).find((key) => manifest[key]?.isEntry);
if (!entryKey) throw new Error('no entry in the manifest');

const brotli = (s: string) =>
  brotliCompressSync(Buffer.from(s), { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT } }).length;
const kb = (n: number) => (n / 1024).toFixed(1);

function groupOf(source: string): string {
  const s = source.replace(/\\/g, '/');
  const nm = s.lastIndexOf('node_modules/');
  if (nm >= 0) {
    const rest = s.slice(nm + 'node_modules/'.length).split('/');
    return rest[0]!.startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0]!;
  }
  const rel = s.replace(/^(\.\.\/)+/, '').replace(/^.*?\/wt-[^/]+\//, '');
  const parts = rel.split('/');
  if (parts[0] === 'src') return parts.length > 2 ? `src/${parts[1]}` : 'src/*';
  return parts[0] ?? rel;
}

/** Per source module: the minified code that came from it, for the given chunk files. */
function attribute(files: Iterable<string>): Map<string, string[]> {
  const out = new Map<string, string[]>();
  const add = (key: string, code: string) => {
    if (!code) return;
    let list = out.get(key);
    if (!list) out.set(key, (list = []));
    list.push(code);
  };
  for (const file of files) {
    const code = readFileSync(path.join(dist, file), 'utf8');
    let map: TraceMap;
    try {
      map = new TraceMap(readFileSync(path.join(dist, `${file}.map`), 'utf8'));
    } catch {
      add(`(no map) ${file}`, code);
      continue;
    }
    const lines = code.split('\n');
    const decoded = decodedMappings(map);
    lines.forEach((line, i) => {
      const segs = decoded[i] ?? [];
      let col = 0;
      let current = '(unmapped)';
      for (const seg of segs) {
        if (seg[0] > col) add(current, line.slice(col, seg[0]));
        col = Math.max(col, seg[0]);
        current = seg.length >= 4 ? (map.resolvedSources[seg[1]!] ?? '(unmapped)') : '(unmapped)';
      }
      add(current, line.slice(col) + '\n');
    });
  }
  return out;
}

function report(title: string, files: Set<string>) {
  const modules = attribute(files);
  const groups = new Map<string, string[]>();
  for (const [source, codes] of modules) {
    const g = source.startsWith('(') ? source : groupOf(source);
    const list = groups.get(g) ?? [];
    list.push(...codes);
    groups.set(g, list);
  }
  const rows = [...groups].map(([g, codes]) => {
    const s = codes.join('');
    return { g, raw: Buffer.byteLength(s), br: brotli(s) };
  });
  rows.sort((a, b) => b.br - a.br);
  const totalRaw = rows.reduce((a, r) => a + r.raw, 0);
  const totalBr = rows.reduce((a, r) => a + r.br, 0);
  console.log(`\n## ${title} (${files.size} chunks)\n`);
  console.log('| Group | raw KB | brotli KB (alone) |\n|---|---:|---:|');
  for (const r of rows) console.log(`| ${r.g} | ${kb(r.raw)} | ${kb(r.br)} |`);
  console.log(`| **sum of groups** | ${kb(totalRaw)} | ${kb(totalBr)} |`);
  if (process.env.COMPOSITION_MODULES === '1') {
    const mods = [...modules].map(([m, codes]) => ({ m, raw: codes.reduce((a, c) => a + Buffer.byteLength(c), 0) }));
    mods.sort((a, b) => b.raw - a.raw);
    console.log('\n| Module (largest 40) | raw KB |\n|---|---:|');
    for (const r of mods.slice(0, 40)) console.log(`| ${r.m.replace(/^.*node_modules\//, '').replace(/^(\.\.\/)+/, '')} | ${kb(r.raw)} |`);
  }
}

const enCatalogs = Object.keys(manifest).filter((key) => key.startsWith('locales/en/'));
const entry = closure(manifest, [entryKey]);
report('Entry chunk + static imports', entry);
const only = process.env.COMPOSITION_ROUTES?.split(',');
for (const [route, routeFiles] of Object.entries(ROUTES)) {
  if (only && !only.some((o) => route.startsWith(o))) continue;
  const keys = routeFiles.flatMap((file) => routeKeys(manifest, file));
  const all = closure(manifest, [entryKey, ...keys, ...catalogsFor(manifest, route, enCatalogs)]);
  report(`${route}: whole first load`, all);
  report(`${route}: what it adds to the entry`, new Set([...all].filter((file) => !entry.has(file))));
}
