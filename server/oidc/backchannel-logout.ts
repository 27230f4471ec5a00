/**
 * OpenID Connect Back-Channel Logout 1.0 (issue 31.1): when a session ends, every service app the session (or the
 * account) signed in to and that registered a `backchannel_logout_uri` receives a signed logout token, POSTed as
 * `application/x-www-form-urlencoded` `logout_token=…`.
 *
 * The provider's own backchannelLogout feature is not used: it sends inline during end_session (the person waits for
 * every app), only on end_session, and forgets a token an app did not take. Here a session's end only writes rows to
 * `logout_deliveries` (in the transaction that ends the session where the code owns it), and a worker per instance
 * sends them:
 * - rows are taken under a lease (`lease_owner`: this instance's INSTANCE_ID, server/services/jobs.ts, and a claim;
 *   `lease_until`), as the import jobs do (migration 0006) though not on their job runner (server/services/jobs.ts
 *   says why): instances on one database never send a row at the same time, and the row of an instance that died
 *   is taken again when its lease runs out (a row is sent at least once; logging out twice is harmless to the app);
 * - one POST per attempt, IAM_BACKCHANNEL_LOGOUT_TIMEOUT_MS at most, redirects never followed, the answer's body never
 *   read; 200 or 204 delivers (the row is deleted), anything else is retried after RETRY_DELAYS_MS (6 attempts over
 *   about an hour), then the row stays as `failed` for FAILED_RETENTION_MS;
 * - the worker wakes when this instance queues a row (wakeLogoutDeliveries), at start, and every POLL_MS for rows
 *   that are due again or were queued by an instance that stopped; it sleeps otherwise (no busy loop);
 * - the app's last delivery and last failure are kept on its row (the admin's view), the counts in metrics.
 *
 * The token: `iss`, `aud` = the app's client_id, `iat`, `exp` (2 min), `jti`, `sub`, `sid` (the session id the app's
 * ID token carried, when the session is known), `events` with the back-channel logout event, no `nonce`; signed with
 * the active signing key (header `alg`, `kid`, `typ: logout+jwt`).
 */
import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { JWTPayload } from 'jose';
import type { Database } from '../db/schema';
import { nowIso } from '../db/index';
import type { ServiceHost } from '../services/deps';
import { INSTANCE_ID } from '../services/jobs';
import { backchannelLogouts } from '../lib/metrics';

export const BACKCHANNEL_LOGOUT_EVENT = 'http://schemas.openid.net/event/backchannel-logout';
/** The JOSE header `typ` of a logout token (Back-Channel Logout 1.0 §2.4). */
export const LOGOUT_TOKEN_TYP = 'logout+jwt';
export const LOGOUT_TOKEN_TTL_SECONDS = 120;
/** Waits before the 2nd … 6th attempt: 30 s, 2 min, 5 min, 15 min, 40 min (about an hour and two minutes in all). */
export const RETRY_DELAYS_MS = [30_000, 120_000, 300_000, 900_000, 2_400_000] as const;
export const MAX_ATTEMPTS = RETRY_DELAYS_MS.length + 1;
/** How long a given-up delivery stays visible (counted as `failed` in the admin's view). */
export const FAILED_RETENTION_MS = 30 * 86_400_000;
/** How often an idle worker looks for due rows (retries, rows of a stopped instance). */
export const POLL_MS = 30_000;
/** Rows taken per claim; they are sent side by side. */
const BATCH = 10;

/** What ended the session (kept on the row, logged, a label of the enqueued metric). */
export type LogoutReason = 'sign_out' | 'rp_logout' | 'account_deactivated' | 'account_deleted' | 'sessions_ended' | 'password_changed';

/** One app to tell: its client id and the session id its ID token carried (null: no session known, `sub` only). */
export interface LogoutTarget {
  clientId: string;
  sid: string | null;
}

// ---------------------------------------------------------------- who to tell

interface SessionPayload {
  accountId?: unknown;
  authorizations?: Record<string, { sid?: unknown; grantId?: unknown } | undefined>;
}

const str = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);

function parse<T>(payload: string): T | null {
  try {
    return JSON.parse(payload) as T;
  } catch {
    return null;
  }
}

/** The clients a stored provider session signed in to: client id, the sid its ID tokens carry, its grant. */
export function sessionAuthorizations(payload: string): { clientId: string; sid: string | null; grantId: string | null }[] {
  const auths = parse<SessionPayload>(payload)?.authorizations;
  if (!auths || typeof auths !== 'object') return [];
  return Object.entries(auths).map(([clientId, a]) => ({ clientId, sid: str(a?.sid), grantId: str(a?.grantId) }));
}

/** An `oidc_models` row as the revocation reads it. */
export interface StoredModelRow {
  model: string;
  id: string;
  grant_id: string | null;
  payload: string;
}

/**
 * Who to tell when `ended` grants and sessions of one account end: every client of an ended session (with the sid
 * the session gave it), every client whose grant ends inside a session that stays (with that sid), and every ended
 * grant no session names any more (its session expired or ended earlier) with the sid its refresh token carries, or
 * none. First-party clients are among them; `enqueueLogouts` keeps only apps that registered a URI.
 */
export function logoutTargetsOf(rows: readonly StoredModelRow[], ended: { grants: ReadonlySet<string>; sessions: ReadonlySet<string> }): LogoutTarget[] {
  const targets: LogoutTarget[] = [];
  const covered = new Set<string>();
  for (const r of rows) {
    if (r.model !== 'Session') continue;
    const sessionEnds = ended.sessions.has(r.id);
    for (const a of sessionAuthorizations(r.payload)) {
      if (!sessionEnds && !(a.grantId && ended.grants.has(a.grantId))) continue;
      targets.push({ clientId: a.clientId, sid: a.sid });
      if (a.grantId) covered.add(a.grantId);
    }
  }
  for (const r of rows) {
    if (r.model !== 'Grant' || !ended.grants.has(r.id) || covered.has(r.id)) continue;
    const clientId = str(parse<{ clientId?: unknown }>(r.payload)?.clientId);
    if (!clientId) continue;
    const refresh = rows.find((t) => t.model === 'RefreshToken' && t.grant_id === r.id && str(parse<{ sid?: unknown }>(t.payload)?.sid));
    targets.push({ clientId, sid: refresh ? str(parse<{ sid?: unknown }>(refresh.payload)?.sid) : null });
  }
  return targets;
}

// ---------------------------------------------------------------- the queue

/**
 * Queues one logout token per (app, sid) of `targets` whose app registered a back-channel logout URI; the other
 * clients (the product's own, apps without a URI) are skipped. Run it in the transaction that ends the session, then
 * call wakeLogoutDeliveries after the commit. Returns the number of rows queued.
 */
export async function enqueueLogouts(db: Kysely<Database>, accountId: string, targets: readonly LogoutTarget[], reason: LogoutReason, at = Date.now()): Promise<number> {
  const unique = [...new Map(targets.map((t) => [`${t.clientId}\u0000${t.sid ?? ''}`, t])).values()];
  const clientIds = [...new Set(unique.map((t) => t.clientId))];
  if (!clientIds.length) return 0;
  const apps = await db.selectFrom('service_apps').select(['id', 'name']).where('name', 'in', clientIds).where('backchannel_logout_uri', 'is not', null).execute();
  const appIds = new Map(apps.map((a) => [a.name, a.id]));
  const now = new Date(at).toISOString();
  const rows = unique.flatMap((t) => {
    const appId = appIds.get(t.clientId);
    return appId
      ? [{ id: randomUUID(), service_app_id: appId, account_id: accountId, sid: t.sid, reason, status: 'pending' as const, next_attempt_at: at, lease_owner: null, last_error: null, created_at: now, updated_at: now }]
      : [];
  });
  if (rows.length) await db.insertInto('logout_deliveries').values(rows).execute();
  backchannelLogouts.enqueued(reason, rows.length);
  return rows.length;
}

/** The worker of each app, by its database (services and the provider only hold the query builder). */
const workers = new WeakMap<object, LogoutDeliveryWorker>();

/** Tells this instance's worker that rows were queued (after the commit); a no-op when no worker runs on `db`. */
export function wakeLogoutDeliveries(db: Kysely<Database>): void {
  workers.get(db)?.wake();
}

// ---------------------------------------------------------------- delivery

/**
 * Why an attempt failed, as stored and shown: `http_<status>` (any status but 200/204, a redirect included: it is
 * never followed), `timeout`, `connection_refused`, `network` (DNS, TLS, reset…), `signing` (no key to sign with).
 */
export type DeliveryError = `http_${number}` | 'timeout' | 'connection_refused' | 'network' | 'signing';

export interface DrainResult {
  delivered: number;
  retried: number;
  failed: number;
}

export interface LogoutDeliveryWorker {
  /** Starts the poll and sends what is due now (the app's onReady). */
  start(): void;
  /** Sends what is due soon, without waiting (after this instance queued rows). */
  wake(): void;
  /**
   * Sends every row due at `now` (default: the clock) until none is left, after this instance's round in flight; for
   * tests, which move `now` forward to reach retries. Resolves with what this call's rounds did.
   */
  drain(opts?: { now?: number }): Promise<DrainResult>;
  /** Stops: no new round; attempts in flight are cut off and their rows released (taken again by the next worker). */
  stop(): Promise<void>;
}

interface ClaimedRow {
  id: string;
  account_id: string;
  sid: string | null;
  attempts: number;
  service_app_id: string;
  client_id: string;
  uri: string | null;
}

/** Signs a logout token's claims (iss is added by the signer's owner). */
export type LogoutTokenSigner = (claims: JWTPayload) => Promise<string>;

/**
 * The worker of one app (server/oidc/index.ts builds it with the app's key ring). `leaseMs` outlasts an attempt
 * (at least twice the timeout); `fetchImpl` is the global fetch (tests may count calls).
 */
export function createLogoutDeliveryWorker(
  deps: ServiceHost,
  sign: LogoutTokenSigner,
  opts: { leaseMs?: number; fetchImpl?: typeof fetch } = {},
): LogoutDeliveryWorker {
  const db = deps.db.kysely;
  const timeoutMs = deps.config.backchannelLogout.timeoutMs;
  const leaseMs = Math.max(opts.leaseMs ?? deps.config.timeouts.jobLeaseMs, 2 * timeoutMs + 1000);
  const doFetch = opts.fetchImpl ?? fetch;
  const closing = new AbortController();
  let stopped = false;
  let poll: NodeJS.Timeout | undefined;
  let current: Promise<unknown> | undefined;
  /** what the loop in flight (`current`) has done so far: a drain that waits for it counts it too */
  let currentResult: DrainResult | undefined;
  let again = false;
  let lastRetention = 0;

  /**
   * Takes up to BATCH due rows for this claim (a row another instance holds, or a delivered one, is not taken).
   * `due`: how many were due when looked at; 0 means nothing is left, while rows another instance took between the
   * look and the update leave `rows` short or empty with more due after them.
   */
  const claim = async (now: number): Promise<{ owner: string; due: number; rows: ClaimedRow[] }> => {
    const owner = `${INSTANCE_ID}:${randomUUID().slice(0, 8)}`;
    const due = await db
      .selectFrom('logout_deliveries')
      .select('id')
      .where('status', '=', 'pending')
      .where('next_attempt_at', '<=', now)
      .where('lease_until', '<', now)
      .orderBy('next_attempt_at')
      .limit(BATCH)
      .execute();
    if (!due.length) return { owner, due: 0, rows: [] };
    // the conditions again in the update: of two instances that read the same rows, each row goes to one of them
    await db
      .updateTable('logout_deliveries')
      .set({ lease_owner: owner, lease_until: now + leaseMs })
      .where('id', 'in', due.map((d) => d.id))
      .where('status', '=', 'pending')
      .where('lease_until', '<', now)
      .execute();
    const rows = await db
      .selectFrom('logout_deliveries as d')
      .innerJoin('service_apps as a', 'a.id', 'd.service_app_id')
      .select(['d.id', 'd.account_id', 'd.sid', 'd.attempts', 'd.service_app_id', 'a.name as client_id', 'a.backchannel_logout_uri as uri'])
      .where('d.lease_owner', '=', owner)
      .execute();
    return { owner, due: due.length, rows: rows.map((r) => ({ ...r, attempts: Number(r.attempts) })) };
  };

  /** One POST; null when the app took it (200/204), else why not. 'stopped' when the instance stopped meanwhile. */
  const send = async (row: ClaimedRow, uri: string): Promise<DeliveryError | null | 'stopped'> => {
    let token: string;
    try {
      const iat = Math.floor(Date.now() / 1000);
      token = await sign({
        aud: row.client_id,
        iat,
        exp: iat + LOGOUT_TOKEN_TTL_SECONDS,
        jti: randomUUID(),
        sub: row.account_id,
        ...(row.sid ? { sid: row.sid } : {}),
        events: { [BACKCHANNEL_LOGOUT_EVENT]: {} },
      });
    } catch (err) {
      deps.log.warn({ err: err instanceof Error ? err.message : String(err) }, 'logout token not signed');
      return 'signing';
    }
    const timeout = AbortSignal.timeout(timeoutMs);
    try {
      const res = await doFetch(uri, {
        method: 'POST',
        redirect: 'manual',
        headers: { 'content-type': 'application/x-www-form-urlencoded', accept: '*/*' },
        body: new URLSearchParams({ logout_token: token }).toString(),
        signal: AbortSignal.any([timeout, closing.signal]),
      });
      // the answer's body is never read (a redirect's target neither)
      await res.body?.cancel().catch(() => undefined);
      return res.status === 200 || res.status === 204 ? null : `http_${res.status}`;
    } catch (err) {
      if (closing.signal.aborted) return 'stopped';
      if (timeout.aborted) return 'timeout';
      const code = (err as { cause?: { code?: unknown } }).cause?.code;
      return code === 'ECONNREFUSED' ? 'connection_refused' : 'network';
    }
  };

  /** Sends one claimed row and records the outcome, fenced by the claim (a row taken over meanwhile is left alone). */
  const deliver = async (owner: string, row: ClaimedRow, now: number, result: DrainResult): Promise<void> => {
    const started = performance.now();
    const outcome = row.uri ? await send(row, row.uri) : null;
    const seconds = (performance.now() - started) / 1000;
    const mine = () => db.updateTable('logout_deliveries').where('id', '=', row.id).where('lease_owner', '=', owner);
    if (outcome === 'stopped') {
      await mine().set({ lease_owner: null, lease_until: 0 }).execute();
      return;
    }
    const at = nowIso();
    if (outcome === null) {
      // delivered (or the app removed its URI meanwhile: nothing to send any more)
      await db.transaction().execute(async (trx) => {
        const gone = await trx.deleteFrom('logout_deliveries').where('id', '=', row.id).where('lease_owner', '=', owner).executeTakeFirst();
        if (row.uri && Number(gone.numDeletedRows) > 0) await trx.updateTable('service_apps').set({ backchannel_delivered_at: at }).where('id', '=', row.service_app_id).execute();
      });
      if (row.uri) {
        result.delivered++;
        backchannelLogouts.attempt('delivered', seconds);
      }
      return;
    }
    const attempts = row.attempts + 1;
    const giveUp = attempts >= MAX_ATTEMPTS;
    await db.transaction().execute(async (trx) => {
      await trx
        .updateTable('logout_deliveries')
        .set({
          attempts,
          status: giveUp ? 'failed' : 'pending',
          next_attempt_at: giveUp ? now : now + (RETRY_DELAYS_MS[attempts - 1] ?? RETRY_DELAYS_MS[RETRY_DELAYS_MS.length - 1]),
          lease_owner: null,
          lease_until: 0,
          last_error: outcome,
          updated_at: at,
        })
        .where('id', '=', row.id)
        .where('lease_owner', '=', owner)
        .execute();
      await trx.updateTable('service_apps').set({ backchannel_failed_at: at, backchannel_error: outcome }).where('id', '=', row.service_app_id).execute();
    });
    if (giveUp) {
      result.failed++;
      backchannelLogouts.attempt('failed', seconds);
      deps.log.warn({ clientId: row.client_id, attempts, error: outcome }, 'back-channel logout given up');
    } else {
      result.retried++;
      backchannelLogouts.attempt('retried', seconds);
    }
  };

  /** Claims and sends until nothing is due at `now`; then counts the queue and, now and then, drops old failures. */
  const rounds = async (now: number, result: DrainResult = { delivered: 0, retried: 0, failed: 0 }): Promise<DrainResult> => {
    while (!stopped) {
      const { owner, due, rows } = await claim(now);
      if (!due) break;
      await Promise.all(rows.map((row) => deliver(owner, row, now, result)));
    }
    const pending = await db.selectFrom('logout_deliveries').select((eb) => eb.fn.countAll<number | string>().as('n')).where('status', '=', 'pending').executeTakeFirst();
    backchannelLogouts.pending(Number(pending?.n ?? 0));
    if (now - lastRetention > 3_600_000) {
      lastRetention = now;
      await db
        .deleteFrom('logout_deliveries')
        .where('status', '=', 'failed')
        .where('updated_at', '<', new Date(now - FAILED_RETENTION_MS).toISOString())
        .execute();
    }
    return result;
  };

  /** One loop at a time per instance: a wake during a round runs another round after it. */
  const kick = (): void => {
    if (stopped) return;
    if (current) {
      again = true;
      return;
    }
    const result: DrainResult = { delivered: 0, retried: 0, failed: 0 };
    const loop = (async () => {
      do {
        again = false;
        await rounds(Date.now(), result);
      } while (again && !stopped);
    })();
    current = loop;
    currentResult = result;
    loop
      .catch((err: unknown) => deps.log.warn({ err: err instanceof Error ? err.message : String(err) }, 'back-channel logout round failed'))
      .finally(() => {
        if (current === loop) current = currentResult = undefined;
      });
  };

  const worker: LogoutDeliveryWorker = {
    start() {
      if (stopped || poll) return;
      workers.set(db, worker);
      poll = setInterval(kick, POLL_MS);
      poll.unref();
      kick();
    },
    wake: kick,
    async drain(o = {}) {
      const total: DrainResult = { delivered: 0, retried: 0, failed: 0 };
      while (current) {
        const seen = currentResult;
        await current.catch(() => undefined);
        if (seen) for (const k of ['delivered', 'retried', 'failed'] as const) total[k] += seen[k];
      }
      if (stopped) return total;
      const run = rounds(o.now ?? Date.now(), total);
      current = run;
      currentResult = total;
      try {
        return await run;
      } finally {
        if (current === run) current = currentResult = undefined;
        if (again) kick();
      }
    },
    async stop() {
      stopped = true;
      clearInterval(poll);
      if (workers.get(db) === worker) workers.delete(db);
      closing.abort();
      await current?.catch(() => undefined);
    },
  };
  return worker;
}
