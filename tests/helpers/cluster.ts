import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { Redis } from 'ioredis';
import { loadConfig, type AppConfig } from '../../server/config';
import { buildApp } from '../../server/app';
import { createDb, migrateToLatest, type Db } from '../../server/db/index';
import type { DbKind, TestApp } from './app';
import { freePort } from './http';

/** One app instance of a cluster: a TestApp (usable with tests/helpers/auth.ts) that also listens on loopback. */
export interface ClusterNode extends TestApp {
  index: number;
  /** http://127.0.0.1:<port> of this instance's listening server */
  url: string;
}

export interface Cluster {
  kind: DbKind;
  /** the shared configuration (each instance has its own copy, as separate processes would) */
  config: AppConfig;
  nodes: ClusterNode[];
  /** A TestApp whose `app.inject` sends each request to the next instance, round-robin (like a load balancer). */
  spread: TestApp;
  /** Real HTTP to the next instance, round-robin; `path` starts with '/'. */
  fetch(path: string, init?: RequestInit): Promise<Response>;
  /** REDIS_URL of every instance (private or shared), when started with one */
  redisUrl: string | undefined;
  /** IAM_REDIS_PREFIX of every instance when on the shared Redis */
  redisPrefix: string | undefined;
  /** PostgreSQL schema shared by the instances */
  schema: string | undefined;
  close(): Promise<void>;
}

export interface ClusterOptions {
  /** number of instances (default 3) */
  size?: number;
  /** 'postgres' (default; needs TEST_DATABASE_URL) or 'sqlite' (instances share one SQLite file) */
  kind?: DbKind;
  /** configuration variables for every instance */
  env?: Record<string, string>;
  /**
   * Redis for every instance (REDIS_URL): 'own' (default) starts a private redis-server on a free loopback port;
   * 'shared' uses the shared one (REDIS_URL or redis://127.0.0.1:6379) with a key prefix of its own
   * (IAM_REDIS_PREFIX, keys deleted on close; the global rate limiter's counters are under it too, `<prefix>rl:<ip>`),
   * so parallel test files never share a counter; false runs without Redis.
   */
  redis?: 'own' | 'shared' | false;
  /** connections per instance pool (default 4) */
  poolSize?: number;
  /** each instance gets a data directory of its own (IAM_DATA_DIR), as separate hosts would (default: one shared) */
  ownDataDirs?: boolean;
}

async function waitForPort(port: number, timeoutMs: number): Promise<void> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const ok = await new Promise<boolean>((resolve) => {
      const s = connect(port, '127.0.0.1');
      s.once('connect', () => {
        s.destroy();
        resolve(true);
      });
      s.once('error', () => resolve(false));
    });
    if (ok) return;
    if (Date.now() > until) throw new Error(`nothing listens on 127.0.0.1:${port}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

async function startRedis(): Promise<{ url: string; proc: ChildProcess }> {
  const port = await freePort();
  const proc = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
  await waitForPort(port, 10_000);
  return { url: `redis://127.0.0.1:${port}`, proc };
}

/**
 * Starts `size` real app instances (buildApp, listening on port 0) CONCURRENTLY on one database — one PostgreSQL
 * schema (each instance with its own pool) or one SQLite file (each with its own connection) — and, by default, one
 * private Redis (or the shared one under a key prefix of its own). Migrations run once before the instances start. All instances share APP_URL (they stand behind one
 * load balancer), so tokens and cookies from one are presented to another.
 */
export async function startCluster(opts: ClusterOptions = {}): Promise<Cluster> {
  const size = opts.size ?? 3;
  const kind = opts.kind ?? 'postgres';
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'iam-cluster-'));
  const redisMode = opts.redis ?? 'own';
  const redis = redisMode === 'own' ? await startRedis() : redisMode === 'shared' ? { url: process.env.REDIS_URL || 'redis://127.0.0.1:6379', proc: undefined } : undefined;
  const redisPrefix = redisMode === 'shared' ? `iam-c-${randomBytes(4).toString('hex')}:` : undefined;
  const pgUrl = process.env.TEST_DATABASE_URL;
  if (kind === 'postgres' && !pgUrl) throw new Error('TEST_DATABASE_URL is not set');
  const schema = kind === 'postgres' ? `iam_c_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}` : undefined;
  const config = loadConfig({
    IAM_DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    APP_URL: 'http://localhost:3000',
    IAM_DIST_DIR: path.join(dataDir, 'no-dist'),
    ...(redis ? { REDIS_URL: redis.url } : {}),
    ...(redisPrefix ? { IAM_REDIS_PREFIX: redisPrefix } : {}),
    ...(kind === 'postgres' && pgUrl ? { DATABASE_URL: pgUrl } : {}),
    ...opts.env,
  });
  const openDb = (poolSize: number): Db =>
    kind === 'postgres' ? createDb({ databaseUrl: pgUrl, pgSchema: schema, poolSize }) : createDb({ sqliteFile: path.join(dataDir, 'iam.sqlite') });

  if (kind === 'postgres') {
    const admin = createDb({ databaseUrl: pgUrl, poolSize: 1 });
    await admin.kysely.schema.createSchema(schema ?? '').execute();
    await admin.close();
  }
  const migrator = openDb(1);
  await migrateToLatest(migrator);
  await migrator.close();

  const started = await Promise.allSettled(
    Array.from({ length: size }, async (_, index): Promise<ClusterNode> => {
      const db = openDb(opts.poolSize ?? 4);
      // its own config object: per-instance state (provider, key ring, Redis client) is keyed by it
      const own: AppConfig = { ...config, keys: { ...config.keys }, auth: { ...config.auth } };
      if (opts.ownDataDirs) own.dataDir = mkdtempSync(path.join(dataDir, `node${index}-`));
      const app = await buildApp({ config: own, db, logger: false, migrate: false });
      await app.listen({ port: 0, host: '127.0.0.1' });
      const { port } = app.server.address() as AddressInfo;
      return {
        index,
        url: `http://127.0.0.1:${port}`,
        app,
        db,
        config: own,
        kind,
        dataDir,
        async close() {
          await app.close();
          await db.close();
        },
      };
    }),
  );
  const nodes = started.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));

  const cleanup = async () => {
    for (const n of nodes) await n.close().catch(() => undefined);
    if (kind === 'postgres') {
      const admin = createDb({ databaseUrl: pgUrl, poolSize: 1 });
      await admin.kysely.schema.dropSchema(schema ?? '').ifExists().cascade().execute();
      await admin.close();
    }
    redis?.proc?.kill();
    if (redis && redisPrefix) {
      const client = new Redis(redis.url, { lazyConnect: true, maxRetriesPerRequest: 1 });
      try {
        await client.connect();
        let cursor = '0';
        do {
          const [next, keys] = await client.scan(cursor, 'MATCH', `${redisPrefix}*`, 'COUNT', 500);
          if (keys.length) await client.del(...keys);
          cursor = next;
        } while (cursor !== '0');
      } catch {
        // the shared Redis is gone: nothing left to clean
      } finally {
        client.disconnect();
      }
    }
    rmSync(dataDir, { recursive: true, force: true });
  };
  const failed = started.find((s): s is PromiseRejectedResult => s.status === 'rejected');
  if (failed) {
    await cleanup();
    throw failed.reason instanceof Error ? failed.reason : new Error(String(failed.reason));
  }

  let turn = 0;
  const nextNode = (): ClusterNode => {
    const node = nodes[turn++ % nodes.length];
    if (!node) throw new Error('empty cluster');
    return node;
  };
  const first = nodes[0];
  if (!first) throw new Error('empty cluster');
  const roundRobinInject = ((injectOpts: InjectOptions | string) => nextNode().app.inject(injectOpts)) as FastifyInstance['inject'];
  const spreadApp = new Proxy(first.app, {
    get(target, prop, receiver) {
      if (prop === 'inject') return roundRobinInject;
      return Reflect.get(target, prop, receiver) as unknown;
    },
  });
  return {
    kind,
    config,
    nodes,
    spread: { ...first, app: spreadApp, close: async () => undefined },
    fetch: (p, init) => fetch(`${nextNode().url}${p}`, { redirect: 'manual', ...init }),
    redisUrl: redis?.url,
    redisPrefix,
    schema,
    close: cleanup,
  };
}

/** Resolves at the next flush of `node`'s cache caused by another instance's message; rejects after 10 s. */
export function nextRemoteFlush(node: ClusterNode): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      off();
      reject(new Error('no invalidation message from the other instance arrived within 10 s'));
    }, 10_000);
    const off = node.app.oidc.authCache.onFlush((origin) => {
      if (origin !== 'remote') return;
      clearTimeout(timer);
      off();
      resolve();
    });
  });
}

/**
 * Waits until each of `a` and `b` receives the other's cache messages (Redis subscriptions come up asynchronously):
 * a harmless write on one, retried every 500 ms until the other flushes, at most ~40 tries each way.
 */
export async function untilSubscribed(a: ClusterNode, b: ClusterNode): Promise<void> {
  for (const [src, dst] of [[a, b], [b, a]] as const) {
    for (let i = 0; ; i++) {
      const got = nextRemoteFlush(dst).then(() => true, () => false);
      await src.db.kysely.updateTable('accounts').set({ updated_at: new Date().toISOString() }).where('id', '=', 'none').execute();
      if (await Promise.race([got, new Promise<boolean>((r) => setTimeout(() => r(false), 500))])) break;
      if (i > 40) throw new Error('the instances never received each other’s messages');
    }
  }
}
