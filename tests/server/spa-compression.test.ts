import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { createTestApp, type TestApp } from '../helpers/app';
import { precompressDir } from '../../scripts/vite-precompress';

// A small dist/ as the build leaves it: index.html, hashed assets, an image, a source map, then precompressed.
const INDEX = `<!doctype html><html><head><script type="module" src="/assets/app-abc123.js"></script></head><body><div id="root"></div>${'<!-- padding -->'.repeat(100)}</body></html>`;
const JS = `export function greet(name){return 'hello '+name}\n`.repeat(200);
const CSS = `.button{color:red;padding:4px}\n`.repeat(200);
const MAP = JSON.stringify({ version: 3, mappings: 'AAAA;'.repeat(400) });
const PNG = Buffer.alloc(4096, 7);

describe('SPA serving with precompressed assets', () => {
  let dist: string;
  let t: TestApp;

  beforeAll(async () => {
    dist = mkdtempSync(path.join(os.tmpdir(), 'iam-dist-'));
    mkdirSync(path.join(dist, 'assets'), { recursive: true });
    writeFileSync(path.join(dist, 'index.html'), INDEX);
    writeFileSync(path.join(dist, 'assets', 'app-abc123.js'), JS);
    writeFileSync(path.join(dist, 'assets', 'app-abc123.js.map'), MAP);
    writeFileSync(path.join(dist, 'assets', 'style-def456.css'), CSS);
    writeFileSync(path.join(dist, 'assets', 'logo-0a1b2c.png'), PNG);
    writeFileSync(path.join(dist, 'assets', 'tiny-777777.js'), 'export{}');
    await precompressDir(dist);
    t = await createTestApp('sqlite', { IAM_DIST_DIR: dist });
  });

  afterAll(async () => {
    await t?.close();
    rmSync(dist, { recursive: true, force: true });
  });

  const get = (url: string, acceptEncoding?: string) =>
    t.app.inject({ method: 'GET', url, headers: acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding } });

  it('the build step writes .br and .gz next to text assets, not next to images, source maps or tiny files', () => {
    for (const file of ['index.html', 'assets/app-abc123.js', 'assets/style-def456.css']) {
      expect(existsSync(path.join(dist, `${file}.br`)), file).toBe(true);
      expect(existsSync(path.join(dist, `${file}.gz`)), file).toBe(true);
    }
    for (const file of ['assets/logo-0a1b2c.png', 'assets/app-abc123.js.map', 'assets/tiny-777777.js']) {
      expect(existsSync(path.join(dist, `${file}.br`)), file).toBe(false);
      expect(existsSync(path.join(dist, `${file}.gz`)), file).toBe(false);
    }
  });

  it('prefers brotli when accepted, keeping the content type and the immutable cache header', async () => {
    const res = await get('/assets/app-abc123.js', 'gzip, deflate, br');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers['content-type']).toBe('application/javascript; charset=utf-8');
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(res.headers.vary).toContain('Accept-Encoding');
    expect(Number(res.headers['content-length'])).toBeLessThan(JS.length / 5);
    expect(brotliDecompressSync(res.rawPayload).toString()).toBe(JS);
  });

  it('sends gzip when brotli is not accepted', async () => {
    const res = await get('/assets/style-def456.css', 'gzip');
    expect(res.headers['content-encoding']).toBe('gzip');
    expect(res.headers['content-type']).toBe('text/css; charset=utf-8');
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(res.headers.vary).toContain('Accept-Encoding');
    expect(gunzipSync(res.rawPayload).toString()).toBe(CSS);
  });

  it('honours q-values: br;q=0 means gzip', async () => {
    const res = await get('/assets/app-abc123.js', 'br;q=0, gzip;q=0.8');
    expect(res.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(res.rawPayload).toString()).toBe(JS);
  });

  it('sends the original when the client accepts neither (or says nothing)', async () => {
    for (const accept of [undefined, 'identity', 'deflate']) {
      const res = await get('/assets/app-abc123.js', accept);
      expect(res.statusCode, String(accept)).toBe(200);
      expect(res.headers['content-encoding'], String(accept)).toBeUndefined();
      expect(res.headers['content-type']).toBe('application/javascript; charset=utf-8');
      expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(res.body).toBe(JS);
    }
  });

  it('sends files without a compressed copy as they are', async () => {
    const png = await get('/assets/logo-0a1b2c.png', 'br, gzip');
    expect(png.statusCode).toBe(200);
    expect(png.headers['content-encoding']).toBeUndefined();
    expect(png.headers['content-type']).toBe('image/png');
    expect(png.rawPayload.equals(PNG)).toBe(true);
    const tiny = await get('/assets/tiny-777777.js', 'br, gzip');
    expect(tiny.headers['content-encoding']).toBeUndefined();
    expect(tiny.body).toBe('export{}');
    const missing = await get('/assets/missing.js', 'br, gzip');
    expect(missing.statusCode).toBe(404);
  });

  it('serves the index.html fallback of client routes compressed too, never cached', async () => {
    const br = await get('/admin/user-management?page=2', 'br, gzip');
    expect(br.statusCode).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(br.headers['cache-control']).toBe('no-cache');
    expect(br.headers.vary).toContain('Accept-Encoding');
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(INDEX);

    const gz = await get('/login', 'gzip');
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.rawPayload).toString()).toBe(INDEX);

    const plain = await get('/login');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(plain.headers['cache-control']).toBe('no-cache');
    expect(plain.body).toBe(INDEX);
  });

  it('answers a plain 404 while index.html is missing (a rebuild in progress)', async () => {
    for (const suffix of ['', '.br', '.gz']) rmSync(path.join(dist, `index.html${suffix}`));
    const res = await get('/admin/dashboard', 'br, gzip');
    expect(res.statusCode).toBe(404);
  });

  it('still answers unknown API paths with a JSON 404', async () => {
    const res = await get('/api/nope', 'br, gzip');
    expect(res.statusCode).toBe(404);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.json().error.code).toBe('route_not_found');
  });
});
