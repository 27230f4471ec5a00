/**
 * A server-side web app signing in with stock openid-client 6 (confidential client, client_secret_basic,
 * authorization code + PKCE S256, state and nonce), showing the ID token claims and UserInfo, refreshing
 * the tokens and signing out through the provider's end_session endpoint (RP-initiated logout).
 * The same code, trimmed, is the openid-client set-up of docs/INTEGRATING.md.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import * as client from 'openid-client';
import { rpPage } from './page';

interface Session {
  pending?: { verifier: string; state: string; nonce: string };
  tokens?: { access: string; refresh?: string | undefined; idToken?: string | undefined };
  idClaims?: unknown;
  userinfo?: unknown;
  sub?: string;
  refreshes: number;
  error?: string;
}

export interface RpOptions {
  /** The product's issuer, e.g. http://127.0.0.1:3100/oidc */
  issuer: string;
  /** Where this app listens: host and port (found free by the caller; the service app is registered for it). */
  host: string;
  port: number;
  clientId: string;
  clientSecret: string;
  scope: string;
}

export interface RunningRp {
  url: string;
  close(): Promise<void>;
}

export async function startOpenIdClientRp(o: RpOptions): Promise<RunningRp> {
  const base = `http://${o.host}:${o.port}`;
  const redirectUri = `${base}/callback`;
  // stock discovery; http:// is only allowed because the suite runs on loopback
  const config = await client.discovery(new URL(o.issuer), o.clientId, undefined, client.ClientSecretBasic(o.clientSecret), {
    execute: [client.allowInsecureRequests],
  });
  const sessions = new Map<string, Session>();
  const title = 'openid-client RP';
  // the refresh token of the last session signed out here, kept only to show that sign-out ended it (GET /probe)
  let endedRefreshToken: string | undefined;

  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', base);
    const sid = /(?:^|;\s*)rp_sid=([\w-]+)/.exec(req.headers.cookie ?? '')?.[1];
    let session = sid ? sessions.get(sid) : undefined;
    const send = (status: number, body: string, headers: Record<string, string> = {}) => {
      res.writeHead(status, { 'content-type': 'text/html; charset=utf-8', ...headers });
      res.end(body);
    };
    const redirect = (to: string, headers: Record<string, string> = {}) => {
      res.writeHead(302, { location: to, ...headers });
      res.end();
    };
    const handle = async () => {
      if (url.pathname === '/login') {
        const id = randomUUID();
        session = { refreshes: 0, pending: { verifier: client.randomPKCECodeVerifier(), state: client.randomState(), nonce: client.randomNonce() } };
        sessions.set(id, session);
        const pending = session.pending!;
        const authUrl = client.buildAuthorizationUrl(config, {
          redirect_uri: redirectUri,
          scope: o.scope,
          code_challenge: await client.calculatePKCECodeChallenge(pending.verifier),
          code_challenge_method: 'S256',
          state: pending.state,
          nonce: pending.nonce,
          // OIDC Core: offline_access (a refresh token) is only granted together with prompt=consent
          ...(o.scope.split(' ').includes('offline_access') ? { prompt: 'consent' } : {}),
        });
        return redirect(authUrl.href, { 'set-cookie': `rp_sid=${id}; Path=/; HttpOnly; SameSite=Lax` });
      }
      if (url.pathname === '/callback') {
        if (!session?.pending) return send(400, rpPage({ title, state: 'error', error: 'no pending sign-in' }));
        const { verifier, state, nonce } = session.pending;
        delete session.pending;
        try {
          const tokens = await client.authorizationCodeGrant(config, url, { pkceCodeVerifier: verifier, expectedState: state, expectedNonce: nonce, idTokenExpected: true });
          const claims = tokens.claims();
          session.sub = claims?.sub;
          session.idClaims = claims;
          session.tokens = { access: tokens.access_token, refresh: tokens.refresh_token, idToken: tokens.id_token };
          session.userinfo = await client.fetchUserInfo(config, tokens.access_token, claims!.sub);
        } catch (err) {
          session.error = err instanceof client.AuthorizationResponseError ? err.error : String((err as Error).message);
        }
        return redirect('/');
      }
      if (url.pathname === '/refresh') {
        if (!session?.tokens?.refresh) return send(400, rpPage({ title, state: 'error', error: 'no refresh token' }));
        try {
          const tokens = await client.refreshTokenGrant(config, session.tokens.refresh);
          session.tokens = { access: tokens.access_token, refresh: tokens.refresh_token ?? session.tokens.refresh, idToken: tokens.id_token ?? session.tokens.idToken };
          session.userinfo = await client.fetchUserInfo(config, tokens.access_token, session.sub ?? client.skipSubjectCheck);
          session.refreshes += 1;
          delete session.error;
        } catch (err) {
          session.error = `refresh failed: ${err instanceof client.ResponseBodyError ? err.error : (err as Error).message}`;
        }
        return redirect('/');
      }
      if (url.pathname === '/logout') {
        const idToken = session?.tokens?.idToken;
        endedRefreshToken = session?.tokens?.refresh;
        if (sid) sessions.delete(sid);
        const end = client.buildEndSessionUrl(config, { post_logout_redirect_uri: `${base}/`, ...(idToken ? { id_token_hint: idToken } : {}) });
        return redirect(end.href, { 'set-cookie': 'rp_sid=; Path=/; Max-Age=0' });
      }
      if (url.pathname === '/probe') {
        if (!endedRefreshToken) return send(400, '<p id="probe">no ended session</p>');
        const outcome = await client.refreshTokenGrant(config, endedRefreshToken).then(
          () => 'refreshed',
          (err: unknown) => (err instanceof client.ResponseBodyError ? err.error : String(err)),
        );
        return send(200, `<!DOCTYPE html><html lang="en"><head><title>${title}</title></head><body><p id="probe">${outcome}</p></body></html>`);
      }
      if (url.pathname === '/') {
        if (session?.error) return send(200, rpPage({ title, state: 'error', error: session.error }));
        if (session?.tokens) return send(200, rpPage({ title, state: 'signed-in', idClaims: session.idClaims, userinfo: session.userinfo, refreshes: session.refreshes, accessToken: session.tokens.access }));
        return send(200, rpPage({ title, state: 'signed-out' }));
      }
      return send(404, 'not found');
    };
    handle().catch((err: unknown) => send(500, rpPage({ title, state: 'error', error: String(err) })));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(o.port, o.host, resolve);
  });
  return {
    url: base,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
