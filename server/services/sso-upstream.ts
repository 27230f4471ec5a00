import * as oidc from 'openid-client';
import type { AppConfig, SsoProviderConfig } from '../config';
import type { ServiceHost } from './deps';

/**
 * The upstream identity providers of SSO_PROVIDERS as seen by this server (their discovery, cached per provider) and
 * the URL of their sign-out (OpenID Connect RP-Initiated Logout at the upstream). Used by the SSO sign-in
 * (server/services/sso.ts) and by both sign-outs that continue upstream: the portal's (POST /api/logout) and an app's
 * RP-initiated logout at this provider (server/oidc/upstream-logout.ts). No dependency on the provider or the sign-in
 * service, so the provider's middleware can use it.
 */

const configs = new WeakMap<AppConfig, Map<string, Promise<oidc.Configuration>>>();

/** Discovery of an upstream provider, cached per provider (dropped on failure so it is retried). */
export function upstreamOf(config: AppConfig, p: SsoProviderConfig): Promise<oidc.Configuration> {
  let byId = configs.get(config);
  if (!byId) configs.set(config, (byId = new Map()));
  let c = byId.get(p.id);
  if (!c) {
    const insecure = p.issuer.startsWith('http:');
    const auth = !p.client_secret ? oidc.None() : p.token_endpoint_auth_method === 'client_secret_basic' ? oidc.ClientSecretBasic(p.client_secret) : oidc.ClientSecretPost(p.client_secret);
    c = oidc.discovery(new URL(p.issuer), p.client_id, p.client_secret ? { client_secret: p.client_secret } : undefined, auth, insecure ? { execute: [oidc.allowInsecureRequests] } : undefined);
    byId.set(p.id, c);
    c.catch(() => byId.delete(p.id));
  }
  return c;
}

/**
 * The fixed URI the upstream sends the browser back to after an app's RP-initiated logout here went on to sign out
 * there (GET /api/sso/:provider/signed-out). Register it at the upstream as a post-logout redirect URI of this IAM's
 * client, next to `APP_URL/login` and `APP_URL/admin/login` (the portal's sign-out).
 */
export const upstreamSignedOutUri = (appUrl: string, providerId: string): string => `${appUrl}/api/sso/${encodeURIComponent(providerId)}/signed-out`;

/**
 * The upstream's end_session_endpoint URL for signing out the upstream session of `upstream` (its ID token as
 * `id_token_hint`), coming back to `postLogoutRedirectUri` (with `state` when given). Undefined when the provider is
 * gone from SSO_PROVIDERS, has `end_session: false`, advertises no end_session_endpoint, or its discovery fails: the
 * sign-out here has happened either way.
 */
export async function upstreamEndSessionUrl(
  host: Pick<ServiceHost, 'config' | 'log'>,
  upstream: { provider: string; idToken: string },
  postLogoutRedirectUri: string,
  state?: string,
): Promise<string | undefined> {
  const p = host.config.ssoProviders.find((x) => x.id === upstream.provider);
  if (!p?.end_session) return undefined;
  try {
    const config = await upstreamOf(host.config, p);
    if (!config.serverMetadata().end_session_endpoint) return undefined;
    return oidc.buildEndSessionUrl(config, { id_token_hint: upstream.idToken, post_logout_redirect_uri: postLogoutRedirectUri, ...(state ? { state } : {}) }).href;
  } catch (err) {
    host.log.warn({ err, provider: p.id }, 'upstream sign-out skipped: discovery failed');
    return undefined;
  }
}
