import { describe, expect, it } from 'vitest';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describeEachDb, createTestApp } from '../helpers/app';
import { loadConfig, ConfigError } from '../../server/config';
import { negotiateLanguage } from '../../server/i18n/index';

describeEachDb('system routes', (get) => {
  it('GET /api/languages lists en, de, fr, it', async () => {
    const res = await get().app.inject({ method: 'GET', url: '/api/languages' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ data: { languages: ['en', 'de', 'fr', 'it'] } });
  });

  it('GET /api/config has the fixed points of docs/DESIGN.md §7', async () => {
    const res = await get().app.inject({ method: 'GET', url: '/api/config' });
    const data = res.json().data;
    expect(data.issuer).toBe('http://localhost:3000/oidc');
    expect(data.clients).toEqual({ portal: 'portal', admin: 'admin-console' });
    for (const k of ['authorization_endpoint', 'token_endpoint', 'end_session_endpoint', 'scope']) expect(typeof data[k]).toBe('string');
    expect(Array.isArray(data.sso_providers)).toBe(true);
  });

  it('allows a plugin 60 s to start: registering the routes on a busy host took longer than the 10 s default', () => {
    expect(get().app.initialConfig.pluginTimeout).toBe(60_000);
  });

  it('GET /api/health checks the database', async () => {
    const res = await get().app.inject({ method: 'GET', url: '/api/health' });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toEqual({ status: 'ok', database: get().kind, redis: 'not_configured', encryption_key: 'ok' });
  });

  it('unknown API routes answer a localized 404 in the error format', async () => {
    const de = await get().app.inject({ method: 'GET', url: '/api/nope', headers: { locale: 'de' } });
    expect(de.statusCode).toBe(404);
    expect(de.json().error.code).toBe('route_not_found');
    expect(de.json().error.message).toContain('nicht gefunden');
    const it = await get().app.inject({ method: 'GET', url: '/api/nope', headers: { 'accept-language': 'fr;q=0.5, it;q=0.9' } });
    expect(it.json().error.message).toContain('non trovato');
  });

  it('malformed JSON is a 400 with a stable code, never a 5xx', async () => {
    const res = await get().app.inject({ method: 'POST', url: '/api/languages', headers: { 'content-type': 'application/json' }, payload: '{bad' });
    expect(res.statusCode).toBeLessThan(500);
    expect(res.json().error.code).toBeTypeOf('string');
  });

  // OWASP REST Security Cheat Sheet, "Security Headers": what a JSON answer needs. Every header is pinned, so the
  // test fails when one is dropped; the policy is the strictest there is (a JSON answer loads nothing, is framed by
  // nothing). The document-only headers of the pages (COOP, Origin-Agent-Cluster, DNS prefetch...) are not sent here.
  const API_POLICY = {
    'content-security-policy': "default-src 'none';frame-ancestors 'none'",
    'x-content-type-options': 'nosniff',
    'x-frame-options': 'DENY',
    'referrer-policy': 'no-referrer',
    'cross-origin-resource-policy': 'same-origin',
    'cache-control': 'no-store',
  };

  it('JSON answers of the API carry the API policy (OWASP REST): success, error, refusal', async () => {
    const app = get().app;
    for (const url of ['/api/languages', '/api/nope', '/api/user', '/api/admin?x=1', '/api']) {
      const res = await app.inject({ method: 'GET', url });
      expect(String(res.headers['content-type']), url).toMatch(/^application\/json/);
      for (const [name, value] of Object.entries(API_POLICY)) expect(res.headers[name], `${url} ${name}`).toBe(value);
    }
  });

  it('pages keep the full policy: the API reference and the provider\'s pages', async () => {
    const app = get().app;
    for (const url of ['/api/docs/static/index.html', '/api/oidc-pages/denied/unknown', '/oidc/session/end', '/apis', '/']) {
      const res = await app.inject({ method: 'GET', url });
      const csp = String(res.headers['content-security-policy']);
      if (!url.startsWith('/api/docs')) {
        expect(csp, url).toContain("default-src 'self'");
        expect(csp, url).toContain("script-src 'self'");
        expect(csp, url).toContain("frame-ancestors 'none'");
        expect(csp, url).not.toContain('unsafe-inline');
      } else expect(csp, url).toContain("default-src 'self'"); // swagger-ui's own static CSP
      expect(res.headers['x-content-type-options'], url).toBe('nosniff');
      expect(res.headers['referrer-policy'], url).toBe('no-referrer');
      expect(res.headers['x-frame-options'], url).toBe('SAMEORIGIN');
      expect(res.headers['cross-origin-opener-policy'], url).toBe('same-origin');
      expect(res.headers['cross-origin-resource-policy'], url).toBe('same-origin');
      expect(res.headers['origin-agent-cluster'], url).toBe('?1');
      expect(res.headers['x-dns-prefetch-control'], url).toBe('off');
      expect(res.headers['x-download-options'], url).toBe('noopen');
      expect(res.headers['x-permitted-cross-domain-policies'], url).toBe('none');
      expect(res.headers['x-xss-protection'], url).toBe('0');
    }
  });

  it('publishes OpenAPI and a reference page', async () => {
    const spec = await get().app.inject({ method: 'GET', url: '/api/openapi.json' });
    expect(spec.statusCode).toBe(200);
    expect(spec.json().paths['/api/languages']).toBeDefined();
    const docs = await get().app.inject({ method: 'GET', url: '/api/docs/' });
    expect(docs.statusCode).toBe(200);
    expect(docs.body).toContain('swagger');
  });

  it('creates every entity table of docs/DESIGN.md §5', async () => {
    const { db } = get();
    for (const t of ['accounts', 'roles', 'subscriptions', 'subscription_roles', 'role_subscriptions', 'service_apps', 'service_app_roles', 'auth_activities', 'error_logs', 'audit_log', 'oidc_models', 'signing_keys'] as const) {
      const rows = await db.kysely.selectFrom(t).selectAll().limit(1).execute();
      expect(Array.isArray(rows)).toBe(true);
    }
  });
});

describe('configuration', () => {
  it('stops with one line naming the variable', () => {
    expect(() => loadConfig({ PORT: 'abc' })).toThrow(/PORT/);
    expect(() => loadConfig({ DATABASE_URL: 'mysql://x' })).toThrow(/DATABASE_URL/);
    expect(() => loadConfig({ SMS_PROVIDER: 'pigeon' })).toThrow(/SMS_PROVIDER/);
    expect(() => loadConfig({ SSO_PROVIDERS: '{' })).toThrow(/SSO_PROVIDERS/);
    expect(() => loadConfig({ LOG_LEVEL: 'loud' })).toThrow(/LOG_LEVEL/);
    expect(() => loadConfig({ IAM_ADMIN_EMAIL: 'a@b.co' })).toThrow(ConfigError);
  });

  it('has the defaults of docs/DESIGN.md §4', () => {
    const c = loadConfig({});
    expect(c.port).toBe(3000);
    expect(c.appUrl).toBe('http://localhost:3000');
    expect(c.issuer).toBe('http://localhost:3000/oidc');
    expect(c.dataDir.endsWith('data')).toBe(true);
    expect(c.smsProvider).toBe('log');
  });

  it('negotiates the language from the locale header, then Accept-Language, else en', () => {
    expect(negotiateLanguage('it', 'de')).toBe('it');
    expect(negotiateLanguage(undefined, 'es, de-CH;q=0.8')).toBe('de');
    expect(negotiateLanguage('xx', undefined)).toBe('en');
  });
});

describe('SPA serving', () => {
  it('serves index.html without caching, hashed assets for a year, and falls back for client routes', async () => {
    const t = await createTestApp('sqlite');
    await t.close();
    const dist = path.join(t.dataDir + '-dist');
    mkdirSync(path.join(dist, 'assets'), { recursive: true });
    writeFileSync(path.join(dist, 'index.html'), '<!doctype html><div id="root"></div>');
    writeFileSync(path.join(dist, 'assets', 'app-abc123.js'), 'console.log(1)');
    const t2 = await createTestApp('sqlite', { IAM_DIST_DIR: dist });
    try {
      const deep = await t2.app.inject({ method: 'GET', url: '/admin/user-management?page=2' });
      expect(deep.statusCode).toBe(200);
      expect(deep.body).toContain('id="root"');
      expect(deep.headers['cache-control']).toBe('no-cache');
      const asset = await t2.app.inject({ method: 'GET', url: '/assets/app-abc123.js' });
      expect(asset.headers['cache-control']).toContain('immutable');
      const missing = await t2.app.inject({ method: 'GET', url: '/assets/missing.js' });
      expect(missing.statusCode).toBe(404);
    } finally {
      await t2.close();
    }
  });
});

describeEachDb('input guard', (get) => {
  it('refuses NUL bytes in params, query and body with a 422, never a 5xx', async () => {
    const { app } = get();
    const q = await app.inject({ method: 'GET', url: '/api/languages?x=a%00b' });
    expect(q.statusCode).toBe(422);
    expect(q.json().error.fields).toEqual({ x: ['invalid'] });
    const p = await app.inject({ method: 'GET', url: '/api/setup/abc%00def' });
    expect(p.statusCode).toBe(422);
    const b = await app.inject({ method: 'POST', url: '/api/setup', payload: { token: 'a\u0000b', email: 'x@example.com' } });
    expect(b.statusCode).toBe(422);
    expect(b.json().error.fields.token).toEqual(['invalid']);
  });
});

describeEachDb('guards', (get) => {
  it('answer 401 to anonymous calls before looking at the body', async () => {
    const { app } = get();
    for (const url of ['/api/user/change-password', '/api/admin/change-password', '/api/2fa/google/enable', '/api/admin/user/verify-manually']) {
      const res = await app.inject({ method: 'POST', url, payload: { nonsense: true } });
      expect(res.statusCode, url).toBe(401);
    }
    const bad = await app.inject({ method: 'GET', url: '/api/user', headers: { authorization: 'Bearer not-a-token' } });
    expect(bad.statusCode).toBe(401);
    expect(bad.json().error.code).toBe('invalid_token');
  });
});
