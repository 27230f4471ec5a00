import Provider, { errors, interactionPolicy, type Account as OidcAccount, type ClientMetadata, type Configuration, type JWKS, type KoaContextWithOIDC } from 'oidc-provider';
import { createAdapterClass, PKCE_METADATA } from './adapter';
import { ID_TOKEN_TTL_SECONDS, loadCookieKeys, SIGNING_ALG } from './keys';
import { ACR, ADMIN_CLIENT, CONSENT_PATH, OIDC_SCOPES, ROLES_CLAIM, PORTAL_CLIENT, accountTypeForClient, isServiceAppClient, mayUseClient, requestsMfa } from './access';
import { nowIso } from '../db/index';
import { getClientSecret } from '../services/admin/service-apps';
import { errorPage, logoutPage, pageLanguage, postLogoutPage } from './pages';
import { formActionCsp } from './csp';
import { loginHintParams } from './login-hints';
import { consumeCodeOnFailedGrant } from './code-burn';
import { enforceRegisteredSecretMethod } from './client-auth-method';
import { unavailableDependency } from '../plugins/app/errors';
import { dependencyUnavailable, oidcEndpointOf } from '../lib/metrics';
import { outageLogFor, rawRequestIds } from '../lib/outage-log';
import { accountClaims } from './claims';
import { recordCompletedSignIn } from './activity';
import { readInteractionResult } from './interaction-result';
import { rememberUpstreamSignIn } from './upstream-sessions';
import { continueAtUpstream, upstreamLogoutFormAction } from './upstream-logout';
import { BINDING_COOKIE_PATH, bindingCookieName, bindingValue } from './interaction-binding';
import { answerStructuredRevocations, revocationAllowed, type AccessTokenReader } from './revocation';
import { DPOP_ALGS } from './dpop';
import type { ServiceHost } from '../services/deps';
import type { AppConfig } from '../config';
import type { Account } from '../db/schema';
import { enqueueLogouts, wakeLogoutDeliveries } from './backchannel-logout';
import type { Mailer } from '../services/mail';
import { DEVICE_COOKIE, DEVICE_COOKIE_MAX_AGE_MS, recordSignIn, touchSession } from '../services/sessions';
import { systemClock } from '../services/deps';

/** What the provider needs: the shared host, and the mailer for the new-device mail (server/services/sessions.ts). */
export type ProviderHost = ServiceHost & { mailer?: Mailer | undefined };

const epoch = (): number => Math.floor(Date.now() / 1000);

/**
 * Koa middleware for the provider: the end-session confirmation (`POST /session/end/confirm`, RP-initiated logout)
 * ends the whole session ("Yes": every client) or one client's part of it. The session is read before the provider
 * acts; afterwards each client it no longer holds gets a logout token queued for its back-channel logout URI (with the
 * sid its ID tokens carried), then this instance's sender is woken. The person's redirect does not wait for any app.
 * When the whole session ended and it came through an upstream provider, the browser goes on to sign out there first
 * (server/oidc/upstream-logout.ts).
 */
function onEndSessionConfirm(provider: Provider, host: ProviderHost) {
  const db = host.db.kysely;
  return async (ctx: KoaContextWithOIDC, next: () => Promise<void>): Promise<void> => {
    if (ctx.method !== 'POST' || ctx.path !== '/session/end/confirm') return next();
    const before = await provider.Session.get(ctx).catch(() => undefined);
    const accountId = before?.accountId;
    const authorizations = before?.authorizations ? structuredClone(before.authorizations) : {};
    await next();
    if (!before || !accountId || ctx.status !== 303 || (ctx.oidc as KoaContextWithOIDC['oidc'] | undefined)?.route !== 'end_session_confirm') return;
    // the provider's session object after the confirmation: destroyed ("Yes"), or without the client that asked
    const after = ctx.oidc.entities.Session as (KoaContextWithOIDC['oidc']['entities']['Session'] & { destroyed?: boolean }) | undefined;
    const wholeSession = !after || after.destroyed === true;
    const ended = Object.entries(authorizations).filter(([clientId]) => wholeSession || !after.authorizations?.[clientId]);
    if (ended.length) {
      try {
        const queued = await enqueueLogouts(db, accountId, ended.map(([clientId, a]) => ({ clientId, sid: typeof a.sid === 'string' ? a.sid : null })), 'rp_logout');
        if (queued) wakeLogoutDeliveries(db);
      } catch (err) {
        // the sign-out itself is done; an unreachable database is logged, never shown to the person leaving
        host.log.warn({ err: err instanceof Error ? err.message : String(err) }, 'back-channel logout tokens not queued');
      }
    }
    if (wholeSession) await continueAtUpstream(host, ctx, before.uid);
  };
}

/** The resource indicator every access token is issued for; its audience is the client id. */
export const apiResource = (appUrl: string): string => `${appUrl}/api`;

/**
 * The SPA's two clients: `APP_URL/login` and `APP_URL/admin/login`, plus the same paths on each development origin
 * (IAM_DEV_ORIGINS, NODE_ENV=development only: server/config.ts).
 */
function firstPartyClient(clientId: string, path: '/login' | '/admin/login', origins: string[]): ClientMetadata {
  const redirects = origins.map((origin) => `${origin}${path}`);
  return {
    client_id: clientId,
    client_name: clientId === PORTAL_CLIENT ? 'Portal' : 'Admin console',
    token_endpoint_auth_method: 'none',
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
    redirect_uris: redirects,
    post_logout_redirect_uris: redirects,
  };
}

/** Where the SPA's sign-in pages live for this authorization: the development origin it came from, else APP_URL. */
export function spaOriginFor(config: Pick<AppConfig, 'appUrl' | 'devOrigins'>, redirectUri: unknown): string {
  const origin = typeof redirectUri === 'string' ? URL.parse(redirectUri)?.origin : undefined;
  return origin && config.devOrigins.includes(origin) ? origin : config.appUrl;
}

/** Remaining seconds of an absolute lifetime that started at `start` (epoch seconds), at least 1. */
/**
 * The account row findAccount read, per provider request (koa context): loadExistingGrant, later in the same request,
 * checks the same row instead of reading it again. Never kept beyond the request (the context is the key).
 */
const accountsOfRequest = new WeakMap<object, Account>();

const remaining = (absolute: number, start: number | undefined): number => Math.max(1, absolute - (epoch() - (start ?? epoch())));

/**
 * The provider's prompts, plus step-up (docs/INTEGRATING.md "Step-up"): an app asking for `urn:iam:acr:mfa` (or `mfa`)
 * while the session was reached without a second factor gets the login prompt again, so the person signs in with both
 * factors. The check passes once this interaction has a login result: a sign-in that still cannot reach the class
 * ended the interaction with `unmet_authentication_requirements` (server/services/sign-in.ts finishSignIn).
 */
function promptPolicy(): ReturnType<typeof interactionPolicy.base> {
  const policy = interactionPolicy.base();
  policy.get('login')?.checks.add(
    new interactionPolicy.Check('acr_mfa', 'a sign-in with two factors is required', (ctx) => {
      const { oidc } = ctx;
      if (!requestsMfa(oidc.params ?? {}) || readInteractionResult(oidc.result).login || !oidc.session?.accountId) return interactionPolicy.Check.NO_NEED_TO_PROMPT;
      return oidc.session.acr === ACR.mfa ? interactionPolicy.Check.NO_NEED_TO_PROMPT : interactionPolicy.Check.REQUEST_PROMPT;
    }),
  );
  return policy;
}

/**
 * A provider signing with `jwks.keys[0]` (the active key) and verifying with all of them (next, previous).
 * oidc-provider takes its keys only at construction, so server/oidc/index.ts builds a new provider whenever the
 * key set changes (all state lives in the database, so nothing is lost). `readAccessToken` checks one of our JWT
 * access tokens (the runtime's key ring), for their revocation (server/oidc/revocation.ts).
 */
export async function createProvider(deps: ProviderHost, jwks: JWKS, jwksMaxAgeSeconds: number, readAccessToken: AccessTokenReader): Promise<Provider> {
  const { config, log } = deps;
  const db = deps.db.kysely;
  const { refreshIdleSeconds, refreshAbsoluteSeconds, accessTokenTtlSeconds } = config.auth;
  const resource = apiResource(config.appUrl);
  const secure = config.appUrl.startsWith('https:');
  // the device cookie is read only where sign-ins complete (the provider's paths)
  const oidcPath = URL.parse(config.issuer)?.pathname || '/';

  const configuration: Configuration = {
    adapter: createAdapterClass(db, (stored) => getClientSecret(deps, { client_secret: stored })),
    clients: [firstPartyClient(PORTAL_CLIENT, '/login', [config.appUrl, ...config.devOrigins]), firstPartyClient(ADMIN_CLIENT, '/admin/login', [config.appUrl, ...config.devOrigins])],
    clientDefaults: { grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'], id_token_signed_response_alg: SIGNING_ALG, token_endpoint_auth_method: 'none' },
    jwks,
    cookies: {
      keys: await loadCookieKeys(db),
      long: { signed: true, httpOnly: true, sameSite: 'lax', secure },
      short: { signed: true, httpOnly: true, sameSite: 'lax', secure },
    },
    scopes: [...OIDC_SCOPES],
    acrValues: Object.values(ACR),
    // the ID token carries the claims of the granted scopes too (stock relying parties read them there)
    conformIdTokenClaims: false,
    claims: {
      // with openid, the ID token tells how and when the person signed in: class (acr), methods (amr,
      // RFC 8176), time; the session id (sid) is added to every ID token below
      acr: null,
      amr: null,
      auth_time: null,
      sid: null,
      openid: ['sub', 'acr', 'amr', 'auth_time'],
      [ROLES_CLAIM]: [ROLES_CLAIM],
      profile: ['name', 'given_name', 'family_name', 'locale', 'updated_at'],
      email: ['email', 'email_verified'],
    },
    responseTypes: ['code'],
    // public clients always; confidential service apps by their per-app setting (default on)
    pkce: { required: (_ctx, client) => client.clientAuthMethod === 'none' || client.metadata()[PKCE_METADATA] !== false },
    extraClientMetadata: { properties: [PKCE_METADATA] },
    clientAuthMethods: ['none', 'client_secret_basic', 'client_secret_post'],
    // DPoP proofs (RFC 9449): the same algorithms at the token endpoint and the resource endpoints (server/oidc/dpop.ts)
    enabledJWA: { dPoPSigningAlgValues: DPOP_ALGS },
    // OpenID Connect Back-Channel Logout 1.0, sent by the product's own durable queue (server/oidc/backchannel-logout.ts),
    // not by the provider's backchannelLogout feature: that one posts inline while the person waits, only on
    // end_session, and drops what an app did not take. So the feature stays off (the client metadata never carries a
    // backchannel_logout_uri: the provider has nothing to send) and discovery says what the product does.
    discovery: { backchannel_logout_supported: true, backchannel_logout_session_supported: true },
    features: {
      devInteractions: { enabled: false },
      // RFC 7009: refresh tokens by the provider, our JWT access tokens by server/oidc/revocation.ts; one rule for both
      revocation: { enabled: true, allowedPolicy: async (_ctx, client, token) => revocationAllowed(client, token.clientId) },
      // the token endpoint binds tokens to the client's DPoP key (token_type DPoP, cnf.jkt); UserInfo and the REST API
      // enforce the binding (server/oidc/dpop.ts)
      dPoP: { enabled: true },
      // advertised in discovery; answered by routes/oidc.routes.ts (our access tokens are JWTs the provider does not store)
      introspection: { enabled: true },
      // machine-to-machine: only for confidential service apps that have the grant type switched on
      clientCredentials: { enabled: true },
      userinfo: { enabled: true },
      rpInitiatedLogout: {
        enabled: true,
        logoutSource: async (ctx, form) => {
          ctx.type = 'html';
          // the provider has already refused an invalid id_token_hint; a valid one means the client asked
          const hinted = typeof ctx.oidc.params?.id_token_hint === 'string' && ctx.oidc.params.id_token_hint !== '';
          ctx.body = logoutPage(pageLanguage(ctx.get('accept-language')), form, ctx.host, hinted);
        },
        postLogoutSuccessSource: async (ctx) => {
          ctx.type = 'html';
          ctx.body = postLogoutPage(pageLanguage(ctx.get('accept-language')), config.appUrl);
        },
      },
      resourceIndicators: {
        enabled: true,
        defaultResource: async () => resource,
        useGrantedResource: async () => true,
        getResourceServerInfo: async (ctx, indicator, client) => {
          if (indicator !== resource) throw new errors.InvalidTarget();
          // a client_credentials token names no person: no user scopes, audience = the app itself
          if (ctx.oidc.route === 'token' && ctx.oidc.params?.grant_type === 'client_credentials') {
            return { scope: '', audience: client.clientId, accessTokenFormat: 'jwt', accessTokenTTL: accessTokenTtlSeconds, jwt: { sign: { alg: SIGNING_ALG } } };
          }
          return {
            scope: OIDC_SCOPES.join(' '),
            audience: client.clientId,
            accessTokenFormat: 'jwt',
            accessTokenTTL: accessTokenTtlSeconds,
            jwt: { sign: { alg: SIGNING_ALG } },
          };
        },
      },
    },
    // every access token names its grant, so the API can check the grant is still alive
    extraTokenClaims: async (_ctx, token) => ('grantId' in token && typeof token.grantId === 'string' ? { gid: token.grantId } : undefined),
    interactions: {
      policy: promptPolicy(),
      url: async (ctx, interaction) => {
        const clientId = String(interaction.params.client_id ?? '');
        // signed in already, only the consent is missing: record it server-side (first-party consent)
        if (interaction.prompt.name === 'consent') return `${config.appUrl}${CONSENT_PATH}/${interaction.uid}`;
        // the login page's steps are API calls: this browser, and only it, gets the cookie that lets them act on this
        // interaction (server/oidc/interaction-binding.ts)
        ctx.cookies.set(bindingCookieName(interaction.uid), await bindingValue(deps, interaction.uid), {
          path: BINDING_COOKIE_PATH,
          httpOnly: true,
          sameSite: 'lax',
          secure,
          signed: false,
          overwrite: true,
          maxAge: Math.max(1, interaction.exp - epoch()) * 1000,
        });
        const page = clientId === ADMIN_CLIENT ? '/admin/login' : '/login';
        // the app's ui_locales and login_hint: the page's language and the e-mail field (server/oidc/login-hints.ts)
        const qs = new URLSearchParams({ interaction: interaction.uid, ...loginHintParams(interaction.params) });
        if (isServiceAppClient(clientId)) qs.set('type', 'sso');
        return `${spaOriginFor(config, interaction.params.redirect_uri)}${page}?${qs.toString()}`;
      },
    },
    // first-party IdP: no consent screen; the grant covers what the client asked for, after the access rules
    loadExistingGrant: async (ctx) => {
      const session = ctx.oidc.session;
      const accountId = session?.accountId;
      const client = ctx.oidc.client;
      if (!session || !accountId || !client) return undefined;
      // the row findAccount read for this same request (the provider checks the session's account first), else read now
      const seen = accountsOfRequest.get(ctx);
      const account = seen?.id === accountId ? seen : await db.selectFrom('accounts').select(['id', 'type', 'status']).where('id', '=', accountId).executeTakeFirst();
      if (!account || !(await mayUseClient(db, client.clientId, account))) {
        // a signed-in person refused by a service app's role rules: no grant, so the provider asks for
        // consent, and the consent step (consent.ts) shows the "no access" page before access_denied
        if (account && account.status === 'ACTIVE' && isServiceAppClient(client.clientId) && account.type === accountTypeForClient(client.clientId)) return undefined;
        throw new errors.AccessDenied(account && account.type !== accountTypeForClient(client.clientId) ? 'account type not allowed for this client' : 'account not allowed for this client');
      }
      // a consent recorded in this interaction (server/oidc/consent.ts), else the session's grant for the client
      const result = readInteractionResult(ctx.oidc.result);
      const grantId = result.consent?.grantId ?? session.grantIdFor(client.clientId);
      let grant = grantId ? await ctx.oidc.provider.Grant.find(grantId) : undefined;
      if (!grant || grant.accountId !== accountId || grant.clientId !== client.clientId) {
        grant = new ctx.oidc.provider.Grant({ accountId, clientId: client.clientId });
      }
      const requested = [...ctx.oidc.requestParamScopes].filter((s) => (OIDC_SCOPES as readonly string[]).includes(s));
      if (requested.length) {
        grant.addOIDCScope(requested.join(' '));
        grant.addResourceScope(resource, requested.join(' '));
      }
      const grantJti = await grant.save();
      // the sign-in completes here, in the browser that holds the interaction: only now is it recorded
      const activity = result.activity;
      if (activity && activity.accountId === accountId) {
        await recordCompletedSignIn(db, activity, client.clientId, grantJti).catch((err: unknown) => log.warn({ err }, 'recording the sign-in failed'));
        // an SSO sign-in: the session remembers its upstream, so signing out can end the upstream session too
        if (activity.upstream) await rememberUpstreamSignIn(db, session.uid, activity.upstream, refreshAbsoluteSeconds);
        // the sessions list's record and the new-device check (server/services/sessions.ts)
        const mailer = deps.mailer;
        if (mailer) {
          const device = {
            get: () => ctx.cookies.get(DEVICE_COOKIE, { signed: true }),
            set: (id: string) => ctx.cookies.set(DEVICE_COOKIE, id, { signed: true, httpOnly: true, sameSite: 'lax', secure, path: oidcPath, maxAge: DEVICE_COOKIE_MAX_AGE_MS, overwrite: true }),
          };
          await recordSignIn({ db: deps.db, config, mailer, log, clock: systemClock }, { sessionUid: session.uid, sessionExpiresAt: epoch() + refreshAbsoluteSeconds, activity, device, account: seen?.id === accountId ? seen : undefined }).catch((err: unknown) =>
            log.warn({ err }, 'recording the session failed'),
          );
        }
      } else {
        // another app reached through the session: it was used
        await touchSession(db, session.uid).catch((err: unknown) => log.warn({ err }, 'session last-used update failed'));
      }
      return grant;
    },
    findAccount: async (ctx, sub): Promise<OidcAccount | undefined> => {
      const a = await db.selectFrom('accounts').selectAll().where('id', '=', sub).executeTakeFirst();
      if (a && ctx) accountsOfRequest.set(ctx, a);
      if (!a || a.status !== 'ACTIVE') return undefined;
      const clientId = ctx.oidc?.client?.clientId ?? '';
      return { accountId: a.id, claims: async () => ({ ...(await accountClaims(db, a, clientId)) }) };
    },
    issueRefreshToken: async (_ctx, client, code) => client.grantTypeAllowed('refresh_token') && (!isServiceAppClient(client.clientId) || code.scopes.has('offline_access')),
    // tokens are bound to the provider session, so RP-initiated logout (end_session) revokes their grant
    expiresWithSession: async () => true,
    rotateRefreshToken: true,
    ttl: {
      AccessToken: accessTokenTtlSeconds,
      // client_credentials tokens: the same lifetime (the resource server info above sets it too); named so the
      // provider does not fall back to its default function (and print a notice on every such token)
      ClientCredentials: accessTokenTtlSeconds,
      AuthorizationCode: 60,
      IdToken: ID_TOKEN_TTL_SECONDS,
      Interaction: 3600,
      Session: refreshAbsoluteSeconds,
      Grant: (_ctx, grant) => remaining(refreshAbsoluteSeconds, grant.iat),
      RefreshToken: (_ctx, token) => Math.min(refreshIdleSeconds, remaining(refreshAbsoluteSeconds, token.iiat ?? token.iat)),
    },
    clientBasedCORS: (_ctx, origin, client) => client.redirectUris?.some((uri) => URL.parse(uri)?.origin === origin) ?? false,
    renderError: async (ctx, out) => {
      ctx.type = 'html';
      const redirectUri = (ctx.oidc?.params as Record<string, unknown> | undefined)?.redirect_uri;
      const redirectOrigin = typeof redirectUri === 'string' ? (URL.parse(redirectUri)?.origin ?? undefined) : undefined;
      ctx.body = errorPage(pageLanguage(ctx.get('accept-language')), { ...out }, { appUrl: config.appUrl, redirectOrigin, devOrigins: config.devOrigins });
    },
  };

  const provider = new Provider(config.issuer, configuration);
  provider.proxy = true;
  provider.use(formActionCsp);
  provider.use(consumeCodeOnFailedGrant);
  // every ID token names its session (sid, advertised in discovery), not only for back-channel logout clients
  provider.Client.prototype.includeSid = () => true;
  // a confidential app sends its secret the way it is registered for (basic or post), not either way
  enforceRegisteredSecretMethod(provider);
  // relying parties may cache the JWKS this long; keys:rotate publishes a next key longer than that before it signs
  provider.use(async (ctx, next) => {
    await next();
    if (ctx.path === '/jwks' && ctx.status === 200) ctx.set('cache-control', `public, max-age=${jwksMaxAgeSeconds}`);
  });

  // RP-initiated logout: the service apps of the session the confirmation ends are told (back-channel logout), and an
  // SSO session signs out at its upstream provider too; the logout page's form-action allows that provider
  provider.use(onEndSessionConfirm(provider, deps));
  provider.use(upstreamLogoutFormAction(deps));

  // a token refresh through a session uses it: the sessions list's "last used"
  provider.on('grant.success', (ctx: KoaContextWithOIDC) => {
    // (a code exchange follows the sign-in or the authorization that touched the session already)
    if (ctx.oidc.params?.grant_type !== 'refresh_token') return;
    const uid = (ctx.oidc.entities as { RefreshToken?: { sessionUid?: unknown } }).RefreshToken?.sessionUid;
    if (typeof uid === 'string') touchSession(db, uid).catch((err: unknown) => log.warn({ err }, 'session last-used update failed'));
  });
  provider.on('grant.revoked', (_ctx: KoaContextWithOIDC, grantId: string) => {
    db.updateTable('auth_activities').set({ logged_out_at: nowIso() }).where('session_ref', '=', grantId).where('logged_out_at', 'is', null).execute().catch((err: unknown) => log.warn({ err }, 'sign-out record failed'));
  });
  // database or Redis unreachable behind an OIDC endpoint: 503 with Retry-After, not server_error 500 (docs/OPERATIONS.md)
  const unavailable = new WeakSet<object>();
  provider.use(async (ctx, next) => {
    await next();
    if (ctx.status === 500 && unavailable.has(ctx)) {
      ctx.status = 503;
      ctx.set('retry-after', '5');
      ctx.set('cache-control', 'no-store');
      if (!ctx.response.is('html')) ctx.body = { error: 'temporarily_unavailable', error_description: 'The service is temporarily unavailable, retry later' };
    }
  });
  // revocation of our JWT access tokens, which the provider refuses as structured tokens (inside the 503 mapping above)
  provider.use(answerStructuredRevocations(db, readAccessToken));
  // aggregated with the API's (server/lib/outage-log.ts), each line with the request id of the request it is about
  const outageLog = outageLogFor(log, config.timeouts.outageLogMs);
  provider.on('server_error', (ctx: KoaContextWithOIDC, err: Error) => {
    const reqId = rawRequestIds.get(ctx.req);
    const dependency = unavailableDependency(err);
    if (dependency) {
      unavailable.add(ctx);
      dependencyUnavailable.inc({ dependency });
      outageLog.record(dependency, { reqId, route: oidcEndpointOf(`/oidc${ctx.path}`), err: err.message, source: 'oidc' });
    } else log.error({ reqId, err }, 'oidc server_error');
  });
  return provider;
}
