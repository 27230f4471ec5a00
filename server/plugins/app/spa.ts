import fp from 'fastify-plugin';
import { existsSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import { recordError } from './errors';

/** Extensions the build precompresses (scripts/vite-precompress.ts): their answer varies with Accept-Encoding. */
const COMPRESSIBLE = /\.(?:js|mjs|css|html|svg|json|txt|webmanifest|xml)(?:\.br|\.gz)?$/i;

/**
 * Serves the built SPA from `dist/`: hashed assets cached for a year, index.html never cached,
 * and history fallback for any GET that is not an API/OIDC call. The build writes `.br` and `.gz`
 * copies next to text assets; they are sent with `Content-Encoding` when the client accepts them
 * (brotli first, then gzip), the original otherwise.
 */
export default fp(async (app) => {
  const root = app.config.distDir;
  const indexFile = path.join(root, 'index.html');
  const hasSpa = existsSync(indexFile);
  if (hasSpa) {
    await app.register(fastifyStatic, {
      root,
      prefix: '/',
      wildcard: false,
      index: false,
      cacheControl: false,
      preCompressed: true,
      setHeaders(res, filePath) {
        if (filePath.includes(`${path.sep}assets${path.sep}`)) res.setHeader('cache-control', 'public, max-age=31536000, immutable');
        else res.setHeader('cache-control', 'no-cache');
        if (COMPRESSIBLE.test(filePath)) res.setHeader('vary', 'Accept-Encoding');
      },
    });
  } else {
    app.log.warn({ root }, 'SPA build not found; run `npm run build` to serve the web app');
  }
  const isApi = (url: string) => url === '/api' || url.startsWith('/api/') || url.startsWith('/oidc');

  app.setNotFoundHandler((req, reply) => {
    const url = req.url.split('?')[0] ?? '/';
    if (req.method === 'GET' && !isApi(url) && hasSpa && !/\.[a-z0-9]+$/i.test(url)) {
      // read from disk per request (a rebuild is picked up without restart), compressed copy when accepted
      return reply.sendFile('index.html');
    }
    void recordError(req, 404, 'route_not_found', { params: { method: req.method, url: url.slice(0, 200) } });
    return reply.status(404).send({ error: { code: 'route_not_found', message: req.t('route_not_found', { method: req.method, url }) } });
  });
});
