import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import * as client from 'openid-client';
import { Browser } from './http';
import type { TestApp } from './app';
import { followToCode, startAuthorize } from './auth';
import { nowIso } from '../../server/db/index';
import { encryptSecret } from '../../server/services/admin/service-apps';
import { splitRedirectUri } from '../../contract/domain/redirect-uris';

let seq = 0;

export interface SeededServiceApp {
  id: string;
  name: string;
  roleId: string;
  roleName: string;
  subscriptionId: string;
  /** the first redirect URI */
  redirectUri: string;
  redirectUris: string[];
  secret: string | null;
}

/**
 * Inserts a service app (OIDC client) with one allowed role, a subscription holding that role, and
 * subscribes `members` to it (so they may sign in to the app). Confidential apps get `secret`
 * (stored encrypted like the admin API does). Without `redirectUris` the row is one an older release wrote: url + path
 * only, the lists null (its one redirect URI is url + path); with them, the lists as the admin API stores them.
 */
export async function seedServiceApp(
  t: TestApp,
  opts: {
    members?: string[];
    clientType?: 'public' | 'confidential';
    url?: string;
    path?: string;
    redirectUris?: string[];
    postLogoutRedirectUris?: string[];
    secret?: string;
    extra?: Record<string, unknown>;
  } = {},
): Promise<SeededServiceApp> {
  const db = t.db.kysely;
  const now = nowIso();
  const k = `${++seq}${randomUUID().slice(0, 4)}`;
  const name = `svc-${k}`;
  const roleId = randomUUID();
  const roleName = `SVC_ROLE_${k}`;
  const subscriptionId = randomUUID();
  const id = randomUUID();
  const split = opts.redirectUris?.[0] ? splitRedirectUri(opts.redirectUris[0]) : undefined;
  const url = split?.url ?? opts.url ?? 'https://svc.example.com';
  const path = split?.path ?? opts.path ?? '/callback';
  const lists = opts.redirectUris
    ? { redirect_uris: JSON.stringify(opts.redirectUris), post_logout_redirect_uris: JSON.stringify(opts.postLogoutRedirectUris ?? []) }
    : {};
  const clientType = opts.clientType ?? 'public';
  const secret = clientType === 'confidential' ? (opts.secret ?? `secret-${randomUUID()}`) : null;
  await db.insertInto('roles').values({ id: roleId, name: roleName, description: '', created_at: now, updated_at: now }).execute();
  await db.insertInto('subscriptions').values({ id: subscriptionId, name: `SVC_SUB_${k}`, description: '', created_at: now, updated_at: now }).execute();
  await db.insertInto('subscription_roles').values({ subscription_id: subscriptionId, role_id: roleId }).execute();
  await db
    .insertInto('service_apps')
    .values({ id, name, display_name: `Service ${k}`, url, path, ...lists, client_type: clientType, client_secret: secret ? await encryptSecret(db, secret) : null, created_at: now, updated_at: now, ...opts.extra })
    .execute();
  await db.insertInto('service_app_roles').values({ service_app_id: id, role_id: roleId }).execute();
  for (const accountId of opts.members ?? []) {
    await db.insertInto('role_subscriptions').values({ account_id: accountId, subscription_id: subscriptionId, role_id: roleId, created_at: now }).execute();
  }
  const redirectUris = opts.redirectUris ?? [`${url}${path}`];
  return { id, name, roleId, roleName, subscriptionId, redirectUri: redirectUris[0] as string, redirectUris, secret };
}

/**
 * Signs `email` in to a service app through the real endpoints (authorization with PKCE S256, the product's
 * /api/login, then the provider's redirects) as a cookie-keeping browser would; returns the callback URL carrying the
 * code, the PKCE verifier and state, and the paths visited on the way. `onStep` sees each URL before it is followed.
 */
export async function authorizeInBrowser(
  o: { appUrl: string; config: client.Configuration; redirectUri: string; email: string; password: string; params: Record<string, string> },
  onStep?: (url: string) => Promise<void>,
): Promise<{ callback: URL; verifier: string; state: string; visited: string[] }> {
  const verifier = client.randomPKCECodeVerifier();
  const state = client.randomState();
  const authUrl = client.buildAuthorizationUrl(o.config, { redirect_uri: o.redirectUri, code_challenge: await client.calculatePKCECodeChallenge(verifier), code_challenge_method: 'S256', state, ...o.params });
  const browser = new Browser();
  const r1 = await browser.go(authUrl.href);
  const interaction = new URL(String(r1.headers.get('location'))).searchParams.get('interaction');
  const login = await browser.go(`${o.appUrl}/api/login`, { method: 'POST', headers: { 'content-type': 'application/json', origin: o.appUrl }, body: JSON.stringify({ email: o.email, password: o.password, interaction }) });
  expect(login.status).toBe(200);
  let url = ((await login.json()) as { data: { redirect_to: string } }).data.redirect_to;
  const visited: string[] = [];
  for (let i = 0; i < 6 && !url.startsWith(o.redirectUri); i++) {
    visited.push(new URL(url).pathname.replace(/[^/]{20,}$/, ':uid'));
    await onStep?.(url);
    const r = await browser.go(url);
    expect(r.status, `${url}: ${r.status}`).toBeLessThan(400);
    url = new URL(String(r.headers.get('location')), o.appUrl).href;
  }
  expect(url.startsWith(`${o.redirectUri}?`), `stuck at ${url} after ${visited.join(' → ')}`).toBe(true);
  return { callback: new URL(url), verifier, state, visited };
}

/**
 * Signs `email` in to a service app over the real endpoints (app.inject: authorization with PKCE, /api/login, the
 * provider's redirects, the token endpoint with the app's secret as client_secret_basic when it has one); returns the
 * token response.
 */
export async function serviceAppTokens(t: TestApp, sa: SeededServiceApp, email: string, password: string, scope: string) {
  const start = await startAuthorize(t, { client: sa.name, redirectUri: sa.redirectUri, scope });
  const login = await t.app.inject({ method: 'POST', url: '/api/login', headers: { cookie: start.jar.header() }, payload: { email, password, interaction: start.interaction } });
  const { code } = await followToCode(t, start, login.json<{ data: { redirect_to: string } }>().data.redirect_to);
  const res = await t.app.inject({
    method: 'POST',
    url: '/oidc/token',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...(sa.secret ? { authorization: `Basic ${Buffer.from(`${sa.name}:${sa.secret}`).toString('base64')}` } : {}) },
    payload: new URLSearchParams({ grant_type: 'authorization_code', code: String(code), redirect_uri: sa.redirectUri, code_verifier: start.verifier, ...(sa.secret ? {} : { client_id: sa.name }) }).toString(),
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ access_token: string; id_token: string; refresh_token?: string; token_type: string }>();
}
