import { createServer, type Server } from 'node:http';
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash, generateKeyPairSync, randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { chromium, type Browser } from 'playwright';
import { describeEachDb } from '../../helpers/app';
import { createAccount } from '../../helpers/auth';
import { freePort } from '../../helpers/http';
import { seedServiceApp, type SeededServiceApp } from '../../helpers/service-app';

/**
 * Issue 31 with a real upstream that is not oidc-provider: LemonLDAP::NG 2.16 from Debian (liblemonldap-ng-portal-perl,
 * run under plackup; .ci/run installs it; docs/AUTH.md "Signing out upstream"), its Demo users, this IAM
 * registered there as an OpenID Connect relying party. In Chromium: a person signs in to an app through LemonLDAP's
 * password form, signs out of the app (RP-initiated logout here), confirms "Do you want to logout?" at LemonLDAP (its
 * default), lands on the app's post-logout URI with the app's state, and the next sign-in shows LemonLDAP's password
 * form again. With the relying party's `oidcRPMetaDataOptionsLogoutBypassConfirm` on, LemonLDAP asks nothing. The
 * portal's own sign-out (POST /api/logout, issue 31.1) is walked too.
 */
const port = await freePort();
const rpPort = await freePort();
const lemonPort = await freePort();
const appUrl = `http://127.0.0.1:${port}`;
const rpUrl = `http://127.0.0.1:${rpPort}`;
// its own loopback address: cookies ignore the port
const lemonUrl = `http://127.0.0.6:${lemonPort}`;
/** LemonLDAP's Demo user (Lemonldap::NG::Portal::UserDB::Demo): login = password. */
const DEMO = { login: 'dwho', email: 'dwho@badwolf.org' };

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

/** LemonLDAP's configuration (lmConf-1.json): the portal, Demo users, its OIDC issuer with this IAM as relying party. */
function lemonConf(dir: string, bypassLogoutConfirm: boolean): Record<string, unknown> {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048, privateKeyEncoding: { type: 'pkcs8', format: 'pem' }, publicKeyEncoding: { type: 'spki', format: 'pem' } });
  const storage = (name: string) => ({ Directory: join(dir, name), LockDirectory: join(dir, 'locks') });
  return {
    // without cfgDate LemonLDAP finds "no configuration"; without locationRules its handler part does not start
    cfgNum: 1,
    cfgDate: String(Math.floor(Date.now() / 1000)),
    cfgAuthor: 'tests',
    cfgVersion: '2.16.1',
    locationRules: { '127.0.0.6': { default: 'accept' } },
    exportedHeaders: {},
    groups: {},
    macros: {},
    cookieName: 'lemonldap',
    domain: '127.0.0.6',
    portal: `${lemonUrl}/`,
    securedCookie: 0,
    authentication: 'Demo',
    userDB: 'Same',
    passwordDB: 'Demo',
    demoExportedVars: { cn: 'cn', mail: 'mail', uid: 'uid' },
    exportedVars: {},
    globalStorage: 'Apache::Session::File',
    globalStorageOptions: storage('sessions'),
    persistentStorage: 'Apache::Session::File',
    persistentStorageOptions: storage('psessions'),
    localSessionStorage: 'Cache::FileCache',
    localSessionStorageOptions: { cache_root: join(dir, 'cache'), cache_depth: 3, namespace: 'lemonldap-ng-sessions', default_expires_in: 600 },
    issuerDBOpenIDConnectActivation: 1,
    oidcServiceMetaDataIssuer: lemonUrl,
    oidcServicePrivateKeySig: privateKey,
    oidcServicePublicKeySig: publicKey,
    oidcServiceKeyIdSig: 'test-key',
    oidcRPMetaDataOptions: {
      iam: {
        oidcRPMetaDataOptionsClientID: 'iam',
        oidcRPMetaDataOptionsClientSecret: 'lemon-secret',
        oidcRPMetaDataOptionsRedirectUris: `${appUrl}/api/sso/lemon/callback`,
        // space-separated, compared exactly
        oidcRPMetaDataOptionsPostLogoutRedirectUris: [`${appUrl}/login`, `${appUrl}/admin/login`, `${appUrl}/api/sso/lemon/signed-out`].join(' '),
        oidcRPMetaDataOptionsIDTokenSignAlg: 'RS256',
        oidcRPMetaDataOptionsBypassConsent: 1,
        oidcRPMetaDataOptionsRequirePKCE: 1,
        oidcRPMetaDataOptionsLogoutBypassConfirm: bypassLogoutConfirm ? 1 : 0,
      },
    },
    oidcRPMetaDataExportedVars: { iam: { email: 'mail', name: 'cn' } },
  };
}

let lemonDir = '';
let lemon: ChildProcess | undefined;
let lemonLog = '';

/** (Re)starts LemonLDAP's portal under plackup with the configuration; resolves once its discovery answers. */
async function startLemon(bypassLogoutConfirm: boolean): Promise<void> {
  await stopLemon();
  rmSync(join(lemonDir, 'cache'), { recursive: true, force: true });
  for (const d of ['conf', 'cache', 'sessions', 'psessions', 'locks']) mkdirSync(join(lemonDir, d), { recursive: true });
  writeFileSync(join(lemonDir, 'conf', 'lmConf-1.json'), JSON.stringify(lemonConf(lemonDir, bypassLogoutConfirm)));
  lemon = spawn('plackup', ['--host', '127.0.0.6', '--port', String(lemonPort), join(lemonDir, 'portal.psgi')], { env: { ...process.env, LLNG_DEFAULTCONFFILE: join(lemonDir, 'ini') }, stdio: ['ignore', 'pipe', 'pipe'] });
  lemon.stdout?.on('data', (c: Buffer) => (lemonLog += c.toString()));
  lemon.stderr?.on('data', (c: Buffer) => (lemonLog += c.toString()));
  const deadline = Date.now() + 30_000;
  for (;;) {
    const res = await fetch(`${lemonUrl}/.well-known/openid-configuration`).catch(() => undefined);
    if (res?.ok) return;
    if (Date.now() > deadline || lemon.exitCode !== null) throw new Error(`LemonLDAP::NG did not start (is liblemonldap-ng-portal-perl installed?):\n${lemonLog.split('\n').filter((l) => !l.includes('Error 500')).join('\n').slice(0, 3000)}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

async function stopLemon(): Promise<void> {
  const child = lemon;
  lemon = undefined;
  if (!child || child.exitCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await exited;
}

let server: Server | undefined;
let browser: Browser | undefined;
beforeAll(async () => {
  lemonDir = mkdtempSync(join(tmpdir(), 'iam-lemonldap-'));
  writeFileSync(
    join(lemonDir, 'ini'),
    [
      '[all]', 'logLevel = warn',
      '[configuration]', 'type = File', `dirName = ${join(lemonDir, 'conf')}`, 'localStorage = Cache::FileCache',
      `localStorageOptions = { 'namespace' => 'lemonldap-ng-config', 'default_expires_in' => 600, 'cache_root' => '${join(lemonDir, 'cache')}', 'cache_depth' => 3 }`,
      '[portal]', 'staticPrefix = /static', 'templateDir = /usr/share/lemonldap-ng/portal/templates', 'languages = en',
      '[handler]', 'status = 0',
    ].join('\n'),
  );
  writeFileSync(
    join(lemonDir, 'portal.psgi'),
    "use Plack::Builder;\nuse Lemonldap::NG::Portal::Main;\nmy $app = Lemonldap::NG::Portal::Main->run({});\nbuilder {\n  enable 'Plack::Middleware::Static', path => qr{^/static/}, root => '/usr/share/lemonldap-ng/portal/htdocs';\n  $app;\n};\n",
  );
  server = await startRp();
  browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] });
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await stopLemon();
  await new Promise((r) => server?.close(r));
  if (lemonDir) rmSync(lemonDir, { recursive: true, force: true });
});

describeEachDb(
  'upstream SSO sign-out through an app, LemonLDAP::NG 2.16 as the upstream, in Chromium',
  (get) => {
    beforeAll(async () => {
      await get().app.listen({ port, host: '127.0.0.1' });
    });

    for (const bypass of [false, true]) {
      it(`the app's sign-out ends the LemonLDAP session (${bypass ? 'LogoutBypassConfirm on: no question' : 'its "Do you want to logout?" confirmed'}), lands on the app with its state once; the next sign-in asks for the LemonLDAP password`, async () => {
        const t = get();
        await startLemon(bypass);
        const acct = await createAccount(t, { type: 'user', email: DEMO.email, password: null, auth_type: 'SSO', provider: 'lemon' });
        rp.app = await seedServiceApp(t, { members: [acct.id], redirectUris: [`${rpUrl}/cb`], postLogoutRedirectUris: [`${rpUrl}/`] });
        rp.signIns = 0;
        rp.loggedOut = [];
        const context = await browser!.newContext();
        const page = await context.newPage();
        let passwordForms = 0;
        /** Sign-in at the app through LemonLDAP: its password form when it has no session for this browser. */
        const signIn = async () => {
          await page.goto(`${rpUrl}/start`);
          const interaction = new URL(page.url()).searchParams.get('interaction');
          expect(interaction).toBeTruthy();
          await page.goto(`${appUrl}/api/sso/lemon/start?interaction=${interaction}`);
          await page.waitForURL((u) => u.origin === lemonUrl || u.origin === rpUrl, { timeout: 15_000 });
          if (new URL(page.url()).origin === lemonUrl) {
            passwordForms++;
            await page.fill('input[name=user]', DEMO.login);
            await page.fill('input[name=password]', DEMO.login);
            await page.click('button[type=submit]');
          }
          await page.waitForURL(`${rpUrl}/cb?**`, { timeout: 15_000 });
          expect(await page.textContent('#rp')).toBe('signed in: 200');
        };
        try {
          await signIn();
          expect([rp.signIns, passwordForms]).toEqual([1, 1]);
          // the control: a new sign-in here (another browser session of ours) is not asked for the password there
          await context.clearCookies({ domain: '127.0.0.1' });
          await signIn();
          expect([rp.signIns, passwordForms]).toEqual([2, 1]);

          await page.goto(`${rpUrl}/logout`);
          if (!bypass) {
            await page.waitForURL((u) => u.origin === lemonUrl && u.pathname === '/oauth2/logout', { timeout: 15_000 });
            expect(new URL(page.url()).searchParams.get('post_logout_redirect_uri')).toBe(`${appUrl}/api/sso/lemon/signed-out`);
            await expect.poll(() => page.textContent('.oidc_logout_message')).toContain('Do you want to logout?');
            await page.click('button.positive');
          }
          await page.waitForURL(`${rpUrl}/?state=bye`, { timeout: 15_000 });
          expect(rp.loggedOut).toEqual(['?state=bye']);

          await signIn();
          expect([rp.signIns, passwordForms]).toEqual([3, 2]);
        } finally {
          await context.close();
          await t.db.kysely.deleteFrom('accounts').where('id', '=', acct.id).execute();
        }
      }, 90_000);
    }

    it("the portal's sign-out (POST /api/logout → upstream_logout_url) ends the LemonLDAP session and comes back to /login", async () => {
      const t = get();
      await startLemon(false);
      const acct = await createAccount(t, { type: 'user', email: DEMO.email, password: null, auth_type: 'SSO', provider: 'lemon' });
      const context = await browser!.newContext();
      const page = await context.newPage();
      let passwordForms = 0;
      /** The portal's sign-in as the SPA starts it (PKCE), through LemonLDAP; answers the portal's tokens. */
      const portalSignIn = async () => {
        const verifier = randomBytes(32).toString('base64url');
        const state = randomBytes(16).toString('base64url');
        const q = new URLSearchParams({ client_id: 'portal', redirect_uri: `${appUrl}/login`, response_type: 'code', scope: 'openid profile email', state, code_challenge: createHash('sha256').update(verifier).digest('base64url'), code_challenge_method: 'S256' });
        await page.goto(`${appUrl}/oidc/auth?${q.toString()}`);
        const interaction = new URL(page.url()).searchParams.get('interaction');
        expect(interaction).toBeTruthy();
        await page.goto(`${appUrl}/api/sso/lemon/start?interaction=${interaction}`);
        await page.waitForURL((u) => u.origin === lemonUrl || u.searchParams.has('code'), { timeout: 15_000 });
        if (new URL(page.url()).origin === lemonUrl) {
          passwordForms++;
          await page.fill('input[name=user]', DEMO.login);
          await page.fill('input[name=password]', DEMO.login);
          await page.click('button[type=submit]');
          await page.waitForURL((u) => u.searchParams.has('code'), { timeout: 15_000 });
        }
        const back = new URL(page.url());
        expect(`${back.origin}${back.pathname}`).toBe(`${appUrl}/login`);
        expect(back.searchParams.get('state')).toBe(state);
        const tok = await fetch(`${appUrl}/oidc/token`, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({ grant_type: 'authorization_code', code: String(back.searchParams.get('code')), redirect_uri: `${appUrl}/login`, client_id: 'portal', code_verifier: verifier }),
        });
        expect(tok.status).toBe(200);
        return ((await tok.json()) as { access_token: string }).access_token;
      };
      try {
        const token = await portalSignIn();
        expect(passwordForms).toBe(1);
        const out = await fetch(`${appUrl}/api/logout`, { method: 'POST', headers: { authorization: `Bearer ${token}` } });
        const url = ((await out.json()) as { data: { upstream_logout_url?: string } }).data.upstream_logout_url;
        expect(url?.startsWith(`${lemonUrl}/oauth2/logout?`)).toBe(true);
        // where the session statechart sends the browser (src/lib/session.ts)
        await page.goto(String(url));
        await expect.poll(() => page.textContent('.oidc_logout_message')).toContain('Do you want to logout?');
        await page.click('button.positive');
        await page.waitForURL((u) => u.origin === appUrl && u.pathname === '/login', { timeout: 15_000 });
        await portalSignIn();
        expect(passwordForms).toBe(2);
      } finally {
        await context.close();
        await t.db.kysely.deleteFrom('accounts').where('id', '=', acct.id).execute();
      }
    }, 90_000);
  },
  {
    APP_URL: appUrl,
    // LemonLDAP sends no email_verified claim unless an attribute is exported for it (docs/AUTH.md)
    SSO_PROVIDERS: JSON.stringify([{ id: 'lemon', name: 'LemonLDAP::NG', issuer: lemonUrl, client_id: 'iam', client_secret: 'lemon-secret', require_email_verified: false }]),
  },
);
