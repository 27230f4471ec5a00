import { randomBytes, randomUUID } from 'node:crypto';
import { createLocalJWKSet, errors as joseErrors, exportJWK, generateKeyPair, importJWK, jwtVerify, SignJWT, type CryptoKey, type JWK, type JWTPayload, type JWTVerifyGetKey, type JWTVerifyOptions, type JWTVerifyResult } from 'jose';
import { sql, type Kysely } from 'kysely';
import type { Database, SigningKeysTable } from '../db/schema';
import type { Db } from '../db/index';
import type { AppConfig } from '../config';
import { nowIso } from '../db/index';

export const SIGNING_ALG = 'RS256';
/** ID token lifetime (the provider's `ttl.IdToken`). */
export const ID_TOKEN_TTL_SECONDS = 3600;
/** Clock difference between instances and relying parties we allow for. */
const CLOCK_SLACK_SECONDS = 60;

/**
 * Key rollover, the way the large providers do it:
 *
 *   next ──(activates_at reached)──▶ active ──(next one activates)──▶ previous ──(retention passed)──▶ retired
 *
 * - `keys:rotate` inserts a `next` key: every instance publishes it in /oidc/jwks from its next poll, so relying
 *   parties have it in their JWKS cache before anything is signed with it (activates_at ≥ now + jwksMaxAge + 3 polls: an instance publishes it at its next poll, at worst
 *   when its snapshot hits maxStale).
 * - Each instance polls `signing_keys` every `pollSeconds`; the first one that sees a due `next` key promotes it
 *   under the key lock, the others load the result on their next poll. So every instance switches at most one poll
 *   after activates_at, without a restart.
 * - There is at most one `active` and one `next` key (partial unique indexes) and they change only under the lock.
 * - A `previous` key stays published and keeps verifying until every token it signed has expired, then retires.
 *   A retired key never signs: an instance signs only from a snapshot at most `maxStaleSeconds` old (older ones are
 *   reloaded first), and a key retires only `retentionSeconds` (> maxStale + longest token lifetime) after it stopped
 *   being active.
 */
export interface KeyPolicy {
  pollSeconds: number;
  /** a snapshot older than this is reloaded before the provider signs anything (3 polls) */
  maxStaleSeconds: number;
  prepublishSeconds: number;
  /** how long a previous key stays published */
  retentionSeconds: number;
  jwksMaxAgeSeconds: number;
}

export function keyPolicy(config: AppConfig): KeyPolicy {
  const { pollSeconds, jwksMaxAgeSeconds, prepublishSeconds } = config.keys;
  const maxStaleSeconds = 3 * pollSeconds;
  const longestToken = Math.max(ID_TOKEN_TTL_SECONDS, config.auth.accessTokenTtlSeconds);
  return { pollSeconds, maxStaleSeconds, prepublishSeconds, jwksMaxAgeSeconds, retentionSeconds: Math.max(2 * 3600, longestToken + maxStaleSeconds + CLOCK_SLACK_SECONDS) };
}

type LiveStatus = 'next' | 'active' | 'previous';
export interface KeyRecord {
  kid: string;
  status: LiveStatus;
  privateJwk: JWK;
  publicJwk: JWK;
  createdAt: string;
  activatesAt: string | null;
  rotatedAt: string | null;
}

async function newKeyRow(status: 'next' | 'active', activatesAt: string): Promise<SigningKeysTable> {
  const { privateKey, publicKey } = await generateKeyPair(SIGNING_ALG, { extractable: true, modulusLength: 2048 });
  const kid = randomUUID();
  const priv = { ...(await exportJWK(privateKey)), kid, alg: SIGNING_ALG, use: 'sig' };
  const pub = { ...(await exportJWK(publicKey)), kid, alg: SIGNING_ALG, use: 'sig' };
  return { kid, alg: SIGNING_ALG, private_jwk: JSON.stringify(priv), public_jwk: JSON.stringify(pub), status, created_at: nowIso(), activates_at: activatesAt, rotated_at: null, retired_at: null };
}

/**
 * Runs `fn` holding the signing-key lock: a transaction-scoped PostgreSQL advisory lock (per schema), or a SQLite
 * `BEGIN IMMEDIATE` write transaction. Concurrent instances (and `keys:rotate`) queue on it, so check-then-write on
 * `signing_keys` is never interleaved.
 */
export async function withKeyLock<T>(db: Db, fn: (trx: Kysely<Database>) => Promise<T>): Promise<T> {
  if (db.dialect === 'postgres') {
    return db.kysely.transaction().execute(async (trx) => {
      await sql`select pg_advisory_xact_lock(hashtext(current_schema() || '.signing_keys'))`.execute(trx);
      return fn(trx);
    });
  }
  return db.kysely.connection().execute(async (conn) => {
    await sql`begin immediate`.execute(conn);
    try {
      const out = await fn(conn);
      await sql`commit`.execute(conn);
      return out;
    } catch (err) {
      await sql`rollback`.execute(conn).catch(() => undefined);
      throw err;
    }
  });
}

const liveRows = (db: Kysely<Database>) => db.selectFrom('signing_keys').selectAll().where('status', 'in', ['next', 'active', 'previous']).execute();

const isDue = (row: { activates_at: string | null }, now: Date) => row.activates_at === null || row.activates_at <= now.toISOString();
const retentionCutoff = (policy: KeyPolicy, now: Date) => new Date(now.getTime() - policy.retentionSeconds * 1000).toISOString();

export interface ReconcileResult {
  created?: string;
  promoted?: string;
  retired: string[];
}

/**
 * Brings `signing_keys` to its state at `now`, under the lock: creates the first key, promotes a due `next` key
 * (the active one becomes `previous`) and retires previous keys past the retention. Cheap when nothing is due
 * (one read, no lock).
 */
export async function reconcileKeys(db: Db, policy: KeyPolicy, now: Date = new Date()): Promise<ReconcileResult> {
  const needs = (rows: SigningKeysTable[]) => {
    const active = rows.find((r) => r.status === 'active');
    const next = rows.find((r) => r.status === 'next');
    const cutoff = retentionCutoff(policy, now);
    return {
      create: !active && !next,
      promote: next && (!active || isDue(next, now)) ? next : undefined,
      retire: rows.filter((r) => r.status === 'previous' && (r.rotated_at ?? r.created_at) <= cutoff).map((r) => r.kid),
    };
  };
  const seen = needs(await liveRows(db.kysely));
  if (!seen.create && !seen.promote && seen.retire.length === 0) return { retired: [] };
  // RSA generation is slow: do it before taking the lock (and throw it away if another instance got there first)
  const fresh = seen.create ? await newKeyRow('active', now.toISOString()) : undefined;
  return withKeyLock(db, async (trx) => {
    const todo = needs(await liveRows(trx));
    const at = now.toISOString();
    const out: ReconcileResult = { retired: [] };
    if (todo.promote) {
      await trx.updateTable('signing_keys').set({ status: 'previous', rotated_at: at }).where('status', '=', 'active').execute();
      await trx.updateTable('signing_keys').set({ status: 'active', activates_at: at }).where('kid', '=', todo.promote.kid).where('status', '=', 'next').execute();
      out.promoted = todo.promote.kid;
    } else if (todo.create) {
      const row = fresh ?? (await newKeyRow('active', at));
      await trx.insertInto('signing_keys').values({ ...row, activates_at: at }).execute();
      out.created = row.kid;
    }
    if (todo.retire.length) {
      await trx.updateTable('signing_keys').set({ status: 'retired', retired_at: at }).where('kid', 'in', todo.retire).where('status', '=', 'previous').execute();
      out.retired = todo.retire;
    }
    return out;
  });
}

export interface ScheduledRotation {
  kid: string;
  /** when instances start signing with it */
  activatesAt: string;
  /** a next key was already scheduled: nothing was changed */
  alreadyScheduled: boolean;
  retired: string[];
}

/**
 * `keys:rotate`: publishes a new `next` key now that every instance starts signing with at
 * `activateAt` (default now + prepublishSeconds). With no key at all, the new key is active at once.
 * A second call while a next key is pending changes nothing.
 */
export async function scheduleRotation(db: Db, policy: KeyPolicy, opts: { now?: Date; activateAt?: Date } = {}): Promise<ScheduledRotation> {
  const now = opts.now ?? new Date();
  const { retired } = await reconcileKeys(db, policy, now);
  const activatesAt = (opts.activateAt ?? new Date(now.getTime() + policy.prepublishSeconds * 1000)).toISOString();
  const row = await newKeyRow('next', activatesAt);
  return withKeyLock(db, async (trx) => {
    const rows = await liveRows(trx);
    const pending = rows.find((r) => r.status === 'next');
    if (pending) return { kid: pending.kid, activatesAt: pending.activates_at ?? '', alreadyScheduled: true, retired };
    const hasActive = rows.some((r) => r.status === 'active');
    const at = hasActive ? activatesAt : now.toISOString();
    await trx.insertInto('signing_keys').values({ ...row, status: hasActive ? 'next' : 'active', activates_at: at }).execute();
    return { kid: row.kid, activatesAt: at, alreadyScheduled: false, retired };
  });
}

/** What `keys:rotate` prints about a scheduled rotation. */
export function rotationMessage(r: ScheduledRotation, policy: KeyPolicy): string {
  const lines = r.alreadyScheduled
    ? [`Signing key ${r.kid} is already scheduled to become active at ${r.activatesAt}; nothing changed.`]
    : [
        `Published signing key ${r.kid}. Every running instance publishes it within ${policy.pollSeconds} s and signs with it from ${r.activatesAt} ` +
          `(switching within ${policy.pollSeconds} s of that, no restart needed). The current key stays published for ${policy.retentionSeconds} s after that.`,
      ];
  if (r.retired.length) lines.push(`Retired (no longer published): ${r.retired.join(', ')}.`);
  return lines.join('\n');
}

const ORDER: Record<LiveStatus, number> = { active: 0, next: 1, previous: 2 };

/** The published keys (next, active, previous): active first, then next, then previous ones newest first. */
export async function loadKeys(db: Kysely<Database>): Promise<KeyRecord[]> {
  const rows = await liveRows(db);
  return rows
    .map((r) => ({
      kid: r.kid,
      status: r.status as LiveStatus,
      privateJwk: JSON.parse(r.private_jwk) as JWK,
      publicJwk: JSON.parse(r.public_jwk) as JWK,
      createdAt: r.created_at,
      activatesAt: r.activates_at,
      rotatedAt: r.rotated_at,
    }))
    .sort((a, b) => ORDER[a.status] - ORDER[b.status] || (b.rotatedAt ?? '').localeCompare(a.rotatedAt ?? '') || a.kid.localeCompare(b.kid));
}

interface Snapshot {
  keys: KeyRecord[];
  /** clock() when loaded */
  loadedAt: number;
  /** identifies the key set (kid:status list); a new one means the provider must be rebuilt */
  version: string;
  local: JWTVerifyGetKey;
}

export interface KeyRingEvents {
  /** a new key set was loaded (after a rotation step on any instance) */
  change?: (ring: KeyRing) => void;
  error?: (err: unknown) => void;
}

/**
 * One instance's view of `signing_keys`, refreshed every `pollSeconds` (and before signing when older than
 * `maxStaleSeconds`). The provider is built from `signingJwks()`; the API verifies bearer tokens with `verify()`.
 */
export class KeyRing {
  /** the ring's time source (tests move it forward) */
  clock: () => number = Date.now;
  private snapshot: Snapshot | undefined;
  private inflight: Promise<Snapshot> | undefined;
  private timer: NodeJS.Timeout | undefined;
  private lastForced = 0;
  /** imported private keys by kid (signing outside the provider: logout tokens) */
  private readonly signingKeys = new Map<string, Promise<CryptoKey | Uint8Array>>();

  constructor(
    private readonly db: Db,
    readonly policy: KeyPolicy,
    private readonly events: KeyRingEvents = {},
  ) {}

  private get current(): Snapshot {
    if (!this.snapshot) throw new Error('key ring not loaded');
    return this.snapshot;
  }

  get version(): string {
    return this.current.version;
  }

  get loadedAt(): number {
    return this.current.loadedAt;
  }

  /** Published keys in signing order (active first). */
  get keys(): readonly KeyRecord[] {
    return this.current.keys;
  }

  get activeKid(): string {
    const active = this.current.keys.find((k) => k.status === 'active');
    if (!active) throw new Error('no active signing key');
    return active.kid;
  }

  /** Private JWKs for the provider: the active key first (it signs), then next and previous (they verify). */
  signingJwks(): JWK[] {
    return this.current.keys.map((k) => structuredClone(k.privateJwk));
  }

  /** The public JWKS this instance publishes. */
  publicJwks(): { keys: JWK[] } {
    return { keys: this.current.keys.map((k) => structuredClone(k.publicJwk)) };
  }

  /** Reconciles (promote / retire / first key) and reloads. Concurrent calls share one run. */
  refresh(): Promise<Snapshot> {
    this.inflight ??= (async () => {
      try {
        const now = this.clock();
        await reconcileKeys(this.db, this.policy, new Date(now));
        const keys = await loadKeys(this.db.kysely);
        if (!keys.some((k) => k.status === 'active')) throw new Error('no active signing key after reconcile');
        const version = keys.map((k) => `${k.kid}:${k.status}`).join(',');
        const changed = this.snapshot?.version !== version;
        const snap: Snapshot = changed || !this.snapshot ? { keys, loadedAt: now, version, local: createLocalJWKSet({ keys: keys.map((k) => k.publicJwk) }) } : { ...this.snapshot, loadedAt: now };
        const first = !this.snapshot;
        this.snapshot = snap;
        if (changed && !first) this.events.change?.(this);
        return snap;
      } finally {
        this.inflight = undefined;
      }
    })();
    return this.inflight;
  }

  /** Whether the snapshot is loaded and at most maxStaleSeconds old (else ensureFresh reloads it). */
  isFresh(): boolean {
    return !!this.snapshot && this.clock() - this.snapshot.loadedAt <= this.policy.maxStaleSeconds * 1000;
  }

  /** Reloads first when the snapshot is older than maxStaleSeconds (the poller is late or failing). */
  async ensureFresh(): Promise<void> {
    if (!this.isFresh()) await this.refresh();
  }

  /** Starts the poll (unref'd timer). */
  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => {
      this.refresh().catch((err: unknown) => this.events.error?.(err));
    }, this.policy.pollSeconds * 1000);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }

  /** Whether `kid` verifies at `now`: next or active, or previous within the retention (retired keys never do). */
  isPublished(kid: string | undefined, now: number = this.clock()): boolean {
    const key = this.current.keys.find((k) => k.kid === kid);
    if (!key) return false;
    if (key.status !== 'previous') return true;
    return new Date(key.rotatedAt ?? key.createdAt).getTime() + this.policy.retentionSeconds * 1000 > now;
  }

  /**
   * Signs a JWT with the active key (`alg` SIGNING_ALG, `kid` and `typ` in the header), as the provider signs its
   * tokens: for the tokens the product sends itself (back-channel logout tokens, typ `logout+jwt`). The caller makes
   * sure the snapshot is fresh (ensureFresh), so a retired key never signs.
   */
  async sign(payload: JWTPayload, typ: string): Promise<string> {
    const active = this.current.keys.find((k) => k.status === 'active');
    if (!active) throw new Error('no active signing key');
    let key = this.signingKeys.get(active.kid);
    if (!key) {
      key = importJWK(active.privateJwk, SIGNING_ALG);
      this.signingKeys.set(active.kid, key);
      key.catch(() => this.signingKeys.delete(active.kid));
    }
    return new SignJWT(payload).setProtectedHeader({ alg: SIGNING_ALG, kid: active.kid, typ }).sign(await key);
  }

  /**
   * Verifies a JWT against the published keys. An unknown kid reloads the key set once (at most once a second),
   * so a key published by another instance a moment ago is found.
   */
  async verify(token: string, opts: JWTVerifyOptions): Promise<JWTVerifyResult> {
    const getKey: JWTVerifyGetKey = (header, tok) => {
      if (!this.isPublished(header.kid)) throw new joseErrors.JWKSNoMatchingKey();
      return this.current.local(header, tok);
    };
    try {
      return await jwtVerify(token, getKey, opts);
    } catch (err) {
      if (!(err instanceof joseErrors.JWKSNoMatchingKey) || this.clock() - this.lastForced < 1000) throw err;
      this.lastForced = this.clock();
      await this.refresh();
      return jwtVerify(token, getKey, opts);
    }
  }
}

/** Cookie signing keys shared by every instance (app_settings `oidc_cookie_keys`), created once. */
export async function loadCookieKeys(db: Kysely<Database>): Promise<string[]> {
  const key = 'oidc_cookie_keys';
  await db
    .insertInto('app_settings')
    .values({ key, value: JSON.stringify([randomBytes(32).toString('base64url')]), updated_at: nowIso() })
    .onConflict((oc) => oc.column('key').doNothing())
    .execute();
  const row = await db.selectFrom('app_settings').select('value').where('key', '=', key).executeTakeFirstOrThrow();
  const parsed: unknown = JSON.parse(row.value);
  if (!Array.isArray(parsed) || !parsed.every((k): k is string => typeof k === 'string') || parsed.length === 0) {
    throw new Error('app_settings.oidc_cookie_keys is malformed');
  }
  return parsed;
}
