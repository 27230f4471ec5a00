import type pg from 'pg';
import type { PostgresPool, PostgresPoolClient } from 'kysely';
import type { DbLogger, DbOptions } from './index';
import { DependencyUnavailableError, databaseFailureOf } from '../errors';
import { dbErrors, poolAcquire, watchPool } from '../lib/metrics';
import { loadPg } from '../lib/optional-packages';

const consoleLog: DbLogger = {
  warn: (obj, msg) => console.warn(msg, JSON.stringify(obj)),
  info: (obj, msg) => console.info(msg, JSON.stringify(obj)),
};

const errText = (err: unknown): string => (err instanceof Error ? [(err as { code?: string }).code, err.message].filter(Boolean).join(' ') : String(err));

/**
 * PostgreSQL pool that never takes the process down and never hangs:
 *  - every client has an `error` listener (a terminated backend emits one even while checked out);
 *  - connects and pool waits give up after `connectTimeoutMs`; statements after `queryTimeoutMs` on the server
 *    (statement_timeout) and, as a backstop when the server does not answer at all, 1 s later on the client;
 *  - a client that saw a connection-level error or a read timeout is destroyed on release, not reused;
 *  - when the database is unreachable (refused, connect timeout, no answer) the pool fails fast with
 *    `DependencyUnavailableError(circuit_open)` and a separate probe connection checks every second until it answers.
 * Connection-level errors come out as `DependencyUnavailableError`, which the error handler answers with 503.
 */
export function guardedPool(opts: DbOptions & { databaseUrl: string }): { pool: PostgresPool; available: () => boolean; end: () => Promise<void> } {
  const log = opts.log ?? consoleLog;
  const connectTimeoutMs = opts.connectTimeoutMs ?? 3000;
  const queryTimeoutMs = opts.queryTimeoutMs ?? 5000;
  const probeIntervalMs = opts.probeIntervalMs ?? 1000;
  const options = [
    opts.pgSchema ? `-c search_path=${opts.pgSchema}` : '',
    `-c statement_timeout=${queryTimeoutMs}`,
    `-c idle_in_transaction_session_timeout=${Math.max(queryTimeoutMs * 2, 10_000)}`,
  ].filter(Boolean).join(' ');
  const clientConfig = {
    connectionString: opts.databaseUrl,
    options,
    connectionTimeoutMillis: connectTimeoutMs,
    query_timeout: queryTimeoutMs + 1000,
    keepAlive: true,
  };
  const max = opts.poolSize ?? 10;
  const { Pool, Client } = loadPg();
  const pool = new Pool({ ...clientConfig, max });
  pool.on('error', (err) => {
    // an idle client lost its connection (backend terminated, server restarted): the pool drops it
    dbErrors.inc({ kind: 'idle_client' });
    log.warn({ err: errText(err) }, 'database connection lost (idle); it will be replaced');
  });
  pool.on('connect', (client) => {
    // checked-out clients emit `error` too; without a listener that would end the process
    client.on('error', (err) => {
      dbErrors.inc({ kind: 'client' });
      log.warn({ err: errText(err) }, 'database connection lost');
    });
  });
  const unwatch = watchPool(() => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount, max }));

  let down = false;
  let downSince = 0;
  let ended = false;
  let probeTimer: NodeJS.Timeout | undefined;
  const probe = async (): Promise<void> => {
    const c = new Client({ ...clientConfig, query_timeout: connectTimeoutMs });
    c.on('error', () => {});
    try {
      await c.connect();
      await c.query('select 1');
      down = false;
      log.info({ downMs: Date.now() - downSince }, 'database reachable again');
    } catch {
      /* still down */
    } finally {
      await c.end().catch(() => {});
    }
  };
  const scheduleProbe = () => {
    if (ended || probeTimer) return;
    probeTimer = setTimeout(() => {
      probe().finally(() => {
        probeTimer = undefined;
        if (down) scheduleProbe();
      });
    }, probeIntervalMs);
    probeTimer.unref();
  };
  const trip = (err: unknown) => {
    if (down || ended) return;
    down = true;
    downSince = Date.now();
    log.warn({ err: errText(err) }, 'database unreachable; answering 503 at once until it is back');
    scheduleProbe();
  };
  const fail = (err: unknown): never => {
    const kind = databaseFailureOf(err);
    if (!kind) throw err;
    dbErrors.inc({ kind });
    if (kind === 'unreachable') trip(err);
    throw new DependencyUnavailableError('database', kind, err);
  };

  const wrappers = new WeakMap<pg.PoolClient, PostgresPoolClient>();
  const broken = new WeakSet<pg.PoolClient>();
  const wrap = (client: pg.PoolClient): PostgresPoolClient => {
    let w = wrappers.get(client);
    if (w) return w;
    const query = ((text: unknown, params?: readonly unknown[]) => {
      if (typeof text !== 'string') return client.query(text as pg.Submittable); // cursor (streaming)
      if (broken.has(client)) return Promise.reject(new DependencyUnavailableError('database', 'terminated'));
      return client.query(text, params as unknown[]).catch((err: unknown) => {
        if (databaseFailureOf(err) && databaseFailureOf(err) !== 'busy') broken.add(client);
        return fail(err);
      });
    }) as PostgresPoolClient['query'];
    w = { query, release: () => client.release(broken.has(client) ? true : undefined) };
    wrappers.set(client, w);
    return w;
  };

  return {
    available: () => !down,
    pool: {
      async connect() {
        if (down) {
          poolAcquire.observe({ result: 'unavailable' }, 0);
          throw new DependencyUnavailableError('database', 'circuit_open');
        }
        const t0 = performance.now();
        try {
          const client = await pool.connect();
          poolAcquire.observe({ result: 'ok' }, (performance.now() - t0) / 1000);
          return wrap(client);
        } catch (err) {
          poolAcquire.observe({ result: databaseFailureOf(err) === 'busy' ? 'timeout' : 'error' }, (performance.now() - t0) / 1000);
          return fail(err);
        }
      },
      end: () => pool.end(),
    },
    async end() {
      ended = true;
      if (probeTimer) clearTimeout(probeTimer);
      unwatch();
    },
  };
}
