import { createServer, type IncomingMessage, type Server } from 'node:http';
import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { chromium, type Browser } from 'playwright';
import { describeEachDb } from '../../helpers/app';
import { createAccount } from '../../helpers/auth';
import { freePort } from '../../helpers/http';
import { seedServiceApp, type SeededServiceApp } from '../../helpers/service-app';

/**
 * Real Chromium against the listening app and a tiny relying party on another loopback origin (same
 * host, other port): a response_mode=form_post sign-in and an RP-initiated logout, both of which leave
 * the product's origin with a form (form-action CSP).
 */
const PW = 'Correct-Horse1!x';
const port = await freePort();
const rpPort = await freePort();
const appUrl = `http://127.0.0.1:${port}`;
const rpUrl = `http://127.0.0.1:${rpPort}`;

interface RpState {
  app?: SeededServiceApp;
  verifier?: string;
  state?: string;
  idToken?: string;
  callbacks: Record<string, string>[];
  loggedOut: string[];
}
const rp: RpState = { callbacks: [], loggedOut: [] };

const body = (req: IncomingMessage): Promise<string> =>
  new Promise((resolve) => {
    let s = '';
    req.on('data', (c: Buffer) => (s += c.toString()));
    req.on('end', () => resolve(s));
  });

/** The relying party: /start (authorization request, form_post), POST /cb (code → tokens), /logout, / (post-logout landing). */
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
          client_id: app.name, redirect_uri: app.redirectUri, response_type: 'code', response_mode: 'form_post', scope: 'openid',
          state: rp.state, code_challenge: createHash('sha256').update(rp.verifier).digest('base64url'), code_challenge_method: 'S256',
        });
        res.writeHead(302, { location: `${appUrl}/oidc/auth?${q.toString()}` }).end();
      } else if (url.pathname === '/cb' && req.method === 'POST') {
        const form = Object.fromEntries(new URLSearchParams(await body(req)));
        rp.callbacks.push(form);
        const tok = await fetch(`${appUrl}/oidc/token`, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({ grant_type: 'authorization_code', code: String(form.code), redirect_uri: app.redirectUri, client_id: app.name, code_verifier: String(rp.verifier) }),
        });
        rp.idToken = ((await tok.json()) as { id_token?: string }).id_token;
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

let server: Server | undefined;
let browser: Browser | undefined;
beforeAll(async () => {
  server = await startRp();
  browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] });
});
afterAll(async () => {
  await browser?.close();
  await new Promise((r) => server?.close(r));
});

describeEachDb(
  'a relying party on another origin, in Chromium',
  (get) => {
    beforeAll(async () => {
      await get().app.listen({ port, host: '127.0.0.1' });
    });

    it('form_post sign-in reaches the app; RP-initiated logout (auto-confirmed, then pressed) returns to the app once', async () => {
      const t = get();
      const email = `rp-${t.kind}-${randomBytes(3).toString('hex')}@example.com`;
      const acct = await createAccount(t, { type: 'user', email, password: PW });
      rp.app = await seedServiceApp(t, { members: [acct.id], url: rpUrl, path: '/cb' });
      rp.callbacks = [];
      rp.loggedOut = [];
      const context = await browser!.newContext();
      const page = await context.newPage();
      try {
        // sign-in: the authorization request ends at the product's sign-in page; sign in over its API
        await page.goto(`${rpUrl}/start`);
        const interaction = new URL(page.url()).searchParams.get('interaction');
        expect(interaction).toBeTruthy();
        const login = await context.request.post(`${appUrl}/api/login`, { data: { email, password: PW, interaction }, headers: { origin: appUrl } });
        expect(login.status()).toBe(200);
        const { redirect_to } = ((await login.json()) as { data: { redirect_to: string } }).data;
        await page.goto(redirect_to);
        // the provider's form_post page submits to the app's redirect URI (another origin)
        await page.waitForURL(`${rpUrl}/cb`, { timeout: 15_000 });
        expect(await page.textContent('#rp')).toBe('signed in: 200');
        expect(rp.callbacks).toHaveLength(1);
        expect(rp.callbacks[0]).toMatchObject({ state: rp.state });
        expect(rp.callbacks[0]?.code).toBeTruthy();
        expect(rp.idToken).toBeTruthy();

        // logout: the confirmation page confirms itself; that first POST is answered 204 (the browser stays),
        // so the person presses "Yes" afterwards — the form must still carry `logout` once
        const confirms: string[] = [];
        await page.route(`${appUrl}/oidc/session/end/confirm`, async (route) => {
          confirms.push(route.request().postData() ?? '');
          if (confirms.length === 1) await route.fulfill({ status: 204 });
          else await route.continue();
        });
        const endPage = page.waitForResponse((r) => r.url().startsWith(`${appUrl}/oidc/session/end?`));
        await page.goto(`${rpUrl}/logout`, { waitUntil: 'commit' });
        const csp = (await (await endPage).allHeaders())['content-security-policy'] ?? '';
        expect(csp).toMatch(new RegExp(`form-action 'self' ${rpUrl.replace(/[.]/g, '\\.')}(;|$)`));
        await expect.poll(() => confirms.length, { timeout: 15_000 }).toBe(1);
        expect(new URLSearchParams(confirms[0]).getAll('logout')).toEqual(['yes']);
        await page.click('button[name=logout][value=yes]');
        await page.waitForURL(`${rpUrl}/?state=bye`, { timeout: 15_000 });
        expect(new URLSearchParams(confirms[1]).getAll('logout')).toEqual(['yes']);
        expect(rp.loggedOut).toEqual(['?state=bye']);
        // the sign-out ended the grant
        const grants = await t.db.kysely.selectFrom('oidc_models').select('id').where('model', '=', 'Grant').where('account_id', '=', acct.id).execute();
        expect(grants).toEqual([]);
      } finally {
        await context.close();
      }
    }, 60_000);

    it("other pages keep form-action 'self' only", async () => {
      const res = await fetch(`${appUrl}/oidc/session/end`);
      expect(res.headers.get('content-security-policy')).toContain("form-action 'self';");
      const api = await fetch(`${appUrl}/api/config`);
      // a JSON answer of the API has the API policy, which allows no form at all (tests/server/system.test.ts)
      expect(api.headers.get('content-security-policy')).toBe("default-src 'none';frame-ancestors 'none'");
    });
  },
  { APP_URL: appUrl },
);
