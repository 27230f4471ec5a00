/**
 * A relying party's back-channel logout endpoint on loopback (OpenID Connect Back-Channel Logout 1.0), for the tests of
 * server/oidc/backchannel-logout.ts: it records every POST and answers as told (`ok` 200, a status, a redirect to its
 * own `/followed`, or never), and `verifyLogoutToken` checks a token as a relying party must (§2.6), against the app's
 * JWKS.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createLocalJWKSet, decodeProtectedHeader, jwtVerify, type JWTPayload } from 'jose';
import type { TestApp } from './app';
import { freePort } from './http';

export const LOGOUT_EVENT = 'http://schemas.openid.net/event/backchannel-logout';

export type ReceiverMode = { kind: 'ok' } | { kind: 'status'; status: number } | { kind: 'redirect' } | { kind: 'hang' };

export interface ReceivedLogout {
  path: string;
  contentType: string | undefined;
  /** the form's logout_token (undefined when absent) */
  token: string | undefined;
  fields: string[];
}

export interface LogoutReceiver {
  /** http://127.0.0.1:<port>/backchannel */
  uri: string;
  mode: ReceiverMode;
  received: ReceivedLogout[];
  /** requests to /followed: a redirect that was followed */
  followed: number;
  close(): Promise<void>;
}

const body = (req: IncomingMessage): Promise<string> =>
  new Promise((resolve) => {
    let s = '';
    req.on('data', (c: Buffer) => (s += c.toString()));
    req.on('end', () => resolve(s));
  });

export async function startLogoutReceiver(mode: ReceiverMode = { kind: 'ok' }): Promise<LogoutReceiver> {
  const hanging = new Set<ServerResponse>();
  const receiver: LogoutReceiver = { uri: '', mode, received: [], followed: 0, close: async () => undefined };
  const server: Server = createServer((req, res) => {
    void (async () => {
      const path = new URL(req.url ?? '/', 'http://x').pathname;
      const form = new URLSearchParams(await body(req));
      if (path === '/followed') {
        receiver.followed++;
        res.writeHead(200).end();
        return;
      }
      receiver.received.push({ path, contentType: req.headers['content-type'], token: form.get('logout_token') ?? undefined, fields: [...form.keys()] });
      const m = receiver.mode;
      if (m.kind === 'ok') res.writeHead(200, { 'cache-control': 'no-store' }).end();
      else if (m.kind === 'status') res.writeHead(m.status).end('nope');
      else if (m.kind === 'redirect') res.writeHead(302, { location: '/followed' }).end();
      else hanging.add(res);
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiver.uri = `http://127.0.0.1:${(server.address() as AddressInfo).port}/backchannel`;
  receiver.close = async () => {
    for (const res of hanging) res.destroy();
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  };
  return receiver;
}

/** A loopback URI where nothing listens (connection refused). */
export async function deadUri(): Promise<string> {
  return `http://127.0.0.1:${await freePort()}/backchannel`;
}

/**
 * Verifies a logout token as a relying party must (Back-Channel Logout 1.0 §2.6), against the app's published JWKS:
 * signature (RS256), `typ: logout+jwt`, iss, aud = client id, iat and exp, jti, the back-channel logout event, sub
 * and/or sid, no nonce. Returns its claims.
 */
export async function verifyLogoutToken(t: TestApp, token: string, clientId: string): Promise<JWTPayload & { sid?: string; events: Record<string, unknown> }> {
  const jwks = (await t.app.inject({ method: 'GET', url: '/oidc/jwks' })).json<{ keys: [] }>();
  const { payload, protectedHeader } = await jwtVerify(token, createLocalJWKSet(jwks), { issuer: t.config.issuer, audience: clientId, typ: 'logout+jwt', algorithms: ['RS256'], requiredClaims: ['iat', 'exp', 'jti'] });
  if (!protectedHeader.kid) throw new Error('no kid in the header');
  const events = payload.events as Record<string, unknown> | undefined;
  if (!events || typeof events !== 'object' || typeof events[LOGOUT_EVENT] !== 'object') throw new Error('no back-channel logout event');
  if (!payload.sub && !payload.sid) throw new Error('neither sub nor sid');
  if ('nonce' in payload) throw new Error('a logout token must not carry a nonce');
  return payload as JWTPayload & { sid?: string; events: Record<string, unknown> };
}

/** The JOSE header of a token (tests look at typ and kid). */
export const headerOf = decodeProtectedHeader;
