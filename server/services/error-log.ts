import { randomUUID } from 'node:crypto';
import type { Deps } from './deps';

/**
 * The error log of the admin dashboard (`error_logs`: code, status, method, URL, message, user e-mail, time).
 *
 * What is recorded: every server error (5xx, except a dependency outage answered 503) and, sampled, every client
 * error (4xx) the API answers with — the 401/403/404/409/422/429 that admins and users actually meet. Client errors
 * go through two limits per instance (config.errorLog, documented in server/config.ts and README.md):
 * - a token bucket per (status, code, route template): `routeBurst` rows at once, refilled at `routePerMinute`;
 *   the key is the route template (`/api/admin/users/:id`), never the raw URL, so the number of buckets is bounded
 *   by the routes × codes the API has, whatever URLs an attacker sends;
 * - a cap of `clientPerMinute` client-error rows per minute (fixed window).
 * A flood of failing requests therefore writes at most `routeBurst + routePerMinute` rows per route and code and
 * `clientPerMinute` rows in total per minute and instance; what is not recorded is counted in `dropped`.
 *
 * Never recorded: bodies, headers, query strings, tokens. The URL is the path with secret path parameters
 * (SECRET_PARAMS) shown as their `:name`; the message is the error's English text plus the names and codes of
 * invalid fields (never their values).
 */

/** Path parameters whose values are secrets (one-time setup links): logged as `:name`. */
const SECRET_PARAMS = new Set(['token']);
const MINUTE = 60_000;

export interface ErrorLogEntry {
  status: number;
  code: string;
  method: string;
  /** The route template when a route matched (`/api/admin/users/:id`), else null. */
  route: string | null;
  /** The matched route's path parameters. */
  params: Record<string, string>;
  /** The request path without its query string. */
  path: string;
  message: string;
  userEmail: string | null;
}

/** The URL to store: the route template with its parameters filled in, secret ones kept as `:name`; else the path. */
export function loggedUrl(e: Pick<ErrorLogEntry, 'route' | 'params' | 'path'>): string {
  const url = e.route
    ? e.route.replace(/:(\w+)/g, (whole, name: string) => {
        const v = e.params[name];
        return v === undefined || SECRET_PARAMS.has(name) ? whole : encodeURIComponent(v);
      })
    : e.path;
  return url.slice(0, 300);
}

interface Bucket {
  tokens: number;
  at: number;
}

export function createErrorLogService(deps: Pick<Deps, 'db' | 'config' | 'clock' | 'log'>) {
  const limits = deps.config.errorLog;
  const buckets = new Map<string, Bucket>();
  let window = { start: 0, n: 0 };
  const stats = { recorded: 0, dropped: 0 };

  /** Whether a client error of this key may be recorded now (takes a token and a slot of the minute's cap). */
  function admitClientError(key: string, now: number): boolean {
    if (limits.clientPerMinute === 0) return false;
    if (now - window.start >= MINUTE) window = { start: now, n: 0 };
    if (window.n >= limits.clientPerMinute) return false;
    const b = buckets.get(key) ?? { tokens: limits.routeBurst, at: now };
    b.tokens = Math.min(limits.routeBurst, b.tokens + ((now - b.at) / MINUTE) * limits.routePerMinute);
    b.at = now;
    if (b.tokens < 1) {
      buckets.set(key, b);
      return false;
    }
    b.tokens -= 1;
    buckets.set(key, b);
    window.n += 1;
    // full buckets carry no state: forget them so the map only holds keys that were refused recently
    if (buckets.size > 10_000) for (const [k, v] of buckets) if (v.tokens + ((now - v.at) / MINUTE) * limits.routePerMinute >= limits.routeBurst) buckets.delete(k);
    return true;
  }

  /** Records the error if its limits admit it; a failure to write is logged, never thrown. Returns whether it was written. */
  async function record(e: ErrorLogEntry): Promise<boolean> {
    const now = deps.clock.now();
    if (e.status < 500 && !admitClientError(`${e.status} ${e.code} ${e.method} ${e.route ?? '(no route)'}`, now.getTime())) {
      stats.dropped += 1;
      return false;
    }
    try {
      await deps.db.kysely
        .insertInto('error_logs')
        .values({
          id: randomUUID(),
          error_code: e.code.slice(0, 100),
          status: e.status,
          method: e.method.slice(0, 10),
          url: loggedUrl(e),
          message: e.message.slice(0, 500),
          user_email: e.userEmail,
          created_at: now.toISOString(),
        })
        .execute();
      stats.recorded += 1;
      return true;
    } catch (err) {
      deps.log.error({ err }, 'could not record error log');
      return false;
    }
  }

  /** Deletes rows older than `retentionDays`, then all but the newest `maxRows`. Returns the rows deleted. */
  async function prune(): Promise<number> {
    const db = deps.db.kysely;
    const cutoff = new Date(deps.clock.now().getTime() - limits.retentionDays * 86_400_000).toISOString();
    const byAge = await db.deleteFrom('error_logs').where('created_at', '<', cutoff).executeTakeFirst();
    let deleted = Number(byAge.numDeletedRows);
    // the newest row beyond the cap (error_logs_time_idx): it and everything older goes
    const edge = await db.selectFrom('error_logs').select(['created_at', 'id']).orderBy('created_at', 'desc').orderBy('id', 'desc').offset(limits.maxRows).limit(1).executeTakeFirst();
    if (edge) {
      const byCount = await db
        .deleteFrom('error_logs')
        .where((eb) => eb.or([eb('created_at', '<', edge.created_at), eb.and([eb('created_at', '=', edge.created_at), eb('id', '<=', edge.id)])]))
        .executeTakeFirst();
      deleted += Number(byCount.numDeletedRows);
    }
    return deleted;
  }

  /** Prunes every `everyMs` (default 10 minutes) and once at start; returns the stop function. */
  function startRetention(everyMs = 10 * MINUTE): () => void {
    let running = false;
    const round = async () => {
      if (running) return;
      running = true;
      try {
        await prune();
      } catch (err) {
        deps.log.warn({ err: err instanceof Error ? err.message : String(err) }, 'error log retention failed');
      } finally {
        running = false;
      }
    };
    void round();
    const timer = setInterval(() => void round(), everyMs);
    timer.unref();
    return () => clearInterval(timer);
  }

  return { record, prune, startRetention, stats: () => ({ ...stats }) };
}
export type ErrorLogService = ReturnType<typeof createErrorLogService>;
