import { createServer as createHttpServer, type Server } from 'node:http';
import { afterAll, beforeAll, expect, it } from 'vitest';
import Provider from 'oidc-provider';
import { describeEachDb } from '../../helpers/app';
import { createAccount, exchangeCode, followToCode, pathOf, startAuthorize } from '../../helpers/auth';
import { Browser, freePort } from '../../helpers/http';

/**
 * A tiny upstream identity provider: a second oidc-provider on loopback with one fixed account and
 * automatic sign-in + consent.
 */
const upstreamPort = await freePort();
const upstreamIssuer = `http://127.0.0.1:${upstreamPort}`;
const APP_URL = 'http://localhost:3000';
const UPSTREAM_EMAIL = 'sso.user@corp.example';
let upstreamVerified = true;

async function startUpstream(): Promise<Server> {
  const provider = new Provider(upstreamIssuer, {
    clients: [{ client_id: 'iam', client_secret: 'upstream-secret', redirect_uris: [`${APP_URL}/api/sso/corp/callback`], token_endpoint_auth_method: 'client_secret_post' }],
    features: { devInteractions: { enabled: false } },
    claims: { openid: ['sub'], email: ['email', 'email_verified'] },
    scopes: ['openid', 'email', 'profile'],
    cookies: { keys: ['upstream-test-key'] },
    findAccount: async (_ctx, sub) => ({ accountId: sub, claims: async () => ({ sub, email: UPSTREAM_EMAIL, email_verified: upstreamVerified }) }),
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
  const server = createHttpServer((req, res) => {
    if (req.url?.startsWith('/interaction/')) {
      provider.interactionFinished(req, res, { login: { accountId: 'upstream-subject-1' } }).catch((err: unknown) => {
        res.statusCode = 500;
        res.end(String(err));
      });
      return;
    }
    callback(req, res);
  });
  await new Promise<void>((resolve) => server.listen(upstreamPort, '127.0.0.1', resolve));
  return server;
}

let upstream: Server | undefined;
beforeAll(async () => {
  upstream = await startUpstream();
});
afterAll(async () => {
  await new Promise((r) => upstream?.close(r));
});

describeEachDb(
  'upstream SSO (the server as relying party)',
  (get) => {
    /** Drives the browser: our start → upstream (auto sign-in) → our callback; returns our callback's redirect. */
    async function viaUpstream(client: 'portal' | 'admin-console' = 'portal') {
      const t = get();
      const start = await startAuthorize(t, { client });
      const go = await t.app.inject({ method: 'GET', url: `/api/sso/corp/start?interaction=${start.interaction}` });
      expect(go.statusCode).toBe(302);
      const upstreamAuth = new URL(String(go.headers.location));
      expect(upstreamAuth.origin).toBe(upstreamIssuer);
      expect(upstreamAuth.searchParams.get('code_challenge_method')).toBe('S256');
      expect(upstreamAuth.searchParams.get('nonce')).toBeTruthy();
      const browser = new Browser();
      let url = upstreamAuth.href;
      for (let i = 0; i < 6 && url.startsWith(upstreamIssuer); i++) {
        const r = await browser.go(url);
        url = new URL(String(r.headers.get('location')), upstreamIssuer).href;
      }
      expect(url.startsWith(`${APP_URL}/api/sso/corp/callback?`)).toBe(true);
      const cb = await t.app.inject({ method: 'GET', url: pathOf(url) });
      return { start, cb, callbackUrl: url };
    }

    it('signs an ACTIVE SSO account in by provider + verified e-mail and finishes the same interaction', async () => {
      const t = get();
      const acct = await createAccount(t, { type: 'user', email: UPSTREAM_EMAIL, password: null, auth_type: 'SSO', provider: 'corp', email_verified_at: null });
      const { start, cb, callbackUrl } = await viaUpstream();
      expect(cb.statusCode).toBe(302);
      const { code } = await followToCode(t, start, String(cb.headers.location));
      const tokens = await exchangeCode(t, start, code ?? '');
      const me = await t.app.inject({ method: 'GET', url: '/api/user', headers: { authorization: tokens.authorization } });
      expect(me.json().data.auth_user.id).toBe(acct.id);
      expect(me.json().data.sso_login).toBe(true);
      const row = await t.db.kysely.selectFrom('accounts').select(['provider_subject', 'email_verified_at']).where('id', '=', acct.id).executeTakeFirstOrThrow();
      expect(row.provider_subject).toBe('upstream-subject-1');
      // the upstream vouched for the address (email_verified: true): the account's verified flag is now true
      expect(row.email_verified_at).toEqual(expect.any(String));
      // the state is single use: replaying the callback fails
      const replay = await t.app.inject({ method: 'GET', url: pathOf(callbackUrl) });
      expect(replay.statusCode).toBe(400);
      // and an SSO account cannot use a password
      await t.db.kysely.deleteFrom('accounts').where('id', '=', acct.id).execute();
    });

    it('never creates accounts, ignores password accounts, refuses unverified e-mails and inactive accounts', async () => {
      const t = get();
      const none = await viaUpstream();
      expect(String(none.cb.headers.location)).toMatch(/\/login\?interaction=.*error=sso_account_not_found/);
      expect(await t.db.kysely.selectFrom('accounts').select('id').where('email_normalized', '=', UPSTREAM_EMAIL).executeTakeFirst()).toBeUndefined();

      const cred = await createAccount(t, { type: 'user', email: UPSTREAM_EMAIL, password: 'Correct-Horse1!x' });
      expect(String((await viaUpstream()).cb.headers.location)).toContain('error=sso_account_not_found');
      await t.db.kysely.deleteFrom('accounts').where('id', '=', cred.id).execute();

      const inactive = await createAccount(t, { type: 'user', email: UPSTREAM_EMAIL, password: null, auth_type: 'SSO', provider: 'corp', status: 'INACTIVE' });
      expect(String((await viaUpstream()).cb.headers.location)).toContain('error=sso_account_not_found');
      await t.db.kysely.updateTable('accounts').set({ status: 'ACTIVE' }).where('id', '=', inactive.id).execute();

      upstreamVerified = false;
      try {
        expect(String((await viaUpstream()).cb.headers.location)).toContain('error=sso_account_not_found');
      } finally {
        upstreamVerified = true;
      }
      expect(String((await viaUpstream()).cb.headers.location)).toContain('/oidc/auth/');
      await t.db.kysely.deleteFrom('accounts').where('id', '=', inactive.id).execute();
    });

    it('unknown providers are refused', async () => {
      const t = get();
      const start = await startAuthorize(t);
      const res = await t.app.inject({ method: 'GET', url: `/api/sso/nope/start?interaction=${start.interaction}` });
      expect(res.statusCode).toBe(404);
      expect(res.json().error.code).toBe('sso_provider_unknown');
    });
  },
  { SSO_PROVIDERS: JSON.stringify([{ id: 'corp', name: 'Corp IdP', issuer: upstreamIssuer, client_id: 'iam', client_secret: 'upstream-secret' }]) },
);
