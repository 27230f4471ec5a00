/**
 * Bytes on the wire: `npm run build && npm run bench:web`.
 *
 * 1. From dist/.vite/manifest.json: per route, the JavaScript its first load needs (the entry chunk, its static
 *    imports — modulepreload — the route chunks the router loads for that URL and the locale catalogs), raw, gzip
 *    and brotli (compressed here the way scripts/vite-precompress.ts does), then every lazy chunk.
 * 2. In Chromium (/usr/bin/chromium, never downloaded) against the real server (the compiled server, as `npm start` runs it, on a fresh
 *    data directory, as e2e does): LCP of /login with 4× CPU throttling (median of BENCH_WEB_RUNS, default 5),
 *    and the JavaScript bytes that actually crossed the wire for /login and for the admin dashboard.
 *
 * Env: IAM_DIST_DIR (default ./dist), BENCH_WEB_RUNS (default 5), BENCH_WEB_PORT (default 3190),
 * BENCH_WEB_BROWSER=0 to skip part 2. Prints markdown tables.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { chromium, type Browser, type Page } from '@playwright/test';
import { ROUTES, catalogsFor, closure, loadManifest, routeKeys } from './web-manifest';
import { ensureServerBuilt } from '../scripts/build-server.mjs';


const dist = path.resolve(process.env.IAM_DIST_DIR || './dist');
const RUNS = Number(process.env.BENCH_WEB_RUNS || 5);
const PORT = Number(process.env.BENCH_WEB_PORT || 3190);
const BASE = `http://127.0.0.1:${PORT}`;
const ADMIN = { email: 'bench-admin@example.com', password: 'Bench-Passw0rd!x' };

const sizes = new Map<string, { raw: number; gzip: number; brotli: number }>();
function sizeOf(file: string) {
  let s = sizes.get(file);
  if (!s) {
    const raw = readFileSync(path.join(dist, file));
    s = {
      raw: raw.length,
      gzip: gzipSync(raw, { level: 9 }).length,
      brotli: brotliCompressSync(raw, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT } }).length,
    };
    sizes.set(file, s);
  }
  return s;
}
const kb = (n: number) => (n / 1024).toFixed(1);
const sum = (files: Iterable<string>) => {
  const t = { raw: 0, gzip: 0, brotli: 0 };
  for (const f of files) {
    const s = sizeOf(f);
    t.raw += s.raw;
    t.gzip += s.gzip;
    t.brotli += s.brotli;
  }
  return t;
};

function staticReport(): { lines: string[]; initial: Record<string, { raw: number; gzip: number; brotli: number }> } {
  const manifest = loadManifest(dist);
  const entryKey = Object.keys(manifest).find((key) => manifest[key]?.isEntry);
  if (!entryKey) throw new Error('no entry in the manifest');
  const entry = closure(manifest, [entryKey]);
  const enCatalogs = Object.keys(manifest).filter((key) => key.startsWith('locales/en/'));
  const lines: string[] = [];
  const initial: Record<string, { raw: number; gzip: number; brotli: number }> = {};
  const e = sum(entry);
  lines.push(`Entry (${entryKey} → ${manifest[entryKey]!.file}) + ${entry.size - 1} static imports: raw ${kb(e.raw)} KB, gzip ${kb(e.gzip)} KB, brotli ${kb(e.brotli)} KB`);
  lines.push('', '| Route (first load, en) | chunks | raw KB | gzip KB | brotli KB |', '|---|---:|---:|---:|---:|');
  for (const [route, files] of Object.entries(ROUTES)) {
    const keys = files.flatMap((file) => routeKeys(manifest, file));
    // catalogs the route loads: today every en catalog whose name the route needs (all of them unless split)
    const chunks = closure(manifest, [entryKey, ...keys, ...catalogsFor(manifest, route, enCatalogs)]);
    const t = sum(chunks);
    initial[route] = t;
    lines.push(`| ${route} | ${chunks.size} | ${kb(t.raw)} | ${kb(t.gzip)} | ${kb(t.brotli)} |`);
  }
  lines.push('', '| Lazy chunk (dynamic import) | file | raw KB | gzip KB | brotli KB | + own static imports not in the entry (brotli KB) |', '|---|---|---:|---:|---:|---:|');
  // targets of import(): route chunks, catalogs, and shared chunks loaded lazily (e.g. the root's Toaster)
  const lazy = new Set(Object.values(manifest).flatMap((c) => c.dynamicImports ?? []));
  for (const [key, chunk] of Object.entries(manifest).filter(([k, c]) => c.isDynamicEntry || lazy.has(k)).sort(([a], [b]) => a.localeCompare(b))) {
    const s = sizeOf(chunk.file);
    const extra = [...closure(manifest, [key])].filter((f) => f !== chunk.file && !entry.has(f));
    lines.push(`| ${key} | ${chunk.file} | ${kb(s.raw)} | ${kb(s.gzip)} | ${kb(s.brotli)} | ${kb(sum(extra).brotli)} |`);
  }
  return { lines, initial };
}

// ---------------------------------------------------------------- browser part

async function startServer(): Promise<{ proc: ChildProcess; dataDir: string }> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'iam-bench-web-'));
  // the compiled server, as `npm start` runs it
  const proc = spawn(process.execPath, [await ensureServerBuilt()], {
    stdio: ['ignore', 'ignore', 'inherit'],
    env: {
      ...process.env,
      NODE_ENV: 'production',
      PORT: String(PORT),
      HOST: '127.0.0.1',
      APP_URL: BASE,
      IAM_DATA_DIR: dataDir,
      IAM_DIST_DIR: dist,
      IAM_ADMIN_EMAIL: ADMIN.email,
      IAM_ADMIN_PASSWORD: ADMIN.password,
      LOG_LEVEL: 'warn',
    },
  });
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (proc.exitCode !== null) throw new Error(`server exited with ${proc.exitCode}`);
    try {
      if ((await fetch(`${BASE}/api/languages`)).ok) return { proc, dataDir };
    } catch {
      /* not up yet */
    }
    if (Date.now() > deadline) {
      proc.kill('SIGTERM');
      throw new Error('server did not start in 120 s');
    }
    await new Promise((r) => setTimeout(r, 500));
  }
}

/** Counts the JavaScript of a page load: bytes received (encoded, i.e. as compressed on the wire) and decoded. */
async function trackJs(page: Page, { cacheDisabled }: { cacheDisabled: boolean }) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.setCacheDisabled', { cacheDisabled });
  const js = new Map<string, { url: string; encoding: string }>();
  const totals = { wire: 0, files: 0, encodings: new Set<string>() };
  cdp.on('Network.responseReceived', (e) => {
    if (e.type === 'Script') js.set(e.requestId, { url: e.response.url, encoding: String(e.response.headers['content-encoding'] ?? e.response.headers['Content-Encoding'] ?? 'identity') });
  });
  cdp.on('Network.loadingFinished', (e) => {
    const r = js.get(e.requestId);
    if (!r) return;
    totals.wire += e.encodedDataLength;
    totals.files += 1;
    totals.encodings.add(r.encoding);
  });
  return { cdp, totals };
}

async function lcpOnce(browser: Browser): Promise<{ lcp: number; wire: number; files: number; encodings: string }> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  // a new context starts with an empty cache; /login goes through the provider and back (/login?interaction=…),
  // so the SPA loads twice: the second time from the cache, as in a browser
  const { cdp, totals } = await trackJs(page, { cacheDisabled: false });
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
  await page.addInitScript(() => {
    const w = window as unknown as { __lcp: number };
    w.__lcp = 0;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) w.__lcp = entry.startTime;
    }).observe({ type: 'largest-contentful-paint', buffered: true });
  });
  await page.goto(`${BASE}/login`, { waitUntil: 'networkidle' });
  await page.getByRole('button', { name: 'Sign in' }).waitFor();
  await page.waitForTimeout(500);
  // LCP is final on the first input; read it after the page is done
  const lcp = await page.evaluate(() => (window as unknown as { __lcp: number }).__lcp);
  await context.close();
  return { lcp, wire: totals.wire, files: totals.files, encodings: [...totals.encodings].join('+') };
}

async function adminShellJs(browser: Browser): Promise<{ wire: number; files: number }> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  await page.goto(`${BASE}/admin/login`);
  await page.waitForURL(/\/admin\/login\?interaction=/);
  await page.getByRole('textbox', { name: /e-mail/i }).fill(ADMIN.email);
  await page.getByLabel(/^password/i).fill(ADMIN.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL(/\/admin\/dashboard/);
  // a fresh load of the dashboard with a signed-in session and no HTTP cache
  const fresh = await context.newPage();
  const { totals } = await trackJs(fresh, { cacheDisabled: true });
  await fresh.goto(`${BASE}/admin/dashboard`);
  // the session is restored first, then the shell and the dashboard chunks load: wait for the page itself
  await fresh.getByRole('heading', { level: 1, name: 'Dashboard' }).waitFor({ timeout: 60_000 });
  await fresh.waitForLoadState('networkidle');
  await context.close();
  return { wire: totals.wire, files: totals.files };
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

async function browserReport(): Promise<string[]> {
  const { proc, dataDir } = await startServer();
  let browser: Browser | undefined;
  try {
    browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] });
    const runs = [];
    for (let i = 0; i < RUNS; i++) runs.push(await lcpOnce(browser));
    const admin = await adminShellJs(browser);
    const lcps = runs.map((r) => r.lcp);
    return [
      `| Chromium, 4× CPU throttling | value |`,
      `|---|---:|`,
      `| LCP /login, median of ${RUNS} (ms) | ${median(lcps).toFixed(0)} |`,
      `| LCP /login, range (ms) | ${Math.min(...lcps).toFixed(0)}–${Math.max(...lcps).toFixed(0)} |`,
      `| JS on the wire, /login (KB, ${runs[0]!.files} files, ${runs[0]!.encodings}) | ${kb(median(runs.map((r) => r.wire)))} |`,
      `| JS on the wire, /admin/dashboard fresh load (KB, ${admin.files} files) | ${kb(admin.wire)} |`,
    ];
  } finally {
    await browser?.close();
    proc.kill('SIGTERM');
    await new Promise((r) => proc.once('exit', r));
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function main() {
  console.log(`# Bytes on the wire (${dist})\n`);
  const { lines } = staticReport();
  console.log(lines.join('\n'));
  if (process.env.BENCH_WEB_BROWSER !== '0') {
    console.log('');
    console.log((await browserReport()).join('\n'));
  }
}

await main();
