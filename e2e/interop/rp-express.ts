/**
 * A server-side web app on stock express-openid-connect 3.4 (Auth0's middleware for Express, here Express 5):
 * confidential client (client_secret_basic), authorization code with PKCE, state and nonce, its own encrypted session
 * cookie, and OpenID Connect Back-Channel Logout with the library's `backchannelLogout: true` — it serves
 * POST /backchannel-logout, verifies the logout token against the provider's JWKS and from then on treats every session
 * with that `sid` (or `sub`) as signed out. The library needs a store for the logout tokens it received: an in-memory
 * one in express-session's shape. Renders e2e/interop/page.ts's shape; the same set-up, trimmed, is in
 * docs/INTEGRATING.md.
 */
import { randomBytes } from 'node:crypto';
import type { Server } from 'node:http';
import express, { type ErrorRequestHandler } from 'express';
import { auth } from 'express-openid-connect';
import { rpPage } from './page';
import type { RpOptions, RunningRp } from './rp-openid-client';

/** The store express-openid-connect takes for logout tokens (its types are not exported: derived from auth()). */
type BackchannelOptions = Exclude<NonNullable<NonNullable<Parameters<typeof auth>[0]>['backchannelLogout']>, boolean>;
type LogoutStore = NonNullable<BackchannelOptions['store']>;
type LogoutEntry = Parameters<LogoutStore['set']>[1];

/** What express-openid-connect asks of a store (express-session's get / set / destroy), in memory, honouring expiry. */
class MemoryStore implements LogoutStore {
  private readonly entries = new Map<string, { value: LogoutEntry; expires: number }>();
  get(key: string, cb: Parameters<LogoutStore['get']>[1]): void {
    const e = this.entries.get(key);
    if (e && e.expires < Date.now()) this.entries.delete(key);
    cb(undefined, e && e.expires >= Date.now() ? e.value : undefined);
  }
  set(key: string, value: LogoutEntry, cb?: (err?: unknown) => void): void {
    const expires = value.cookie.expires ? new Date(value.cookie.expires).getTime() : Date.now() + 86_400_000;
    this.entries.set(key, { value, expires });
    cb?.();
  }
  destroy(key: string, cb?: (err?: unknown) => void): void {
    this.entries.delete(key);
    cb?.();
  }
  /** Logout tokens received (keys `<iss>|<sid>` and `<iss>|<sub>`): the spec reads them to see the app was told. */
  keys(): string[] {
    return [...this.entries.keys()];
  }
}

export interface RunningExpressRp extends RunningRp {
  /** the keys of the logout tokens the app accepted (`<issuer>|<sid>`, `<issuer>|<sub>`) */
  logouts(): string[];
}

export async function startExpressRp(o: RpOptions): Promise<RunningExpressRp> {
  const base = `http://${o.host}:${o.port}`;
  const title = 'express-openid-connect RP';
  const store = new MemoryStore();
  const app = express();
  app.use(
    auth({
      issuerBaseURL: o.issuer,
      baseURL: base,
      clientID: o.clientId,
      clientSecret: o.clientSecret,
      secret: randomBytes(32).toString('hex'),
      authRequired: false,
      // the library's default is response_type=id_token with form_post (implicit), which the provider does not offer
      authorizationParams: {
        response_type: 'code',
        scope: o.scope,
        // OIDC Core: offline_access (a refresh token) is only granted together with prompt=consent
        ...(o.scope.split(' ').includes('offline_access') ? { prompt: 'consent' } : {}),
      },
      // RP-initiated logout at the provider when the app's /logout is used
      idpLogout: true,
      routes: { login: '/login', logout: '/logout', callback: '/callback', postLogoutRedirect: '/', backchannelLogout: '/backchannel-logout' },
      // stock back-channel logout: the logout tokens go to this store (the library's own session stays a cookie)
      backchannelLogout: { store },
    }),
  );
  // refreshes per session (the ID token's sid), for the page's counter
  const refreshes = new Map<string, number>();
  const sidOf = (claims: Record<string, unknown> | undefined) => (typeof claims?.sid === 'string' ? claims.sid : '');
  app.get('/', async (req, res) => {
    if (!req.oidc.isAuthenticated()) return void res.type('html').send(rpPage({ title, state: 'signed-out' }));
    const userinfo = await req.oidc.fetchUserInfo();
    const claims = req.oidc.idTokenClaims;
    res.type('html').send(rpPage({ title, state: 'signed-in', idClaims: claims, userinfo, refreshes: refreshes.get(sidOf(claims)) ?? 0, accessToken: req.oidc.accessToken?.access_token }));
  });
  app.get('/refresh', async (req, res) => {
    const token = req.oidc.accessToken;
    if (!req.oidc.isAuthenticated() || !token) return void res.status(400).type('html').send(rpPage({ title, state: 'error', error: 'not signed in' }));
    await token.refresh();
    const sid = sidOf(req.oidc.idTokenClaims);
    refreshes.set(sid, (refreshes.get(sid) ?? 0) + 1);
    res.redirect('/');
  });
  // the library hands errors (an access_denied callback too) to Express
  const onError: ErrorRequestHandler = (err: { error?: string; message?: string }, _req, res, _next) => {
    res.status(200).type('html').send(rpPage({ title, state: 'error', error: [err.error, err.message].filter(Boolean).join(': ') }));
  };
  app.use(onError);
  const server: Server = await new Promise((resolve, reject) => {
    const s = app.listen(o.port, o.host, (err?: Error) => (err ? reject(err) : resolve(s)));
  });
  return {
    url: base,
    logouts: () => store.keys(),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
