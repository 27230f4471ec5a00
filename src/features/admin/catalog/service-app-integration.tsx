/**
 * "Connect this app": what a service app's developers need to sign in with the product — the discovery
 * URL, the client id, the exact redirect and post-logout URIs — and ready set-ups for stock OIDC software
 * (the same ones docs/INTEGRATING.md explains and e2e/interop.spec.ts runs), each with a copy button.
 */
import { Trans, useLingui } from '@lingui/react/macro';
import type { SVGProps } from 'react';
import { css } from 'styled-system/css';
import { CopyButton } from '../../../components/ui/copy-button';
import * as Tabs from '../../../components/ui/tabs';
import type { ServiceApp } from '../api/types';

export const INTEGRATION_SCOPE = 'openid profile email roles offline_access';

export type IntegrationApp = Pick<ServiceApp, 'name' | 'client_type' | 'oidc'>;

export type SnippetId =
  | 'env'
  | 'openid-client'
  | 'express-openid-connect'
  | 'passport-openidconnect'
  | 'authjs'
  | 'oidc-client-ts'
  | 'mod_auth_openidc'
  | 'authlib'
  | 'go-oidc'
  | 'client-credentials';

/** The origin and path of a URI (the express and Go set-ups take the app's base URL and its callback path apart). */
function originAndPath(uri: string): { origin: string; path: string } {
  try {
    const u = new URL(uri);
    return { origin: u.origin, path: `${u.pathname}${u.search}` };
  } catch {
    return { origin: uri, path: '/callback' };
  }
}

export interface Integration {
  discoveryUrl: string;
  /** the redirect URI the set-ups use: the first registered one */
  redirectUri: string;
  /** the post-logout URI the set-ups use: the first registered one, if any */
  postLogoutRedirectUri: string | undefined;
  snippets: { id: SnippetId; label: string; code: string }[];
}

/** The values and set-ups of one service app (pure: the component and its test share it). */
export function integrationFor(app: IntegrationApp): Integration {
  const o = app.oidc;
  const i = { issuer: o.issuer, clientId: app.name, confidential: app.client_type === 'confidential' };
  // how a confidential app sends its secret at the token endpoint: the provider accepts only the registered method
  const post = i.confidential && o.token_endpoint_auth_method === 'client_secret_post';
  const secretAuth = post ? 'client.ClientSecretPost(process.env.OIDC_CLIENT_SECRET)' : 'client.ClientSecretBasic(process.env.OIDC_CLIENT_SECRET)';
  const authMethod = i.confidential ? (post ? 'client_secret_post' : 'client_secret_basic') : 'none';
  const redirectUri = o.redirect_uris[0] ?? o.redirect_uri;
  const postLogoutRedirectUri = o.post_logout_redirect_uris[0];
  const discoveryUrl = o.discovery_url;
  /** a line of a set-up that names the post-logout URI, left out when the app registered none */
  const withLogout = (line: (uri: string) => string) => (postLogoutRedirectUri === undefined ? [] : [line(postLogoutRedirectUri)]);
  const env = [
    `OIDC_ISSUER=${i.issuer}`,
    `OIDC_DISCOVERY_URL=${discoveryUrl}`,
    `OIDC_CLIENT_ID=${i.clientId}`,
    ...(i.confidential ? ['OIDC_CLIENT_SECRET=<the secret shown once when the app was added>'] : []),
    `OIDC_REDIRECT_URI=${redirectUri}`,
    ...withLogout((uri) => `OIDC_POST_LOGOUT_REDIRECT_URI=${uri}`),
    `OIDC_SCOPE="${INTEGRATION_SCOPE}"`,
  ].join('\n');
  const openidClient = `import * as client from 'openid-client'; // openid-client 6

const config = await client.discovery(
  new URL('${i.issuer}'),
  '${i.clientId}',
  undefined,
  ${i.confidential ? secretAuth : 'client.None()'},
);

// sign-in: keep code_verifier, state and nonce in the user's session
const code_verifier = client.randomPKCECodeVerifier();
const state = client.randomState();
const nonce = client.randomNonce();
const authUrl = client.buildAuthorizationUrl(config, {
  redirect_uri: '${redirectUri}',
  scope: '${INTEGRATION_SCOPE}',
  prompt: 'consent', // needed with offline_access (refresh token)
  code_challenge: await client.calculatePKCECodeChallenge(code_verifier),
  code_challenge_method: 'S256',
  state,
  nonce,
});

// callback (${redirectUri})
const tokens = await client.authorizationCodeGrant(config, currentUrl, {
  pkceCodeVerifier: code_verifier, expectedState: state, expectedNonce: nonce,
});
const roles = tokens.claims().roles; // e.g. ['APP_USER']

// refresh, sign-out
const fresh = await client.refreshTokenGrant(config, tokens.refresh_token);
const logoutUrl = client.buildEndSessionUrl(config, {
${['  id_token_hint: tokens.id_token,', ...withLogout((uri) => `  post_logout_redirect_uri: '${uri}',`)].join('\n')}
});`;
  const oidcClientTs = `import { UserManager } from 'oidc-client-ts';

const mgr = new UserManager({
  authority: '${i.issuer}',
  client_id: '${i.clientId}',
${[`  redirect_uri: '${redirectUri}',`, ...withLogout((uri) => `  post_logout_redirect_uri: '${uri}',`)].join('\n')}
  response_type: 'code', // PKCE S256 is automatic
  scope: '${INTEGRATION_SCOPE}',
  prompt: 'consent',
});

await mgr.signinRedirect();                 // sign-in
const user = await mgr.signinRedirectCallback(); // on ${redirectUri}
await mgr.signinSilent();                   // refresh (uses the refresh token)
await mgr.signoutRedirect();                // sign-out`;
  const apache = `# a2enmod auth_openidc
OIDCProviderMetadataURL ${discoveryUrl}
OIDCClientID ${i.clientId}
${i.confidential ? `OIDCClientSecret <client secret>\nOIDCProviderTokenEndpointAuth ${authMethod}` : 'OIDCProviderTokenEndpointAuth none'}
OIDCRedirectURI ${redirectUri}
OIDCCryptoPassphrase <a long random value>
OIDCScope "${INTEGRATION_SCOPE}"
OIDCAuthRequestParams prompt=consent
OIDCPKCEMethod S256
OIDCRemoteUserClaim email

<Location />
  AuthType openid-connect
  Require valid-user
  # Require claim roles:APP_USER
</Location>
# sign-out: ${redirectUri}?logout=${postLogoutRedirectUri === undefined ? '<a registered post-logout redirect URI, URL-encoded>' : encodeURIComponent(postLogoutRedirectUri)}`;
  const authlib = `from authlib.integrations.requests_client import OAuth2Session
import requests

meta = requests.get('${discoveryUrl}').json()
oauth = OAuth2Session(
    '${i.clientId}', ${i.confidential ? 'CLIENT_SECRET' : 'None'},
    scope='${INTEGRATION_SCOPE}',
    redirect_uri='${redirectUri}',
    token_endpoint_auth_method='${authMethod}',
    code_challenge_method='S256',
)
# sign-in: keep code_verifier, state and nonce in the user's session
uri, state = oauth.create_authorization_url(
    meta['authorization_endpoint'], code_verifier=code_verifier, nonce=nonce, prompt='consent')
# callback
token = oauth.fetch_token(meta['token_endpoint'],
                          authorization_response=callback_url, code_verifier=code_verifier)
userinfo = oauth.get(meta['userinfo_endpoint']).json()   # includes roles
# refresh
token = oauth.refresh_token(meta['token_endpoint'], refresh_token=token['refresh_token'])
# sign-out: redirect to meta['end_session_endpoint'] with id_token_hint${postLogoutRedirectUri === undefined ? '' : ` and\n# post_logout_redirect_uri=${postLogoutRedirectUri}`}`;
  const callback = originAndPath(redirectUri);
  const afterLogout = postLogoutRedirectUri === undefined ? undefined : originAndPath(postLogoutRedirectUri);
  // express-openid-connect's postLogoutRedirect is a path of baseURL; another origin cannot be said there
  const expressAfterLogout = afterLogout && afterLogout.origin === callback.origin ? afterLogout.path : undefined;
  // (a server-side app: offered for confidential apps only)
  const express = `import express from 'express';
import { auth } from 'express-openid-connect'; // express-openid-connect 3.4, Express 5

const app = express();
app.use(auth({
  issuerBaseURL: '${i.issuer}',
  baseURL: '${callback.origin}',
  clientID: '${i.clientId}',
  clientSecret: process.env.OIDC_CLIENT_SECRET,${post ? `\n  clientAuthMethod: 'client_secret_post',` : ''}
  secret: process.env.SESSION_SECRET, // encrypts the library's own session cookie
  authRequired: false,
  // the library's default is response_type=id_token (implicit, form_post), which the provider does not offer
  authorizationParams: { response_type: 'code', scope: '${INTEGRATION_SCOPE}', prompt: 'consent' },
  idpLogout: true, // /logout continues at the provider's end_session_endpoint
  routes: { callback: '${callback.path}'${expressAfterLogout === undefined ? '' : `, postLogoutRedirect: '${expressAfterLogout}'`} },
  // back-channel logout: register ${callback.origin}/backchannel-logout on the app; the store (express-session's
  // get/set/destroy) is shared by your instances
  backchannelLogout: { store },
}));
app.get('/', async (req, res) => {
  if (!req.oidc.isAuthenticated()) return res.send('signed out');
  res.json({ claims: req.oidc.idTokenClaims, userinfo: await req.oidc.fetchUserInfo() }); // roles
});`;
  const logoutParams = `{ ${[...withLogout((uri) => `post_logout_redirect_uri: '${uri}'`), 'id_token_hint: idToken'].join(', ')} }`;
  // passport-openidconnect 0.1.2 sends neither PKCE nor HTTP Basic: the app must be registered for that
  const passportNeeds = [
    ...(o.token_endpoint_auth_method === 'client_secret_post' ? [] : ["Client authentication 'client_secret_post'"]),
    ...(o.pkce_required ? ["'Require PKCE' off"] : []),
  ];
  const passport = `import express from 'express';
import session from 'express-session';
import { Passport } from 'passport'; // passport 0.7
import { Strategy as OpenIDConnectStrategy } from 'passport-openidconnect'; // 0.1.2
${passportNeeds.length ? `// the library sends no PKCE and puts the secret in the form body: edit this app: ${passportNeeds.join(', ')}\n` : ''}
const meta = await (await fetch('${discoveryUrl}')).json(); // the library does no discovery
const passport = new Passport();
passport.use('iam', new OpenIDConnectStrategy({
  issuer: meta.issuer,
  authorizationURL: meta.authorization_endpoint,
  tokenURL: meta.token_endpoint,
  userInfoURL: meta.userinfo_endpoint,
  clientID: '${i.clientId}',
  clientSecret: process.env.OIDC_CLIENT_SECRET, // sent as client_secret_post
  callbackURL: '${redirectUri}',
  scope: ['profile', 'email', 'roles', 'offline_access'], // the library adds openid
  prompt: 'consent', // needed with offline_access (refresh token)
  nonce: 'true', // any truthy value: the library sends a random nonce and checks it
},
// nine arguments: the library calls UserInfo and hands its JSON over as uiProfile._json (roles are there)
(issuer, uiProfile, idProfile, context, idToken, accessToken, refreshToken, params, done) =>
  done(null, { roles: uiProfile._json.roles, idToken, accessToken, refreshToken })));
passport.serializeUser((user, done) => done(null, user));
passport.deserializeUser((user, done) => done(null, user));

const app = express();
app.use(session({ secret: process.env.SESSION_SECRET, resave: false, saveUninitialized: false }));
app.use(passport.initialize());
app.use(passport.session());
app.get('/login', passport.authenticate('iam'));
app.get('${callback.path}', passport.authenticate('iam', { successRedirect: '/', failureRedirect: '/' }));
// refresh: not in the library; POST grant_type: 'refresh_token', refresh_token, client_id, client_secret to meta.token_endpoint
// sign-out: not in the library; the ID token kept above is the hint
app.get('/logout', (req, res, next) => {
  const idToken = req.user?.idToken;
  req.logout((err) => err ? next(err)
    : res.redirect(\`\${meta.end_session_endpoint}?\${new URLSearchParams(${logoutParams})}\`));
});`;
  // Auth.js's callback path is fixed: <base>/auth/callback/<provider id>
  const authJsCallback = `${callback.origin}/auth/callback/iam`;
  const authJs = `import express from 'express';
import { ExpressAuth, getSession } from '@auth/express'; // @auth/express 0.12, Express 5
${authJsCallback === redirectUri ? '' : `// Auth.js calls back to ${authJsCallback}: register it as a redirect URI of this app\n`}
const { end_session_endpoint: endSession } = await (await fetch('${discoveryUrl}')).json();
const authConfig = {
  secret: process.env.AUTH_SECRET,
  providers: [{
    id: 'iam',
    name: 'IAM',
    type: 'oidc',
    issuer: '${i.issuer}',
    clientId: '${i.clientId}',
    clientSecret: process.env.OIDC_CLIENT_SECRET,${post ? `\n    client: { token_endpoint_auth_method: 'client_secret_post' },` : ''}
    // Auth.js's default for type 'oidc' is ['pkce']; state and nonce are checked too when listed
    checks: ['pkce', 'state', 'nonce'],
    authorization: { params: { scope: 'openid profile email roles' } },
    // Auth.js's own sign-in page shows https://authjs.dev/img/providers/<id>.svg unless a logo is set ('' for none)
    style: { logo: '' },
  }],
  callbacks: {
    // on sign-in (account and profile present): keep the provider's roles and ID token in Auth.js's JWT
    jwt({ token, account, profile }) {
      if (account) Object.assign(token, { idToken: account.id_token, roles: profile?.roles ?? [] });
      return token;
    },
    session({ session, token }) {
      return Object.assign(session, { roles: token.roles, idToken: token.idToken });
    },
    // lets Auth.js's sign-out continue at the provider (/logout below); anything else stays on the app
    redirect({ url, baseUrl }) {
      if (url.startsWith(\`\${endSession}?\`)) return url;
      if (url.startsWith('/')) return \`\${baseUrl}\${url}\`;
      return new URL(url).origin === baseUrl ? url : baseUrl;
    },
  },
};
const app = express();
app.use('/auth', ExpressAuth(authConfig)); // Express 5: mounted at /auth, not '/auth/*'
app.get('/', async (req, res) => res.json(await getSession(req, authConfig))); // session.roles
// RP-initiated logout: Auth.js's own sign-out first, then the provider's end_session_endpoint
app.get('/logout', async (req, res) => {
  const idToken = (await getSession(req, authConfig))?.idToken;
  const end = \`\${endSession}?\${new URLSearchParams(${logoutParams})}\`;
  res.redirect(\`/auth/signout?\${new URLSearchParams({ callbackUrl: end })}\`);
});`;
  const goOidc = `// go-oidc 2.1 + golang.org/x/oauth2 0.3 (Debian: golang-github-coreos-go-oidc-dev)
provider, _ := oidc.NewProvider(ctx, "${i.issuer}")
var meta struct{ EndSession string \`json:"end_session_endpoint"\` }
provider.Claims(&meta) // go-oidc 2 has no field for it
conf := &oauth2.Config{ClientID: "${i.clientId}", ${i.confidential ? 'ClientSecret: os.Getenv("OIDC_CLIENT_SECRET"), ' : ''}RedirectURL: "${redirectUri}",
    Endpoint: oauth2.Endpoint{AuthURL: provider.Endpoint().AuthURL, TokenURL: provider.Endpoint().TokenURL,
        AuthStyle: ${post || !i.confidential ? 'oauth2.AuthStyleInParams' : 'oauth2.AuthStyleInHeader'}},
    Scopes: []string{${INTEGRATION_SCOPE.split(' ').map((x) => `"${x}"`).join(', ')}}}
verifier := provider.Verifier(&oidc.Config{ClientID: "${i.clientId}"})

// sign-in: PKCE S256 by hand; keep pkce (random), state and nonce in the session
sum := sha256.Sum256([]byte(pkce))
to := conf.AuthCodeURL(state, oidc.Nonce(nonce),
    oauth2.SetAuthURLParam("code_challenge", base64.RawURLEncoding.EncodeToString(sum[:])),
    oauth2.SetAuthURLParam("code_challenge_method", "S256"),
    oauth2.SetAuthURLParam("prompt", "consent"))

// callback (${redirectUri})
tok, _ := conf.Exchange(ctx, code, oauth2.SetAuthURLParam("code_verifier", pkce))
idt, _ := verifier.Verify(ctx, tok.Extra("id_token").(string))
if idt.Nonce != nonce { /* refuse */ }
if idt.AccessTokenHash != "" && idt.VerifyAccessToken(tok.AccessToken) != nil { /* refuse */ }
var claims struct{ Roles []string \`json:"roles"\` }
idt.Claims(&claims)

// refresh: conf.TokenSource(ctx, tok).Token()
// sign-out: redirect to meta.EndSession with id_token_hint${postLogoutRedirectUri === undefined ? '' : ` and post_logout_redirect_uri=${postLogoutRedirectUri}`}`;
  const clientCredentials = `import * as client from 'openid-client'; // machine to machine, no person involved

const config = await client.discovery(new URL('${i.issuer}'), '${i.clientId}', undefined,
  ${secretAuth});
const { access_token, expires_in } = await client.clientCredentialsGrant(config);

# or with curl
${post ? `curl -d client_id=${i.clientId} -d 'client_secret=<client secret>' -d grant_type=client_credentials ${i.issuer}/token` : `curl -u '${i.clientId}:<client secret>' -d grant_type=client_credentials ${i.issuer}/token`}`;
  return {
    discoveryUrl,
    redirectUri,
    postLogoutRedirectUri,
    snippets: [
      { id: 'env', label: 'Environment', code: env },
      { id: 'openid-client', label: 'openid-client (Node)', code: openidClient },
      ...(i.confidential
        ? [
            { id: 'express-openid-connect' as const, label: 'express-openid-connect', code: express },
            { id: 'passport-openidconnect' as const, label: 'passport-openidconnect', code: passport },
            { id: 'authjs' as const, label: 'Auth.js (Express)', code: authJs },
          ]
        : []),
      { id: 'oidc-client-ts', label: 'oidc-client-ts (browser)', code: oidcClientTs },
      { id: 'mod_auth_openidc', label: 'Apache mod_auth_openidc', code: apache },
      { id: 'authlib', label: 'authlib (Python)', code: authlib },
      { id: 'go-oidc', label: 'go-oidc (Go)', code: goOidc },
      ...(o.grant_types.includes('client_credentials') ? [{ id: 'client-credentials' as const, label: 'client_credentials', code: clientCredentials }] : []),
    ],
  };
}

export const ConnectIcon = (p: SVGProps<SVGSVGElement>) => (
  <svg xmlns="http://www.w3.org/2000/svg" width="16" height="16" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round" aria-hidden="true" focusable="false" {...p}>
    <path d="m16 18 6-6-6-6M8 6l-6 6 6 6" />
  </svg>
);

/**
 * Values are read and copied as whole tokens (issue 29: at 390 px 'client_secret_basic' broke into 'client_secr' /
 * 'et_basic'). A URL may wrap anywhere (it has no word inside to keep, and a phone could not show it otherwise); an
 * identifier stays on one line and its box scrolls sideways instead.
 */
const codeBox = css({
  fontFamily: 'mono',
  fontSize: 'xs',
  bg: 'bg.subtle',
  px: '3',
  py: '2',
  borderRadius: 'md',
  borderWidth: '1px',
  borderColor: 'border.default',
  flex: '1',
  minWidth: '0',
});
const urlText = css({ overflowWrap: 'anywhere', wordBreak: 'normal' });
const identifierText = css({ whiteSpace: 'nowrap', overflowX: 'auto' });
/** One identifier of a list (grant types): never broken inside; the list wraps between them. */
const token = css({ whiteSpace: 'nowrap' });

function Value({ label, value, testId, kind }: { label: string; value: string; testId: string; kind: 'url' | 'identifier' }) {
  return (
    <div role="group" aria-labelledby={`${testId}-label`} className={css({ display: 'flex', flexDirection: 'column', gap: '1' })}>
      <span id={`${testId}-label`} className={css({ fontSize: 'sm', fontWeight: 'medium' })}>
        {label}
      </span>
      <div className={css({ display: 'flex', gap: '2', alignItems: 'center' })}>
        <code data-testid={testId} data-kind={kind} tabIndex={kind === 'identifier' ? 0 : undefined} className={`${codeBox} ${kind === 'url' ? urlText : identifierText}`}>
          {value}
        </code>
        <CopyButton value={value} />
      </div>
    </div>
  );
}

/**
 * Several URLs under one label (the registered redirect or post-logout URIs), each with its copy button; `empty` when
 * there are none. Each value carries `itemTestId`; the list `testId`.
 */
function Values({ label, values, testId, itemTestId, empty }: { label: string; values: readonly string[]; testId: string; itemTestId: string; empty: string }) {
  return (
    <div role="group" aria-labelledby={`${testId}-label`} className={css({ display: 'flex', flexDirection: 'column', gap: '1' })}>
      <span id={`${testId}-label`} className={css({ fontSize: 'sm', fontWeight: 'medium' })}>
        {label}
      </span>
      {values.length === 0 ? (
        <p data-testid={testId} className={css({ fontSize: 'sm', color: 'fg.muted' })}>
          {empty}
        </p>
      ) : (
        <ul data-testid={testId} className={css({ display: 'flex', flexDirection: 'column', gap: '1.5', listStyle: 'none', m: '0', p: '0' })}>
          {values.map((value) => (
            <li key={value} className={css({ display: 'flex', gap: '2', alignItems: 'center' })}>
              <code data-testid={itemTestId} data-kind="url" className={`${codeBox} ${urlText}`}>
                {value}
              </code>
              <CopyButton value={value} />
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

/** Items of a list, each kept whole, separated so the line may break between them. */
function Tokens({ items, separator }: { items: readonly string[]; separator: string }) {
  return (
    <>
      {items.map((item, n) => (
        <span key={item}>
          <span className={token}>{item}</span>
          {n < items.length - 1 ? `${separator} ` : null}
        </span>
      ))}
    </>
  );
}

export function ServiceAppIntegration({ app }: { app: ServiceApp }) {
  const { t } = useLingui();
  const info = integrationFor(app);
  const o = app.oidc;
  return (
    <div className={css({ display: 'flex', flexDirection: 'column', gap: '4', minWidth: '0' })} data-testid="service-app-integration">
      <Value label={t`Discovery URL`} value={info.discoveryUrl} testId="discovery-url" kind="url" />
      <Value label={t`Client ID`} value={app.name} testId="client-id" kind="identifier" />
      <Values label={t`Redirect URIs`} values={o.redirect_uris} testId="redirect-uris" itemTestId="redirect-uri" empty="" />
      <Values
        label={t`Post-logout redirect URIs`}
        values={o.post_logout_redirect_uris}
        testId="post-logout-uris"
        itemTestId="post-logout-uri"
        empty={t`None registered: after signing out, people see the provider's signed-out page.`}
      />
      {/* below sm the terms stand above their values: side by side, a phone left the values a few characters a line */}
      <dl
        className={css({
          display: 'grid',
          gridTemplateColumns: { base: 'minmax(0, 1fr)', sm: 'auto minmax(0, 1fr)' },
          columnGap: '4',
          rowGap: '1',
          fontSize: 'sm',
          '& dt': { color: 'fg.muted', mt: { base: '1', sm: '0' } },
          '& dd': { fontFamily: 'mono', fontSize: 'xs', minWidth: '0' },
        })}
      >
        <dt>{t`Client authentication`}</dt>
        <dd data-testid="auth-method" className={identifierText}>
          {o.token_endpoint_auth_method}
        </dd>
        <dt>PKCE</dt>
        <dd data-testid="pkce">{o.pkce_required ? t`required (S256)` : t`optional (S256 when sent)`}</dd>
        <dt>{t`Grant types`}</dt>
        <dd data-testid="grant-types">
          <Tokens items={o.grant_types} separator="," />
        </dd>
      </dl>
      <p className={css({ fontSize: 'xs', color: 'fg.muted' })}>
        <Trans>
          Redirect URIs are compared exactly: scheme, host, port and path must match character for character. The set-ups below use the first of each list. The roles
          claim lists the person's roles that this app allows.
        </Trans>{' '}
        {app.client_type === 'confidential' ? <Trans>The client secret was shown once when the app was added; regenerate it by editing the app if it is lost.</Trans> : null}
      </p>
      <Tabs.Root defaultValue="env" lazyMount>
        <Tabs.List aria-label={t`Ready set-ups`}>
          {info.snippets.map((s) => (
            <Tabs.Trigger key={s.id} value={s.id}>
              {s.id === 'env' ? t`Environment` : s.label}
            </Tabs.Trigger>
          ))}
        </Tabs.List>
        {info.snippets.map((s) => (
          <Tabs.Content key={s.id} value={s.id}>
            <div className={css({ display: 'flex', flexDirection: 'column', gap: '2' })}>
              <pre data-testid={`snippet-${s.id}`} className={css({ fontFamily: 'mono', fontSize: 'xs', bg: 'bg.subtle', p: '3', borderRadius: 'md', borderWidth: '1px', borderColor: 'border.default', overflowX: 'auto', maxHeight: '72', whiteSpace: 'pre' })}>
                {s.code}
              </pre>
              <div className={css({ display: 'flex', justifyContent: 'space-between', alignItems: 'center', gap: '2', flexWrap: 'wrap' })}>
                <span className={css({ fontSize: 'xs', color: 'fg.muted' })}>
                  <Trans>More in docs/INTEGRATING.md.</Trans>
                </span>
                <CopyButton value={s.code} label={t`Copy set-up`} />
              </div>
            </div>
          </Tabs.Content>
        ))}
      </Tabs.Root>
    </div>
  );
}
