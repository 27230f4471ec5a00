import { createServer, type Server } from 'node:http';
import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { chromium, type Browser } from 'playwright';
import Provider from 'oidc-provider';
import { describeEachDb } from '../../helpers/app';
import { createAccount } from '../../helpers/auth';
import { freePort } from '../../helpers/http';
import { seedServiceApp, type SeededServiceApp } from '../../helpers/service-app';

/**
 * Issue 31 in real Chromium: a person signed in to an app through an upstream SSO provider signs out of the app
 * (RP-initiated logout). The browser leaves our logout page's form for the upstream (our form-action must allow it),
 * confirms the sign-out there, comes back to our fixed URI across sites (the SameSite=Lax `iam_sso_logout` cookie must
 * come along) and lands on the app's post-logout URI with its state, once; the next sign-in is asked for at the
 * upstream again. Three origins: our app (127.0.0.1), the app (127.0.0.1, another port: it keeps no cookies), the
 * upstream (127.0.0.2: cookies ignore the port, and both providers use oidc-provider's cookie names).
 */
const port = await freePort();
const rpPort = await freePort();
const upstreamPort = await freePort();
const appUrl = `http://127.0.0.1:${port}`;
const rpUrl = `http://127.0.0.1:${rpPort}`;
const upstreamIssuer = `http://127.0.0.2:${upstreamPort}`;
const EMAIL = 'browser.sso@corp.example';

/** How many times the upstream asked for a sign-in (a real one would show its password form there). */
let upstreamPrompts = 0;

interface RpState {
  app?: SeededServiceApp;
  verifier?: string;
  state?: string;
  idToken?: string;
  signIns: number;
  loggedOut: string[];
}
const rp: RpState = { signIns: 0, loggedOut: [] };

/** The app: /start (authorization request), /cb (code → tokens), /logout (RP-initiated logout), / (after sign-out). */
function startRp(): Promise<Server> {
  const server = createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', rpUrl);
      const app = rp.app;
      if (!app) throw new Error('no app');
      if (url.pathname === '/start') {
        rp.verifier = randomBytes(32).toString('base64url');
        rp.state = randomBytes(16).toString('base64url');
        const q = new URLSearchParams({
          client_id: app.name, redirect_uri: app.redirectUri, response_type: 'code', scope: 'openid',
          state: rp.state, code_challenge: createHash('sha256').update(rp.verifier).digest('base64url'), code_challenge_method: 'S256',
        });
        res.writeHead(302, { location: `${appUrl}/oidc/auth?${q.toString()}` }).end();
      } else if (url.pathname === '/cb') {
        if (url.searchParams.get('state') !== rp.state) throw new Error('state mismatch');
        const tok = await fetch(`${appUrl}/oidc/token`, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({ grant_type: 'authorization_code', code: String(url.searchParams.get('code')), redirect_uri: app.redirectUri, client_id: app.name, code_verifier: String(rp.verifier) }),
        });
        rp.idToken = ((await tok.json()) as { id_token?: string }).id_token;
        if (rp.idToken) rp.signIns++;
        res.writeHead(200, { 'content-type': 'text/html' }).end(`<p id="rp">signed in: ${tok.status}</p>`);
      } else if (url.pathname === '/logout') {
        const q = new URLSearchParams({ id_token_hint: String(rp.idToken), post_logout_redirect_uri: `${rpUrl}/`, state: 'bye' });
        res.writeHead(302, { location: `${appUrl}/oidc/session/end?${q.toString()}` }).end();
      } else if (url.pathname === '/') {
        rp.loggedOut.push(url.search);
        res.writeHead(200, { 'content-type': 'text/html' }).end('<p id="rp">signed out</p>');
      } else res.writeHead(404).end();
    })().catch((err: unknown) => res.writeHead(500).end(String(err)));
  });
  return new Promise((resolve) => server.listen(rpPort, '127.0.0.1', () => resolve(server)));
}

/** The upstream: signs its one person in without a form (counted), asks "Sign out?" on its own page. */
function startUpstream(): Promise<Server> {
  const provider = new Provider(upstreamIssuer, {
    clients: [
      {
        client_id: 'iam',
        client_secret: 'upstream-secret',
        redirect_uris: [`${appUrl}/api/sso/corp/callback`],
        post_logout_redirect_uris: [`${appUrl}/login`, `${appUrl}/api/sso/corp/signed-out`],
        token_endpoint_auth_method: 'client_secret_post',
      },
    ],
    features: {
      devInteractions: { enabled: false },
      rpInitiatedLogout: {
        enabled: true,
        logoutSource: async (ctx, form) => {
          ctx.body = `<!DOCTYPE html><html><body><h1 id="upstream-logout">Sign out of the upstream?</h1>${form}<button id="upstream-yes" type="submit" form="op.logoutForm" name="logout" value="yes">Yes</button></body></html>`;
        },
      },
    },
    claims: { openid: ['sub'], email: ['email', 'email_verified'] },
    scopes: ['openid', 'email', 'profile'],
    cookies: { keys: ['upstream-browser-test-key'] },
    findAccount: async (_ctx, sub) => ({ accountId: sub, claims: async () => ({ sub, email: EMAIL, email_verified: true }) }),
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
  const server = createServer((req, res) => {
    if (req.url?.startsWith('/interaction/')) {
      upstreamPrompts++;
      provider.interactionFinished(req, res, { login: { accountId: 'browser-subject' } }).catch((err: unknown) => res.writeHead(500).end(String(err)));
      return;
    }
    callback(req, res);
  });
  return new Promise((resolve) => server.listen(upstreamPort, '127.0.0.2', () => resolve(server)));
}

let rpServer: Server | undefined;
let upstream: Server | undefined;
let browser: Browser | undefined;
beforeAll(async () => {
  rpServer = await startRp();
  upstream = await startUpstream();
  browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] });
});
afterAll(async () => {
  await browser?.close();
  await new Promise((r) => rpServer?.close(r));
  await new Promise((r) => upstream?.close(r));
});

describeEachDb(
  'upstream SSO sign-out through an app, in Chromium',
  (get) => {
    beforeAll(async () => {
      await get().app.listen({ port, host: '127.0.0.1' });
    });

    it("the app's sign-out passes through the upstream's and lands on the app with its state, once; the next sign-in is asked for upstream", async () => {
      const t = get();
      const acct = await createAccount(t, { type: 'user', email: EMAIL, password: null, auth_type: 'SSO', provider: 'corp' });
      rp.app = await seedServiceApp(t, { members: [acct.id], redirectUris: [`${rpUrl}/cb`], postLogoutRedirectUris: [`${rpUrl}/`] });
      rp.signIns = 0;
      rp.loggedOut = [];
      upstreamPrompts = 0;
      const context = await browser!.newContext();
      const page = await context.newPage();
      /** Sign-in at the app: the authorization request ends at our sign-in page, whose SSO button goes upstream. */
      const signIn = async () => {
        await page.goto(`${rpUrl}/start`);
        const interaction = new URL(page.url()).searchParams.get('interaction');
        expect(interaction).toBeTruthy();
        await page.goto(`${appUrl}/api/sso/corp/start?interaction=${interaction}`);
        await page.waitForURL(`${rpUrl}/cb?**`, { timeout: 15_000 });
        expect(await page.textContent('#rp')).toBe('signed in: 200');
      };
      try {
        await signIn();
        expect([rp.signIns, upstreamPrompts]).toEqual([1, 1]);

        // sign-out: our page confirms itself (id_token_hint) and its form leads on to the upstream's sign-out
        const endPage = page.waitForResponse((r) => r.url().startsWith(`${appUrl}/oidc/session/end?`));
        await page.goto(`${rpUrl}/logout`, { waitUntil: 'commit' });
        const csp = (await (await endPage).allHeaders())['content-security-policy'] ?? '';
        expect(/form-action([^;]*)/.exec(csp)?.[1]).toContain(upstreamIssuer);
        await page.waitForSelector('#upstream-logout', { timeout: 15_000 });
        expect(page.url().startsWith(`${upstreamIssuer}/session/end?`)).toBe(true);
        expect(new URL(page.url()).searchParams.get('post_logout_redirect_uri')).toBe(`${appUrl}/api/sso/corp/signed-out`);
        // signed out here already
        expect(await t.db.kysely.selectFrom('oidc_models').select('id').where('model', '=', 'Grant').where('account_id', '=', acct.id).execute()).toEqual([]);
        await page.click('#upstream-yes');
        await page.waitForURL(`${rpUrl}/?state=bye`, { timeout: 15_000 });
        expect(rp.loggedOut).toEqual(['?state=bye']);
        expect((await context.cookies(appUrl)).map((c) => c.name)).not.toContain('iam_sso_logout');
        // Back re-opens the upstream's sign-out address; signed out there, it sends the browser straight back to our
        // fixed URI: a second return, which shows our signed-out page, not the app again
        await page.goBack();
        await page.waitForURL(`${appUrl}/oidc/session/end/success`, { timeout: 15_000 });
        expect(rp.loggedOut).toEqual(['?state=bye']);

        // the upstream session ended: signing in again is asked for there
        await signIn();
        expect([rp.signIns, upstreamPrompts]).toEqual([2, 2]);
      } finally {
        await context.close();
        await t.db.kysely.deleteFrom('accounts').where('id', '=', acct.id).execute();
      }
    }, 90_000);
  },
  {
    APP_URL: appUrl,
    SSO_PROVIDERS: JSON.stringify([{ id: 'corp', name: 'Corp IdP', issuer: upstreamIssuer, client_id: 'iam', client_secret: 'upstream-secret' }]),
  },
);
