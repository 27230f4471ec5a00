/**
 * A server-side web app on stock Auth.js (@auth/express 0.12, @auth/core 0.41) with Express 5: the generic OIDC
 * provider (`type: 'oidc'`: discovery, code flow, ID token checked by oauth4webapi), a confidential client
 * (client_secret_basic), PKCE S256 (Auth.js's default check) plus state and nonce, its JWT session cookie.
 *  - `roles`: the provider's ID token carries them; the jwt callback copies them (and the raw ID token) into
 *    Auth.js's JWT, the session callback into the session;
 *  - sign-out: Auth.js ends only its own session. /logout sends the person to Auth.js's own sign-out
 *    (its confirmation page, a POST with its CSRF token) with the provider's end_session_endpoint (id_token_hint,
 *    post_logout_redirect_uri) as the callbackUrl; the redirect callback lets that one URL through;
 *  - a refusal (?error=access_denied) is Auth.js's `OAuthCallbackError` on its sign-in page; the provider's error
 *    code goes only to Auth.js's debug logger, collected here for the spec.
 * Renders e2e/interop/page.ts's shape; the same set-up, trimmed, is in docs/INTEGRATING.md.
 */
import { randomBytes } from 'node:crypto';
import type { Server } from 'node:http';
import { ExpressAuth, getSession, type ExpressAuthConfig } from '@auth/express';
import express from 'express';
import { rpPage } from './page';
import type { RpOptions, RunningRp } from './rp-openid-client';

export interface RunningAuthJsRp extends RunningRp {
  /** what Auth.js logged: its errors (`name: message`) and the provider's error code of an OAuthCallbackError (`provider: <code>`) */
  errors(): string[];
}

const payloadOf = (jwt: string): unknown => JSON.parse(Buffer.from(jwt.split('.')[1] ?? '', 'base64url').toString());

export async function startAuthJsRp(o: Omit<RpOptions, 'scope'>): Promise<RunningAuthJsRp> {
  const base = `http://${o.host}:${o.port}`;
  const title = 'Auth.js RP';
  const { end_session_endpoint: endSession } = (await (await fetch(`${o.issuer}/.well-known/openid-configuration`)).json()) as { end_session_endpoint: string };
  const errors: string[] = [];

  const authConfig: ExpressAuthConfig = {
    secret: randomBytes(32).toString('hex'),
    trustHost: true,
    providers: [
      {
        id: 'iam',
        name: 'IAM',
        type: 'oidc',
        issuer: o.issuer,
        clientId: o.clientId,
        clientSecret: o.clientSecret,
        // Auth.js's default for type 'oidc' is ['pkce']; state and nonce are checked too when listed
        checks: ['pkce', 'state', 'nonce'],
        authorization: { params: { scope: 'openid profile email roles' } },
        // Auth.js's own sign-in page shows https://authjs.dev/img/providers/<id>.svg unless a logo is set ('' for none)
        style: { logo: '' },
      },
    ],
    callbacks: {
      // on sign-in (account and profile present): keep the provider's roles and ID token in Auth.js's JWT
      jwt({ token, account, profile }) {
        if (account) Object.assign(token, { idToken: account.id_token, roles: profile?.roles ?? [] });
        return token;
      },
      session({ session, token }) {
        return Object.assign(session, { roles: token.roles, idToken: token.idToken });
      },
      // lets Auth.js's sign-out continue at the provider (the /logout below); anything else stays on the app
      redirect({ url, baseUrl }) {
        if (url.startsWith(`${endSession}?`)) return url;
        if (url.startsWith('/')) return `${baseUrl}${url}`;
        return new URL(url).origin === baseUrl ? url : baseUrl;
      },
    },
    logger: {
      error(err: Error) {
        errors.push(`${err.name}: ${err.message}`);
      },
      // Auth.js hands the provider's error response (error, error_description) only to its debug logger
      debug(message: string, metadata?: unknown) {
        const code = (metadata as { error?: unknown } | undefined)?.error;
        if (message === 'OAuthCallbackError' && typeof code === 'string') errors.push(`provider: ${code}`);
      },
    },
  };

  const app = express();
  // Express 5: mount at /auth (Auth.js takes its base path from req.baseUrl)
  app.use('/auth', ExpressAuth(authConfig));
  app.get('/login', (_req, res) => res.redirect(`/auth/signin?${new URLSearchParams({ callbackUrl: '/' })}`));
  // RP-initiated logout: Auth.js's own sign-out first, then the provider's end_session_endpoint
  app.get('/logout', async (req, res) => {
    const session = (await getSession(req, authConfig)) as { idToken?: string } | null;
    const end = new URL(endSession);
    end.search = new URLSearchParams({ post_logout_redirect_uri: `${base}/`, ...(session?.idToken ? { id_token_hint: session.idToken } : {}) }).toString();
    res.redirect(`/auth/signout?${new URLSearchParams({ callbackUrl: end.href })}`);
  });
  app.get('/', async (req, res) => {
    const session = (await getSession(req, authConfig)) as ({ idToken?: string; roles?: unknown } & Record<string, unknown>) | null;
    if (!session) return void res.type('html').send(rpPage({ title, state: 'signed-out' }));
    const { idToken, ...shown } = session;
    res.type('html').send(rpPage({ title, state: 'signed-in', idClaims: idToken ? payloadOf(idToken) : null, userinfo: shown }));
  });
  const server: Server = await new Promise((resolve, reject) => {
    const s = app.listen(o.port, o.host, (err?: Error) => (err ? reject(err) : resolve(s)));
  });
  return {
    url: base,
    errors: () => [...errors],
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
