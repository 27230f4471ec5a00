import fp from 'fastify-plugin';
import type { AppConfig } from '../../config';

/**
 * One origin for the web app. The provider accepts the SPA's sign-in only on `APP_URL` (its redirect URIs), so
 * a page opened on another name of the same local server (`127.0.0.1` where APP_URL says `localhost`, or the
 * other way round: the first run without APP_URL) ended on the provider's "invalid_redirect_uri" page. Page
 * loads (GET/HEAD outside /api and /oidc) that reach this server on a loopback name other than APP_URL's, on
 * APP_URL's port, are sent there (308, path and query kept). Other hosts are left alone: behind a reverse proxy
 * that rewrites Host, a redirect could loop; the provider's error page names the right address instead.
 */
const LOOPBACK = /^(localhost|[a-z0-9-]+\.localhost|127(?:\.\d{1,3}){3}|\[::1\])$/i;

function splitHost(host: string): { name: string; port: string } | null {
  const match = /^(\[[^\]]+\]|[^:]+)(?::(\d+))?$/.exec(host.trim());
  if (!match?.[1]) return null;
  return { name: match[1].toLowerCase(), port: match[2] ?? '' };
}

/** Where to send a request for `url` that arrived with `host` (the Host header), or null to serve it. */
export function canonicalRedirect(config: Pick<AppConfig, 'appUrl'>, method: string, url: string, host: string | undefined): string | null {
  if (method !== 'GET' && method !== 'HEAD') return null;
  // the API and the provider are served on any host (the path, read off the URL without splitting its query)
  if (/^\/(api|oidc)([/?]|$)/.test(url) || !host) return null;
  const canonical = new URL(config.appUrl);
  const defaultPort = canonical.protocol === 'https:' ? '443' : '80';
  const wanted = { name: canonical.hostname.toLowerCase(), port: canonical.port || defaultPort };
  const given = splitHost(host);
  if (!given) return null;
  const givenPort = given.port || defaultPort;
  if (given.name === wanted.name || givenPort !== wanted.port) return null;
  if (!LOOPBACK.test(given.name) || !LOOPBACK.test(wanted.name)) return null;
  return `${canonical.origin}${url.startsWith('/') ? url : `/${url}`}`;
}

export default fp(async (app) => {
  app.addHook('onRequest', (req, reply, done) => {
    const target = canonicalRedirect(app.config, req.method, req.url, req.headers.host);
    // answered here: the hook does not call done(), so nothing else runs for this request
    if (target) reply.header('cache-control', 'no-store').redirect(target, 308);
    else done();
  });
});
