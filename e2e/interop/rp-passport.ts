/**
 * A server-side web app on stock passport-openidconnect 0.1.2 (passport 0.7, express-session, Express 5).
 * What the library does not do, and what this app does about it:
 *  - no PKCE: the service app is registered with "Require PKCE" off (admin API `pkce_required: false`, for this
 *    confidential app only) — state and nonce still protect the code;
 *  - it authenticates with `client_secret_post` only (the app is registered for that method);
 *  - no discovery: the endpoints come from the provider's discovery document, read once at start;
 *  - the ID token's claims are not handed over; `roles` come through UserInfo: the verify function with nine
 *    arguments makes the library call UserInfo and passes its JSON as `uiProfile._json`;
 *  - no refresh: a plain refresh_token grant at the token endpoint (client_secret_post), then UserInfo again;
 *  - no logout: the verify function keeps the raw ID token in the session; /logout ends the passport session and
 *    redirects to the provider's end_session_endpoint with it as `id_token_hint`.
 * Renders e2e/interop/page.ts's shape; the same set-up, trimmed, is in docs/INTEGRATING.md.
 */
import { randomBytes } from 'node:crypto';
import type { Server } from 'node:http';
import express, { type Request, type Response } from 'express';
import session from 'express-session';
import { Passport } from 'passport';
import { Strategy as OpenIDConnectStrategy } from 'passport-openidconnect';
import { rpPage } from './page';
import type { RpOptions, RunningRp } from './rp-openid-client';

/** What the app keeps per signed-in person (passport serializes it into the express-session). */
interface AppUser {
  claims: Record<string, unknown>;
  idToken: string;
  accessToken: string;
  refreshToken?: string | undefined;
  userinfo: Record<string, unknown>;
  refreshes: number;
}

interface Discovery {
  issuer: string;
  authorization_endpoint: string;
  token_endpoint: string;
  userinfo_endpoint: string;
  end_session_endpoint: string;
}

const payloadOf = (jwt: string): Record<string, unknown> => JSON.parse(Buffer.from(jwt.split('.')[1] ?? '', 'base64url').toString()) as Record<string, unknown>;

export async function startPassportRp(o: RpOptions): Promise<RunningRp> {
  const base = `http://${o.host}:${o.port}`;
  const title = 'passport-openidconnect RP';
  const meta = (await (await fetch(`${o.issuer}/.well-known/openid-configuration`)).json()) as Discovery;
  const userinfoOf = async (accessToken: string) =>
    (await (await fetch(meta.userinfo_endpoint, { headers: { authorization: `Bearer ${accessToken}` } })).json()) as Record<string, unknown>;

  const passport = new Passport();
  passport.use(
    'iam',
    new OpenIDConnectStrategy(
      {
        issuer: meta.issuer,
        authorizationURL: meta.authorization_endpoint,
        tokenURL: meta.token_endpoint,
        userInfoURL: meta.userinfo_endpoint,
        clientID: o.clientId,
        clientSecret: o.clientSecret,
        callbackURL: `${base}/callback`,
        // the library prepends `openid` itself
        scope: o.scope.split(' ').filter((s) => s !== 'openid'),
        // OIDC Core: offline_access (a refresh token) is only granted together with prompt=consent
        ...(o.scope.split(' ').includes('offline_access') ? { prompt: 'consent' } : {}),
        // any truthy value: the library then sends a random nonce and checks it in the ID token
        nonce: 'true',
      },
      // nine arguments: the library calls UserInfo and hands its JSON over as uiProfile._json
      (_issuer: string, uiProfile: object, _idProfile: object, _context: object, idToken: string | object, accessToken: string | object, refreshToken: string, _params: unknown, done: (err: Error | null, user?: AppUser) => void) => {
        const userinfo = (uiProfile as { _json?: Record<string, unknown> })._json ?? {};
        const raw = String(idToken);
        done(null, { claims: payloadOf(raw), idToken: raw, accessToken: String(accessToken), refreshToken: refreshToken || undefined, userinfo, refreshes: 0 });
      },
    ),
  );
  passport.serializeUser((user, done) => done(null, user));
  passport.deserializeUser((user: AppUser, done) => done(null, user));

  const app = express();
  app.use(session({ secret: randomBytes(32).toString('hex'), resave: false, saveUninitialized: false, cookie: { httpOnly: true, sameSite: 'lax' } }));
  app.use(passport.initialize());
  app.use(passport.session());
  const userOf = (req: Request) => req.user as AppUser | undefined;
  const page = (res: Response, v: Parameters<typeof rpPage>[0]) => res.type('html').send(rpPage(v));

  app.get('/login', passport.authenticate('iam'));
  app.get('/callback', (req, res, next) => {
    passport.authenticate('iam', (err: Error | null, user: AppUser | false, info?: { message?: string }) => {
      // a refusal (?error=access_denied) reaches here as a failure without a user
      if (err || !user) return void page(res, { title, state: 'error', error: [req.query.error, err?.message ?? info?.message].filter(Boolean).join(': ') });
      req.logIn(user, (loginErr) => (loginErr ? next(loginErr) : res.redirect('/')));
    })(req, res, next);
  });
  app.get('/', (req, res) => {
    const user = userOf(req);
    if (!user) return void page(res, { title, state: 'signed-out' });
    page(res, { title, state: 'signed-in', idClaims: user.claims, userinfo: user.userinfo, refreshes: user.refreshes, accessToken: user.accessToken });
  });
  // passport-openidconnect does not refresh: the refresh_token grant by hand (client_secret_post, as registered)
  app.get('/refresh', async (req, res) => {
    const user = userOf(req);
    if (!user?.refreshToken) return void page(res.status(400), { title, state: 'error', error: 'no refresh token' });
    const answer = await fetch(meta.token_endpoint, {
      method: 'POST',
      body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: user.refreshToken, client_id: o.clientId, client_secret: o.clientSecret }),
    });
    const tokens = (await answer.json()) as { access_token?: string; refresh_token?: string; id_token?: string; error?: string };
    if (!tokens.access_token) return void page(res, { title, state: 'error', error: `refresh failed: ${tokens.error}` });
    const next: AppUser = {
      ...user,
      accessToken: tokens.access_token,
      refreshToken: tokens.refresh_token ?? user.refreshToken,
      idToken: tokens.id_token ?? user.idToken,
      userinfo: await userinfoOf(tokens.access_token),
      refreshes: user.refreshes + 1,
    };
    req.logIn(next, { session: true, keepSessionInfo: true }, () => res.redirect('/'));
  });
  // RP-initiated logout by hand: end the local session, then the provider's with the kept ID token
  app.get('/logout', (req, res, next) => {
    const idToken = userOf(req)?.idToken;
    req.logout((err) => {
      if (err) return next(err);
      const end = new URL(meta.end_session_endpoint);
      end.search = new URLSearchParams({ post_logout_redirect_uri: `${base}/`, ...(idToken ? { id_token_hint: idToken } : {}) }).toString();
      res.redirect(end.href);
    });
  });
  const server: Server = await new Promise((resolve, reject) => {
    const s = app.listen(o.port, o.host, (err?: Error) => (err ? reject(err) : resolve(s)));
  });
  return { url: base, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}
