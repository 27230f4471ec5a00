import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { IncomingMessage } from 'node:http';
import type Provider from 'oidc-provider';
import { z } from 'zod';
import { accessTokenVerifier, getProvider, oidcOf, publicUrlOf, verifyAccessToken } from '../oidc/index';
import { AppError } from '../errors';
import { authorizationCredentials } from '../plugins/app/auth';
import { boundThumbprint, dpopChallenge, SenderConstraintError } from '../oidc/dpop';
import { userinfoClaims } from '../oidc/claims';
import { authenticateClient, introspect } from '../oidc/introspection';
import { recordProviderErrors } from '../oidc/error-log';
import { recordError } from '../plugins/app/errors';
import { admit } from '../plugins/app/admission';
import { rawRequestIds } from '../lib/outage-log';

export const prefix = '/oidc';

/**
 * Mounts oidc-provider at /oidc: the reply is hijacked and the raw request handed to the provider's
 * callback with the mount path stripped. Our secure headers (CSP...) are copied onto the raw response
 * first, so the provider adds its form_post script hash to the same CSP. The public origin comes from
 * APP_URL (forwarded headers are set from it), so every URL the provider prints matches the issuer.
 */
const routes: FastifyPluginAsyncZod = async (app) => {
  // the provider is rebuilt when the signing keys change (server/oidc/index.ts): look it up per request
  await getProvider(app);
  const callbacks = new WeakMap<Provider, ReturnType<Provider['callback']>>();
  const callbackOf = (provider: Provider) => {
    let cb = callbacks.get(provider);
    if (!cb) {
      // its errors go to the admin error log (server/oidc/error-log.ts), once per provider built
      recordProviderErrors(provider, app.services.errorLog, app.db.kysely, app.log);
      callbacks.set(provider, (cb = provider.callback()));
    }
    return cb;
  };
  const origin = new URL(app.config.appUrl);
  app.bearerVerifiers.unshift(accessTokenVerifier(app));

  // the provider parses its own bodies
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', (_req, _payload, done) => done(null, undefined));

  /**
   * Admission control (server/lib/admission.ts) before the provider does any work: a new authorization request
   * (/auth), the resume of an admitted one (/auth/<uid>) and the token endpoint each pass their gate or get 503 +
   * Retry-After at once (the authorization step as the product's page for a browser, else an OAuth error body).
   */
  const admitAuthorize = admit('authorize', 'page');
  const admitResume = admit('resume', 'page');
  const admitToken = admit('token', 'oauth');
  app.addHook('onRequest', async (request, reply) => {
    const path = (request.url.split('?')[0] ?? '').replace(/\/+$/, '');
    if (path === '/oidc/auth') return admitAuthorize.call(app, request, reply);
    if (path.startsWith('/oidc/auth/')) return admitResume.call(app, request, reply);
    if (path === '/oidc/token') return admitToken.call(app, request, reply);
    return undefined;
  });

  const handoff = async (request: FastifyRequest, reply: FastifyReply) => {
    const callback = callbackOf(await getProvider(app));
    reply.hijack();
    const raw = request.raw as IncomingMessage & { originalUrl?: string };
    for (const [k, v] of Object.entries(reply.getHeaders())) if (v !== undefined) reply.raw.setHeader(k, v);
    raw.originalUrl = raw.url;
    rawRequestIds.set(raw, String(request.id));
    raw.url = (raw.url ?? '/').replace(/^\/oidc(?=\/|\?|$)/, '') || '/';
    if (raw.url.startsWith('?')) raw.url = `/${raw.url}`;
    raw.headers['x-forwarded-proto'] = origin.protocol.replace(':', '');
    raw.headers['x-forwarded-host'] = origin.host;
    delete raw.headers['x-forwarded-for'];
    if (request.ip) raw.headers['x-forwarded-for'] = request.ip;
    callback(raw, reply.raw);
  };

  /**
   * UserInfo for our JWT access tokens (the provider's own endpoint only takes opaque tokens): claims by
   * the token's scopes, for live grants (a signed-out session's or a revoked token stops at once) and ACTIVE accounts.
   * A DPoP-bound token only with `Authorization: DPoP` and a valid proof for this request (server/oidc/dpop.ts).
   * Errors follow RFC 6750 and RFC 9449 (WWW-Authenticate with a Bearer and a DPoP challenge, the error in the scheme
   * it is about, + OAuth error body), and browsers of any origin may call it (CORS without credentials: the token
   * and its proof are the only credentials).
   */
  type OAuthError = { status: 401 | 403; error: 'invalid_request' | 'invalid_token' | 'insufficient_scope' | 'invalid_dpop_proof'; description: string };
  const bearerError = async (request: FastifyRequest, reply: FastifyReply, e: OAuthError, scheme: 'Bearer' | 'DPoP' = 'Bearer') => {
    await recordError(request, e.status, e.error, { message: e.description });
    const realm = app.config.issuer;
    // no token at all: both challenges without an error (RFC 6750 §3.1)
    const withError = e.error !== 'invalid_request' ? { error: e.error, description: e.description } : undefined;
    const bearer = [`realm="${realm}"`, ...(withError && scheme === 'Bearer' ? [`error="${withError.error}"`, `error_description="${withError.description}"`] : [])];
    return reply
      .code(e.status)
      .header('www-authenticate', [`Bearer ${bearer.join(', ')}`, dpopChallenge(realm, scheme === 'DPoP' ? withError : undefined)])
      .send({ error: e.error, error_description: e.description });
  };
  const userinfo = async (request: FastifyRequest, reply: FastifyReply) => {
    const credentials = authorizationCredentials(request.headers.authorization);
    if (!credentials) return bearerError(request, reply, { status: 401, error: 'invalid_request', description: 'no access token' });
    const { scheme, token } = credentials;
    let verified: Awaited<ReturnType<typeof verifyAccessToken>>;
    try {
      verified = await verifyAccessToken(app, token, 'userinfo');
    } catch (err) {
      if (err instanceof AppError && err.status === 401) return bearerError(request, reply, { status: 401, error: 'invalid_token', description: 'invalid or expired access token' }, scheme);
      throw err;
    }
    if (!verified) return bearerError(request, reply, { status: 401, error: 'invalid_token', description: 'not an access token' }, scheme);
    const jkt = boundThumbprint(verified.claims);
    try {
      await app.oidc.dpop.checkSenderConstraint({ credentials, jkt, proof: request.headers.dpop, method: request.method, url: publicUrlOf(app, request) });
    } catch (err) {
      if (!(err instanceof SenderConstraintError)) throw err;
      // a bound token shown as Bearer is answered in the DPoP scheme: that is the one it needs
      return bearerError(request, reply, { status: 401, error: err.error, description: err.description }, 'DPoP');
    }
    const scopes = new Set((verified.claims.scope ?? '').split(' '));
    if (!scopes.has('openid')) return bearerError(request, reply, { status: 403, error: 'insufficient_scope', description: 'the openid scope is required' }, scheme);
    const claims = await userinfoClaims(app.db.kysely, verified.claims.sub, verified.claims.client_id, scopes);
    if (!claims) return bearerError(request, reply, { status: 401, error: 'invalid_token', description: 'account not active' }, scheme);
    return reply.send(claims);
  };
  const oauthError = z.object({ error: z.string(), error_description: z.string() });
  // not part of the REST API document (its errors are OAuth's, not the product's): discovery names it
  const userinfoSchema = {
    hide: true,
    tags: ['oidc'],
    summary: 'OpenID Connect UserInfo for our JWT access tokens (CORS: any origin, no credentials)',
    response: { 200: z.object({ sub: z.string() }).passthrough(), 401: oauthError, 403: oauthError },
  };
  const cors = async (_request: FastifyRequest, reply: FastifyReply) => {
    reply.header('access-control-allow-origin', '*').header('access-control-expose-headers', 'WWW-Authenticate');
  };
  app.get('/me', { schema: userinfoSchema, onRequest: cors }, userinfo);
  app.post('/me', { schema: userinfoSchema, onRequest: cors }, userinfo);
  app.options('/me', { schema: { hide: true } }, async (_request, reply) =>
    reply
      .code(204)
      .header('access-control-allow-origin', '*')
      .header('access-control-allow-methods', 'GET, POST')
      .header('access-control-allow-headers', 'Authorization, Content-Type, DPoP')
      .header('access-control-max-age', '600')
      .send(),
  );

  /** RFC 7662 token introspection for confidential service apps (see server/oidc/introspection.ts). */
  app.post('/token/introspection', { schema: { hide: true } }, async (request, reply) => {
    reply.header('cache-control', 'no-store');
    const type = String(request.headers['content-type'] ?? '');
    // OAuth errors in OAuth's shape, recorded in the admin error log like the provider's own (server/oidc/error-log.ts)
    const refuse = async (status: 400 | 401 | 413, error: 'invalid_request' | 'invalid_client', description: string) => {
      await recordError(request, status, error, { message: description });
      return reply.code(status).send({ error, error_description: description });
    };
    if (!type.startsWith('application/x-www-form-urlencoded')) return refuse(400, 'invalid_request', 'application/x-www-form-urlencoded body required');
    let raw = '';
    for await (const chunk of request.raw as AsyncIterable<Buffer>) {
      raw += chunk.toString('utf8');
      if (raw.length > 16_384) return refuse(413, 'invalid_request', 'body too large');
    }
    const form = new URLSearchParams(raw);
    const caller = await authenticateClient(app, request.headers.authorization, form);
    if (!caller) {
      reply.header('www-authenticate', `Basic realm="${app.config.issuer}"`);
      return refuse(401, 'invalid_client', 'client authentication failed');
    }
    const token = form.get('token');
    if (!token) return refuse(400, 'invalid_request', 'missing token');
    return reply.send(await introspect(app, oidcOf(app), caller, token, form.get('token_type_hint')));
  });

  app.route({
    method: ['GET', 'POST', 'OPTIONS', 'DELETE', 'PUT'],
    url: '/*',
    schema: { hide: true },
    handler: handoff,
  });
  app.route({ method: ['GET', 'POST'], url: '/', schema: { hide: true }, handler: handoff });
};
export default routes;
