import { createRequire } from 'node:module';
import type * as Pg from 'pg';
import type * as IORedis from 'ioredis';

/**
 * The database and cache drivers a deployment may not use, loaded on first use instead of at start: the default
 * set-up (SQLite, no Redis) never needs them, and imported at start the two cost the idle server ~6.5 MB of resident
 * memory (BENCHMARKS.md "Idle memory"). Both are CommonJS packages, so a synchronous `require` keeps the call sites
 * synchronous. tests/server/ops/lazy-drivers.test.ts checks that the default set-up loads neither.
 */
const require = createRequire(import.meta.url);

let pgModule: typeof Pg.default | undefined;
/** The `pg` driver (PostgreSQL: DATABASE_URL set), with int8 columns parsed as numbers. */
export function loadPg(): typeof Pg.default {
  if (!pgModule) {
    const pg = require('pg') as typeof Pg.default;
    // int8 (bigint) columns hold epoch values well inside Number's safe range
    pg.types.setTypeParser(20, (v: string) => Number(v));
    pgModule = pg;
  }
  return pgModule;
}

let redisModule: typeof IORedis | undefined;
/** The `ioredis` client class (REDIS_URL set). */
export function loadRedis(): typeof IORedis.Redis {
  redisModule ??= require('ioredis') as typeof IORedis;
  return redisModule.Redis;
}
