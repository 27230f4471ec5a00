import Provider, { errors, type KoaContextWithOIDC } from 'oidc-provider';

/**
 * Holds a confidential client to the token endpoint authentication method it is registered for.
 *
 * oidc-provider 9 treats `client_secret_basic` and `client_secret_post` as one family: a client registered for
 * either may send its secret either way (lib/shared/client_auth.js). A service app's setting
 * (`token_endpoint_auth_method`, admin API) is meant to be exact, so the secret comparison, which the provider
 * runs for both methods after it has found the client, first checks how this request carried the secret: in
 * the body (`client_secret` parameter: post) or in the Authorization header (basic). Any other way refuses
 * the client (invalid_client), as does a comparison outside a request (fail closed).
 * Covers every endpoint that authenticates clients (token, revocation, introspection, PAR…).
 */
export function enforceRegisteredSecretMethod(provider: Provider): void {
  const proto = provider.Client.prototype;
  const compare = proto.compareClientSecret;
  proto.compareClientSecret = function compareClientSecret(this: InstanceType<Provider['Client']>, actual: string) {
    const ctx = Provider.ctx as KoaContextWithOIDC | undefined;
    const params = ctx?.oidc?.params as { client_secret?: unknown } | undefined;
    const used = !ctx ? null : params?.client_secret ? 'client_secret_post' : ctx.headers.authorization !== undefined ? 'client_secret_basic' : null;
    if (used === null || used !== this.clientAuthMethod) {
      throw new errors.InvalidClientAuth('the provided authentication mechanism does not match the registered client authentication method');
    }
    return compare.call(this, actual);
  };
}
