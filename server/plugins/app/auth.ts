import fp from 'fastify-plugin';
import type { FastifyRequest } from 'fastify';
import type { Account, AdminRole } from '../../db/schema';
import { AppError } from '../../errors';

export interface AuthContext {
  account: Account;
  via: 'access_token' | 'api_key';
  clientId?: string;
  grantId?: string;
  sessionId?: string;
}

/**
 * Returns the auth context for a token it recognises, null if it is not its kind, or throws AppError(401). The token
 * comes with either scheme (`authorizationCredentials`); a verifier that cares reads the request.
 */
export type BearerVerifier = (token: string, request: FastifyRequest) => Promise<AuthContext | null>;

/** How a request presents its token: `Bearer` (RFC 6750) or `DPoP` (RFC 9449, a proof-of-possession bound token). */
export type AuthScheme = 'Bearer' | 'DPoP';

export interface Credentials {
  scheme: AuthScheme;
  token: string;
}

/** `Authorization: Bearer <token>` or `Authorization: DPoP <token>` (schemes case-insensitive), else null. */
export function authorizationCredentials(header: string | undefined): Credentials | null {
  const m = /^(Bearer|DPoP)\s+(\S+)\s*$/i.exec(header ?? '');
  if (!m?.[1] || !m[2]) return null;
  return { scheme: m[1].toLowerCase() === 'dpop' ? 'DPoP' : 'Bearer', token: m[2] };
}

/**
 * API keys (technical users) are accepted only on routes that opt in with `config: { apiKey: true }`:
 * a key identifies a machine, it must never manage the account's security (2FA, password, profile,
 * sessions) — refused with 403 `api_key_not_allowed` everywhere else.
 */
export function apiKeyAllowed(request: FastifyRequest): boolean {
  return request.routeOptions.config?.apiKey === true;
}

/** Resolves the bearer once per request through the registered verifiers. */
export async function resolveAuth(request: FastifyRequest): Promise<AuthContext | null> {
  if (request.auth) return request.auth;
  const credentials = authorizationCredentials(request.headers.authorization);
  if (!credentials) return null;
  for (const verify of request.server.bearerVerifiers) {
    const ctx = await verify(credentials.token, request);
    if (ctx) {
      // the DPoP scheme is for DPoP-bound access tokens only (their verifier checks the proof), never an API key
      if (credentials.scheme === 'DPoP' && ctx.via !== 'access_token') throw new AppError(401, 'invalid_token');
      if (ctx.account.status !== 'ACTIVE') throw new AppError(401, 'account_inactive');
      if (ctx.via === 'api_key' && !apiKeyAllowed(request)) throw new AppError(403, 'api_key_not_allowed');
      request.auth = ctx;
      return ctx;
    }
  }
  throw new AppError(401, 'invalid_token');
}

/** Guard (use as `onRequest`, so anonymous calls get 401 before body validation): a signed-in user. */
export async function requireUser(request: FastifyRequest): Promise<void> {
  const ctx = await resolveAuth(request);
  if (!ctx) throw new AppError(401, 'unauthorized');
  if (ctx.account.type !== 'user') throw new AppError(403, 'forbidden');
}

/** preHandler factory: a signed-in admin, optionally restricted to roles. */
export function requireAdmin(...roles: AdminRole[]) {
  return async (request: FastifyRequest): Promise<void> => {
    const ctx = await resolveAuth(request);
    if (!ctx) throw new AppError(401, 'unauthorized');
    if (ctx.account.type !== 'admin') throw new AppError(403, 'forbidden');
    if (roles.length > 0 && !roles.includes(ctx.account.admin_role as AdminRole)) throw new AppError(403, 'forbidden');
  };
}

/** preHandler: any signed-in account (user or admin). */
export async function requireAccount(request: FastifyRequest): Promise<void> {
  const ctx = await resolveAuth(request);
  if (!ctx) throw new AppError(401, 'unauthorized');
}

export default fp(async (app) => {
  app.decorate('bearerVerifiers', [] as BearerVerifier[]);
  app.decorateRequest('auth', null);
});
