import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createTestApp, type TestApp } from '../../helpers/app';
import { startAuthorize } from '../../helpers/auth';

/**
 * Issue 28 finding 5d: `Permissions-Policy` with camera, microphone and geolocation off on every answer: the SPA and
 * its static files, the provider's pages and JSON, the API, and errors (also those the router gives before any hook).
 */
describe('Permissions-Policy on every answer', () => {
  let dist: string;
  let t: TestApp;
  beforeAll(async () => {
    dist = mkdtempSync(path.join(os.tmpdir(), 'iam-dist-'));
    mkdirSync(path.join(dist, 'assets'), { recursive: true });
    writeFileSync(path.join(dist, 'index.html'), '<!doctype html><html><body><div id="root"></div></body></html>');
    writeFileSync(path.join(dist, 'assets', 'app-abc123.js'), 'export{}');
    t = await createTestApp('sqlite', { IAM_DIST_DIR: dist });
  });
  afterAll(async () => {
    await t?.close();
    rmSync(dist, { recursive: true, force: true });
  });

  it('pages, static files, /oidc, /api, and errors all switch camera, microphone and geolocation off', async () => {
    const start = await startAuthorize(t);
    const requests: { method: 'GET' | 'POST'; url: string; headers?: Record<string, string>; payload?: string }[] = [
      { method: 'GET', url: '/' },
      { method: 'GET', url: '/login' },
      { method: 'GET', url: '/admin/dashboard' },
      { method: 'GET', url: '/assets/app-abc123.js' },
      { method: 'GET', url: '/assets/missing-000000.js' },
      { method: 'GET', url: '/oidc/.well-known/openid-configuration' },
      { method: 'GET', url: '/oidc/jwks' },
      { method: 'GET', url: '/oidc/auth?client_id=nope&response_type=code' },
      { method: 'GET', url: `/oidc/auth/${start.interaction ?? 'x'}` },
      { method: 'GET', url: '/oidc/session/end' },
      { method: 'GET', url: '/api/health/live' },
      { method: 'GET', url: '/api/user' },
      { method: 'GET', url: '/api/no-such-route' },
      { method: 'POST', url: '/api/login', headers: { 'content-type': 'application/json' }, payload: '{"email":' },
      { method: 'GET', url: '/api/admin/users/%zz' },
      { method: 'GET', url: `/api/admin/users/${'x'.repeat(200)}` },
      { method: 'GET', url: '/api/docs' },
    ];
    for (const r of requests) {
      const res = await t.app.inject({ method: r.method, url: r.url, headers: r.headers ?? {}, ...(r.payload ? { payload: r.payload } : {}) });
      const policy = String(res.headers['permissions-policy'] ?? '');
      for (const feature of ['camera=()', 'microphone=()', 'geolocation=()']) expect(policy, `${r.url} ${feature}`).toContain(feature);
    }
  });
});
