import { loadManifest, ROUTES, closure, routeKeys } from './web-manifest';
import { readFileSync } from 'node:fs';
import { brotliCompressSync } from 'node:zlib';
const dist = process.argv[2]!; const route = process.argv[3]!;
const m = loadManifest(dist);
const entry = Object.keys(m).filter((k) => m[k]!.isEntry);
const keys = [...entry, ...(ROUTES[route] ?? []).flatMap((f) => routeKeys(m, f))];
const set = closure(m, keys);
for (const f of [...set].sort()) { const b = readFileSync(`${dist}/${f}`); console.log(f.replace(/-[A-Za-z0-9_-]{8}\.js$/, ''), (brotliCompressSync(b).length / 1024).toFixed(1)); }
