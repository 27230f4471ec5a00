import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { Redis } from 'ioredis';
import { createTestApp, type TestApp } from '../../helpers/app';
import { createRedisServer, type OwnRedis } from '../../helpers/faults';
import { ConfigError, loadConfig } from '../../../server/config';

const SERVER_DIR = fileURLToPath(new URL('../../../server', import.meta.url));

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(full);
    return /\.(ts|tsx|js|mjs|cjs)$/.test(e.name) ? [full] : [];
  });
}

describe('configuration: one place reads the environment', () => {
  it('no file under server/ but server/config.ts reads process.env', () => {
    const offenders: string[] = [];
    for (const file of sourceFiles(SERVER_DIR)) {
      if (path.relative(SERVER_DIR, file) === 'config.ts') continue;
      const lines = readFileSync(file, 'utf8').split('\n');
      lines.forEach((line, i) => {
        // process.env, process['env'], const { env } = process
        if (/\bprocess\s*(\.\s*env\b|\[\s*['"`]env['"`]\s*\])|\{[^}]*\benv\b[^}]*\}\s*=\s*process\b/.test(line)) {
          offenders.push(`${path.relative(SERVER_DIR, file)}:${i + 1}: ${line.trim()}`);
        }
      });
    }
    expect(offenders).toEqual([]);
  });

  it('the limits read elsewhere before have their old defaults', () => {
    const c = loadConfig({});
    expect(c.rateLimitPerMinute).toBe(600);
    expect(c.trustProxy).toBe(false);
    expect(c.mailFrom).toBe('IAM <no-reply@localhost>');
    expect(c.totpIssuer).toBe('IAM');
    expect(c.encryptionPepper).toBe('');
    expect(c.invitationTtlHours).toBe(72);
    expect(c.forgotPasswordReveal).toBe(false);
    expect(c.importJobs).toEqual({ syncMaxRows: 2000, invitationsPerSecond: 20 });
    expect(c.lockout).toEqual({
      accountMaxFailures: 5,
      accountWindowMinutes: 15,
      accountLockMinutes: 15,
      ipMaxFailures: 50,
      ipWindowMinutes: 15,
      ipLockMinutes: 15,
    });
    // one hash per core: argon2id fills a core, a second one per core only adds memory and waiting (BENCHMARKS.md)
    expect(c.hashGate.concurrency).toBe(Math.max(1, os.availableParallelism()));
    // a short queue since the admission gates (server/lib/admission.ts): about four hashes of waiting, not sixteen
    expect(c.hashGate.queue).toBe(c.hashGate.concurrency * 4);
  });

  it('TRUST_PROXY is a hop count or a list of proxy addresses/CIDRs; `true` and other junk stop the start with one line naming both forms', () => {
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '' }).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '2' }).trustProxy).toBe(2);
    expect(loadConfig({ TRUST_PROXY: '127.0.0.1' }).trustProxy).toEqual(['127.0.0.1']);
    expect(loadConfig({ TRUST_PROXY: '127.0.0.1, 10.0.0.0/8,::1,fd00::/8,loopback' }).trustProxy).toEqual(['127.0.0.1', '10.0.0.0/8', '::1', 'fd00::/8', 'loopback']);
    for (const junk of ['true', 'TRUE', 'yes', 'false', '0', '11', '-1', '1.5', '10.0.0.0/33', '::1/129', '10.0.0.0/', '127.0.0.1,', 'proxy.internal', '10.0.0.0/8;rm']) {
      let message = '';
      try {
        loadConfig({ TRUST_PROXY: junk });
      } catch (e) {
        expect(e, junk).toBeInstanceOf(ConfigError);
        message = (e as Error).message;
      }
      expect(message, junk).toContain('TRUST_PROXY');
      expect(message, junk).toContain('hop count');
      expect(message, junk).toContain('10.0.0.0/8');
      expect(message, junk).not.toContain('\n');
    }
  });

  it('reads each of them from the environment, and refuses bad values naming the variable', () => {
    const c = loadConfig({
      IAM_RATE_LIMIT_PER_MINUTE: '7',
      TRUST_PROXY: '1',
      MAIL_FROM: 'Acme <id@acme.test>',
      IAM_TOTP_ISSUER: 'Acme',
      IAM_ENCRYPTION_KEY: 'pepper',
      IAM_INVITATION_TTL_HOURS: '24',
      IAM_FORGOT_PASSWORD_REVEAL: 'true',
      IAM_IMPORT_SYNC_MAX_ROWS: '10',
      IAM_INVITATIONS_PER_SECOND: '3',
      IAM_IP_MAX_FAILURES: '9',
      IAM_LOCKOUT_MINUTES: '2',
      IAM_HASH_CONCURRENCY: '4',
      IAM_HASH_QUEUE: '0',
    });
    expect(c.rateLimitPerMinute).toBe(7);
    expect(c.trustProxy).toBe(1);
    expect(c.mailFrom).toBe('Acme <id@acme.test>');
    expect(c.totpIssuer).toBe('Acme');
    expect(c.encryptionPepper).toBe('pepper');
    expect(c.invitationTtlHours).toBe(24);
    expect(c.forgotPasswordReveal).toBe(true);
    expect(c.importJobs).toEqual({ syncMaxRows: 10, invitationsPerSecond: 3 });
    expect(c.lockout.ipMaxFailures).toBe(9);
    expect(c.lockout.accountLockMinutes).toBe(2);
    expect(c.hashGate).toEqual({ concurrency: 4, queue: 0 });
    for (const [name, value] of [
      ['IAM_RATE_LIMIT_PER_MINUTE', 'many'],
      ['IAM_RATE_LIMIT_PER_MINUTE', '0'],
      ['IAM_INVITATION_TTL_HOURS', '0'],
      ['IAM_INVITATION_TTL_HOURS', '5000'],
      ['IAM_LOCKOUT_MAX_FAILURES', '0'],
      ['IAM_HASH_CONCURRENCY', '0'],
      ['IAM_IMPORT_SYNC_MAX_ROWS', '-1'],
    ] as const) {
      expect(() => loadConfig({ [name]: value }), `${name}=${value}`).toThrow(ConfigError);
      expect(() => loadConfig({ [name]: value })).toThrow(name);
    }
  });
});

describe('the global rate limit follows the app configuration', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp('sqlite', { IAM_RATE_LIMIT_PER_MINUTE: '3' });
  });
  afterAll(async () => t?.close());

  it('IAM_RATE_LIMIT_PER_MINUTE given to the app (not the process) limits /api', async () => {
    const codes: number[] = [];
    for (let i = 0; i < 4; i++) codes.push((await t.app.inject({ method: 'GET', url: '/api/languages', remoteAddress: '10.77.0.1' })).statusCode);
    expect(codes).toEqual([200, 200, 200, 429]);
  });

  it('the refusal goes through the app tier like any answer: localized, request id, no-store, security headers', async () => {
    const ip = '10.77.0.3';
    for (let i = 0; i < 3; i++) await t.app.inject({ method: 'GET', url: '/api/languages', remoteAddress: ip });
    const res = await t.app.inject({ method: 'GET', url: '/api/languages', remoteAddress: ip, headers: { locale: 'de' } });
    expect(res.statusCode).toBe(429);
    expect(res.json().error.code).toBe('too_many_requests');
    expect(res.json().error.message).toMatch(/Anfragen/);
    expect(res.headers['x-request-id']).toBeTruthy();
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers['content-security-policy']).toBe("default-src 'none';frame-ancestors 'none'");
    expect(res.headers['x-frame-options']).toBe('DENY');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
  });
});

describe('the global rate limit keys in Redis carry IAM_REDIS_PREFIX', () => {
  let redis: OwnRedis;
  let t: TestApp;
  let client: Redis;
  beforeAll(async () => {
    redis = await createRedisServer();
    await redis.start();
    client = new Redis(redis.url);
    t = await createTestApp('sqlite', { REDIS_URL: redis.url, IAM_REDIS_PREFIX: 'cfg-test:' });
  }, 30_000);
  afterAll(async () => {
    await t?.close();
    client?.disconnect();
    await redis?.stop();
  });

  it('writes its counters under <prefix>rl:', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/languages', remoteAddress: '10.77.0.2' })).statusCode).toBe(200);
    const keys = await client.keys('*');
    expect(keys.length).toBeGreaterThan(0);
    expect(keys.filter((k) => !k.startsWith('cfg-test:'))).toEqual([]);
    expect(keys.some((k) => k.startsWith('cfg-test:rl:'))).toBe(true);
  });
});
