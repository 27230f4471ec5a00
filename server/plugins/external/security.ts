import fp from 'fastify-plugin';
import helmet, { type HelmetOptions } from 'helmet';
import type { IncomingMessage, ServerResponse } from 'node:http';
import cookie from '@fastify/cookie';
import multipart from '@fastify/multipart';
import rateLimit from '@fastify/rate-limit';
import { closeRedis, createRedis } from '../../lib/redis';

/**
 * The headers helmet sets for `options`, computed once. (@fastify/helmet built helmet's middlewares, CSP parsing
 * included, anew on every request.) Our options depend on the configuration only, never on the request.
 */
export function helmetHeaders(options: HelmetOptions): [string, string | number | readonly string[]][] {
  const headers: [string, string | number | readonly string[]][] = [];
  const res = {
    setHeader(name: string, value: string | number | readonly string[]) {
      headers.push([name, value]);
      return res;
    },
    removeHeader() {},
  };
  helmet(options)({} as IncomingMessage, res as unknown as ServerResponse, (err?: unknown) => {
    if (err) throw err instanceof Error ? err : new Error(String(err));
  });
  return headers;
}

/** External tier: secure headers with a strict CSP, cookies, a global per-IP rate limit, multipart. */
export default fp(async (app) => {
  const secureHeaders = helmetHeaders({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        fontSrc: ["'self'"],
        connectSrc: ["'self'"],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
        upgradeInsecureRequests: app.config.appUrl.startsWith('https:') ? [] : null,
      },
    },
    crossOriginEmbedderPolicy: false,
    referrerPolicy: { policy: 'no-referrer' },
    strictTransportSecurity: app.config.appUrl.startsWith('https:') ? { maxAge: 31536000, includeSubDomains: true } : false,
  });
  // as reply headers: a route or hook may replace one (e.g. the avatar's own CSP), and the OIDC handoff copies the
  // reply's headers onto the raw response it hijacks, so the provider's own answers carry them too
  // (oidc.routes.ts). Not on the raw response: one raw setHeader sends every header of the answer through Node's
  // slower per-header path (validated and stored twice).
  const headerObject: Record<string, string> = Object.fromEntries(secureHeaders.map(([name, value]) => [name.toLowerCase(), Array.isArray(value) ? value.join(', ') : String(value)]));
  app.addHook('onRequest', (_request, reply, done) => {
    reply.headers(headerObject);
    done();
  });
  await app.register(cookie);
  await app.register(multipart, { limits: { fileSize: 5 * 1024 * 1024, files: 1, fields: 20, fieldSize: 64 * 1024 } });
  const redis = app.config.redisUrl ? createRedis(app.config.redisUrl, 'rate_limit', { log: app.log, timeoutMs: app.config.timeouts.redisMs }) : undefined;
  if (redis) app.addHook('onClose', async () => closeRedis(redis));
  await app.register(rateLimit, {
    global: true,
    max: app.config.rateLimitPerMinute,
    timeWindow: '1 minute',
    // while Redis is unreachable the global per-IP limit is skipped (fail open): sign-in throttling and
    // lockouts (server/services/throttle.ts) still fail closed with 503, everything else keeps working
    // counters live under IAM_REDIS_PREFIX like every other key of this app (`iam:rl:<ip>` by default)
    ...(redis ? { redis, nameSpace: `${app.config.redisKeyPrefix ?? 'iam:'}rl:`, skipOnError: true } : {}),
    allowList: (req) => !req.url.startsWith('/api') && !req.url.startsWith('/oidc'),
  });
});
