import fp from 'fastify-plugin';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { timingSafeEqual, createHash } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { collectProcessMetrics, httpDuration, httpRequests, oidcEndpointOf, registry } from '../../lib/metrics';

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,64}$/;

/** Request id: the caller's `x-request-id` when it is short and plain, else a new UUID. */
export function requestIdOf(headers: Record<string, string | string[] | undefined>, fresh: () => string): string {
  const given = headers['x-request-id'];
  return typeof given === 'string' && REQUEST_ID.test(given) ? given : fresh();
}

const digest = (s: string) => createHash('sha256').update(s).digest();

/**
 * Request ids in the `x-request-id` response header, request metrics (route template, status, latency)
 * and the Prometheus endpoint: GET /metrics on the main port when IAM_METRICS_TOKEN is set (bearer token),
 * and/or a separate listener on METRICS_HOST:METRICS_PORT (no token; keep it off the public network).
 */
export default fp(async (app) => {
  const routeOf = (req: FastifyRequest): string => {
    const url = req.routeOptions.url;
    // every provider endpoint is served by the one /oidc/* route: label it by endpoint (authorize, token, JWKS, …)
    // (the hand-off to the provider strips /oidc from the raw URL and keeps the original as originalUrl)
    if (url === '/oidc/*' || url === '/oidc' || url === '/oidc/') return oidcEndpointOf((req.raw as IncomingMessage & { originalUrl?: string }).originalUrl ?? req.url);
    return url ?? 'unmatched';
  };
  // callback-style hooks: no promise (and no async-hook bookkeeping) per request for work that never waits
  app.addHook('onRequest', (req, reply, done) => {
    reply.header('x-request-id', req.id);
    const start = process.hrtime.bigint();
    // 'finish' also fires for hijacked replies (the OIDC provider writes the raw response)
    reply.raw.once('finish', () => {
      const labels = { method: req.method, route: routeOf(req), status: String(reply.raw.statusCode) };
      httpRequests.inc(labels);
      httpDuration.observe(labels, Number(process.hrtime.bigint() - start) / 1e9);
    });
    done();
  });

  // while draining (shutdown), answers close their connection so the instance can stop
  app.addHook('onSend', (_req, reply, payload, done) => {
    if (app.lifecycle.draining) reply.header('connection', 'close');
    done(null, payload);
  });

  const { token, port, host } = app.config.metrics;
  // process metrics (and their 10 ms event-loop-delay timer) only where something can read them
  if (token || port !== undefined) collectProcessMetrics();
  if (token) {
    const want = digest(`Bearer ${token}`);
    app.get('/metrics', { schema: { hide: true }, config: { rateLimit: false } }, async (req, reply) => {
      const got = digest(String(req.headers.authorization ?? ''));
      if (!timingSafeEqual(got, want)) {
        return reply.status(401).header('www-authenticate', 'Bearer').send({ error: { code: 'unauthorized', message: req.t('unauthorized') } });
      }
      return reply.header('cache-control', 'no-store').type(registry.contentType).send(await registry.metrics());
    });
  }
  if (port !== undefined) {
    let server: Server | undefined;
    app.addHook('onReady', async () => {
      server = createServer((req, res) => {
        if (req.method !== 'GET' || (req.url ?? '').split('?')[0] !== '/metrics') {
          res.writeHead(404, { 'content-type': 'text/plain' }).end('not found\n');
          return;
        }
        registry.metrics().then(
          (body) => res.writeHead(200, { 'content-type': registry.contentType, 'cache-control': 'no-store' }).end(body),
          () => res.writeHead(500, { 'content-type': 'text/plain' }).end('metrics failed\n'),
        );
      });
      await new Promise<void>((resolve, reject) => {
        server?.once('error', reject);
        server?.listen(port, host, () => resolve());
      });
      const addr = server.address() as AddressInfo;
      app.log.info(`metrics on http://${host}:${addr.port}/metrics`);
    });
    app.addHook('onClose', async () => {
      await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
    });
  }
});
