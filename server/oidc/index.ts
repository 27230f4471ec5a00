import type { FastifyInstance, FastifyRequest } from 'fastify';
import type Provider from 'oidc-provider';
import type { JWTPayload } from 'jose';
import type { AuthContext } from '../plugins/app/auth';
import { AppError } from '../errors';
import { createProvider } from './provider';
import { cleanupExpired, grantAlive, serviceAppClient } from './adapter';
import { KeyRing, keyPolicy, SIGNING_ALG } from './keys';
import { FIRST_PARTY_CLIENTS } from './access';
import { setKeysInUse } from '../lib/metrics';

interface OidcRuntime {
  ring: KeyRing;
  current?: { version: string; provider: Promise<Provider> };
}
const runtimes = new WeakMap<FastifyInstance['config'], Promise<OidcRuntime>>();

/**
 * The app's signing keys (one ring per app instance, i.e. per config object, so a second app on the same database
 * has its own): loaded on first use, then polled every IAM_KEYS_POLL_SECONDS until the app closes.
 */
function runtime(app: FastifyInstance): Promise<OidcRuntime> {
  let rt = runtimes.get(app.config);
  if (!rt) {
    rt = (async () => {
      const ring = new KeyRing(app.db, keyPolicy(app.config), {
        // build the new provider right away, so the first request after a rotation step does not wait for it
        change: (r) => {
          setKeysInUse(r.keys.map((k) => k.kid));
          void getProvider(app).catch((err: unknown) => app.log.warn({ err }, 'oidc provider rebuild failed'));
        },
        error: (err) => app.log.warn({ err }, 'signing key refresh failed'),
      });
      await ring.refresh();
      setKeysInUse(ring.keys.map((k) => k.kid));
      ring.start();
      const cleanup = setInterval(() => {
        cleanupExpired(app.db.kysely).catch((err: unknown) => app.log.warn({ err }, 'oidc cleanup failed'));
      }, 10 * 60 * 1000);
      cleanup.unref();
      const stop = async () => {
        ring.stop();
        clearInterval(cleanup);
      };
      try {
        app.addHook('onClose', stop);
      } catch (err) {
        // first used after start (the first attempt failed): the timers are unref'd, so they never hold the process
        app.log.warn({ err }, 'oidc key ring started late; its poll stops with the process');
      }
      return { ring };
    })();
    runtimes.set(app.config, rt);
    rt.catch(() => runtimes.delete(app.config));
  }
  return rt;
}

/**
 * The app's OIDC runtime as plain functions, for code that must not hold the FastifyInstance: the current provider
 * (rebuilt when the signing keys change) and the signature check of our access tokens.
 */
export interface OidcHandle {
  provider(): Promise<Provider>;
  signedAccessTokenPayload(token: string): Promise<JWTPayload | null>;
}

export function oidcOf(app: FastifyInstance): OidcHandle {
  return { provider: () => getProvider(app), signedAccessTokenPayload: (token) => signedAccessTokenPayload(app, token) };
}

/** This instance's key ring (tests drive its clock and refresh). */
export async function keyRing(app: FastifyInstance): Promise<KeyRing> {
  return (await runtime(app)).ring;
}

/**
 * The key ring, reloaded first when its snapshot is older than 3 polls. When that reload fails the database is
 * down: its error propagates and the error handler answers 503 (never a stale key).
 */
async function freshRing(rt: OidcRuntime): Promise<KeyRing> {
  await rt.ring.ensureFresh();
  return rt.ring;
}

/**
 * The app's OIDC provider for its current signing keys. oidc-provider reads its keys only at construction, so a
 * new provider is built when the key set changes (a next key published, promoted, a previous one retired); every
 * caller asks for it per request. A key set older than 3 polls is reloaded first (503 when the database is down),
 * so no instance signs with a key that may have been retired meanwhile.
 */
export async function getProvider(app: FastifyInstance): Promise<Provider> {
  const rt = await runtime(app);
  const version = (await freshRing(rt)).version;
  if (rt.current?.version !== version) {
    const provider = createProvider(app, { keys: rt.ring.signingJwks() }, rt.ring.policy.jwksMaxAgeSeconds);
    const entry = { version, provider };
    rt.current = entry;
    provider.catch(() => {
      if (rt.current === entry) rt.current = undefined;
    });
  }
  return rt.current.provider;
}

export interface AccessTokenClaims extends JWTPayload {
  client_id: string;
  gid: string;
  scope?: string;
  sub: string;
}

/**
 * Who a token may be presented to. `api`: the product's own REST API (/api), which only takes tokens
 * issued to the product's own clients (portal, admin-console) — a service app's token carries the
 * user's identity to that app, not the right to act as the user on the product's API. `userinfo`:
 * the OIDC UserInfo endpoint, which takes tokens of any registered client.
 */
export type TokenAudience = 'api' | 'userinfo';

async function knownClient(app: FastifyInstance, clientId: string, audience: TokenAudience): Promise<boolean> {
  if (FIRST_PARTY_CLIENTS.has(clientId)) return true;
  if (audience === 'api') return false;
  return !!(await serviceAppClient(app.db.kysely, clientId));
}

/**
 * Verifies one of our JWT access tokens: signature against our JWKS, issuer, expiry, audience = a client
 * allowed for `audience` (see TokenAudience), then that its grant still exists (logout / revocation /
 * disabling take effect at once). Returns null when the bearer is not a JWT (e.g. an API key) so other
 * verifiers can try it.
 */
export async function verifyAccessToken(app: FastifyInstance, token: string, audience: TokenAudience = 'api'): Promise<{ claims: AccessTokenClaims } | null> {
  if (token.split('.').length !== 3) return null;
  const ring = await freshRing(await runtime(app));
  let payload: JWTPayload;
  try {
    ({ payload } = await ring.verify(token, { issuer: app.config.issuer, algorithms: [SIGNING_ALG], typ: 'at+jwt', clockTolerance: 5 }));
  } catch {
    throw new AppError(401, 'invalid_token');
  }
  const { client_id: clientId, gid, sub, aud } = payload as Partial<AccessTokenClaims>;
  if (typeof clientId !== 'string' || typeof gid !== 'string' || typeof sub !== 'string') throw new AppError(401, 'invalid_token');
  if (aud !== clientId && !(Array.isArray(aud) && aud.length === 1 && aud[0] === clientId)) throw new AppError(401, 'invalid_token');
  if (!(await knownClient(app, clientId, audience))) throw new AppError(401, 'invalid_token');
  if (!(await grantAlive(app.db.kysely, gid))) throw new AppError(401, 'invalid_token');
  return { claims: payload as AccessTokenClaims };
}

/**
 * The payload of one of our signed JWT access tokens (signature, issuer, expiry, typ checked), or null.
 * Nothing else is checked: callers decide about client, grant and account (token introspection).
 */
export async function signedAccessTokenPayload(app: FastifyInstance, token: string): Promise<JWTPayload | null> {
  if (token.split('.').length !== 3) return null;
  const ring = await freshRing(await runtime(app));
  try {
    return (await ring.verify(token, { issuer: app.config.issuer, algorithms: [SIGNING_ALG], typ: 'at+jwt', clockTolerance: 5 })).payload;
  } catch {
    return null;
  }
}

/** BearerVerifier for access tokens: sets `request.auth` for ACTIVE accounts. */
export function accessTokenVerifier(app: FastifyInstance) {
  return async (token: string, _request: FastifyRequest): Promise<AuthContext | null> => {
    const verified = await verifyAccessToken(app, token);
    if (!verified) return null;
    const { claims } = verified;
    const account = await app.db.kysely.selectFrom('accounts').selectAll().where('id', '=', claims.sub).executeTakeFirst();
    if (!account) throw new AppError(401, 'invalid_token');
    if (account.status !== 'ACTIVE') throw new AppError(401, 'account_inactive');
    return { account, via: 'access_token', clientId: claims.client_id, grantId: claims.gid };
  };
}
