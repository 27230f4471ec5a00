import type { FastifyInstance, FastifyRequest } from 'fastify';
import type Provider from 'oidc-provider';
import type { JWTPayload } from 'jose';
import { authorizationCredentials, type AuthContext } from '../plugins/app/auth';
import { AppError } from '../errors';
import { createProvider } from './provider';
import { cleanupExpired, grantAlive, serviceAppClient } from './adapter';
import { accessTokenRevoked, cleanupRevokedAccessTokens } from './revocation';
import { cleanupSessionRecords } from '../services/sessions';
import type { ProviderHost } from './provider';
import { boundThumbprint, cleanupDpopProofs, createDpopVerifier, databaseReplayStore, dpopChallenge, redisReplayStore, SenderConstraintError, type DpopVerifier } from './dpop';
import { cleanupChallenges } from '../services/passkeys';
import { createAuthCache, type AuthCache, type AuthEntry } from './auth-cache';
import { KeyRing, keyPolicy, SIGNING_ALG } from './keys';
import { FIRST_PARTY_CLIENTS } from './access';
import { setKeysInUse } from '../lib/metrics';
import { createLogoutDeliveryWorker, LOGOUT_TOKEN_TYP, type LogoutDeliveryWorker } from './backchannel-logout';

/**
 * The app's OIDC runtime, built from explicit dependencies: its signing keys (loaded on first use, then polled every
 * IAM_KEYS_POLL_SECONDS), the provider for the current keys, access-token checks and the cleanup of expired provider
 * rows every 10 minutes. One per app (buildApp decorates `app.oidc`), so a second app on the same database has its own ring.
 */
export interface OidcRuntime extends OidcHandle {
  /** This instance's key ring (tests drive its clock and refresh). */
  ring(): Promise<KeyRing>;
  verifyAccessToken(token: string, audience?: TokenAudience): Promise<{ claims: AccessTokenClaims } | null>;
  /**
   * The REST API's check of a bearer (audience `api`): verifyAccessToken, then its grant and account in one query.
   * Null when the bearer is not a JWT; 401 invalid_token / account_inactive. `cacheable` (reads): an answer from the
   * auth cache (server/oidc/auth-cache.ts) when the same token was checked within IAM_AUTH_CACHE_MS.
   */
  checkApiToken(token: string, cacheable: boolean): Promise<AuthEntry | null>;
  /** This instance's auth cache (tests drive its clock). */
  authCache: AuthCache;
  /** DPoP proofs at the resource endpoints (server/oidc/dpop.ts), with the replay store shared by every instance. */
  dpop: DpopVerifier;
  /**
   * This instance's sender of back-channel logout tokens (server/oidc/backchannel-logout.ts): started with the app
   * (onReady), stopped by close(); tests drive it with `drain()`.
   */
  logoutDeliveries: LogoutDeliveryWorker;
  /** Stops the key poll, the cleanup and the logout deliveries. */
  close(): Promise<void>;
}

/**
 * The app's OIDC runtime as plain functions, for code that must not hold the FastifyInstance: the current provider
 * (rebuilt when the signing keys change) and the signature check of our access tokens.
 */
export interface OidcHandle {
  provider(): Promise<Provider>;
  signedAccessTokenPayload(token: string): Promise<JWTPayload | null>;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The OIDC runtime of this app (server/oidc/index.ts). */
    oidc: OidcRuntime;
  }
}

/** Clock difference allowed on a token's exp and nbf. */
const CLOCK_TOLERANCE_SECONDS = 5;

export function createOidcRuntime(deps: ProviderHost): OidcRuntime {
  let loading: Promise<KeyRing> | undefined;
  let current: { version: string; provider: Promise<Provider> } | undefined;
  let cleanup: NodeJS.Timeout | undefined;
  let started: KeyRing | undefined;
  let closed = false;
  const auth = createAuthCache(deps);
  const dpop = createDpopVerifier(deps.config.redisUrl ? redisReplayStore(deps, deps.config.redisUrl) : databaseReplayStore(deps.db.kysely));

  const ring = (): Promise<KeyRing> => {
    if (!loading) {
      loading = (async () => {
        const r = new KeyRing(deps.db, keyPolicy(deps.config), {
          // build the new provider right away, so the first request after a rotation step does not wait for it
          change: (changed) => {
            auth.cache.flush();
            setKeysInUse(changed.keys.map((k) => k.kid));
            void provider().catch((err: unknown) => deps.log.warn({ err }, 'oidc provider rebuild failed'));
          },
          error: (err) => deps.log.warn({ err }, 'signing key refresh failed'),
        });
        await r.refresh();
        setKeysInUse(r.keys.map((k) => k.kid));
        if (!closed) {
          r.start();
          started = r;
          cleanup = setInterval(() => {
            const db = deps.db.kysely;
            Promise.all([cleanupExpired(db), cleanupRevokedAccessTokens(db), cleanupDpopProofs(db), cleanupSessionRecords(db), cleanupChallenges(db)]).catch((err: unknown) => deps.log.warn({ err }, 'oidc cleanup failed'));
          }, 10 * 60 * 1000);
          cleanup.unref();
        }
        return r;
      })();
      // a failed first load (database down) is tried again by the next caller
      loading.catch(() => (loading = undefined));
    }
    return loading;
  };

  /**
   * The key ring, reloaded first when its snapshot is older than 3 polls. When that reload fails the database is
   * down: its error propagates and the error handler answers 503 (never a stale key).
   */
  const freshRing = async (): Promise<KeyRing> => {
    const r = await ring();
    await r.ensureFresh();
    return r;
  };

  /**
   * The provider for the current signing keys. oidc-provider reads its keys only at construction, so a new provider
   * is built when the key set changes (a next key published, promoted, a previous one retired); every caller asks for
   * it per request. A key set older than 3 polls is reloaded first (503 when the database is down), so no instance
   * signs with a key that may have been retired meanwhile.
   */
  const provider = async (): Promise<Provider> => {
    const r = await freshRing();
    const version = r.version;
    if (current?.version !== version) {
      const built = createProvider(deps, { keys: r.signingJwks() }, r.policy.jwksMaxAgeSeconds, (token) => signedAccessTokenPayload(token));
      const entry = { version, provider: built };
      current = entry;
      built.catch(() => {
        if (current === entry) current = undefined;
      });
    }
    return current.provider;
  };

  const signedAccessTokenPayload = async (token: string): Promise<JWTPayload | null> => {
    if (token.split('.').length !== 3) return null;
    const r = await freshRing();
    try {
      return (await r.verify(token, { issuer: deps.config.issuer, algorithms: [SIGNING_ALG], typ: 'at+jwt', clockTolerance: 5 })).payload;
    } catch {
      return null;
    }
  };

  const knownClient = async (clientId: string, audience: TokenAudience): Promise<boolean> => {
    if (FIRST_PARTY_CLIENTS.has(clientId)) return true;
    if (audience === 'api') return false;
    return !!(await serviceAppClient(deps.db.kysely, clientId));
  };

  /**
   * Verifies one of our JWT access tokens: signature against our JWKS, issuer, expiry, audience = a client allowed
   * for `audience` (see TokenAudience), then that its grant still exists (logout / revocation / disabling take effect
   * at once). Returns null when the bearer is not a JWT (e.g. an API key) so other verifiers can try it.
   */
  /** Signature, issuer, typ, expiry, then audience = a client allowed for `audience`; null when not a JWT. */
  const verifiedClaims = async (token: string, audience: TokenAudience): Promise<{ claims: AccessTokenClaims; kid: string | undefined } | null> => {
    if (token.split('.').length !== 3) return null;
    const r = await freshRing();
    let payload: JWTPayload;
    let kid: string | undefined;
    try {
      ({ payload, protectedHeader: { kid } } = await r.verify(token, { issuer: deps.config.issuer, algorithms: [SIGNING_ALG], typ: 'at+jwt', clockTolerance: CLOCK_TOLERANCE_SECONDS }));
    } catch {
      throw new AppError(401, 'invalid_token');
    }
    const { client_id: clientId, gid, sub, aud, jti } = payload as Partial<AccessTokenClaims>;
    if (typeof clientId !== 'string' || typeof gid !== 'string' || typeof sub !== 'string' || typeof jti !== 'string') throw new AppError(401, 'invalid_token');
    if (aud !== clientId && !(Array.isArray(aud) && aud.length === 1 && aud[0] === clientId)) throw new AppError(401, 'invalid_token');
    if (!(await knownClient(clientId, audience))) throw new AppError(401, 'invalid_token');
    return { claims: payload as AccessTokenClaims, kid };
  };

  const verifyAccessToken = async (token: string, audience: TokenAudience = 'api'): Promise<{ claims: AccessTokenClaims } | null> => {
    const verified = await verifiedClaims(token, audience);
    if (!verified) return null;
    // signed out (the grant is gone) or revoked (RFC 7009, server/oidc/revocation.ts): refused at once
    if (!(await grantAlive(deps.db.kysely, verified.claims.gid)) || (await accessTokenRevoked(deps.db.kysely, verified.claims.jti))) throw new AppError(401, 'invalid_token');
    return { claims: verified.claims };
  };

  /**
   * Whether a cached check still holds now: the token's time claims, its key's publication, the grant's expiry.
   * Without waiting when the key ring is loaded and fresh (every hit but the first after a stale poll): no promise
   * per hit (promise hooks are on in this process, see BENCHMARKS.md "Authenticated API reads").
   */
  const stillValid = (hit: AuthEntry): boolean | Promise<boolean> => {
    const now = Math.floor(Date.now() / 1000);
    const { exp, nbf } = hit.claims;
    if (typeof exp === 'number' && exp <= now - CLOCK_TOLERANCE_SECONDS) return false;
    if (typeof nbf === 'number' && nbf > now + CLOCK_TOLERANCE_SECONDS) return false;
    if (hit.grantExpiresAt !== null && hit.grantExpiresAt <= now) return false;
    if (started?.isFresh()) return started.isPublished(hit.kid);
    return freshRing().then((r) => r.isPublished(hit.kid));
  };

  const checkApiToken = async (token: string, cacheable: boolean): Promise<AuthEntry | null> => {
    if (cacheable) {
      const hit = auth.cache.get(token);
      if (hit) {
        const valid = stillValid(hit);
        if (valid === true || (valid !== false && (await valid))) return hit;
      }
      return auth.cache.shared(token, () => lookUp(token, true));
    }
    return lookUp(token, false);
  };

  /** The full check of a bearer: signature, issuer, audience, then grant and account in the database. */
  const lookUp = async (token: string, cacheable: boolean): Promise<AuthEntry | null> => {
    const generation = auth.cache.generation;
    const verified = await verifiedClaims(token, 'api');
    if (!verified) return null;
    const { claims, kid } = verified;
    // the grant and the account in one statement (both by primary key), and the token not revoked
    const row = await deps.db.kysely
      .selectFrom(['oidc_models as g', 'accounts as a'])
      .selectAll('a')
      .select('g.expires_at as grant_expires_at')
      .where('g.model', '=', 'Grant')
      .where('g.id', '=', claims.gid)
      .where('a.id', '=', claims.sub)
      .where(({ not, exists, selectFrom }) => not(exists(selectFrom('revoked_access_tokens as r').select('r.jti').where('r.jti', '=', claims.jti))))
      .executeTakeFirst();
    if (!row) throw new AppError(401, 'invalid_token');
    const { grant_expires_at: grantExpires, ...account } = row;
    const grantExpiresAt = grantExpires === null ? null : Number(grantExpires);
    if (grantExpiresAt !== null && grantExpiresAt <= Math.floor(Date.now() / 1000)) throw new AppError(401, 'invalid_token');
    if (account.status !== 'ACTIVE') throw new AppError(401, 'account_inactive');
    const entry: AuthEntry = { claims, account, grantExpiresAt, kid };
    if (cacheable) auth.cache.set(token, entry, generation);
    return entry;
  };

  // logout tokens are signed like the provider's tokens: the active key of a fresh snapshot, never a retired one
  const logoutDeliveries = createLogoutDeliveryWorker(deps, async (claims) => (await freshRing()).sign({ iss: deps.config.issuer, ...claims }, LOGOUT_TOKEN_TYP));

  return {
    ring,
    provider,
    signedAccessTokenPayload,
    verifyAccessToken,
    checkApiToken,
    authCache: auth.cache,
    dpop,
    logoutDeliveries,
    async close() {
      closed = true;
      await logoutDeliveries.stop();
      started?.stop();
      clearInterval(cleanup);
      await auth.close();
      await dpop.close();
    },
  };
}

/** The handle services and the oidc modules take (the app's runtime). */
export function oidcOf(app: FastifyInstance): OidcHandle {
  return app.oidc;
}

/** This instance's key ring (tests drive its clock and refresh). */
export async function keyRing(app: FastifyInstance): Promise<KeyRing> {
  return app.oidc.ring();
}

/** The app's OIDC provider for its current signing keys (see OidcRuntime.provider). */
export async function getProvider(app: FastifyInstance): Promise<Provider> {
  return app.oidc.provider();
}

export interface AccessTokenClaims extends JWTPayload {
  client_id: string;
  gid: string;
  jti: string;
  scope?: string;
  sub: string;
  /** RFC 9449: a DPoP-bound token names its key's thumbprint */
  cnf?: { jkt?: string };
}

/**
 * Who a token may be presented to. `api`: the product's own REST API (/api), which only takes tokens
 * issued to the product's own clients (portal, admin-console) — a service app's token carries the
 * user's identity to that app, not the right to act as the user on the product's API. `userinfo`:
 * the OIDC UserInfo endpoint, which takes tokens of any registered client.
 */
export type TokenAudience = 'api' | 'userinfo';

/** Verifies one of our JWT access tokens for `audience` (see OidcRuntime.verifyAccessToken). */
export async function verifyAccessToken(app: FastifyInstance, token: string, audience: TokenAudience = 'api'): Promise<{ claims: AccessTokenClaims } | null> {
  return app.oidc.verifyAccessToken(token, audience);
}

/**
 * The payload of one of our signed JWT access tokens (signature, issuer, expiry, typ checked), or null.
 * Nothing else is checked: callers decide about client, grant and account (token introspection).
 */
export async function signedAccessTokenPayload(app: FastifyInstance, token: string): Promise<JWTPayload | null> {
  return app.oidc.signedAccessTokenPayload(token);
}

/** The public URL of a request (APP_URL + its path; the query is ignored where this is used): a DPoP proof's `htu`. */
export function publicUrlOf(app: FastifyInstance, request: FastifyRequest): string {
  return `${app.config.appUrl}${request.url.split('?')[0] ?? ''}`;
}

/**
 * BearerVerifier for access tokens: sets `request.auth` for ACTIVE accounts. Reads (GET, HEAD) may be answered from
 * the auth cache (server/oidc/auth-cache.ts); every other method checks grant and account in the database. A
 * DPoP-bound token needs `Authorization: DPoP` and a valid proof for this request (server/oidc/dpop.ts), checked on
 * every request, cached or not; 401 `invalid_token` / `invalid_dpop_proof` with a DPoP challenge otherwise.
 */
export function accessTokenVerifier(app: FastifyInstance) {
  return async (token: string, request: FastifyRequest): Promise<AuthContext | null> => {
    const entry = await app.oidc.checkApiToken(token, request.method === 'GET' || request.method === 'HEAD');
    if (!entry) return null;
    const credentials = authorizationCredentials(request.headers.authorization);
    if (!credentials) throw new AppError(401, 'invalid_token');
    try {
      await app.oidc.dpop.checkSenderConstraint({ credentials, jkt: boundThumbprint(entry.claims), proof: request.headers.dpop, method: request.method, url: publicUrlOf(app, request) });
    } catch (err) {
      if (!(err instanceof SenderConstraintError)) throw err;
      throw new AppError(401, err.error, { headers: { 'www-authenticate': dpopChallenge(app.config.issuer, err) } });
    }
    // a copy: a handler may not change what the next request is served from
    return { account: { ...entry.account }, via: 'access_token', clientId: entry.claims.client_id, grantId: entry.claims.gid };
  };
}
