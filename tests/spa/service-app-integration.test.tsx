import { readFileSync } from 'node:fs';
import path from 'node:path';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { ServiceAppsPage } from '../../src/features/admin/catalog/service-apps-page';
import { integrationFor } from '../../src/features/admin/catalog/service-app-integration';
import { activateLocale } from '../../src/lib/i18n';
import { tabs as tabsRecipe } from '../../src/theme/recipes/tabs';
import { startAdminServer } from './admin-server';
import { renderWithRouter } from './render';

let server: Awaited<ReturnType<typeof startAdminServer>> | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
  await activateLocale('en');
});

const ISSUER = 'https://iam.example.com/oidc';
const oidc = (o: { redirect: string; base: string; confidential: boolean; cc?: boolean; more?: string[] }) => ({
  issuer: ISSUER,
  discovery_url: `${ISSUER}/.well-known/openid-configuration`,
  redirect_uri: o.redirect,
  redirect_uris: [o.redirect, ...(o.more ?? [])],
  post_logout_redirect_uris: [`${o.base}/`, o.base, o.redirect],
  token_endpoint_auth_method: o.confidential ? ('client_secret_basic' as const) : ('none' as const),
  grant_types: ['authorization_code', 'refresh_token', ...(o.cc ? ['client_credentials'] : [])],
  pkce_required: true,
});
const billing = {
  id: 'a1',
  name: 'billing',
  display_name: 'Billing',
  url: 'https://billing.example.com/',
  path: '/auth/callback',
  redirect_uris: ['https://billing.example.com/auth/callback', 'http://localhost:8080/auth/callback'],
  post_logout_redirect_uris: ['https://billing.example.com/', 'https://billing.example.com', 'https://billing.example.com/auth/callback'],
  client_type: 'confidential' as const,
  pkce_required: true,
  client_credentials: true,
  backchannel_logout_uri: null,
  backchannel_logout_session_required: false,
  logout_delivery: { pending: 0, failed: 0, last_delivered_at: null, last_failure: null },
  token_endpoint_auth_method: 'client_secret_basic' as const,
  oidc: oidc({ redirect: 'https://billing.example.com/auth/callback', base: 'https://billing.example.com', confidential: true, cc: true, more: ['http://localhost:8080/auth/callback'] }),
  roles: [{ id: 'r1', name: 'BILLING_USER' }],
  created_at: '2026-01-01T00:00:00.000Z',
  updated_at: '2026-01-01T00:00:00.000Z',
};

async function api() {
  return startAdminServer((req) => {
    if (req.method === 'GET' && req.path === '/api/admin/service-apps') return { body: { data: [billing], meta: { page: 1, size: 100, total: 1 } } };
    if (req.method === 'GET' && req.path === '/api/admin/roles') return { body: { data: [{ id: 'r1', name: 'BILLING_USER', description: '' }], meta: { page: 1, size: 100, total: 1 } } };
    return undefined;
  });
}

describe('service app integration', () => {
  it('derives the exact URIs and fills every set-up with them', () => {
    const info = integrationFor(billing);
    expect(info.discoveryUrl).toBe('https://iam.example.com/oidc/.well-known/openid-configuration');
    expect(info.redirectUri).toBe('https://billing.example.com/auth/callback');
    expect(info.postLogoutRedirectUri).toBe('https://billing.example.com/');
    for (const s of info.snippets) expect(s.code, s.id).toContain('billing');
    const apache = info.snippets.find((s) => s.id === 'mod_auth_openidc')!.code;
    expect(apache).toContain('OIDCProviderMetadataURL https://iam.example.com/oidc/.well-known/openid-configuration');
    expect(apache).toContain('OIDCRedirectURI https://billing.example.com/auth/callback');
    expect(apache).toContain('OIDCPKCEMethod S256');
    expect(apache).toContain('OIDCClientSecret');
    // a public client has no secret anywhere
    expect(info.snippets.find((s) => s.id === 'client-credentials')?.code).toContain('clientCredentialsGrant');
    // a public client has no secret anywhere, and no client_credentials set-up
    const pub = integrationFor({ name: 'spa', client_type: 'public', oidc: oidc({ redirect: 'https://spa.example.com/cb', base: 'https://spa.example.com', confidential: false }) });
    for (const s of pub.snippets) expect(s.code, s.id).not.toMatch(/ClientSecretBasic|OIDCClientSecret|OIDC_CLIENT_SECRET/);
    expect(pub.snippets.find((s) => s.id === 'openid-client')!.code).toContain('client.None()');
    expect(pub.snippets.map((s) => s.id)).not.toContain('client-credentials');
    expect(pub.postLogoutRedirectUri).toBe('https://spa.example.com/');
    // several redirect URIs: the set-ups use the first; no post-logout URI: no set-up names one
    const bare = integrationFor({ name: 'bare', client_type: 'public', oidc: { ...oidc({ redirect: 'https://a.example.com/cb', base: 'https://a.example.com', confidential: false, more: ['https://b.example.com/cb'] }), post_logout_redirect_uris: [] } });
    expect(bare.redirectUri).toBe('https://a.example.com/cb');
    expect(bare.postLogoutRedirectUri).toBeUndefined();
    for (const s of bare.snippets) {
      expect(s.code, s.id).not.toContain('https://b.example.com');
      expect(s.code, s.id).not.toMatch(/post_logout_redirect_uri[:=]|POST_LOGOUT|'undefined'|=undefined/i);
    }
    expect(bare.snippets.find((s) => s.id === 'mod_auth_openidc')!.code).toContain('OIDCRedirectURI https://a.example.com/cb');
  });

  it('the express-openid-connect, passport-openidconnect, Auth.js and Go set-ups carry the settings the interop suite’s running apps use', () => {
    const info = integrationFor(billing);
    const code = (id: string) => info.snippets.find((s) => s.id === id)?.code ?? '';
    const source = (f: string) => readFileSync(path.resolve(import.meta.dirname, '../../e2e/interop', f), 'utf8').replace(/\s+/g, ' ');
    // each fragment is in the tab and in the app that e2e/interop.spec.ts signs in to, refreshes and signs out of
    const shared: Array<[string, string, string[]]> = [
      ['express-openid-connect', 'rp-express.ts', ["response_type: 'code'", 'idpLogout: true', 'authRequired: false', "import { auth } from 'express-openid-connect'"]],
      [
        'passport-openidconnect',
        'rp-passport.ts',
        [
          "import { Strategy as OpenIDConnectStrategy } from 'passport-openidconnect';",
          'const passport = new Passport();',
          'new OpenIDConnectStrategy(',
          'authorizationURL: meta.authorization_endpoint, tokenURL: meta.token_endpoint, userInfoURL: meta.userinfo_endpoint,',
          "nonce: 'true',",
          '// nine arguments: the library calls UserInfo and hands its JSON over as uiProfile._json',
          "app.get('/login', passport.authenticate('iam'));",
          "grant_type: 'refresh_token', refresh_token",
          'req.logout((err) =>',
          'id_token_hint',
        ],
      ],
      [
        'authjs',
        'rp-authjs.ts',
        [
          "from '@auth/express';",
          "type: 'oidc',",
          "checks: ['pkce', 'state', 'nonce'],",
          "authorization: { params: { scope: 'openid profile email roles' } },",
          "style: { logo: '' },",
          'if (account) Object.assign(token, { idToken: account.id_token, roles: profile?.roles ?? [] }); return token;',
          'return Object.assign(session, { roles: token.roles, idToken: token.idToken });',
          'if (url.startsWith(`${endSession}?`)) return url;',
          'return new URL(url).origin === baseUrl ? url : baseUrl;',
          "app.use('/auth', ExpressAuth(authConfig));",
          'res.redirect(`/auth/signout?${new URLSearchParams({ callbackUrl: end',
        ],
      ],
      [
        'go-oidc',
        'go/main.go',
        [
          'provider.Claims(&meta)',
          'AuthStyle: oauth2.AuthStyleInHeader',
          'oauth2.SetAuthURLParam("code_challenge_method", "S256")',
          'oauth2.SetAuthURLParam("prompt", "consent")',
          'oauth2.SetAuthURLParam("code_verifier",',
          'idt.AccessTokenHash != "" && idt.VerifyAccessToken(tok.AccessToken) != nil',
          'provider.Verifier(&oidc.Config{ClientID:',
        ],
      ],
    ];
    for (const [id, file, fragments] of shared) {
      const tab = code(id).replace(/\s+/g, ' ');
      const app = source(file);
      for (const f of fragments) {
        expect(tab, `${id} tab: ${f}`).toContain(f);
        expect(app, `${file}: ${f}`).toContain(f);
      }
    }
    expect(code('express-openid-connect')).toContain("baseURL: 'https://billing.example.com'");
    expect(code('express-openid-connect')).toContain("routes: { callback: '/auth/callback', postLogoutRedirect: '/' }");
    expect(code('go-oidc')).toContain('RedirectURL: "https://billing.example.com/auth/callback"');
    expect(code('passport-openidconnect')).toContain("callbackURL: 'https://billing.example.com/auth/callback'");
    // billing is registered for client_secret_basic with PKCE required: the passport tab says what to change
    expect(code('passport-openidconnect')).toContain("edit this app: Client authentication 'client_secret_post', 'Require PKCE' off");
    const passportReady = integrationFor({ ...billing, oidc: { ...billing.oidc, token_endpoint_auth_method: 'client_secret_post', pkce_required: false } });
    expect(passportReady.snippets.find((s) => s.id === 'passport-openidconnect')?.code).not.toContain('edit this app');
    // Auth.js calls back to <origin>/auth/callback/<provider id>: the tab names it when another URI is registered
    expect(code('authjs')).toContain('Auth.js calls back to https://billing.example.com/auth/callback/iam: register it');
    expect(code('authjs')).toContain("post_logout_redirect_uri: 'https://billing.example.com/', id_token_hint: idToken");
    const authJsReady = integrationFor({ ...billing, oidc: { ...billing.oidc, redirect_uris: ['https://billing.example.com/auth/callback/iam'] } });
    expect(authJsReady.snippets.find((s) => s.id === 'authjs')?.code).not.toContain('register it');
    // a browser-only (public) app gets no server-side express set-up; its Go set-up sends no secret
    const pub = integrationFor({ name: 'spa', client_type: 'public', oidc: oidc({ redirect: 'https://spa.example.com/cb', base: 'https://spa.example.com', confidential: false }) });
    expect(pub.snippets.map((s) => s.id)).not.toContain('express-openid-connect');
    expect(pub.snippets.map((s) => s.id)).not.toContain('passport-openidconnect');
    expect(pub.snippets.map((s) => s.id)).not.toContain('authjs');
    expect(pub.snippets.find((s) => s.id === 'go-oidc')?.code).not.toContain('ClientSecret');
  });

  it('shows the discovery URL, client id, redirect URIs and copyable set-ups on the service apps page', async () => {
    server = await api();
    const user = userEvent.setup();
    await renderWithRouter(() => <ServiceAppsPage />, '/admin/service-apps');
    await user.click(await screen.findByRole('button', { name: 'Connect Billing' }, { timeout: 5_000 }));
    const dialog = await screen.findByRole('dialog', { name: 'Connect Billing' });
    expect(await within(dialog).findByTestId('discovery-url')).toHaveTextContent('https://iam.example.com/oidc/.well-known/openid-configuration');
    expect(within(dialog).getByTestId('client-id')).toHaveTextContent('billing');
    // every registered URI, each with its copy button; the set-ups use the first of each list
    expect(within(dialog).getAllByTestId('redirect-uri').map((e) => e.textContent)).toEqual(['https://billing.example.com/auth/callback', 'http://localhost:8080/auth/callback']);
    expect(within(dialog).getAllByTestId('post-logout-uri').map((e) => e.textContent)).toEqual(['https://billing.example.com/', 'https://billing.example.com', 'https://billing.example.com/auth/callback']);
    expect(within(within(dialog).getByRole('group', { name: 'Redirect URIs' })).getAllByRole('button', { name: 'Copy' })).toHaveLength(2);
    expect(within(dialog).getByText(/compared exactly/)).toBeVisible();
    expect(within(dialog).getByTestId('auth-method')).toHaveTextContent('client_secret_basic');
    expect(within(dialog).getByTestId('pkce')).toHaveTextContent('required (S256)');
    expect(within(dialog).getByTestId('grant-types')).toHaveTextContent('authorization_code, refresh_token, client_credentials');
    expect(within(dialog).getByTestId('snippet-env')).toHaveTextContent('OIDC_CLIENT_ID=billing');

    await user.click(within(dialog).getByRole('tab', { name: 'Apache mod_auth_openidc' }));
    const apache = await within(dialog).findByTestId('snippet-mod_auth_openidc');
    expect(apache).toHaveTextContent('OIDCRedirectURI https://billing.example.com/auth/callback');
    await user.click(within(dialog).getByRole('button', { name: 'Copy set-up' }));
    expect(await navigator.clipboard.readText()).toContain('OIDCProviderMetadataURL https://iam.example.com/oidc/.well-known/openid-configuration');

    await user.click(within(within(dialog).getByRole('group', { name: 'Discovery URL' })).getByRole('button', { name: 'Copy' }));
    expect(await navigator.clipboard.readText()).toBe('https://iam.example.com/oidc/.well-known/openid-configuration');
  });

  it('issue 29: identifiers are never broken inside (no break-all), URLs may wrap, every set-up tab stays in the list (it wraps)', async () => {
    server = await api();
    const user = userEvent.setup();
    await renderWithRouter(() => <ServiceAppsPage />, '/admin/service-apps');
    await user.click(await screen.findByRole('button', { name: 'Connect Billing' }, { timeout: 5_000 }));
    const dialog = await screen.findByRole('dialog', { name: 'Connect Billing' });
    await within(dialog).findByTestId('discovery-url');
    const nowrap = /white-space_nowrap|ws_nowrap|white-s_nowrap/;
    // nothing in the dialog breaks words at any letter any more
    expect(dialog.querySelector('[class*="break-all"]')).toBeNull();
    expect(within(dialog).getByTestId('client-id').className).toMatch(nowrap);
    expect(within(dialog).getByTestId('auth-method').className).toMatch(nowrap);
    for (const grant of ['authorization_code', 'refresh_token', 'client_credentials']) expect(within(within(dialog).getByTestId('grant-types')).getByText(grant).className).toMatch(nowrap);
    for (const el of [within(dialog).getByTestId('discovery-url'), ...within(dialog).getAllByTestId('redirect-uri'), ...within(dialog).getAllByTestId('post-logout-uri')]) {
      expect(el.className).toMatch(/overflow-wrap_anywhere|ov-wrap_anywhere|wrap_anywhere/);
    }
    const tabs = within(dialog).getByRole('tablist', { name: 'Ready set-ups' });
    expect(within(tabs).getAllByRole('tab').map((tab) => tab.textContent)).toEqual(['Environment', 'openid-client (Node)', 'express-openid-connect', 'passport-openidconnect', 'Auth.js (Express)', 'oidc-client-ts (browser)', 'Apache mod_auth_openidc', 'authlib (Python)', 'go-oidc (Go)', 'client_credentials']);
    // the kit's tab list wraps instead of scrolling (its recipe: at 1440 px the strip hid its last tabs)
    expect(tabsRecipe.base?.list).toMatchObject({ flexWrap: 'wrap' });
    expect(tabsRecipe.base?.list).not.toHaveProperty('overflowX');
  });

  it('is translated (German)', async () => {
    await activateLocale('de');
    server = await api();
    const user = userEvent.setup();
    await renderWithRouter(() => <ServiceAppsPage />, '/admin/service-apps');
    await user.click(await screen.findByRole('button', { name: 'Billing verbinden' }, { timeout: 5_000 }));
    const dialog = await screen.findByRole('dialog', { name: 'Billing verbinden' });
    expect(await within(dialog).findByRole('group', { name: 'Discovery-URL' })).toHaveTextContent('https://iam.example.com/oidc/.well-known/openid-configuration');
    expect(within(dialog).getByRole('tab', { name: 'Umgebung' })).toBeVisible();
  });
  it('uses the app\'s token endpoint authentication method in the set-ups (client_secret_post vs basic)', () => {
    const code = (app: Parameters<typeof integrationFor>[0], id: string) => integrationFor(app).snippets.find((s) => s.id === id)!.code;
    const post = { ...billing, oidc: { ...billing.oidc, token_endpoint_auth_method: 'client_secret_post' as const } };
    expect(code(post, 'openid-client')).toContain('client.ClientSecretPost(process.env.OIDC_CLIENT_SECRET)');
    expect(code(post, 'openid-client')).not.toContain('ClientSecretBasic');
    expect(code(post, 'mod_auth_openidc')).toContain('OIDCProviderTokenEndpointAuth client_secret_post');
    expect(code(post, 'authlib')).toContain("token_endpoint_auth_method='client_secret_post'");
    expect(code(post, 'client-credentials')).toContain('client.ClientSecretPost(');
    expect(code(post, 'client-credentials')).toContain('-d client_id=billing');
    expect(code(post, 'client-credentials')).not.toContain('curl -u');
    expect(code(billing, 'openid-client')).toContain('client.ClientSecretBasic(process.env.OIDC_CLIENT_SECRET)');
    expect(code(billing, 'mod_auth_openidc')).toContain('OIDCProviderTokenEndpointAuth client_secret_basic');
    expect(code(billing, 'authlib')).toContain("token_endpoint_auth_method='client_secret_basic'");
    expect(code(billing, 'client-credentials')).toContain('curl -u');
  });
});
