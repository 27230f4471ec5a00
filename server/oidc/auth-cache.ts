import type { Redis } from 'ioredis';
import type { JWTPayload } from 'jose';
import type { Account } from '../db/schema';
import type { Db } from '../db/index';
import { closeRedis, createRedis } from '../lib/redis';
import type { ServiceHost } from '../services/deps';

/**
 * What one access token was found to be: its verified claims, the account it names and when its grant expires.
 * Kept for at most `ttlMs` (IAM_AUTH_CACHE_MS, default 1000): a read (GET/HEAD) presenting the same token within
 * that time skips the signature check and the database. Every request still checks expiry, the key's publication,
 * the grant's expiry and the account's status against the entry; writes (POST, PUT, PATCH, DELETE) always go to
 * the database.
 *
 * Invalidation — how soon a sign-out, a deactivation or a password change (they delete the account's grants and/or
 * update its row) stops a token that is cached:
 * - on the instance that made the change: at once. Every UPDATE/DELETE of `accounts` and DELETE of `oidc_models`
 *   through the app's database handle empties the cache (Db.onWrite), before and after the statement runs; an entry
 *   whose lookup started before the change is not stored (generation check).
 * - on other instances, with REDIS_URL: the instance that made the change publishes on `<prefix>auth-cache`, and
 *   every instance empties its cache when the message arrives (milliseconds).
 * - in every case, within `ttlMs`: an entry is never used once it is `ttlMs` old. That is the bound without Redis
 *   (several instances on one database), while Redis is unreachable, and for a change committed after its
 *   message went out (a write inside a longer transaction).
 * Also emptied when the signing key set changes. `ttlMs` 0 turns the cache off.
 */
export interface AuthEntry {
  claims: JWTPayload & { client_id: string; gid: string; sub: string; jti: string };
  account: Account;
  /** epoch seconds, null when the grant does not expire */
  grantExpiresAt: number | null;
  /** the signing key's id (a hit holds only while the key is still published) */
  kid: string | undefined;
}

export class AuthCache {
  /** the cache's time source (tests move it forward) */
  clock: () => number = Date.now;
  private entries = new Map<string, { entry: AuthEntry; at: number }>();
  private inflight = new Map<string, Promise<AuthEntry | null>>();
  private gen = 0;
  private readonly flushListeners = new Set<(origin: 'local' | 'remote') => void>();

  constructor(
    readonly ttlMs: number,
    private readonly maxEntries = 10_000,
  ) {}

  get size(): number {
    return this.entries.size;
  }

  /** Changes with every flush; read before a lookup, pass to `set` after it. */
  get generation(): number {
    return this.gen;
  }

  get(token: string): AuthEntry | undefined {
    if (this.ttlMs <= 0) return undefined;
    const hit = this.entries.get(token);
    if (!hit) return undefined;
    if (this.clock() - hit.at >= this.ttlMs) {
      this.entries.delete(token);
      return undefined;
    }
    return hit.entry;
  }

  /** Stores an entry looked up since `generation` was read; dropped when a flush happened meanwhile. */
  set(token: string, entry: AuthEntry, generation: number): void {
    if (this.ttlMs <= 0 || generation !== this.gen) return;
    if (this.entries.size >= this.maxEntries) {
      const now = this.clock();
      for (const [k, v] of this.entries) if (now - v.at >= this.ttlMs) this.entries.delete(k);
      if (this.entries.size >= this.maxEntries) this.entries.clear();
    }
    this.entries.set(token, { entry, at: this.clock() });
  }

  /**
   * One lookup per token at a time: a read that misses while a lookup of the same token runs waits for that one (when
   * an entry ages out, every read in flight misses at once: up to one signature check and statement per connection
   * otherwise). A flush drops the lookups in flight, so a read that starts after it never gets what a lookup started
   * before it found. Refusals reach every read that waited.
   */
  shared(token: string, lookup: () => Promise<AuthEntry | null>): Promise<AuthEntry | null> {
    if (this.ttlMs <= 0) return lookup();
    const running = this.inflight.get(token);
    if (running) return running;
    const started = lookup().finally(() => {
      if (this.inflight.get(token) === started) this.inflight.delete(token);
    });
    this.inflight.set(token, started);
    return started;
  }

  flush(origin: 'local' | 'remote' = 'local'): void {
    this.gen++;
    this.entries.clear();
    this.inflight.clear();
    for (const l of this.flushListeners) l(origin);
  }

  /** Called after every flush (tests wait for a remote one). */
  onFlush(listener: (origin: 'local' | 'remote') => void): () => void {
    this.flushListeners.add(listener);
    return () => this.flushListeners.delete(listener);
  }
}

/**
 * The app's auth cache, wired to its database (local writes flush it) and, with REDIS_URL, to the other instances
 * (a local write publishes a flush; a message from another instance flushes here). Returns the cache and a close().
 */
export function createAuthCache(deps: Pick<ServiceHost, 'config' | 'log'> & { db: Pick<Db, 'onWrite'> }): { cache: AuthCache; close(): Promise<void> } {
  const cache = new AuthCache(deps.config.auth.cacheMs);
  if (cache.ttlMs <= 0) return { cache, close: async () => undefined };
  const url = deps.config.redisUrl;
  const channel = `${deps.config.redisKeyPrefix ?? 'iam:'}auth-cache`;
  const instance = `${process.pid}-${Math.random().toString(36).slice(2)}`;
  let pub: Redis | undefined;
  let sub: Redis | undefined;
  let publishQueued = false;
  let publishFailing = false;
  if (url) {
    const setup = { log: deps.log, timeoutMs: deps.config.timeouts.redisMs };
    pub = createRedis(url, 'auth_cache', setup);
    sub = createRedis(url, 'auth_cache_sub', setup);
    // a subscriber connection has no command timeout: it waits for messages
    sub.options.commandTimeout = undefined;
    sub.on('ready', () => {
      // (re)subscribed after a reconnect: anything may have changed while messages could not arrive
      sub?.subscribe(channel).then(
        () => cache.flush('remote'),
        (err: unknown) => deps.log.warn({ err }, 'auth cache: subscribe failed'),
      );
    });
    sub.on('message', (ch: string, from: string) => {
      if (ch === channel && from !== instance) cache.flush('remote');
    });
  }
  const unwatch = deps.db.onWrite(() => {
    cache.flush('local');
    if (!pub || publishQueued) return;
    // one message per tick, sent after the statement (and whatever else this tick writes) ran
    publishQueued = true;
    setImmediate(() => {
      publishQueued = false;
      pub?.publish(channel, instance).then(
        () => (publishFailing = false),
        (err: unknown) => {
          if (!publishFailing) deps.log.warn({ err: err instanceof Error ? err.message : String(err) }, `auth cache: publish failed; other instances see changes within ${cache.ttlMs} ms (the TTL)`);
          publishFailing = true;
        },
      );
    });
  });
  return {
    cache,
    async close() {
      unwatch();
      if (pub) await closeRedis(pub);
      if (sub) await closeRedis(sub);
    },
  };
}
