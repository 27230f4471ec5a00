import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { beforeAll, expect, it } from 'vitest';
import { describeEachDb, type TestApp } from '../../helpers/app';
import { pkcePair } from '../../helpers/auth';
import { getProvider } from '../../../server/oidc/index';
import { nowIso } from '../../../server/db/index';
import { redirectVariants as generate, singleMutations } from './redirect-variants';

/**
 * Issue 10 — redirect URIs: at least 5 000 generated variants per registered URI (encodings, dot segments,
 * userinfo, case, trailing slash, fragment, query, ports, unicode…) are refused unless byte-identical, for
 * the portal, the admin console and a service app; the same for post_logout_redirect_uri.
 *
 * The bulk goes through the provider's own check (`Client#redirectUriAllowed`, the exact function the
 * authorization and end-session endpoints call, on the real client loaded through our adapter); a
 * deterministic slice of every list also goes through the real endpoints with app.inject (GET /oidc/auth
 * with PKCE S256, GET /oidc/session/end).
 */
const VARIANTS = 5000;
const SEED = 0x5ec10;
const SERVICE_APP = 'secsuite-crm';
const SERVICE_URL = 'https://crm.example.com:8443';
const SERVICE_PATH = '/oauth/callback';
// the endpoint slice: every k-th variant (fewer on PostgreSQL, where each request costs more)
const endpointSlice = (kind: string) => (kind === 'postgres' ? 80 : 150);

interface Case {
  client: string;
  redirect: (t: TestApp) => string;
  /** the registered post-logout URIs */
  logout: (t: TestApp) => string[];
  interactionPage: string;
}
const CASES: Case[] = [
  { client: 'portal', redirect: (t) => `${t.config.appUrl}/login`, logout: (t) => [`${t.config.appUrl}/login`], interactionPage: '/login?interaction=' },
  { client: 'admin-console', redirect: (t) => `${t.config.appUrl}/admin/login`, logout: (t) => [`${t.config.appUrl}/admin/login`], interactionPage: '/admin/login?interaction=' },
  {
    client: SERVICE_APP,
    redirect: () => `${SERVICE_URL}${SERVICE_PATH}`,
    logout: () => [`${SERVICE_URL}${SERVICE_PATH}`, SERVICE_URL, `${SERVICE_URL}/`],
    interactionPage: '/login?interaction=',
  },
];

// each request from its own address, so the global per-IP rate limit (600/min) never answers instead of the provider
let ipCounter = 0;
const nextIp = () => `10.77.${(++ipCounter >> 8) & 255}.${ipCounter & 255}`;

const memo = new Map<string, string[]>();
const redirectVariants = (uri: string, count: number, seed: number): string[] => {
  const key = `${uri} ${count} ${seed}`;
  let hit = memo.get(key);
  if (!hit) memo.set(key, (hit = generate(uri, count, seed)));
  return hit;
};

const sliceOf = <T>(xs: T[], n: number): T[] => {
  const step = Math.max(1, Math.floor(xs.length / n));
  return xs.filter((_, i) => i % step === 0).slice(0, n);
};

function authorizeUrl(client: string, redirectUri: string): string {
  const q = new URLSearchParams({
    client_id: client,
    redirect_uri: redirectUri,
    response_type: 'code',
    scope: 'openid profile email',
    state: 'S'.repeat(40),
    code_challenge: pkcePair().challenge,
    code_challenge_method: 'S256',
  });
  return `/oidc/auth?${q.toString()}`;
}

describeEachDb('redirect_uri and post_logout_redirect_uri: only exact matches', (get) => {
  beforeAll(async () => {
    const now = nowIso();
    await get()
      .db.kysely.insertInto('service_apps')
      .values({ id: randomUUID(), name: SERVICE_APP, display_name: 'CRM', url: SERVICE_URL, path: SERVICE_PATH, client_type: 'public', client_secret: null, created_at: now, updated_at: now })
      .execute();
  }, 120_000);

  for (const c of CASES) {
    it(`${c.client}: ≥ ${VARIANTS} generated variants of the redirect URI and of each post-logout URI are refused by the provider's check`, async () => {
      const t = get();
      const client = await (await getProvider(t.app)).Client.find(c.client);
      if (!client) throw new Error(`client ${c.client} not found`);
      const registered = c.redirect(t);
      expect(client.redirectUriAllowed(registered)).toBe(true);
      const variants = redirectVariants(registered, VARIANTS, SEED);
      expect(variants.length).toBeGreaterThanOrEqual(VARIANTS);
      const accepted = variants.filter((v) => client.redirectUriAllowed(v));
      expect(accepted).toEqual([]);

      const logoutUris = c.logout(t);
      for (const uri of logoutUris) {
        expect(client.postLogoutRedirectUriAllowed(uri)).toBe(true);
        const lv = redirectVariants(uri, VARIANTS, SEED + 1);
        expect(lv.length).toBeGreaterThanOrEqual(VARIANTS);
        // a variant may coincide with another registered post-logout URI (the service app's base URL): only those pass
        expect(lv.filter((v) => client.postLogoutRedirectUriAllowed(v) !== logoutUris.includes(v))).toEqual([]);
      }
    });

    it(`${c.client}: a slice of the variants through GET /oidc/auth (PKCE S256) and GET /oidc/session/end is refused without a redirect`, async () => {
      const t = get();
      const registered = c.redirect(t);
      // the registered URI itself starts a sign-in (positive control)
      const ok = await t.app.inject({ method: 'GET', url: authorizeUrl(c.client, registered) });
      expect(ok.statusCode).toBe(303);
      expect(String(ok.headers.location)).toContain(`${t.config.appUrl}${c.interactionPage}`);

      // the classics (each mutator once) plus an even slice of the composed variants
      // ('' is an omitted redirect_uri: the provider then uses the one registered URI, so it is no variant)
      const variants = [...new Set([...singleMutations(registered, t.kind === 'postgres' ? 2 : 4), ...sliceOf(redirectVariants(registered, VARIANTS, SEED), endpointSlice(t.kind))])].filter((v) => v !== '');
      const started = performance.now();
      const wrong: string[] = [];
      for (const v of variants) {
        const res = await t.app.inject({ method: 'GET', url: authorizeUrl(c.client, v), remoteAddress: nextIp() });
        // refused, never a redirect: the provider's error page (400 invalid_redirect_uri), or our input guard's
        // 422 for a NUL byte before the provider sees it
        const refused = res.headers.location === undefined && ((res.statusCode === 400 && res.body.includes('invalid_redirect_uri')) || (res.statusCode === 422 && v.includes('\u0000')));
        if (!refused) wrong.push(`${JSON.stringify(v)} → ${res.statusCode} ${String(res.headers.location ?? '')}`);
      }
      expect(wrong).toEqual([]);

      const logoutUris = c.logout(t);
      for (const uri of logoutUris) {
        const end = await t.app.inject({ method: 'GET', url: `/oidc/session/end?${new URLSearchParams({ client_id: c.client, post_logout_redirect_uri: uri })}` });
        expect(end.statusCode).toBe(200);
      }
      const lv = [...new Set([...singleMutations(logoutUris[0] as string, 2), ...sliceOf(redirectVariants(logoutUris[0] as string, VARIANTS, SEED + 1), Math.floor(endpointSlice(t.kind) / 2))])].filter((v) => v !== '' && !logoutUris.includes(v));
      for (const v of lv) {
        const res = await t.app.inject({ method: 'GET', url: `/oidc/session/end?${new URLSearchParams({ client_id: c.client, post_logout_redirect_uri: v })}`, remoteAddress: nextIp() });
        if (![400, 422].includes(res.statusCode) || res.headers.location !== undefined) wrong.push(`logout ${JSON.stringify(v)} → ${res.statusCode}`);
      }
      expect(wrong).toEqual([]);
      const ms = performance.now() - started;
      // informative only (no timed assertion): requests per second through the endpoints
      console.info(`[redirect-uris ${t.kind}] ${c.client}: ${variants.length + lv.length} endpoint checks in ${ms.toFixed(0)} ms`);
    });
  }
});
