/** A service app as the admin API answers it, for the SPA tests' fake admin server (tests/spa/admin-server.ts). */
import type { ServiceApp } from '../../contract/admin/service-apps';

export const FIXTURE_ISSUER = 'https://iam.example.com/oidc';

type Overrides = Partial<Omit<ServiceApp, 'oidc'>> & Pick<ServiceApp, 'name' | 'display_name' | 'url'>;

/**
 * Defaults: id `a1`, path `/cb`, a public app (PKCE, no client credentials), one redirect URI (url + path) which is also
 * the post-logout URI, no back-channel logout, nothing delivered, no roles; `oidc` follows from the fields.
 */
export function serviceAppFixture(o: Overrides): ServiceApp {
  const path = o.path ?? '/cb';
  const clientType = o.client_type ?? 'public';
  const redirectUris = o.redirect_uris ?? [`${o.url}${path}`];
  const postLogout = o.post_logout_redirect_uris ?? [redirectUris[0]!];
  const method = o.token_endpoint_auth_method ?? (clientType === 'public' ? 'none' : 'client_secret_basic');
  const pkce = o.pkce_required ?? true;
  const clientCredentials = o.client_credentials ?? false;
  return {
    id: 'a1',
    path,
    client_type: clientType,
    pkce_required: pkce,
    client_credentials: clientCredentials,
    token_endpoint_auth_method: method,
    initiate_login_uri: null,
    backchannel_logout_uri: null,
    backchannel_logout_session_required: false,
    logout_delivery: { pending: 0, failed: 0, last_delivered_at: null, last_failure: null },
    roles: [],
    created_at: '2026-01-01T00:00:00.000Z',
    updated_at: '2026-01-01T00:00:00.000Z',
    ...o,
    redirect_uris: redirectUris,
    post_logout_redirect_uris: postLogout,
    oidc: {
      issuer: FIXTURE_ISSUER,
      discovery_url: `${FIXTURE_ISSUER}/.well-known/openid-configuration`,
      redirect_uri: redirectUris[0]!,
      redirect_uris: redirectUris,
      post_logout_redirect_uris: postLogout,
      token_endpoint_auth_method: method,
      grant_types: clientCredentials ? ['authorization_code', 'refresh_token', 'client_credentials'] : ['authorization_code', 'refresh_token'],
      pkce_required: pkce,
    },
  };
}
