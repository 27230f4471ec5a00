import { timingSafeEqual } from 'node:crypto';
import type { Deps } from '../services/deps';
import type { OidcHandle } from './index';
import { grantAlive, serviceAppClient } from './adapter';
import { getClientSecret } from '../services/admin/service-apps';
import { accessTokenRevoked } from './revocation';
import { boundThumbprint } from './dpop';

/**
 * Token introspection (RFC 7662) for confidential service apps. oidc-provider cannot introspect our JWT
 * access tokens (they are not stored), so the endpoint the provider advertises is answered here:
 * - the caller authenticates with its client secret, sent the way the app is registered for
 *   (client_secret_basic or client_secret_post; the other way is refused, as at the token endpoint);
 *   public clients (and the product's own SPA clients) cannot introspect;
 * - an app learns only about tokens issued to itself: any other token is `{ active: false }`;
 * - an access token is active while its signature and expiry hold, it was not revoked (RFC 7009,
 *   server/oidc/revocation.ts), its grant is alive (sign-out and revocation end it at once) and its account is
 *   ACTIVE; a DPoP-bound one says `token_type: DPoP` and `cnf.jkt` (RFC 9449 §6.2), so the resource server
 *   checks the proof; a refresh token while the provider still
 *   knows it unconsumed, its grant is alive and its account is ACTIVE; client_credentials tokens name no
 *   account.
 */
export interface IntrospectionResult {
  active: boolean;
  client_id?: string;
  sub?: string;
  scope?: string;
  exp?: number;
  iat?: number;
  iss?: string;
  aud?: string | string[];
  token_type?: string;
  cnf?: { jkt: string };
}

const same = (a: string, b: string): boolean => {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
};

/** The authenticated confidential service app's client_id, or null (→ 401 invalid_client). */
export async function authenticateClient(deps: Pick<Deps, 'db'>, authorization: string | undefined, form: URLSearchParams): Promise<string | null> {
  let id: string | null = null;
  let secret: string | null = null;
  const basic = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(authorization ?? '');
  if (basic) {
    const decoded = Buffer.from(basic[1] ?? '', 'base64').toString('utf8');
    const i = decoded.indexOf(':');
    if (i <= 0) return null;
    try {
      id = decodeURIComponent(decoded.slice(0, i).replace(/\+/g, ' '));
      secret = decodeURIComponent(decoded.slice(i + 1).replace(/\+/g, ' '));
    } catch {
      return null;
    }
  } else {
    id = form.get('client_id');
    secret = form.get('client_secret');
  }
  if (!id || !secret || id.length > 200) return null;
  const client = await serviceAppClient(deps.db.kysely, id, (stored) => getClientSecret(deps, { client_secret: stored }));
  const expected = client?.client_secret;
  if (!client || client.token_endpoint_auth_method === 'none' || typeof expected !== 'string') return null;
  // held to the app's registered method, as at the token endpoint (server/oidc/client-auth-method.ts)
  if (client.token_endpoint_auth_method !== (basic ? 'client_secret_basic' : 'client_secret_post')) return null;
  return same(secret, expected) ? id : null;
}

async function accountActive(deps: Pick<Deps, 'db'>, accountId: string): Promise<boolean> {
  const a = await deps.db.kysely.selectFrom('accounts').select('status').where('id', '=', accountId).executeTakeFirst();
  return a?.status === 'ACTIVE';
}

const inactive: IntrospectionResult = { active: false };

export async function introspect(deps: Pick<Deps, 'db' | 'config'>, oidc: OidcHandle, callerId: string, token: string, hint: string | null): Promise<IntrospectionResult> {
  if (!token || token.length > 8192) return inactive;
  const tryAccess = async (): Promise<IntrospectionResult | null> => {
    const p = await oidc.signedAccessTokenPayload(token);
    if (!p) return null;
    if (p.client_id !== callerId) return inactive;
    if (typeof p.jti !== 'string' || (await accessTokenRevoked(deps.db.kysely, p.jti))) return inactive;
    // a person's token names its grant (gid); a client_credentials token has none and sub = the app (RFC 9068)
    if (typeof p.gid === 'string') {
      if (!(await grantAlive(deps.db.kysely, p.gid))) return inactive;
      if (typeof p.sub !== 'string' || !(await accountActive(deps, p.sub))) return inactive;
    }
    const jkt = boundThumbprint(p);
    return {
      active: true,
      client_id: callerId,
      ...(typeof p.sub === 'string' ? { sub: p.sub } : {}),
      ...(typeof p.scope === 'string' && p.scope ? { scope: p.scope } : {}),
      ...(p.exp !== undefined ? { exp: p.exp } : {}),
      ...(p.iat !== undefined ? { iat: p.iat } : {}),
      iss: deps.config.issuer,
      ...(p.aud !== undefined ? { aud: p.aud } : {}),
      ...(jkt ? { token_type: 'DPoP', cnf: { jkt } } : { token_type: 'Bearer' }),
    };
  };
  const tryRefresh = async (): Promise<IntrospectionResult | null> => {
    const provider = await oidc.provider();
    const rt = await provider.RefreshToken.find(token);
    if (!rt) return null;
    if (rt.clientId !== callerId || !rt.isValid || rt.isExpired || !rt.grantId) return inactive;
    if (!(await grantAlive(deps.db.kysely, rt.grantId)) || !rt.accountId || !(await accountActive(deps, rt.accountId))) return inactive;
    return { active: true, client_id: callerId, sub: rt.accountId, ...(rt.scope ? { scope: rt.scope } : {}), exp: rt.exp, iat: rt.iat, iss: deps.config.issuer };
  };
  const order = hint === 'refresh_token' ? [tryRefresh, tryAccess] : [tryAccess, tryRefresh];
  for (const attempt of order) {
    const r = await attempt();
    if (r) return r;
  }
  return inactive;
}
