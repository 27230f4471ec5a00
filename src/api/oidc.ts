/**
 * The OIDC provider's token endpoint for the SPA's own clients (portal, admin-console): the one place the SPA
 * talks to the provider instead of the REST API (the REST API goes through `call`, src/api/call.ts). The
 * endpoint's address comes from `GET /api/config` (`token_endpoint`); the app injects these functions into the
 * session and SSO machines. Sent without a bearer, and a 401 is not fed back into the session (no refresh loop).
 */
import type { RefreshInput } from '../../machines/session.machine';
import type { TokenEndpointResponse } from '../../machines/shared';
import type { ExchangeCodeInput } from '../../machines/ssoCallback.machine';
import { sessionHttp, type Http } from './index';

export function createOidcClient(http: Http) {
  const token = (endpoint: string, form: Record<string, string>) => http<TokenEndpointResponse>(endpoint, { method: 'POST', body: new URLSearchParams(form) });
  /**
   * An authorization code is single-use, and the provider revokes what a code gave when it comes twice. The
   * callback screen may ask twice for the same code (React's StrictMode mounts it twice in development, a
   * remount while the answer is on its way): both get the one exchange.
   */
  const exchanges = new Map<string, Promise<TokenEndpointResponse>>();
  return {
    /** grant_type=authorization_code with the PKCE verifier (back from the provider on /login); once per code. */
    exchangeCode: (input: ExchangeCodeInput) => {
      let exchange = exchanges.get(input.code);
      if (!exchange) {
        exchange = token(input.tokenEndpoint, {
          grant_type: 'authorization_code',
          code_verifier: input.codeVerifier,
          code: input.code,
          client_id: input.clientId,
          redirect_uri: input.redirectUri,
        });
        exchanges.set(input.code, exchange);
      }
      return exchange;
    },
    /** grant_type=refresh_token (the session's one shared refresh). */
    refresh: (input: RefreshInput) => token(input.tokenEndpoint, { grant_type: 'refresh_token', refresh_token: input.refreshToken, client_id: input.clientId }),
  };
}

export const oidcClient = createOidcClient(sessionHttp);
