import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { IncomingMessage } from 'node:http';
import type Provider from 'oidc-provider';
import { z } from 'zod';
import { accessTokenVerifier, getProvider, verifyAccessToken } from '../oidc/index';
import { AppError } from '../errors';
import { bearerToken } from '../plugins/app/auth';

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
    if (!cb) callbacks.set(provider, (cb = provider.callback()));
    return cb;
  };
  const origin = new URL(app.config.appUrl);
  app.bearerVerifiers.unshift(accessTokenVerifier(app));

  // the provider parses its own bodies
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', (_req, _payload, done) => done(null, undefined));

  const handoff = async (request: FastifyRequest, reply: FastifyReply) => {
    const callback = callbackOf(await getProvider(app));
    reply.hijack();
    const raw = request.raw as IncomingMessage & { originalUrl?: string };
    for (const [k, v] of Object.entries(reply.getHeaders())) if (v !== undefined) reply.raw.setHeader(k, v);
    raw.originalUrl = raw.url;
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
   * the token's scopes, for live grants and ACTIVE accounts.
   */
  const userinfo = async (request: FastifyRequest) => {
    const token = bearerToken(request);
    if (!token) throw new AppError(401, 'invalid_token');
    const verified = await verifyAccessToken(app, token, 'userinfo');
    if (!verified) throw new AppError(401, 'invalid_token');
    const a = await app.db.kysely.selectFrom('accounts').selectAll().where('id', '=', verified.claims.sub).executeTakeFirst();
    if (!a || a.status !== 'ACTIVE') throw new AppError(401, 'invalid_token');
    const scopes = new Set((verified.claims.scope ?? '').split(' '));
    return {
      sub: a.id,
      ...(scopes.has('email') ? { email: a.email, email_verified: true } : {}),
      ...(scopes.has('profile')
        ? { name: `${a.first_name} ${a.last_name}`.trim(), given_name: a.first_name, family_name: a.last_name, locale: a.locale, updated_at: Math.floor(new Date(a.updated_at).getTime() / 1000) }
        : {}),
    };
  };
  const userinfoSchema = {
    tags: ['oidc'],
    summary: 'OpenID Connect UserInfo for our JWT access tokens',
    response: { 200: z.object({ sub: z.string() }).passthrough() },
  };
  app.get('/me', { schema: userinfoSchema }, userinfo);
  app.post('/me', { schema: userinfoSchema }, userinfo);

  app.route({
    method: ['GET', 'POST', 'OPTIONS', 'DELETE', 'PUT'],
    url: '/*',
    schema: { hide: true },
    handler: handoff,
  });
  app.route({ method: ['GET', 'POST'], url: '/', schema: { hide: true }, handler: handoff });
};
export default routes;
