import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/**
 * Prometheus metrics of this process (docs/OPERATIONS.md lists them). One registry per process: every
 * helper below is safe to call from anywhere, at any time, also when /metrics is not exposed.
 *
 * Helpers for other modules:
 *  - `signInOutcome(outcome)`             a sign-in attempt ended (success, invalid_credentials, locked, mfa_required, ...)
 *  - `lockouts.inc(kind)`                 a throttle key got locked (kind = key prefix: account, email, otp, ip)
 *  - `hashQueue.setDepth(n)`, `hashQueue.refused()`   password-hash work waiting / refused because the queue was full
 *  - `setKeysInUse(kids)`                 the signing key ids currently published (replaces the previous set)
 *  - `redisErrors.inc(client)`            a Redis error (connection or command) seen by `client` (throttle, rate_limit)
 *  - `importJobs.*`                       import job progress
 *  - `backchannelLogouts.*`               logout tokens queued, delivery attempts by result, the queue's pending count
 */
export const registry = new Registry();

let processMetrics = false;
/**
 * prom-client's default process metrics (CPU, memory, handles, GC, event-loop lag), registered by the metrics plugin
 * only when /metrics is exposed (IAM_METRICS_TOKEN or METRICS_PORT): their event-loop-delay histogram is Node's
 * monitorEventLoopDelay, a timer that wakes the event loop every 10 ms (its resolution) for as long as the process
 * lives and cannot be paused; a server nobody scrapes should sleep (BENCHMARKS.md "Idle server"). Idempotent.
 */
export function collectProcessMetrics(): void {
  if (processMetrics) return;
  processMetrics = true;
  collectDefaultMetrics({ register: registry, prefix: 'iam_' });
}

const registers = [registry];

/** The OIDC provider's endpoints (all served by the one `/oidc/*` route), as metric labels. */
const OIDC_ENDPOINTS = new Set([
  '/oidc/auth',
  '/oidc/token',
  '/oidc/token/revocation',
  '/oidc/token/introspection',
  '/oidc/me',
  '/oidc/jwks',
  '/oidc/session/end',
  '/oidc/session/end/confirm',
  '/oidc/session/end/success',
  '/oidc/.well-known/openid-configuration',
  '/oidc/request',
  '/oidc/reg',
  '/oidc/backchannel',
  '/oidc/device/auth',
  '/oidc/device',
]);

/**
 * The label of an `/oidc/...` path: the endpoint (`/oidc/token`, `/oidc/jwks`, …), `/oidc/auth/:uid` for the resume of
 * an authorization (the provider's interaction id), `/oidc/*` for anything else (bounded label values).
 */
export function oidcEndpointOf(path: string): string {
  const p = (path.split('?')[0] ?? '').replace(/\/+$/, '') || '/oidc';
  if (OIDC_ENDPOINTS.has(p)) return p;
  if (p.startsWith('/oidc/auth/')) return '/oidc/auth/:uid';
  return '/oidc/*';
}

export const httpRequests = new Counter({
  name: 'iam_http_requests_total',
  help: 'HTTP requests answered, by method, route template and status',
  labelNames: ['method', 'route', 'status'] as const,
  registers,
});

export const httpDuration = new Histogram({
  name: 'iam_http_request_duration_seconds',
  help: 'HTTP request latency, by method, route template and status',
  labelNames: ['method', 'route', 'status'] as const,
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
  registers,
});

const signIns = new Counter({
  name: 'iam_sign_ins_total',
  help: 'Sign-in attempts by outcome',
  labelNames: ['outcome'] as const,
  registers,
});
/** Counts one sign-in attempt by its outcome (a short stable code, e.g. `success`, `invalid_credentials`, `locked`). */
export function signInOutcome(outcome: string): void {
  signIns.inc({ outcome });
}

const lockoutCounter = new Counter({
  name: 'iam_lockouts_total',
  help: 'Throttle keys that got locked, by kind (key prefix)',
  labelNames: ['kind'] as const,
  registers,
});
export const lockouts = {
  /** `kind`: the throttle key's prefix (account, email, otp, ip). */
  inc(kind: string): void {
    lockoutCounter.inc({ kind });
  },
};

const hashDepth = new Gauge({ name: 'iam_password_hash_queue_depth', help: 'Password hashes waiting for a worker slot', registers });
const hashRefusals = new Counter({ name: 'iam_password_hash_refusals_total', help: 'Password-hash requests refused because the queue was full', registers });
export const hashQueue = {
  setDepth(n: number): void {
    hashDepth.set(n);
  },
  refused(): void {
    hashRefusals.inc();
  },
};

const signingKeys = new Gauge({ name: 'iam_signing_keys_in_use', help: 'Signing key ids currently published (1 per kid)', labelNames: ['kid'] as const, registers });
/** Replaces the set of signing key ids in use. */
export function setKeysInUse(kids: readonly string[]): void {
  signingKeys.reset();
  for (const kid of kids) signingKeys.set({ kid }, 1);
}

export const redisErrors = new Counter({
  name: 'iam_redis_errors_total',
  help: 'Redis errors (connection and command), by client',
  labelNames: ['client'] as const,
  registers,
});

const redisClients = new Map<object, { client: string; connected: () => boolean }>();
/**
 * Registers a Redis client's connection state for `iam_redis_connected{client}` (1 when every client of that name
 * in this process is connected, 0 otherwise); returns the function that unregisters it.
 */
export function watchRedis(owner: object, client: string, connected: () => boolean): () => void {
  redisClients.set(owner, { client, connected });
  return () => redisClients.delete(owner);
}
new Gauge({
  name: 'iam_redis_connected',
  help: 'Redis connection state by client (throttle, rate_limit, health): 1 connected, 0 not (routes that need it answer 503)',
  labelNames: ['client'] as const,
  registers,
  collect() {
    this.reset();
    const state = new Map<string, boolean>();
    for (const { client, connected } of redisClients.values()) state.set(client, (state.get(client) ?? true) && connected());
    for (const [client, up] of state) this.set({ client }, up ? 1 : 0);
  },
});

export const dependencyUnavailable = new Counter({
  name: 'iam_dependency_unavailable_total',
  help: 'Requests answered 503 because a dependency (database, redis) was unreachable or too slow',
  labelNames: ['dependency'] as const,
  registers,
});

// ---------------------------------------------------------------- database pool

export interface PoolStats {
  total: number;
  idle: number;
  waiting: number;
  max: number;
}
const poolSources = new Set<() => PoolStats>();
/** Registers a pool's live numbers (PostgreSQL); returns the function that unregisters it. */
export function watchPool(stats: () => PoolStats): () => void {
  poolSources.add(stats);
  return () => poolSources.delete(stats);
}
new Gauge({
  name: 'iam_db_pool_connections',
  help: 'Database pool connections: total open, idle, in use, max; waiting = acquisitions queued',
  labelNames: ['state'] as const,
  registers,
  collect() {
    const sum = { total: 0, idle: 0, waiting: 0, max: 0 };
    for (const s of poolSources) {
      const v = s();
      sum.total += v.total;
      sum.idle += v.idle;
      sum.waiting += v.waiting;
      sum.max += v.max;
    }
    this.set({ state: 'total' }, sum.total);
    this.set({ state: 'idle' }, sum.idle);
    this.set({ state: 'in_use' }, sum.total - sum.idle);
    this.set({ state: 'waiting' }, sum.waiting);
    this.set({ state: 'max' }, sum.max);
  },
});
export const poolAcquire = new Histogram({
  name: 'iam_db_pool_acquire_seconds',
  help: 'Time to get a database connection from the pool, by result (ok, timeout, error, unavailable)',
  labelNames: ['result'] as const,
  buckets: [0.001, 0.005, 0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
  registers,
});
export const dbErrors = new Counter({
  name: 'iam_db_errors_total',
  help: 'Database connection-level errors (terminated connections, timeouts, refused connects), by kind',
  labelNames: ['kind'] as const,
  registers,
});

// ---------------------------------------------------------------- import jobs

const jobsRunning = new Gauge({ name: 'iam_import_jobs_running', help: 'Import jobs running in this process', registers });
const jobRows = new Counter({ name: 'iam_import_rows_total', help: 'Import rows processed by background jobs, by result', labelNames: ['result'] as const, registers });
const jobsFinished = new Counter({ name: 'iam_import_jobs_finished_total', help: 'Import jobs finished, by status (done, failed, interrupted)', labelNames: ['status'] as const, registers });
export const importJobs = {
  started(): void {
    jobsRunning.inc();
  },
  rows(result: 'created' | 'skipped' | 'failed', n: number): void {
    if (n > 0) jobRows.inc({ result }, n);
  },
  finished(status: 'done' | 'failed' | 'interrupted'): void {
    jobsRunning.dec();
    jobsFinished.inc({ status });
  },
  /** A job of a dead owner was taken over and closed (counted, not running here). */
  recovered(status: 'failed' | 'interrupted'): void {
    jobsFinished.inc({ status });
  },
};

// ---------------------------------------------------------------- back-channel logout

const logoutEnqueued = new Counter({ name: 'iam_backchannel_logout_enqueued_total', help: 'Logout tokens queued for service apps (OpenID Connect Back-Channel Logout), by reason', labelNames: ['reason'] as const, registers });
const logoutAttempts = new Counter({
  name: 'iam_backchannel_logout_attempts_total',
  help: 'Back-channel logout delivery attempts by this instance, by result: delivered (200/204), retried (failed, another try is due later), failed (failed, retries used up)',
  labelNames: ['result'] as const,
  registers,
});
const logoutPending = new Gauge({ name: 'iam_backchannel_logout_pending', help: 'Logout tokens waiting in the shared queue (first try or retry), as this instance last counted', registers });
const logoutDuration = new Histogram({
  name: 'iam_backchannel_logout_duration_seconds',
  help: 'Time a service app took to answer a logout token (or to fail), by result',
  labelNames: ['result'] as const,
  buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
  registers,
});
export const backchannelLogouts = {
  enqueued(reason: string, n: number): void {
    if (n > 0) logoutEnqueued.inc({ reason }, n);
  },
  attempt(result: 'delivered' | 'retried' | 'failed', seconds: number): void {
    logoutAttempts.inc({ result });
    logoutDuration.observe({ result }, seconds);
  },
  pending(n: number): void {
    logoutPending.set(n);
  },
};
