import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { loadConfig, type AppConfig } from '../../server/config';
import { buildApp } from '../../server/app';
import { createDb, migrateToLatest, type Db } from '../../server/db/index';
import type { Clock } from '../../server/services/deps';

export type DbKind = 'sqlite' | 'postgres';
export const DB_KINDS: DbKind[] = process.env.TEST_DATABASE_URL ? ['sqlite', 'postgres'] : ['sqlite'];

export interface TestApp {
  app: FastifyInstance;
  db: Db;
  config: AppConfig;
  kind: DbKind;
  dataDir: string;
  close(): Promise<void>;
}

/**
 * A real app on a fresh database: a SQLite file in a temp dir, or its own PostgreSQL schema
 * (dropped on close) when kind is 'postgres'. `env` overrides configuration variables; `opts.clock` is the services'
 * clock (tests/helpers/clock.ts), the system clock by default.
 */
export async function createTestApp(kind: DbKind = 'sqlite', env: Record<string, string> = {}, opts: { wrapDb?: (db: Db) => Db; clock?: Clock } = {}): Promise<TestApp> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'iam-test-'));
  const config = loadConfig({ IAM_DATA_DIR: dataDir, LOG_LEVEL: 'silent', APP_URL: 'http://localhost:3000', IAM_DIST_DIR: path.join(dataDir, 'no-dist'), ...env });
  let db: Db;
  let dropSchema: (() => Promise<void>) | undefined;
  if (kind === 'postgres') {
    const url = process.env.TEST_DATABASE_URL;
    if (!url) throw new Error('TEST_DATABASE_URL is not set');
    const schema = `iam_t_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
    const admin = createDb({ databaseUrl: url, poolSize: 1 });
    await admin.kysely.schema.createSchema(schema).execute();
    await admin.close();
    db = createDb({ databaseUrl: url, pgSchema: schema, poolSize: 5 });
    dropSchema = async () => {
      const a = createDb({ databaseUrl: url, poolSize: 1 });
      await a.kysely.schema.dropSchema(schema).ifExists().cascade().execute();
      await a.close();
    };
  } else {
    db = createDb({ sqliteFile: path.join(dataDir, 'iam.sqlite') });
  }
  await migrateToLatest(db);
  // the app (and the test) may see the database through a wrapper, e.g. one that counts statements
  if (opts.wrapDb) db = opts.wrapDb(db);
  const app = await buildApp({ config: { ...config, databaseUrl: kind === 'postgres' ? process.env.TEST_DATABASE_URL : undefined }, db, logger: false, migrate: false, ...(opts.clock ? { clock: opts.clock } : {}) });
  await app.ready();
  return {
    app,
    db,
    config,
    kind,
    dataDir,
    async close() {
      await app.close();
      await db.close();
      await dropSchema?.();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * Runs the suite once per database kind (SQLite always, PostgreSQL when TEST_DATABASE_URL is set).
 * `get()` returns the current kind's app inside tests.
 */
export function describeEachDb(title: string, fn: (get: () => TestApp) => void, env: Record<string, string> = {}): void {
  for (const kind of DB_KINDS) {
    describe(`${title} [${kind}]`, () => {
      let current: TestApp | undefined;
      beforeAll(async () => {
        current = await createTestApp(kind, env);
      });
      afterAll(async () => {
        await current?.close();
      });
      fn(() => {
        if (!current) throw new Error('test app not ready');
        return current;
      });
    });
  }
}
