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

/**
 * Answers of the JSON API: everything under /api except the pages served there (the API reference at /api/docs and
 * the provider's pages at /api/oidc-pages). The other answers (the SPA, /oidc, static files) are pages or may be.
 */
const API = /^\/api(?:[/?]|$)/;
const API_PAGES = /^\/api\/(?:docs|oidc-pages)(?:[/?]|$)/;
export const isApiAnswer = (url: string): boolean => API.test(url) && !API_PAGES.test(url);

type HeaderObject = Record<string, string>;

/**
 * Powerful browser features no page of this product uses, switched off for it and anything it frames (issue 28
 * finding 5d): on every answer, pages, static files, the provider's pages, JSON and errors alike (also those the
 * router refuses before any hook: app.ts frameworkErrors).
 */
export const PERMISSIONS_POLICY =
  'accelerometer=(), autoplay=(), camera=(), display-capture=(), geolocation=(), gyroscope=(), magnetometer=(), microphone=(), midi=(), payment=(), screen-wake-lock=(), serial=(), usb=(), xr-spatial-tracking=()';
const headerObjectOf = (headers: ReturnType<typeof helmetHeaders>): HeaderObject =>
  Object.fromEntries(headers.map(([name, value]) => [name.toLowerCase(), Array.isArray(value) ? value.join(', ') : String(value)]));

/**
 * External tier: secure headers, cookies, a global per-IP rate limit, multipart. Pages get helmet's full set with the
 * SPA's strict CSP. JSON answers of the API get what the OWASP REST Security Cheat Sheet ("Security Headers") asks of
 * an API: a CSP that allows nothing (`default-src 'none'; frame-ancestors 'none'`: a JSON answer loads nothing and is
 * framed by nothing), X-Frame-Options DENY, nosniff, no-store (plugins/app/no-store.ts), HSTS on https, plus
 * no-referrer and Cross-Origin-Resource-Policy same-origin; not the headers that only act on documents
 * (Cross-Origin-Opener-Policy, Origin-Agent-Cluster, X-DNS-Prefetch-Control, X-Download-Options,
 * X-Permitted-Cross-Domain-Policies, X-XSS-Protection). Six header lines and ~190 bytes of CSP fewer per answer.
 */
export default fp(async (app) => {
  const https = app.config.appUrl.startsWith('https:');
  const hsts = https ? { maxAge: 31536000, includeSubDomains: true } : false;
  const pageHeaders = headerObjectOf(
    helmetHeaders({
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
          upgradeInsecureRequests: https ? [] : null,
        },
      },
      crossOriginEmbedderPolicy: false,
      referrerPolicy: { policy: 'no-referrer' },
      strictTransportSecurity: hsts,
    }),
  );
  const apiHeaders = headerObjectOf(
    helmetHeaders({
      contentSecurityPolicy: { useDefaults: false, directives: { defaultSrc: ["'none'"], frameAncestors: ["'none'"] } },
      xFrameOptions: { action: 'deny' },
      xContentTypeOptions: true,
      referrerPolicy: { policy: 'no-referrer' },
      crossOriginResourcePolicy: { policy: 'same-origin' },
      strictTransportSecurity: hsts,
      crossOriginEmbedderPolicy: false,
      crossOriginOpenerPolicy: false,
      originAgentCluster: false,
      xDnsPrefetchControl: false,
      xDownloadOptions: false,
      xPermittedCrossDomainPolicies: false,
      xXssProtection: false,
    }),
  );
  // as reply headers: a route or hook may replace one (e.g. the avatar's own CSP), and the OIDC handoff copies the
  // reply's headers onto the raw response it hijacks, so the provider's own answers carry them too
  // (oidc.routes.ts). Not on the raw response: one raw setHeader sends every header of the answer through Node's
  // slower per-header path (validated and stored twice).
  pageHeaders['permissions-policy'] = PERMISSIONS_POLICY;
  apiHeaders['permissions-policy'] = PERMISSIONS_POLICY;
  app.addHook('onRequest', (request, reply, done) => {
    reply.headers(isApiAnswer(request.url) ? apiHeaders : pageHeaders);
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
