import type { FastifyInstance, FastifyRequest } from 'fastify';
import type Provider from 'oidc-provider';
import { createLocalJWKSet, errors as joseErrors, jwtVerify, type JWTPayload } from 'jose';
import type { Db } from '../db/index';
import type { AuthContext } from '../plugins/app/auth';
import { AppError } from '../errors';
import { createProvider } from './provider';
import { grantAlive, serviceAppClient } from './adapter';
import { loadPublicKeys, SIGNING_ALG } from './keys';
import { FIRST_PARTY_CLIENTS } from './access';

const providers = new WeakMap<FastifyInstance['config'], Promise<Provider>>();

/** The app's OIDC provider (one per database handle, created on first use). */
export function getProvider(app: FastifyInstance): Promise<Provider> {
  // one provider per app instance (its config object), so a restarted app on the same database reloads keys
  let p = providers.get(app.config);
  if (!p) {
    p = createProvider(app);
    providers.set(app.config, p);
    p.catch(() => providers.delete(app.config));
  }
  return p;
}

/** Our JWKS, read from signing_keys and cached briefly so keys rotated by another instance are seen. */
const jwksCache = new WeakMap<Db, { at: number; set: ReturnType<typeof createLocalJWKSet> }>();
async function jwks(db: Db, force = false) {
  const hit = jwksCache.get(db);
  if (hit && !force && Date.now() - hit.at < 60_000) return hit.set;
  const set = createLocalJWKSet({ keys: await loadPublicKeys(db.kysely) });
  jwksCache.set(db, { at: Date.now(), set });
  return set;
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
  let payload: JWTPayload;
  try {
    const opts = { issuer: app.config.issuer, algorithms: [SIGNING_ALG], typ: 'at+jwt', clockTolerance: 5 };
    try {
      ({ payload } = await jwtVerify(token, await jwks(app.db), opts));
    } catch (err) {
      if (!(err instanceof joseErrors.JWKSNoMatchingKey)) throw err;
      ({ payload } = await jwtVerify(token, await jwks(app.db, true), opts));
    }
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
