import type { IncomingMessage } from 'node:http';
import type { FastifyBaseLogger } from 'fastify';
import type { Dependency } from '../errors';

/**
 * Log lines of requests answered 503 because a dependency (database, Redis) is unavailable, aggregated per dependency
 * and window (IAM_OUTAGE_LOG_SECONDS, default 60; docs/OPERATIONS.md "Request ids and logs"): the first such request
 * of a window is logged at once, with its request id, route and error; the others are only counted, and when the
 * window ends one line gives the count (all of the window's requests), a few request ids and the count per route.
 * An outage of any traffic so logs at most two lines per dependency and window instead of one per request.
 */
export interface OutageLog {
  record(dependency: Dependency, detail: { reqId: string | undefined; route: string; err: string; source: 'api' | 'oidc' }): void;
  /** Logs the open windows' counts now (at shutdown). */
  flush(): void;
}

interface Window {
  count: number;
  reqIds: string[];
  routes: Map<string, number>;
  timer: NodeJS.Timeout;
}

const SAMPLE_IDS = 5;
const logs = new WeakMap<FastifyBaseLogger, OutageLog>();

function createOutageLog(log: FastifyBaseLogger, windowMs: number): OutageLog {
  const open = new Map<Dependency, Window>();
  const close = (dependency: Dependency) => {
    const w = open.get(dependency);
    if (!w) return;
    open.delete(dependency);
    clearTimeout(w.timer);
    if (w.count <= 1) return;
    log.warn(
      { dependency, count: w.count, windowSeconds: windowMs / 1000, reqIds: w.reqIds, routes: Object.fromEntries(w.routes) },
      `${dependency} unavailable: ${w.count} requests answered 503 in the last ${windowMs / 1000} s`,
    );
  };
  return {
    record(dependency, { reqId, route, err, source }) {
      const w = open.get(dependency);
      if (w) {
        w.count++;
        if (reqId && w.reqIds.length < SAMPLE_IDS) w.reqIds.push(reqId);
        w.routes.set(route, (w.routes.get(route) ?? 0) + 1);
        return;
      }
      const timer = setTimeout(() => close(dependency), windowMs);
      timer.unref();
      open.set(dependency, { count: 1, reqIds: reqId ? [reqId] : [], routes: new Map([[route, 1]]), timer });
      log.warn(
        { reqId, dependency, route, err, source },
        `dependency unavailable (${dependency}): answered 503; further ones in the next ${windowMs / 1000} s are counted in one line`,
      );
    },
    flush() {
      for (const dependency of [...open.keys()]) close(dependency);
    },
  };
}

/** The outage log of an app's root logger (one per app: the API's error handler and the OIDC provider share it). */
export function outageLogFor(log: FastifyBaseLogger, windowMs: number): OutageLog {
  let o = logs.get(log);
  if (!o) logs.set(log, (o = createOutageLog(log, windowMs)));
  return o;
}

/** Request ids of raw requests handed to the OIDC provider (server/routes/oidc.routes.ts), for its log lines. */
export const rawRequestIds = new WeakMap<IncomingMessage, string>();
