import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyBaseLogger } from 'fastify';
import pg from 'pg';
import { Secret, TOTP } from 'otpauth';
import { loadConfig } from '../../../server/config';
import { createDb, migrateToLatest, nowIso, type Db } from '../../../server/db/index';
import { ENCRYPTION_CHECK_SETTING, checkEncryptionKey, encryptionKeyStatus, encryptText } from '../../../server/services/server-secrets';
import { verifyTotp } from '../../../server/services/two-factor';
import { systemClock } from '../../../server/services/deps';
import { startServerProcess, timedFetch } from '../../helpers/faults';

/**
 * Issue 30.5: a wrong IAM_ENCRYPTION_KEY is not silent. Real server processes on one database (SQLite, and PostgreSQL
 * in a database of its own, `ops_enc_*`, when TEST_DATABASE_URL is set): the key check at start (one error line,
 * readiness 503 encryption_key_mismatch), the error line on use (one a minute), and `npm run keys:rotate-encryption`
 * as a process (refused with a wrong current key, nothing changed; then every secret under the new key).
 */
const ROOT = path.resolve(import.meta.dirname, '..', '..', '..');
const K1 = 'first-key-0123456789abcdef';
const K2 = 'second-key-0123456789abcdef';
const KINDS = process.env.TEST_DATABASE_URL ? (['sqlite', 'postgres'] as const) : (['sqlite'] as const);

interface Target {
  env: Record<string, string>;
  open(): Db;
  drop(): Promise<void>;
}

async function targetFor(kind: 'sqlite' | 'postgres'): Promise<Target> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'ops-enc-'));
  if (kind === 'sqlite') {
    return { env: { IAM_DATA_DIR: dataDir }, open: () => createDb({ sqliteFile: path.join(dataDir, 'iam.sqlite') }), drop: async () => rmSync(dataDir, { recursive: true, force: true }) };
  }
  const base = process.env.TEST_DATABASE_URL ?? '';
  const name = `ops_enc_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(base);
  url.pathname = `/${name}`;
  return {
    env: { IAM_DATA_DIR: dataDir, DATABASE_URL: url.toString() },
    open: () => createDb({ databaseUrl: url.toString(), poolSize: 2 }),
    async drop() {
      const c = new pg.Client({ connectionString: base });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** A logger that keeps the error lines. */
function recordingLog(): { log: FastifyBaseLogger; errors: string[] } {
  const errors: string[] = [];
  const noop = () => {};
  const log = {
    level: 'info',
    error: (obj: unknown, msg?: string) => errors.push(`${typeof obj === 'string' ? obj : (msg ?? '')} ${JSON.stringify(obj)}`),
    warn: noop, info: noop, debug: noop, trace: noop, fatal: noop, silent: noop,
    child: () => log,
  } as unknown as FastifyBaseLogger;
  return { log, errors };
}

const hostFor = (db: Db, dataDir: string, key: string) => {
  const rec = recordingLog();
  return { deps: { db, config: loadConfig({ IAM_DATA_DIR: dataDir, LOG_LEVEL: 'silent', IAM_ENCRYPTION_KEY: key }), log: rec.log, clock: systemClock }, errors: rec.errors };
};

function runRotation(env: Record<string, string>, args: string[] = []): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    const p = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'server/cli/rotate-encryption-key.ts'), ...args], {
      cwd: ROOT,
      env: { PATH: process.env.PATH, HOME: process.env.HOME, LOG_LEVEL: 'silent', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    p.stdout.on('data', (d: Buffer) => (out += d.toString()));
    p.stderr.on('data', (d: Buffer) => (out += d.toString()));
    p.on('exit', (code) => resolve({ code, out }));
  });
}

const mismatchLines = (out: string) => out.split('\n').filter((l) => l.includes('IAM_ENCRYPTION_KEY does not decrypt'));

for (const kind of KINDS) {
  describe(`encryption key check and rotation [${kind}]`, { timeout: 180_000 }, () => {
    let target: Target;
    let db: Db;
    const secret = new Secret({ size: 20 }).base32;
    const accountId = randomUUID();
    const codeNow = () => new TOTP({ algorithm: 'SHA1', digits: 6, period: 30, secret: Secret.fromBase32(secret) }).generate();

    beforeAll(async () => {
      target = await targetFor(kind);
      db = target.open();
      await migrateToLatest(db);
      // an account with an authenticator, its secret encrypted under K1 (as the server stores it)
      const { deps } = hostFor(db, target.env.IAM_DATA_DIR ?? '', K1);
      const now = nowIso();
      await db.kysely
        .insertInto('accounts')
        .values({
          id: accountId, type: 'user', email: `ops-enc-${accountId}@example.com`, email_normalized: `ops-enc-${accountId}@example.com`, first_name: 'Enc', last_name: 'Key',
          phone: null, locale: 'en', status: 'ACTIVE', auth_type: 'CREDENTIALS', provider: null, provider_subject: null, technical: 0, admin_role: null, avatar: null,
          password_hash: 'x', password_changed_at: null, email_verified_at: now, created_by: null, two_factor_method: 'GOOGLE', two_factor_secret: await encryptText(deps, secret),
          two_factor_confirmed_at: now, two_factor_last_step: null, api_key_hash: null, api_key_prefix: null, api_key_created_at: null, search_text: 'enc key', created_at: now, updated_at: now,
        })
        .execute();
    });
    afterAll(async () => {
      await db?.close();
      await target?.drop();
    });

    it('a server with the right key is ready; with another key it logs one error and readiness answers 503', async () => {
      const good = await startServerProcess({ ...target.env, IAM_ENCRYPTION_KEY: K1 });
      try {
        await good.waitForOutput(/IAM is at/, 30_000);
        const ready = await timedFetch(`${good.base}/api/health/ready`);
        expect(ready.status).toBe(200);
        expect(JSON.parse(ready.body).data.encryption_key).toBe('ok');
        expect(mismatchLines(good.output())).toHaveLength(0);
      } finally {
        await good.stop();
      }
      // the first start wrote the key check value (there was a stored secret to compare with, and it decrypted)
      expect(await db.kysely.selectFrom('app_settings').select('key').where('key', '=', ENCRYPTION_CHECK_SETTING).executeTakeFirst()).toBeDefined();

      const wrong = await startServerProcess({ ...target.env, IAM_ENCRYPTION_KEY: K2 });
      try {
        await wrong.waitForOutput(/IAM is at/, 30_000);
        for (const url of ['/api/health/ready', '/api/health']) {
          const r = await timedFetch(`${wrong.base}${url}`);
          expect(r.status).toBe(503);
          expect(JSON.parse(r.body).error.code).toBe('encryption_key_mismatch');
          expect(r.headers.get('retry-after')).toBeTruthy();
        }
        expect((await timedFetch(`${wrong.base}/api/health/live`)).status).toBe(200);
        // one clear line at start, naming the variable, not repeated by the probes
        const lines = mismatchLines(wrong.output());
        expect(lines).toHaveLength(1);
        expect(lines[0]).toMatch(/"level":50/);
      } finally {
        await wrong.stop();
      }
    });

    it('on use: a TOTP check with the wrong key fails, logs one error line a minute and marks the key mismatched', async () => {
      const { deps, errors } = hostFor(db, target.env.IAM_DATA_DIR ?? '', K2);
      expect(await verifyTotp(deps, { id: accountId }, codeNow())).toBe(false);
      expect(await verifyTotp(deps, { id: accountId }, codeNow())).toBe(false);
      expect(await verifyTotp(deps, { id: accountId }, codeNow())).toBe(false);
      const onUse = errors.filter((l) => l.includes('a stored TOTP secret could not be decrypted'));
      expect(onUse).toHaveLength(1);
      expect(onUse[0]).toContain('IAM_ENCRYPTION_KEY is not the key');
      expect(encryptionKeyStatus(db).status).toBe('mismatch');
    });

    it('keys:rotate-encryption refuses a wrong current key (nothing changed), then moves every secret to the new key', async () => {
      const before = await db.kysely.selectFrom('accounts').select('two_factor_secret').where('id', '=', accountId).executeTakeFirstOrThrow();
      const usage = await runRotation({ ...target.env, IAM_ENCRYPTION_KEY: K1 });
      expect(usage.code).toBe(78);
      const refused = await runRotation({ ...target.env, IAM_ENCRYPTION_KEY: 'not-the-key-0123456789', IAM_ENCRYPTION_KEY_NEW: K2 });
      expect(refused.code).toBe(1);
      expect(refused.out).toMatch(/refused: IAM_ENCRYPTION_KEY is not the key in use.*Nothing was changed/);
      const same = await db.kysely.selectFrom('accounts').select('two_factor_secret').where('id', '=', accountId).executeTakeFirstOrThrow();
      expect(same.two_factor_secret).toBe(before.two_factor_secret);

      const done = await runRotation({ ...target.env, IAM_ENCRYPTION_KEY: K1, IAM_ENCRYPTION_KEY_NEW: K2 });
      expect(done.out).toMatch(/re-encrypted 1 TOTP secret under the new key/);
      expect(done.code).toBe(0);
      const after = await db.kysely.selectFrom('accounts').select('two_factor_secret').where('id', '=', accountId).executeTakeFirstOrThrow();
      expect(after.two_factor_secret).not.toBe(before.two_factor_secret);

      // the new key decrypts (a fresh handle: no cached database part), the old one no longer does
      const fresh = target.open();
      try {
        const withNew = hostFor(fresh, target.env.IAM_DATA_DIR ?? '', K2);
        expect(await checkEncryptionKey(withNew.deps)).toBe('ok');
        expect(await verifyTotp(withNew.deps, { id: accountId }, codeNow())).toBe(true);
        expect(withNew.errors).toHaveLength(0);
        const withOld = hostFor(fresh, target.env.IAM_DATA_DIR ?? '', K1);
        expect(await checkEncryptionKey(withOld.deps, { reload: true })).toBe('mismatch');
      } finally {
        await fresh.close();
      }

      const server = await startServerProcess({ ...target.env, IAM_ENCRYPTION_KEY: K2 });
      try {
        await server.waitForOutput(/IAM is at/, 30_000);
        expect((await timedFetch(`${server.base}/api/health/ready`)).status).toBe(200);
        expect(mismatchLines(server.output())).toHaveLength(0);
      } finally {
        await server.stop();
      }
    });
  });
}
