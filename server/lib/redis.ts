import type { FastifyBaseLogger } from 'fastify';
import type { Redis } from 'ioredis';
import { loadRedis } from './optional-packages';
import { redisErrors, watchRedis } from './metrics';

export interface RedisSetup {
  log: FastifyBaseLogger;
  /** IAM_REDIS_TIMEOUT_MS: per command and per connect attempt */
  timeoutMs: number;
}

/**
 * A Redis client that fails fast instead of queueing: commands are refused at once while the connection is
 * down (no offline queue once the first connection attempt is over) and time out after `timeoutMs` when Redis does not answer (frozen, overloaded).
 * Such failures surface as ioredis errors that `isRedisUnavailable` (server/errors.ts) recognizes, and the
 * error handler answers 503. The client reconnects by itself (backoff up to 2 s). Connection errors are
 * logged once per outage and counted in `iam_redis_errors_total{client}`; `iam_redis_connected{client}` shows the state.
 */
export function createRedis(url: string, name: string, setup: RedisSetup): Redis {
  const client = new (loadRedis())(url, {
    lazyConnect: false,
    // queue only while the first connection is being made; from the first lost connection on, fail fast
    enableOfflineQueue: true,
    maxRetriesPerRequest: 1,
    commandTimeout: setup.timeoutMs,
    connectTimeout: Math.max(setup.timeoutMs, 500),
    retryStrategy: (times) => Math.min(100 * times, 2000),
  });
  let down = false;
  const failFast = (on: boolean) => {
    client.options.enableOfflineQueue = !on;
  };
  client.on('close', () => failFast(true));
  client.on('error', (err: Error) => {
    failFast(true);
    redisErrors.inc({ client: name });
    if (!down) setup.log.warn({ redis: name, err: err.message }, 'redis unreachable; requests that need it answer 503 until it is back');
    down = true;
  });
  client.on('ready', () => {
    failFast(false);
    if (down) setup.log.info({ redis: name }, 'redis reachable again');
    down = false;
  });
  const unwatch = watchRedis(client, name, () => client.status === 'ready');
  client.once('end', unwatch);
  return client;
}

/** Closes a client without waiting on an unreachable server. */
export async function closeRedis(client: Redis): Promise<void> {
  if (client.status === 'ready') await client.quit().catch(() => client.disconnect());
  else client.disconnect();
}
