/**
 * What every relying party of the interop suite needs on the product side, made through the admin API:
 * one role, a subscription carrying it, a user holding the role ("allowed"), a user without it
 * ("denied"), and per relying party a service app registered for its loopback origin.
 */
import { expect, type APIRequestContext, type Browser } from '@playwright/test';
import { randomBytes } from 'node:crypto';
import { createUserWithPassword, superAdminToken, type NewUser } from '../helpers';

export interface InteropFixture {
  admin: string;
  /** Random per run (the e2e data directory may be reused locally): suffix of every name made here. */
  tag: string;
  role: { id: string; name: string };
  allowed: NewUser;
  denied: NewUser;
}

export interface RegisteredApp {
  id: string;
  clientId: string;
  clientSecret: string | null;
}

async function post<T>(request: APIRequestContext, admin: string, path: string, data: unknown): Promise<T> {
  const res = await request.post(path, { headers: { Authorization: `Bearer ${admin}` }, data });
  expect(res.ok(), `${path}: ${res.status()} ${await res.text()}`).toBeTruthy();
  return ((await res.json()) as { data: T }).data;
}

export async function createFixture(browser: Browser, request: APIRequestContext): Promise<InteropFixture> {
  const admin = await superAdminToken(browser);
  const tag = randomBytes(3).toString('hex').toUpperCase();
  const role = await post<{ id: string; name: string }>(request, admin, '/api/admin/roles', { name: `INTEROP_VIEWER_${tag}`, description: 'Interop suite' });
  const sub = await post<{ id: string }>(request, admin, '/api/admin/subscriptions', { name: `INTEROP_${tag}`, description: 'Interop suite', role_ids: [role.id] });
  const password = 'Interop-Passw0rd!x';
  const lower = tag.toLowerCase();
  const allowed: NewUser = { email: `rp-allowed-${lower}@example.com`, first: 'Ada', last: 'Allowed', password };
  const denied: NewUser = { email: `rp-denied-${lower}@example.com`, first: 'Dan', last: 'Denied', password };
  await createUserWithPassword(request, admin, allowed);
  await createUserWithPassword(request, admin, denied);
  const list = await request.get(`/api/admin/users?search=${encodeURIComponent(allowed.email)}`, { headers: { Authorization: `Bearer ${admin}` } });
  expect(list.ok(), await list.text()).toBeTruthy();
  const userId = ((await list.json()) as { data: { id: string; email: string }[] }).data.find((u) => u.email === allowed.email)?.id;
  expect(userId, 'allowed user listed').toBeTruthy();
  const patched = await request.patch(`/api/admin/users/${userId}`, {
    headers: { Authorization: `Bearer ${admin}` },
    data: { subscriptions: [{ subscription_id: sub.id, role_ids: [role.id] }] },
  });
  expect(patched.ok(), await patched.text()).toBeTruthy();
  return { admin, tag: lower, role, allowed, denied };
}

/**
 * Registers a service app for `origin` with redirect path `path` (its one redirect URI, OIDC `redirect_uris`) and the
 * origin root as its post-logout URI (every relying party here signs out to `${origin}/`); confidential apps return
 * their secret (shown once).
 */
export async function registerApp(
  request: APIRequestContext,
  f: InteropFixture,
  o: {
    name: string;
    origin: string;
    path: string;
    clientType: 'public' | 'confidential';
    clientCredentials?: boolean;
    backchannelLogoutUri?: string;
    /** confidential apps only: false for software that cannot send PKCE (the app's "Require PKCE" off) */
    pkceRequired?: boolean;
    tokenEndpointAuthMethod?: 'client_secret_basic' | 'client_secret_post';
  },
): Promise<RegisteredApp> {
  const created = await post<{ id: string; name: string; client_secret: string | null }>(request, f.admin, '/api/admin/service-apps', {
    name: `${o.name}-${f.tag}`,
    display_name: `Interop ${o.name}`,
    redirect_uris: [`${o.origin}${o.path}`],
    post_logout_redirect_uris: [`${o.origin}/`],
    role_ids: [f.role.id],
    client_type: o.clientType,
    ...(o.clientCredentials ? { client_credentials: true } : {}),
    ...(o.backchannelLogoutUri ? { backchannel_logout_uri: o.backchannelLogoutUri } : {}),
    ...(o.pkceRequired === undefined ? {} : { pkce_required: o.pkceRequired }),
    ...(o.tokenEndpointAuthMethod ? { token_endpoint_auth_method: o.tokenEndpointAuthMethod } : {}),
  });
  return { id: created.id, clientId: created.name, clientSecret: created.client_secret };
}
