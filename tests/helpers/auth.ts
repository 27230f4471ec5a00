import { createHash, randomBytes } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import type { TestApp } from './app';
import { accountRow, type AccountInput } from '../../server/services/accounts';
import { hashPassword } from '../../server/services/passwords';
import type { Account } from '../../server/db/schema';

export type ClientName = 'portal' | 'admin-console';

/** A minimal cookie jar for app.inject (names only; paths are not needed for these flows). */
export class CookieJar {
  readonly cookies = new Map<string, string>();
  store(res: LightMyRequestResponse): void {
    const raw = res.headers['set-cookie'];
    const list = Array.isArray(raw) ? raw : raw ? [raw] : [];
    for (const c of list) {
      const [pair] = c.split(';');
      const i = (pair ?? '').indexOf('=');
      if (i <= 0) continue;
      const name = (pair ?? '').slice(0, i).trim();
      const value = (pair ?? '').slice(i + 1).trim();
      if (value === '' || /expires=Thu, 01 Jan 1970/i.test(c)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }
  header(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }
}

export const pkcePair = () => {
  const verifier = randomBytes(96).toString('base64url'); // 128 characters
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
};

export const redirectUriFor = (t: TestApp, client: string) => `${t.config.appUrl}${client === 'admin-console' ? '/admin/login' : '/login'}`;

/** Path + query of an absolute URL of the app (app.inject takes paths). */
export const pathOf = (url: string) => {
  const u = new URL(url, 'http://localhost');
  return `${u.pathname}${u.search}`;
};

export interface AuthorizeStart {
  jar: CookieJar;
  verifier: string;
  state: string;
  redirectUri: string;
  client: string;
  /** the interaction uid when the provider asked for a sign-in */
  interaction?: string;
  /** where the provider redirected the browser */
  location: string;
}

/** Step 1: the authorization request with PKCE S256; returns the interaction uid (or the redirect when a session exists). */
export async function startAuthorize(t: TestApp, opts: { client?: string; redirectUri?: string; jar?: CookieJar; scope?: string; extra?: Record<string, string> } = {}): Promise<AuthorizeStart> {
  const client = opts.client ?? 'portal';
  const redirectUri = opts.redirectUri ?? redirectUriFor(t, client);
  const jar = opts.jar ?? new CookieJar();
  const { verifier, challenge } = pkcePair();
  const state = randomBytes(30).toString('base64url'); // 40 characters
  const q = new URLSearchParams({
    client_id: client,
    redirect_uri: redirectUri,
    response_type: 'code',
    scope: opts.scope ?? 'openid profile email offline_access',
    state,
    code_challenge: challenge,
    code_challenge_method: 'S256',
    ...opts.extra,
  });
  const res = await t.app.inject({ method: 'GET', url: `/oidc/auth?${q.toString()}`, headers: { cookie: jar.header() } });
  jar.store(res);
  const location = String(res.headers.location ?? '');
  if (res.statusCode !== 303 && res.statusCode !== 302) throw new Error(`authorize failed: ${res.statusCode} ${res.body.slice(0, 300)}`);
  const interaction = new URL(location, t.config.appUrl).searchParams.get('interaction') ?? undefined;
  return { jar, verifier, state, redirectUri, client, location, ...(interaction ? { interaction } : {}) };
}

/** Follows redirect_to (the provider's resume URL) until the client's redirect URI; returns the code. */
export async function followToCode(t: TestApp, start: AuthorizeStart, redirectTo: string): Promise<{ code?: string; error?: string; location: string }> {
  let url = redirectTo;
  for (let i = 0; i < 5; i++) {
    if (url.startsWith(start.redirectUri)) {
      const u = new URL(url);
      if (u.searchParams.get('state') !== start.state) throw new Error('state mismatch');
      return { code: u.searchParams.get('code') ?? undefined, error: u.searchParams.get('error') ?? undefined, location: url };
    }
    const res = await t.app.inject({ method: 'GET', url: pathOf(url), headers: { cookie: start.jar.header() } });
    start.jar.store(res);
    if (!res.headers.location) throw new Error(`no redirect from ${url}: ${res.statusCode} ${res.body.slice(0, 300)}`);
    url = new URL(String(res.headers.location), t.config.appUrl).href;
  }
  throw new Error('too many redirects');
}

export interface Tokens {
  accessToken: string;
  refreshToken: string;
  idToken: string;
  authorization: string;
}

export async function exchangeCode(t: TestApp, start: AuthorizeStart, code: string): Promise<Tokens> {
  const res = await t.app.inject({
    method: 'POST',
    url: '/oidc/token',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({ grant_type: 'authorization_code', code, redirect_uri: start.redirectUri, client_id: start.client, code_verifier: start.verifier }).toString(),
  });
  if (res.statusCode !== 200) throw new Error(`token exchange failed: ${res.statusCode} ${res.body}`);
  const body = res.json<{ access_token: string; refresh_token: string; id_token: string }>();
  return { accessToken: body.access_token, refreshToken: body.refresh_token, idToken: body.id_token, authorization: `Bearer ${body.access_token}` };
}

/** grant_type=refresh_token for a public client; returns the raw response. */
export function refresh(t: TestApp, refreshToken: string, client: ClientName | string = 'portal') {
  return t.app.inject({
    method: 'POST',
    url: '/oidc/token',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: refreshToken, client_id: client }).toString(),
  });
}

/**
 * Signs in through the REAL flow over HTTP (app.inject): authorize with PKCE → interaction →
 * POST /api/login (or /api/admin/login) → second factor when required (`otp()` supplies the code) →
 * follow redirect_to → code → token endpoint.
 */
export async function signIn(t: TestApp, opts: { email: string; password: string; client?: ClientName; otp?: () => string }): Promise<Tokens> {
  const client = opts.client ?? 'portal';
  const start = await startAuthorize(t, { client });
  if (!start.interaction) throw new Error(`expected an interaction, got ${start.location}`);
  const loginUrl = client === 'admin-console' ? '/api/admin/login' : '/api/login';
  const login = await t.app.inject({ method: 'POST', url: loginUrl, headers: { cookie: start.jar.header() }, payload: { email: opts.email, password: opts.password, interaction: start.interaction } });
  if (login.statusCode !== 200) throw new Error(`login failed: ${login.statusCode} ${login.body}`);
  let data = login.json<{ data: { status: string; redirect_to?: string; method?: string } }>().data;
  if (data.status === 'two_factor_required') {
    if (!opts.otp) throw new Error('two factor required but no otp() given');
    const url = client === 'admin-console' ? '/api/admin/2fa/validate-otp' : data.method === 'SMS' ? '/api/2fa/sms/verify' : '/api/2fa/google/validate-otp';
    const res = await t.app.inject({ method: 'POST', url, headers: { cookie: start.jar.header() }, payload: { one_time_password: opts.otp(), interaction: start.interaction } });
    if (res.statusCode !== 200) throw new Error(`2fa failed: ${res.statusCode} ${res.body}`);
    data = res.json<{ data: { status: string; redirect_to?: string } }>().data;
  }
  if (data.status !== 'complete' || !data.redirect_to) throw new Error(`sign-in not complete: ${JSON.stringify(data)}`);
  const { code, error } = await followToCode(t, start, data.redirect_to);
  if (!code) throw new Error(`no code: ${error ?? 'unknown'}`);
  return exchangeCode(t, start, code);
}

let counter = 0;
/** Inserts an account with a hashed password (accountRow + hashPassword). Returns the row. */
export async function createAccount(
  t: TestApp,
  opts: { type: 'user' | 'admin'; email: string; password?: string | null } & Partial<Omit<AccountInput, 'type' | 'email' | 'password_hash'>>,
): Promise<Account> {
  const { password, ...rest } = opts;
  const now = new Date().toISOString();
  counter++;
  const row = accountRow({
    first_name: `First${counter}`,
    last_name: `Last${counter}`,
    locale: 'en',
    status: 'ACTIVE',
    auth_type: 'CREDENTIALS',
    technical: 0,
    admin_role: opts.type === 'admin' ? 'super_admin' : null,
    email_verified_at: now,
    password_changed_at: password ? now : null,
    ...rest,
    password_hash: password ? await hashPassword(password) : null,
  });
  await t.db.kysely.insertInto('accounts').values(row).execute();
  return t.db.kysely.selectFrom('accounts').selectAll().where('id', '=', row.id).executeTakeFirstOrThrow();
}

/**
 * The parts of an API key as documented (server/routes/account/api-keys.routes.ts): `iam_<prefix>_<secret>`, an 8-hex
 * prefix and a 43-character base64url secret. Parsed by position, never split on `_`: the secret may contain `_`.
 */
export function parseApiKey(key: string): { prefix: string; secret: string } {
  const m = /^iam_([0-9a-f]{8})_([A-Za-z0-9_-]{43})$/.exec(key);
  if (!m) throw new Error(`not an API key: ${key}`);
  return { prefix: m[1]!, secret: m[2]! };
}

/**
 * A 6-digit code that is not the TOTP code of any step within ±2 periods of `at`: wrong for the server's ±1 step
 * window even when a period boundary passes before the request. (`code + 1` or a fixed '000000' can be a valid
 * code by chance.) `codeAt` gives the code for a timestamp (ms).
 */
export function notATotpCode(codeAt: (timestamp: number) => string, at = Date.now(), periodMs = 30_000): string {
  const near = new Set([-2, -1, 0, 1, 2].map((k) => codeAt(at + k * periodMs)));
  for (let n = 0; ; n++) {
    const code = String(n).padStart(6, '0');
    if (!near.has(code)) return code;
  }
}
