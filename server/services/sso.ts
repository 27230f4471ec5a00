import type { FastifyBaseLogger } from 'fastify';
import { cleanLoginHint, cleanUiLocales } from '../oidc/login-hints';
import * as oidc from 'openid-client';
import { nowIso } from '../db/index';
import { AppError } from '../errors';
import { createAdapterClass } from '../oidc/adapter';
import { accountTypeForClient } from '../oidc/access';
import { holdsInteraction } from '../oidc/interaction-binding';
import { returnFromUpstream, type UpstreamReturn } from '../oidc/upstream-logout';
import { normalizeEmail } from './accounts';
import type { Deps } from './deps';
import { upstreamEndSessionUrl, upstreamOf } from './sso-upstream';
import { clientOf, type BrowserCookies, type ClientInfo, type SignInService } from './sign-in';

/**
 * Upstream single sign-on (the server as relying party): start redirects to the upstream provider with
 * PKCE S256, state and nonce (kept server-side, bound to the interaction and to the starting browser by the
 * `iam_sso` cookie; both start and callback also require the interaction's own binding cookie, server/oidc/
 * interaction-binding.ts, so only the browser that started the authorization can sign in to it upstream); the callback verifies the ID token, matches an ACTIVE SSO account by provider + verified
 * e-mail (never creates one), and finishes the same interaction. The sign-in is recorded (auth_activities)
 * only when the browser completes it at the provider (server/oidc/activity.ts).
 * Every answer of the callback a person can reach is a redirect to a page, never a JSON error: a reloaded or
 * reused callback URL (state already used or unknown) and a callback opened in another browser land on the
 * login page with `error=interaction_expired`. Routes: server/routes/auth/sso.routes.ts (contract/auth.ts).
 */

const STATE_TTL_SECONDS = 10 * 60;
/** The cookie binding an upstream sign-in to the browser that started it (its value: the state record's `browser`). */
export const SSO_BROWSER_COOKIE = 'iam_sso';

interface SsoState {
  interaction: string;
  provider: string;
  verifier: string;
  nonce: string;
  /** Random value also set as the `iam_sso` cookie of the browser that started the sign-in. */
  browser: string;
  /** The login page to come back to (the interaction's account type). */
  type: 'user' | 'admin';
  /** Set once the callback has used this state (kept until it expires, so a reload still finds the page). */
  used?: boolean;
}

export interface SsoStart {
  /** The upstream authorization URL. */
  url: string;
  /** Value of the `iam_sso` cookie to set on the browser. */
  browser: string;
}

export function createSsoService(deps: Deps, signIn: Pick<SignInService, 'loadInteraction' | 'finishSignIn'>) {
  const States = createAdapterClass(deps.db.kysely);
  const states = new States('SsoState');
  const callbackUrl = (id: string) => `${deps.config.appUrl}/api/sso/${encodeURIComponent(id)}/callback`;

  const providerOf = (id: string) => {
    const p = deps.config.ssoProviders.find((x) => x.id === id);
    if (!p) throw new AppError(404, 'sso_provider_unknown');
    return p;
  };

  return {
    /**
     * Where the browser continues a sign-out of a session that was signed in through `upstream` (POST /api/logout):
     * the upstream provider's end_session_endpoint (OpenID Connect RP-Initiated Logout) with the upstream's ID token as
     * `id_token_hint` and this IAM's login page of the account type as `post_logout_redirect_uri` (register both
     * `APP_URL/login` and `APP_URL/admin/login` as post-logout redirect URIs at the upstream). Undefined when the provider
     * is gone from SSO_PROVIDERS, has `end_session: false`, advertises no end_session_endpoint, or its discovery fails
     * (the sign-out here has happened either way).
     */
    async endSessionUrl(upstream: { provider: string; idToken: string }, type: 'user' | 'admin'): Promise<string | undefined> {
      return upstreamEndSessionUrl(deps, upstream, `${deps.config.appUrl}${type === 'admin' ? '/admin/login' : '/login'}`);
    },

    /**
     * Where the browser goes when the upstream `providerId` sends it back after an app's RP-initiated logout went on
     * to sign out there (GET /api/sso/:provider/signed-out): the target kept for this browser (`key`: its
     * `iam_sso_logout` cookie), once; else our signed-out page (server/oidc/upstream-logout.ts). `keepCookie`: the
     * browser's cookie still leads to a live way back this return did not match.
     */
    async signedOut(providerId: string, state: string | undefined, key: string | undefined): Promise<UpstreamReturn> {
      return returnFromUpstream(deps, providerId, state, key);
    },

    /**
     * The upstream authorization URL the browser is sent to (the state is kept server-side for the callback) and
     * the browser-binding cookie value. `uiLocales`: the person's language (the SPA's), else the interaction's
     * `ui_locales`, passed upstream as `ui_locales`.
     */
    async start(providerId: string, interactionUid: string, opts: { uiLocales?: string | undefined } = {}, cookies?: BrowserCookies): Promise<SsoStart> {
      const p = providerOf(providerId);
      const interaction = await signIn.loadInteraction(interactionUid, cookies);
      const uiLocales = cleanUiLocales(opts.uiLocales) ?? cleanUiLocales(interaction.params.ui_locales);
      // the app's login_hint goes upstream too: the person need not type their address twice
      const loginHint = cleanLoginHint(interaction.params.login_hint);
      let config: oidc.Configuration;
      try {
        config = await upstreamOf(deps.config, p);
      } catch (cause) {
        throw new AppError(502, 'sso_failed', { cause });
      }
      const verifier = oidc.randomPKCECodeVerifier();
      const state = oidc.randomState();
      const nonce = oidc.randomNonce();
      const browser = oidc.randomState();
      const record: SsoState = { interaction: interaction.uid, provider: p.id, verifier, nonce, browser, type: accountTypeForClient(clientOf(interaction)) };
      await states.upsert(state, { ...record }, STATE_TTL_SECONDS);
      const url = oidc.buildAuthorizationUrl(config, {
        redirect_uri: callbackUrl(p.id),
        scope: p.scope ?? 'openid email profile',
        response_type: 'code',
        code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
        code_challenge_method: 'S256',
        state,
        nonce,
        ...(uiLocales ? { ui_locales: uiLocales } : {}),
        ...(loginHint ? { login_hint: loginHint } : {}),
      });
      return { url: url.href, browser };
    },

    /**
     * Finishes the sign-in from the upstream provider's answer (`requestUrl`: the callback's path and query) and
     * returns where the browser goes next: the provider resume URL, or the login page with `error=sso_failed` /
     * `error=sso_account_not_found` / `error=sso_email_missing` / `error=sso_email_unverified` (the upstream sent no
     * address, or did not vouch for it: also given to `onRefused`, for the admin error log) / `error=interaction_expired` (state unknown, already used, or this browser
     * is not the one that started the sign-in: `browser` is its `iam_sso` cookie), or `error=interaction_foreign_browser`
     * when the request lacks the interaction's binding cookie (`cookies`: the whole `Cookie` header).
     */
    async callback(
      providerId: string,
      stateValue: string | undefined,
      requestUrl: string,
      client: ClientInfo,
      log: FastifyBaseLogger = deps.log,
      browser?: string,
      cookies?: BrowserCookies,
      onRefused?: (problem: { code: string; message: string }) => Promise<unknown>,
    ): Promise<string> {
      const p = providerOf(providerId);
      const loginPage = (type: 'user' | 'admin', params: Record<string, string>) =>
        `${deps.config.appUrl}${type === 'admin' ? '/admin/login' : '/login'}?${new URLSearchParams(params).toString()}`;
      const raw = stateValue ? await states.find(stateValue) : undefined;
      const st = (raw ?? {}) as unknown as Partial<SsoState>;
      const type = st.type === 'admin' ? 'admin' : 'user';
      if (!stateValue || !raw || st.used || st.provider !== p.id || typeof st.interaction !== 'string' || typeof st.verifier !== 'string' || typeof st.nonce !== 'string') {
        return loginPage(type, { error: 'interaction_expired' });
      }
      // another browser than the one that started it: refused, and the state stays usable for the right one
      if (!browser || browser !== st.browser) return loginPage(type, { error: 'interaction_expired' });
      // nor without the interaction's own binding cookie: refused before the state is spent or the code redeemed
      if (!(await holdsInteraction(deps, cookies, st.interaction))) return loginPage(type, { error: 'interaction_foreign_browser' });
      await states.upsert(stateValue, { ...(raw as Record<string, unknown>), used: true }, STATE_TTL_SECONDS); // single use
      let interaction: Awaited<ReturnType<typeof signIn.loadInteraction>>;
      try {
        interaction = await signIn.loadInteraction(st.interaction, cookies);
      } catch (err) {
        if (err instanceof AppError && err.code === 'interaction_expired') return loginPage(type, { error: 'interaction_expired' });
        throw err;
      }
      // `provider` lets the page name the provider ("no account here uses Corp IdP")
      const back = (code: string) => loginPage(type, { interaction: interaction.uid, error: code, provider: p.id });
      /** A refusal the provider's settings explain: into the admin dashboard's error log (never the person's claims). */
      const refused = async (code: string, message: string) => {
        log.warn({ provider: p.id, code }, message);
        await onRefused?.({ code, message });
      };
      let claims: { sub: string; email?: unknown; email_verified?: unknown } | undefined;
      let upstreamIdToken: string | undefined;
      try {
        const config = await upstreamOf(deps.config, p);
        const current = new URL(requestUrl, deps.config.appUrl);
        const tokens = await oidc.authorizationCodeGrant(config, current, { pkceCodeVerifier: st.verifier, expectedState: stateValue, expectedNonce: st.nonce, idTokenExpected: true });
        const idClaims = tokens.claims();
        upstreamIdToken = tokens.id_token;
        if (idClaims) {
          claims = idClaims;
          // many providers put e-mail claims only in UserInfo (subject checked against the ID token)
          if (typeof idClaims.email !== 'string') {
            const info = await oidc.fetchUserInfo(config, tokens.access_token, idClaims.sub);
            claims = { sub: idClaims.sub, email: info.email, email_verified: info.email_verified };
          }
        }
      } catch (err) {
        log.warn({ err }, 'upstream sso failed');
        return back('sso_failed');
      }
      if (!claims) return back('sso_account_not_found');
      // what the upstream did not send is said on the page and in the admin error log, not hidden behind "no account"
      if (typeof claims.email !== 'string' || claims.email === '') {
        await refused('sso_email_missing', `the provider ${p.id} sent no e-mail address (claim email, in the ID token or UserInfo; scope ${p.scope ?? 'openid email profile'})`);
        return back('sso_email_missing');
      }
      if (p.require_email_verified && claims.email_verified !== true) {
        const sent = claims.email_verified === undefined ? 'no email_verified claim' : `email_verified: ${JSON.stringify(claims.email_verified)}`;
        await refused('sso_email_unverified', `the provider ${p.id} sent ${sent}; the account is matched only on an address the provider vouches for (email_verified: true, or require_email_verified: false in SSO_PROVIDERS)`);
        return back('sso_email_unverified');
      }
      const db = deps.db.kysely;
      const account = await db
        .selectFrom('accounts')
        .selectAll()
        .where('type', '=', accountTypeForClient(clientOf(interaction)))
        .where('email_normalized', '=', normalizeEmail(claims.email))
        .where('auth_type', '=', 'SSO')
        .where('provider', '=', p.id)
        .executeTakeFirst();
      if (!account || account.status !== 'ACTIVE' || (account.provider_subject && account.provider_subject !== claims.sub)) return back('sso_account_not_found');
      if (!account.provider_subject) {
        await db.updateTable('accounts').set({ provider_subject: claims.sub, updated_at: nowIso() }).where('id', '=', account.id).where('provider_subject', 'is', null).execute();
      }
      if (!account.email_verified_at && claims.email_verified === true) {
        // the upstream provider vouched for this address (email_verified: true, unless the provider is set not to send it)
        await db.updateTable('accounts').set({ email_verified_at: nowIso() }).where('id', '=', account.id).where('email_verified_at', 'is', null).execute();
      }
      // the person signed in at the upstream provider: that is where this sign-in comes from (dashboard "origin")
      const done = await signIn.finishSignIn(
        interaction,
        account,
        ['ext'],
        { ...client, origin: new URL(p.issuer).origin },
        upstreamIdToken && p.end_session ? { provider: p.id, idToken: upstreamIdToken } : undefined,
      );
      return done.redirect_to;
    },
  };
}
export type SsoService = ReturnType<typeof createSsoService>;
