import { epochMs, type ClockedHost, type ServiceHost } from './deps';
import type { Redis } from 'ioredis';
import { sql } from 'kysely';
import type { AppConfig } from '../config';
import { AppError, tooManyRequests } from '../errors';
import { lockouts } from '../lib/metrics';
import { createRedis } from '../lib/redis';

/**
 * Failure counting and lockout (brute-force protection), and simple rate limits.
 *
 * Keys are `<prefix>:<value>`; the prefix picks the rule:
 *  - `account:<accountId>` and `email:<type>:<normalized e-mail>`: IAM_LOCKOUT_MAX_FAILURES (5) failures within
 *    IAM_LOCKOUT_WINDOW_MINUTES (15) lock the key for IAM_LOCKOUT_MINUTES (15);
 *  - `otp:<accountId>` (wrong second factors): the same numbers as `account:`;
 *  - `ip:<address>`: IAM_IP_MAX_FAILURES (50) within IAM_IP_WINDOW_MINUTES (15) lock for IAM_IP_LOCKOUT_MINUTES (15);
 *  - anything else: 10 within 15 minutes, locked 15 minutes.
 * Counting is one atomic statement per key (SQL upsert with RETURNING, or a Lua script on Redis when
 * REDIS_URL is set), so parallel failures are counted exactly and a locked key stops counting.
 *
 * Locks are durable: with Redis, the counters live there, but a lock, when it is set, is also written to the
 * database (`rate_counters`, the table the counters use without Redis) and checked there before a slot is taken. A
 * Redis restart without persistence, a FLUSHALL or a failover to an empty replica loses the counts of keys not
 * locked (an attacker starts a new window of at most the limit), never a lock: an account locked under attack stays
 * locked until its lock runs out or an admin clears it (clearLock removes both).
 *
 * Every time here is `deps.clock`'s (tests set it). Redis expires a counter at PEXPIREAT on its own clock, so a
 * clock set far behind the machine's (a test) finds its Redis counters gone: such tests use the database store.
 *
 * Guarding a secret (password, second factor): `reserveAttempt` BEFORE the secret is evaluated. It takes one
 * slot per key atomically (the slot that reaches the limit locks the key) or answers 429 without evaluating
 * anything, so N parallel attempts evaluate at most the limit and the locked answer cannot depend on the
 * secret. A failure keeps its slots (`fail`); a success (`succeed`) clears the account-like keys and gives
 * the ip slot back.
 */
export interface ThrottleRule {
  limit: number;
  windowMs: number;
  lockMs: number;
}

const MIN = 60_000;

/** The rule of a key under the configured lockout numbers (`config.lockout`). */
export function ruleFor(key: string, lockout: AppConfig['lockout']): ThrottleRule {
  const prefix = key.slice(0, key.indexOf(':'));
  switch (prefix) {
    case 'account':
    case 'email':
    case 'otp':
      return { limit: lockout.accountMaxFailures, windowMs: lockout.accountWindowMinutes * MIN, lockMs: lockout.accountLockMinutes * MIN };
    case 'ip':
      return { limit: lockout.ipMaxFailures, windowMs: lockout.ipWindowMinutes * MIN, lockMs: lockout.ipLockMinutes * MIN };
    default:
      return { limit: 10, windowMs: 15 * MIN, lockMs: 15 * MIN };
  }
}

/** Key helpers, so every caller spells keys the same way. */
export const throttleKeys = {
  account: (accountId: string) => `account:${accountId}`,
  email: (type: 'user' | 'admin', normalizedEmail: string) => `email:${type}:${normalizedEmail}`,
  otp: (accountId: string) => `otp:${accountId}`,
  ip: (ip: string) => `ip:${ip}`,
};

export interface LockInfo {
  key: string;
  failures: number;
  /** ISO time the lock ends */
  locked_until: string;
  retry_after_seconds: number;
}

// ---------------------------------------------------------------- Redis store

const redisClients = new WeakMap<AppConfig, Redis>();
/** Hash of a counter in Redis: `<IAM_REDIS_PREFIX>rc:<key>` (`iam:rc:<key>` by default). */
const redisKey = (deps: ServiceHost, key: string) => `${deps.config.redisKeyPrefix ?? 'iam:'}rc:${key}`;
const escapeGlob = (s: string) => s.replace(/[*?[\]\\]/g, '\\$&');

function redisOf(deps: ServiceHost): Redis | null {
  const url = deps.config.redisUrl;
  if (!url) return null;
  let client = redisClients.get(deps.config);
  if (!client) {
    // fails fast while Redis is unreachable; the error handler answers 503 (server/lib/redis.ts)
    client = createRedis(url, 'throttle', { log: deps.log, timeoutMs: deps.config.timeouts.redisMs });
    redisClients.set(deps.config, client);
  }
  return client;
}

/** Closes the Redis connection of this app's throttle store, if one was opened. */
export async function closeThrottleStore(deps: ServiceHost): Promise<void> {
  const client = redisClients.get(deps.config);
  if (client) {
    redisClients.delete(deps.config);
    await client.quit().catch(() => client.disconnect());
  }
}

// KEYS[1]; ARGV now, limit, windowMs, lockMs. Takes a slot unless the key is locked: {1, count, locked_until}
// when taken (the slot reaching the limit locks the key), {0, count, locked_until} when refused. Mirrors takeSlot's SQL.
const RESERVE_LUA = `
local now = tonumber(ARGV[1]); local limit = tonumber(ARGV[2]); local win = tonumber(ARGV[3]); local lock = tonumber(ARGV[4])
local h = redis.call('HMGET', KEYS[1], 'count', 'reset_at', 'locked_until')
local count = tonumber(h[1]); local reset_at = tonumber(h[2]); local locked_until = tonumber(h[3]) or 0
if count and locked_until > now then return {0, count, locked_until} end
if (not count) or reset_at <= now or locked_until ~= 0 then
  count = 1; reset_at = now + win; locked_until = 0
else
  count = count + 1
end
if count >= limit then locked_until = now + lock end
redis.call('HSET', KEYS[1], 'count', count, 'reset_at', reset_at, 'locked_until', locked_until)
redis.call('PEXPIREAT', KEYS[1], math.max(reset_at, locked_until))
return {1, count, locked_until}
`;

// KEYS[1]; ARGV limit. Gives one slot back; below the limit the key is no longer locked. Returns 2 when that
// unlocked the key (its durable lock goes too), 1 when a slot was given back, 0 when there was no counter.
const RELEASE_LUA = `
local limit = tonumber(ARGV[1])
local h = redis.call('HMGET', KEYS[1], 'count', 'locked_until')
local count = tonumber(h[1]); local was = tonumber(h[2]) or 0
if not count then return 0 end
if count > 0 then count = count - 1 end
if count < limit then
  redis.call('HSET', KEYS[1], 'count', count, 'locked_until', 0)
  if was ~= 0 then return 2 end
else
  redis.call('HSET', KEYS[1], 'count', count)
end
return 1
`;

// KEYS[1]; ARGV now, windowMs. Fixed-window counter.
const HIT_LUA = `
local now = tonumber(ARGV[1]); local win = tonumber(ARGV[2])
local h = redis.call('HMGET', KEYS[1], 'count', 'reset_at')
local count = tonumber(h[1]); local reset_at = tonumber(h[2])
if (not count) or reset_at <= now then count = 1; reset_at = now + win else count = count + 1 end
redis.call('HSET', KEYS[1], 'count', count, 'reset_at', reset_at, 'locked_until', 0)
redis.call('PEXPIREAT', KEYS[1], reset_at)
return {count, reset_at}
`;

// ---------------------------------------------------------------- API

function lockedError(key: string, untilMs: number, now: number): AppError {
  const seconds = Math.max(1, Math.ceil((untilMs - now) / 1000));
  const err = tooManyRequests(seconds, key.startsWith('ip:') ? 'too_many_requests' : 'account_locked');
  return err;
}

/** Locks of `keys` in the database (the store without Redis, and the durable copy of locks with it). */
async function dbLocks(deps: ClockedHost, keys: readonly string[], now: number): Promise<Map<string, { count: number; until: number }>> {
  const rows = await deps.db.kysely
    .selectFrom('rate_counters')
    .select(['key', 'count', 'locked_until'])
    .where('key', 'in', [...keys])
    .where('locked_until', '>', now)
    .execute();
  return new Map(rows.map((r) => [r.key, { count: Number(r.count), until: Number(r.locked_until) }]));
}

/**
 * With Redis: writes the lock a slot has just set to the database, so it outlives Redis's memory. Its window ends
 * with the lock (the housekeeping deletes it afterwards).
 */
async function persistLock(deps: ClockedHost, key: string, count: number, lockedUntil: number): Promise<void> {
  await sql`
    insert into rate_counters (key, count, reset_at, locked_until)
    values (${key}, ${count}, cast(${lockedUntil} as bigint), cast(${lockedUntil} as bigint))
    on conflict (key) do update set count = excluded.count, reset_at = excluded.reset_at, locked_until = excluded.locked_until`.execute(deps.db.kysely);
}

async function lockedUntilOf(deps: ClockedHost, keys: string[]): Promise<{ key: string; until: number }[]> {
  const now = epochMs(deps.clock);
  const durable = await dbLocks(deps, keys, now);
  const redis = redisOf(deps);
  if (redis) {
    const out: { key: string; until: number }[] = [];
    for (const key of keys) {
      const v = await redis.hget(redisKey(deps, key), 'locked_until');
      const until = Math.max(Number(v ?? 0), durable.get(key)?.until ?? 0);
      if (until > now) out.push({ key, until });
    }
    return out;
  }
  return [...durable].map(([key, lock]) => ({ key, until: lock.until }));
}

/** Throws 429 (`account_locked` for account-like keys, `too_many_requests` for ip keys) with retry-after when any key is locked. */
export async function assertNotLocked(deps: ClockedHost, keys: string[]): Promise<void> {
  if (keys.length === 0) return;
  const locked = await lockedUntilOf(deps, [...new Set(keys)]);
  if (locked.length === 0) return;
  // an account lock is the more useful message; the longest wait wins within the same kind
  locked.sort((a, b) => Number(a.key.startsWith('ip:')) - Number(b.key.startsWith('ip:')) || b.until - a.until);
  const first = locked[0];
  if (first) throw lockedError(first.key, first.until, epochMs(deps.clock));
}

/** The counter of a locked key as it stands (what a refused slot leaves unchanged). */
async function counterOf(deps: ClockedHost, key: string): Promise<{ count: number; lockedUntil: number }> {
  const redis = redisOf(deps);
  if (redis) {
    const [count, lockedUntil] = await redis.hmget(redisKey(deps, key), 'count', 'locked_until');
    if (Number(lockedUntil ?? 0) > epochMs(deps.clock)) return { count: Number(count ?? 0), lockedUntil: Number(lockedUntil) };
    // Redis lost it (restart, FLUSHALL): the durable lock
    const durable = (await dbLocks(deps, [key], epochMs(deps.clock))).get(key);
    return durable ? { count: durable.count, lockedUntil: durable.until } : { count: Number(count ?? 0), lockedUntil: Number(lockedUntil ?? 0) };
  }
  const row = await deps.db.kysely.selectFrom('rate_counters').select(['count', 'locked_until']).where('key', '=', key).executeTakeFirst();
  return { count: Number(row?.count ?? 0), lockedUntil: Number(row?.locked_until ?? 0) };
}

/**
 * Counts one failure per key; the failure that reaches a key's limit locks it. Returns the counts after the failure
 * (a key that is already locked is left as it is). The same atomic step as a reservation (takeSlot).
 */
export async function recordFailure(deps: ClockedHost, keys: string[]): Promise<{ key: string; count: number; lockedUntil: number }[]> {
  const out: { key: string; count: number; lockedUntil: number }[] = [];
  for (const key of new Set(keys)) {
    const slot = (await takeSlot(deps, key)) ?? (await counterOf(deps, key));
    out.push({ key, ...slot });
  }
  return out;
}

/** Takes one slot on `key`; null when the key is locked (nothing counted). */
async function takeSlot(deps: ClockedHost, key: string, durableChecked = false): Promise<{ count: number; lockedUntil: number } | null> {
  const { limit, windowMs, lockMs } = ruleFor(key, deps.config.lockout);
  const now = epochMs(deps.clock);
  const redis = redisOf(deps);
  if (redis) {
    // a lock Redis may have lost is still in the database
    if (!durableChecked && (await dbLocks(deps, [key], now)).has(key)) return null;
    const [taken, count, lockedUntil] = (await redis.eval(RESERVE_LUA, 1, redisKey(deps, key), now, limit, windowMs, lockMs)) as [number, number, number];
    if (Number(taken) !== 1) return null;
    // this slot locked the key: the lock outlives Redis
    if (Number(lockedUntil) > 0) await persistLock(deps, key, Number(count), Number(lockedUntil));
    return { count: Number(count), lockedUntil: Number(lockedUntil) };
  }
  const firstLock = limit <= 1 ? now + lockMs : 0;
  // the WHERE of DO UPDATE refuses a locked key: then no row comes back (SQLite and PostgreSQL alike)
  const res = await sql<{ count: number; locked_until: number }>`
    insert into rate_counters (key, count, reset_at, locked_until)
    values (${key}, 1, cast(${now + windowMs} as bigint), cast(${firstLock} as bigint))
    on conflict (key) do update set
      count = case
        when rate_counters.reset_at <= cast(${now} as bigint) or rate_counters.locked_until <> 0 then 1
        else rate_counters.count + 1 end,
      reset_at = case
        when rate_counters.reset_at <= cast(${now} as bigint) or rate_counters.locked_until <> 0 then cast(${now + windowMs} as bigint)
        else rate_counters.reset_at end,
      locked_until = case
        when rate_counters.reset_at <= cast(${now} as bigint) or rate_counters.locked_until <> 0 then cast(${firstLock} as bigint)
        when rate_counters.count + 1 >= ${limit} then cast(${now + lockMs} as bigint)
        else cast(0 as bigint) end
    where rate_counters.locked_until <= cast(${now} as bigint)
    returning count, locked_until`.execute(deps.db.kysely);
  const row = res.rows[0];
  return row ? { count: Number(row.count), lockedUntil: Number(row.locked_until) } : null;
}

/**
 * Takes one slot on each of `keys` (distinct) at once: the same step as takeSlot for every key, in one statement on
 * the database (one multi-row upsert: a locked key's row is left as it is and comes back without a row; the other
 * keys are counted, and the caller gives their slots back), one script call per key on Redis (stopping at the first
 * locked key). Returns the slots taken, by key; the first key missing from the answer is locked.
 */
async function takeSlots(deps: ClockedHost, keys: readonly string[]): Promise<Map<string, { count: number; lockedUntil: number }>> {
  const out = new Map<string, { count: number; lockedUntil: number }>();
  if (keys.length === 0) return out;
  if (redisOf(deps) || keys.length === 1) {
    // with Redis, one look at the durable locks of every key first (instead of one per key)
    const durable = redisOf(deps) ? await dbLocks(deps, keys, epochMs(deps.clock)) : new Map<string, unknown>();
    for (const key of keys) {
      if (durable.has(key)) break; // locked
      const slot = await takeSlot(deps, key, true);
      if (!slot) break; // locked: the keys after it are not counted
      out.set(key, slot);
    }
    return out;
  }
  const now = epochMs(deps.clock);
  const rules = keys.map((key) => ({ key, ...ruleFor(key, deps.config.lockout) }));
  const rows = sql.join(rules.map((r) => sql`(${r.key}, 1, cast(${now + r.windowMs} as bigint), cast(${r.limit <= 1 ? now + r.lockMs : 0} as bigint))`));
  // per key: its limit, and when a lock it starts would end
  const limitOf = sql`case rate_counters.key ${sql.join(rules.map((r) => sql`when ${r.key} then cast(${r.limit} as integer)`), sql` `)} end`;
  const lockEndOf = sql`case rate_counters.key ${sql.join(rules.map((r) => sql`when ${r.key} then cast(${now + r.lockMs} as bigint)`), sql` `)} end`;
  // as takeSlot's statement, with the new row's reset_at and first lock (excluded.*) standing for the key's own
  const res = await sql<{ key: string; count: number; locked_until: number }>`
    insert into rate_counters (key, count, reset_at, locked_until)
    values ${rows}
    on conflict (key) do update set
      count = case
        when rate_counters.reset_at <= cast(${now} as bigint) or rate_counters.locked_until <> 0 then 1
        else rate_counters.count + 1 end,
      reset_at = case
        when rate_counters.reset_at <= cast(${now} as bigint) or rate_counters.locked_until <> 0 then excluded.reset_at
        else rate_counters.reset_at end,
      locked_until = case
        when rate_counters.reset_at <= cast(${now} as bigint) or rate_counters.locked_until <> 0 then excluded.locked_until
        when rate_counters.count + 1 >= ${limitOf} then ${lockEndOf}
        else cast(0 as bigint) end
    where rate_counters.locked_until <= cast(${now} as bigint)
    returning key, count, locked_until`.execute(deps.db.kysely);
  for (const row of res.rows) out.set(row.key, { count: Number(row.count), lockedUntil: Number(row.locked_until) });
  return out;
}

/** Gives one slot of `key` back (an attempt that was not evaluated, or an ip slot after a success). */
async function releaseSlot(deps: ClockedHost, key: string): Promise<void> {
  const { limit } = ruleFor(key, deps.config.lockout);
  const redis = redisOf(deps);
  if (redis) {
    // the slot given back had locked the key: its durable lock goes too
    if (Number(await redis.eval(RELEASE_LUA, 1, redisKey(deps, key), limit)) === 2) await deps.db.kysely.deleteFrom('rate_counters').where('key', '=', key).execute();
    return;
  }
  await sql`
    update rate_counters set
      count = case when count > 0 then count - 1 else 0 end,
      locked_until = case when count - 1 < ${limit} then cast(0 as bigint) else locked_until end
    where key = ${key}`.execute(deps.db.kysely);
}

/** Slots held by one attempt at a secret, taken by `reserveAttempt`. */
export interface AttemptReservation {
  readonly keys: readonly string[];
  /** The secret was wrong: the slots stay counted (the one that reached the limit has locked its key). */
  fail(): Promise<void>;
  /** The secret was right: account-like keys are cleared, the ip slot is given back. */
  succeed(): Promise<void>;
  /** The secret was not evaluated after all: every slot is given back. */
  release(): Promise<void>;
}

/**
 * Reserves one slot per key for an attempt at a secret, BEFORE the secret is evaluated. Keys are taken together
 * (takeSlots: one statement on the database); when one is locked the slots taken are given back and the attempt
 * gets the locked answer of the first locked key
 * (429 `account_locked`, or `too_many_requests` for an ip key, with retry-after) without evaluating anything.
 * At most `limit` attempts per key are therefore ever evaluated within a window, however many run in
 * parallel and on however many instances (the counters live in the shared database or Redis).
 */
export async function reserveAttempt(deps: ClockedHost, keys: string[]): Promise<AttemptReservation> {
  const unique = [...new Set(keys)];
  const taken: string[] = [];
  /** keys whose limit this attempt's slot reached: locked for good if the attempt fails */
  const locking: string[] = [];
  const slots = await takeSlots(deps, unique);
  const refused = unique.find((key) => !slots.has(key));
  if (refused !== undefined) {
    // a key is locked: every slot this attempt took is given back, nothing is evaluated
    for (const k of slots.keys()) await releaseSlot(deps, k);
    const locked = await lockedUntilOf(deps, [refused]);
    throw lockedError(refused, locked[0]?.until ?? epochMs(deps.clock) + 1000, epochMs(deps.clock));
  }
  for (const key of unique) {
    const slot = slots.get(key);
    if (!slot) continue;
    taken.push(key);
    if (slot.lockedUntil > 0 && slot.count >= ruleFor(key, deps.config.lockout).limit) locking.push(key);
  }
  let settled = false;
  const once = async (fn: () => Promise<void>) => {
    if (settled) return;
    settled = true;
    await fn();
  };
  return {
    keys: taken,
    fail: () =>
      once(async () => {
        for (const key of locking) lockouts.inc(key.slice(0, key.indexOf(':')));
      }),
    succeed: () =>
      once(async () => {
        const cleared = taken.filter((key) => !key.startsWith('ip:'));
        await clearLocks(deps, cleared);
        for (const key of taken) if (key.startsWith('ip:')) await releaseSlot(deps, key);
      }),
    release: () =>
      once(async () => {
        for (const key of taken) await releaseSlot(deps, key);
      }),
  };
}

/**
 * Runs `check` (the evaluation of a secret) under a reservation on `keys`: 429 without calling it when a key
 * is locked; false or a throw keeps the slots (fails closed), true clears them (`succeed`).
 */
export async function checkWithLockout(deps: ClockedHost, keys: string[], check: () => Promise<boolean>): Promise<boolean> {
  const slot = await reserveAttempt(deps, keys);
  let ok = false;
  try {
    ok = await check();
  } finally {
    if (ok) await slot.succeed();
    else await slot.fail();
  }
  return ok;
}

/** After a success: clears the failure counters of the account-like keys (`account:`, `email:`, `otp:`); ip counters stay. */
export async function recordSuccess(deps: ClockedHost, keys: string[]): Promise<void> {
  const toClear = keys.filter((k) => !k.startsWith('ip:'));
  for (const key of toClear) await clearLock(deps, key);
}

/** Keys locked right now (optionally those starting with `prefix`), for admins. */
export async function listLocks(deps: ClockedHost, prefix?: string): Promise<LockInfo[]> {
  const now = epochMs(deps.clock);
  const redis = redisOf(deps);
  const rows: { key: string; count: number; locked_until: number }[] = [];
  if (redis) {
    let cursor = '0';
    do {
      const [next, found] = await redis.scan(cursor, 'MATCH', `${escapeGlob(redisKey(deps, prefix ?? ''))}*`, 'COUNT', 500);
      cursor = next;
      for (const full of found) {
        const [count, until] = await redis.hmget(full, 'count', 'locked_until');
        rows.push({ key: full.slice(redisKey(deps, '').length), count: Number(count ?? 0), locked_until: Number(until ?? 0) });
      }
    } while (cursor !== '0');
  }
  // the database: every lock without Redis, the durable copies (and locks Redis lost) with it
  let q = deps.db.kysely.selectFrom('rate_counters').select(['key', 'count', 'locked_until']).where('locked_until', '>', now);
  if (prefix) q = q.where(sql<boolean>`substr(key, 1, ${prefix.length}) = ${prefix}`);
  const inRedis = new Set(rows.filter((r) => Number(r.locked_until) > now).map((r) => r.key));
  for (const row of await q.orderBy('key').limit(1000).execute()) if (!inRedis.has(row.key)) rows.push(row);
  return rows
    .filter((r) => Number(r.locked_until) > now && (!prefix || r.key.startsWith(prefix)))
    .sort((a, b) => a.key.localeCompare(b.key))
    .map((r) => ({
      key: r.key,
      failures: Number(r.count),
      locked_until: new Date(Number(r.locked_until)).toISOString(),
      retry_after_seconds: Math.ceil((Number(r.locked_until) - now) / 1000),
    }));
}

/** Removes the counters and locks of `keys` (clearLock for each; one statement on the database). */
async function clearLocks(deps: ClockedHost, keys: readonly string[]): Promise<void> {
  if (keys.length === 0) return;
  const redis = redisOf(deps);
  // with Redis no durable lock can be among them: a locked key's attempt is refused before it can succeed
  if (redis) {
    await redis.del(...keys.map((key) => redisKey(deps, key)));
    return;
  }
  await deps.db.kysely.deleteFrom('rate_counters').where('key', 'in', keys).execute();
}

/** Removes a key's counter and lock. Returns whether it existed. */
export async function clearLock(deps: ClockedHost, key: string): Promise<boolean> {
  const redis = redisOf(deps);
  const inRedis = redis ? (await redis.del(redisKey(deps, key))) > 0 : false;
  // the database's counter, or with Redis the durable copy of its lock
  const r = await deps.db.kysely.deleteFrom('rate_counters').where('key', '=', key).executeTakeFirst();
  return inRedis || Number(r.numDeletedRows) > 0;
}

/**
 * A plain rate limit: counts one hit on `key` in a fixed window and throws 429 (code `too_many_requests`,
 * retry-after) when the count goes past `limit`. Used for resend/forgot-password limits.
 */
export async function hitRateLimit(deps: ClockedHost, key: string, limit: number, windowMs: number, code = 'too_many_requests'): Promise<void> {
  const now = epochMs(deps.clock);
  const redis = redisOf(deps);
  let count: number;
  let resetAt: number;
  if (redis) {
    const [c, r] = (await redis.eval(HIT_LUA, 1, redisKey(deps, 'rate:' + key), now, windowMs)) as [number, number];
    count = Number(c);
    resetAt = Number(r);
  } else {
    const res = await sql<{ count: number; reset_at: number }>`
      insert into rate_counters (key, count, reset_at, locked_until)
      values (${'rate:' + key}, 1, cast(${now + windowMs} as bigint), cast(0 as bigint))
      on conflict (key) do update set
        count = case when rate_counters.reset_at <= cast(${now} as bigint) then 1 else rate_counters.count + 1 end,
        reset_at = case when rate_counters.reset_at <= cast(${now} as bigint) then cast(${now + windowMs} as bigint) else rate_counters.reset_at end
      returning count, reset_at`.execute(deps.db.kysely);
    count = Number(res.rows[0]?.count ?? 0);
    resetAt = Number(res.rows[0]?.reset_at ?? now);
  }
  if (count > limit) throw tooManyRequests(Math.max(1, Math.ceil((resetAt - now) / 1000)), code);
}

// ---------------------------------------------------------------- housekeeping

/**
 * Deletes up to `batch` database counters whose window and lock are both over: such a counter counts as absent
 * (the next failure or hit starts again at 1), so deleting it changes nothing but the table's size. A counter is
 * re-checked as it is deleted, so one counted again meanwhile stays. Redis expires its own keys (PEXPIREAT); with
 * Redis the table holds the durable copies of locks, pruned the same way. Returns the number deleted.
 */
export async function pruneExpiredCounters(deps: ClockedHost, opts: { batch?: number; now?: number } = {}): Promise<number> {
  const { batch = 1000, now = epochMs(deps.clock) } = opts;
  const db = deps.db.kysely;
  const expired = (q: typeof db) => q.selectFrom('rate_counters').select('key').where('reset_at', '<=', now).where('locked_until', '<=', now);
  const r = await db
    .deleteFrom('rate_counters')
    .where('key', 'in', expired(db).limit(batch))
    .where('reset_at', '<=', now)
    .where('locked_until', '<=', now)
    .executeTakeFirst();
  return Number(r.numDeletedRows);
}

/**
 * Prunes expired counters every `everyMs` (default 10 minutes): at most `maxBatches` batches of `batch` rows a
 * round, so one round stays short however many counters piled up; rounds never overlap. Returns `stop`.
 */
export function startCounterCleanup(deps: ClockedHost, opts: { everyMs?: number; batch?: number; maxBatches?: number } = {}): () => void {
  const { everyMs = 10 * MIN, batch = 1000, maxBatches = 10 } = opts;
  let running = false;
  const round = async () => {
    if (running) return;
    running = true;
    try {
      for (let i = 0; i < maxBatches; i++) {
        if ((await pruneExpiredCounters(deps, { batch })) < batch) break;
      }
    } catch (err) {
      deps.log.warn({ err: err instanceof Error ? err.message : String(err) }, 'throttle counter cleanup failed');
    } finally {
      running = false;
    }
  };
  const timer = setInterval(() => void round(), everyMs);
  timer.unref();
  return () => clearInterval(timer);
}
