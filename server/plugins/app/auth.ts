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

/** Returns the auth context for a bearer it recognises, null if it is not its kind, or throws AppError(401). */
export type BearerVerifier = (token: string, request: FastifyRequest) => Promise<AuthContext | null>;

export function bearerToken(request: FastifyRequest): string | null {
  const h = request.headers.authorization;
  if (!h) return null;
  const m = /^Bearer\s+(\S+)\s*$/i.exec(h);
  return m ? (m[1] ?? null) : null;
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
  const token = bearerToken(request);
  if (!token) return null;
  for (const verify of request.server.bearerVerifiers) {
    const ctx = await verify(token, request);
    if (ctx) {
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
