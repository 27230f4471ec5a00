import fp from 'fastify-plugin';

/**
 * `Cache-Control: no-store` on every answer of the API (`/api/…`) and the OpenID provider (`/oidc/…`),
 * set before the route runs so that errors and the provider's hijacked answers carry it too. These answers
 * are per-account and many carry secrets (API keys, client secrets, 2FA secrets, recovery codes, tokens,
 * the signed-in account): no browser or shared cache may keep them. A route that serves something public
 * and immutable sets its own Cache-Control (avatars, the logout script), which replaces this default.
 * The provider's discovery document and JWKS stay cacheable (public, and clients are meant to cache them).
 */
const CACHEABLE = /^\/oidc\/(?:\.well-known\/|jwks(?:[/?]|$))/;

export function wantsNoStore(url: string): boolean {
  return (/^\/(?:api|oidc)(?:[/?]|$)/.test(url)) && !CACHEABLE.test(url);
}

export default fp(async (app) => {
  app.addHook('onRequest', (request, reply, done) => {
    if (wantsNoStore(request.url)) reply.header('cache-control', 'no-store');
    done();
  });
});
