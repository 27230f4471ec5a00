import { errors, type KoaContextWithOIDC } from 'oidc-provider';
import type { Kysely } from 'kysely';
import type { JWTPayload } from 'jose';
import type { Database } from '../db/schema';
import { nowIso } from '../db/index';

/**
 * Revocation of our JWT access tokens (RFC 7009) at `/oidc/token/revocation`.
 *
 * oidc-provider revokes what it stores (refresh tokens, opaque access tokens) and refuses a structured (JWT) token
 * with 400 `unsupported_token_type` — it does not store ours. The provider still runs the whole endpoint first: body,
 * client authentication (with the registered-method rule, server/oidc/client-auth-method.ts), CORS by client, the
 * `token` parameter. `answerStructuredRevocations` then takes over that one refusal, for an authenticated client:
 * - a token that is not one of ours (signature, issuer, `typ: at+jwt`; an expired one too): 200, nothing to do;
 * - one of ours issued to another client: the provider's rule for its own tokens (`revocationAllowed`);
 * - one of ours issued to the caller: its `jti` goes into `revoked_access_tokens` until its `exp`, and 200.
 * UserInfo, introspection and the REST API refuse a revoked jti (`accessTokenRevoked`; the API in the same statement
 * as the grant and the account, server/oidc/index.ts). Only that token is revoked: the grant, its refresh token and
 * other access tokens stay (RFC 7009 §2.1 "MAY"); revoking the refresh token ends the grant and every token of it.
 */

/**
 * Whether `client` may revoke a token issued to `tokenClientId` (oidc-provider's default policy, kept for its own
 * tokens and applied to ours): its own tokens yes; another client's: a public client is answered 200 with nothing
 * revoked (it is not authenticated, so it learns nothing), a confidential one gets 400 invalid_request (RFC 7009
 * §2.1: the request is refused and the client told).
 */
export function revocationAllowed(client: { clientId: string; clientAuthMethod?: string | undefined }, tokenClientId: unknown): boolean {
  if (tokenClientId === client.clientId) return true;
  if (client.clientAuthMethod === 'none') return false;
  throw new errors.InvalidRequest('client is not authorized to revoke the presented token');
}

/** Records the revocation of access token `jti` (issued to `clientId`) until `exp` (epoch seconds). Idempotent. */
export async function revokeAccessToken(db: Kysely<Database>, token: { jti: string; clientId: string; exp: number }): Promise<void> {
  // an INSERT into this table empties the auth caches (Db.onWrite; other instances by the Redis message or the TTL)
  await db
    .insertInto('revoked_access_tokens')
    .values({ jti: token.jti, client_id: token.clientId, expires_at: token.exp, revoked_at: nowIso() })
    .onConflict((oc) => oc.column('jti').doNothing())
    .execute();
}

/** Whether access token `jti` was revoked. */
export async function accessTokenRevoked(db: Kysely<Database>, jti: string): Promise<boolean> {
  const row = await db.selectFrom('revoked_access_tokens').select('jti').where('jti', '=', jti).executeTakeFirst();
  return !!row;
}

/** Deletes revocations of tokens that have expired anyway. Returns the number deleted. */
export async function cleanupRevokedAccessTokens(db: Kysely<Database>, now = Math.floor(Date.now() / 1000)): Promise<number> {
  const res = await db.deleteFrom('revoked_access_tokens').where('expires_at', '<=', now).executeTakeFirst();
  return Number(res.numDeletedRows);
}

/** The signature check of our access tokens (OidcHandle.signedAccessTokenPayload): the payload, or null. */
export type AccessTokenReader = (token: string) => Promise<JWTPayload | null>;

/**
 * Koa middleware for the provider (provider.use, so it wraps the router): answers the provider's
 * `unsupported_token_type` refusal of a structured token at the revocation endpoint as described above. Any other
 * answer passes untouched. A failure while recording is the provider's `server_error` (503 for an outage, provider.ts).
 */
export function answerStructuredRevocations(db: Kysely<Database>, readAccessToken: AccessTokenReader) {
  return async (ctx: KoaContextWithOIDC, next: () => Promise<void>): Promise<void> => {
    await next();
    if (ctx.status !== 400 || (ctx.body as { error?: unknown } | undefined)?.error !== 'unsupported_token_type') return;
    const oidc = ctx.oidc as KoaContextWithOIDC['oidc'] | undefined;
    const client = oidc?.client;
    const token = oidc?.params?.token;
    // the provider refuses structured tokens only after the client authenticated
    if (oidc?.route !== 'revocation' || !client || typeof token !== 'string') return;
    try {
      const payload = await readAccessToken(token);
      const { jti, exp } = payload ?? {};
      if (payload && typeof jti === 'string' && typeof exp === 'number' && revocationAllowed(client, payload.client_id)) {
        await revokeAccessToken(db, { jti, clientId: client.clientId, exp });
      }
      ctx.status = 200;
      ctx.body = '';
    } catch (err) {
      if (err instanceof errors.InvalidRequest) {
        ctx.status = err.statusCode;
        ctx.body = { error: err.error, error_description: err.error_description };
        ctx.oidc.provider.emit('revocation.error', ctx, err);
        return;
      }
      // as the provider answers its own failures: server_error, which provider.ts turns into 503 for an outage
      ctx.status = 500;
      ctx.body = { error: 'server_error', error_description: 'oops! something went wrong' };
      ctx.oidc.provider.emit('server_error', ctx, err);
    }
  };
}
