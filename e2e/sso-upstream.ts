/**
 * The upstream identity provider of the e2e server (SSO_PROVIDERS in playwright.config.ts): a second oidc-provider,
 * as in tests/server/oidc/sso.test.ts, with automatic sign-in and consent as the person the walk chooses.
 *
 * It listens on 127.0.0.2, never on the IAM's host name (the e2e IAM is http://127.0.0.1:<E2E_PORT>): cookies ignore
 * the port, and both providers use oidc-provider's cookie names (docs/OPERATIONS.md). The IAM discovers it lazily
 * (server/services/sso.ts), so the walk's driver starts it in its own worker when a case needs it
 * (e2e/paths/ssoCallback.driver.ts). Its e-mail domain (`sso-walk.test`) is used by no other spec: a failed password of
 * that domain is told to use the provider.
 */
import { createServer, type Server } from 'node:http';
import Provider from 'oidc-provider';

export const SSO_WALK = {
  id: 'walk',
  name: 'Walk IdP',
  clientId: 'iam-walk',
  clientSecret: 'walk-upstream-secret',
  domain: 'sso-walk.test',
  host: '127.0.0.2',
} as const;

/** The IAM's e2e port (playwright.config.ts) and the upstream's (E2E_SSO_PORT, else the IAM's + 80). */
export function e2ePorts(env: NodeJS.ProcessEnv = process.env): { iam: number; upstream: number } {
  const iam = Number(env.E2E_PORT ?? 3100);
  return { iam, upstream: Number(env.E2E_SSO_PORT ?? iam + 80) };
}

export const appUrl = (env: NodeJS.ProcessEnv = process.env) => `http://127.0.0.1:${e2ePorts(env).iam}`;
export const upstreamIssuer = (env: NodeJS.ProcessEnv = process.env) => `http://${SSO_WALK.host}:${e2ePorts(env).upstream}`;

/** The SSO_PROVIDERS value of the e2e server. */
export function ssoProvidersEnv(env: NodeJS.ProcessEnv = process.env): string {
  return JSON.stringify([
    { id: SSO_WALK.id, name: SSO_WALK.name, issuer: upstreamIssuer(env), client_id: SSO_WALK.clientId, client_secret: SSO_WALK.clientSecret, domains: [SSO_WALK.domain] },
  ]);
}

export interface UpstreamPerson {
  sub: string;
  email: string;
  /** undefined: the claim is left out (LemonLDAP::NG's default). */
  email_verified: boolean | undefined;
}

export interface SsoUpstream {
  issuer: string;
  /** Who signs in at the upstream provider (automatically, at its interaction). */
  person: UpstreamPerson | null;
  /** While true the token endpoint answers 500 (the provider is failing). */
  failTokens: boolean;
  /** The authorization requests the provider received. */
  authorizations: URL[];
  /** The token requests it answered, with their status. */
  tokenStatuses: number[];
  /** How many times it asked for a sign-in (its interaction: where a real provider shows its password form). */
  prompts: number;
  close(): Promise<void>;
}

let shared: Promise<SsoUpstream> | undefined;
/**
 * The upstream provider, started once per worker process (every spec and driver of the worker shares it: it listens on
 * one fixed port). The e2e server discovers it on the first upstream sign-in.
 */
export function sharedSsoUpstream(env: NodeJS.ProcessEnv = process.env): Promise<SsoUpstream> {
  shared ??= startSsoUpstream(env);
  return shared;
}

/** The worker's upstream provider when it was started, else undefined (nothing to reset). */
export const runningSsoUpstream = (): Promise<SsoUpstream> | undefined => shared;

export async function startSsoUpstream(env: NodeJS.ProcessEnv = process.env): Promise<SsoUpstream> {
  const issuer = upstreamIssuer(env);
  const state: SsoUpstream = { issuer, person: null, failTokens: false, authorizations: [], tokenStatuses: [], prompts: 0, close: async () => undefined };
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: SSO_WALK.clientId,
        client_secret: SSO_WALK.clientSecret,
        redirect_uris: [`${appUrl(env)}/api/sso/${SSO_WALK.id}/callback`],
        // the portal's sign-out comes back to the login pages, an app's (through this IAM) to the fixed URI
        post_logout_redirect_uris: [`${appUrl(env)}/login`, `${appUrl(env)}/admin/login`, `${appUrl(env)}/api/sso/${SSO_WALK.id}/signed-out`],
        token_endpoint_auth_method: 'client_secret_post',
      },
    ],
    features: {
      devInteractions: { enabled: false },
      // its sign-out asks "Sign out?" (as LemonLDAP::NG does by default), in a page without outside resources
      rpInitiatedLogout: {
        enabled: true,
        logoutSource: async (ctx, form) => {
          ctx.body = `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>Walk IdP</title></head><body><main><h1>Sign out of Walk IdP?</h1>${form}<button type="submit" form="op.logoutForm" name="logout" value="yes">Yes, sign me out</button></main></body></html>`;
        },
      },
    },
    claims: { openid: ['sub'], email: ['email', 'email_verified'] },
    scopes: ['openid', 'email', 'profile'],
    cookies: { keys: ['sso-walk-upstream-key'] },
    findAccount: async (_ctx, sub) => ({
      accountId: sub,
      claims: async () => {
        const person = state.person?.sub === sub ? state.person : null;
        return { sub, ...(person ? { email: person.email, ...(person.email_verified === undefined ? {} : { email_verified: person.email_verified }) } : {}) };
      },
    }),
    loadExistingGrant: async (ctx) => {
      const accountId = ctx.oidc.session?.accountId;
      if (!accountId || !ctx.oidc.client) return undefined;
      const grant = new ctx.oidc.provider.Grant({ accountId, clientId: ctx.oidc.client.clientId });
      grant.addOIDCScope('openid email profile');
      await grant.save();
      return grant;
    },
    interactions: { url: async (_ctx, interaction) => `/interaction/${interaction.uid}` },
  });
  const callback = provider.callback();
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', issuer);
    if (url.pathname === '/auth') state.authorizations.push(url);
    if (url.pathname.startsWith('/interaction/')) {
      state.prompts++;
      if (!state.person) {
        res.statusCode = 500;
        res.end('no person chosen for the upstream sign-in');
        return;
      }
      provider.interactionFinished(req, res, { login: { accountId: state.person.sub } }).catch((err: unknown) => {
        res.statusCode = 500;
        res.end(String(err));
      });
      return;
    }
    if (url.pathname === '/token') {
      res.on('finish', () => state.tokenStatuses.push(res.statusCode));
      if (state.failTokens) {
        res.statusCode = 500;
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify({ error: 'server_error', error_description: 'the upstream provider is failing (e2e walk)' }));
        return;
      }
    }
    callback(req, res);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(e2ePorts(env).upstream, SSO_WALK.host, resolve);
  });
  // never keeps a worker alive
  server.unref();
  state.close = () => new Promise<void>((resolve) => server.close(() => resolve()));
  return state;
}
