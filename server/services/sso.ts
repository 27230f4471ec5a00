import type { FastifyBaseLogger } from 'fastify';
import * as oidc from 'openid-client';
import type { AppConfig, SsoProviderConfig } from '../config';
import { nowIso } from '../db/index';
import { AppError } from '../errors';
import { createAdapterClass } from '../oidc/adapter';
import { accountTypeForClient } from '../oidc/access';
import { normalizeEmail } from './accounts';
import type { Deps } from './deps';
import { clientOf, type ClientInfo, type SignInService } from './sign-in';

/**
 * Upstream single sign-on (the server as relying party): start redirects to the upstream provider with
 * PKCE S256, state and nonce (kept server-side, bound to the interaction); the callback verifies the ID
 * token, matches an ACTIVE SSO account by provider + verified e-mail (never creates one), and finishes
 * the same interaction. Routes: server/routes/auth/sso.routes.ts (contract/auth.ts ssoStart, ssoCallback).
 */

const STATE_TTL_SECONDS = 10 * 60;

interface SsoState {
  interaction: string;
  provider: string;
  verifier: string;
  nonce: string;
}

const configs = new WeakMap<AppConfig, Map<string, Promise<oidc.Configuration>>>();

/** Discovery of an upstream provider, cached per provider (dropped on failure so it is retried). */
function upstream(config: AppConfig, p: SsoProviderConfig): Promise<oidc.Configuration> {
  let byId = configs.get(config);
  if (!byId) configs.set(config, (byId = new Map()));
  let c = byId.get(p.id);
  if (!c) {
    const insecure = p.issuer.startsWith('http:');
    c = oidc.discovery(new URL(p.issuer), p.client_id, p.client_secret ? { client_secret: p.client_secret } : undefined, p.client_secret ? oidc.ClientSecretPost(p.client_secret) : oidc.None(), insecure ? { execute: [oidc.allowInsecureRequests] } : undefined);
    byId.set(p.id, c);
    c.catch(() => byId.delete(p.id));
  }
  return c;
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
    /** The upstream authorization URL the browser is sent to (the state is kept server-side for the callback). */
    async start(providerId: string, interactionUid: string): Promise<string> {
      const p = providerOf(providerId);
      const interaction = await signIn.loadInteraction(interactionUid);
      let config: oidc.Configuration;
      try {
        config = await upstream(deps.config, p);
      } catch (cause) {
        throw new AppError(502, 'sso_failed', { cause });
      }
      const verifier = oidc.randomPKCECodeVerifier();
      const state = oidc.randomState();
      const nonce = oidc.randomNonce();
      const record: SsoState = { interaction: interaction.uid, provider: p.id, verifier, nonce };
      await states.upsert(state, { ...record }, STATE_TTL_SECONDS);
      const url = oidc.buildAuthorizationUrl(config, {
        redirect_uri: callbackUrl(p.id),
        scope: p.scope ?? 'openid email profile',
        response_type: 'code',
        code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
        code_challenge_method: 'S256',
        state,
        nonce,
      });
      return url.href;
    },

    /**
     * Finishes the sign-in from the upstream provider's answer (`requestUrl`: the callback's path and query) and
     * returns where the browser goes next: the provider resume URL, or the login page with `error=sso_failed` /
     * `error=sso_account_not_found`.
     */
    async callback(providerId: string, stateValue: string | undefined, requestUrl: string, client: ClientInfo, log: FastifyBaseLogger = deps.log): Promise<string> {
      const p = providerOf(providerId);
      const raw = stateValue ? await states.find(stateValue) : undefined;
      if (!stateValue || !raw) throw new AppError(400, 'interaction_expired');
      await states.destroy(stateValue); // single use
      const st = raw as unknown as Partial<SsoState>;
      if (st.provider !== p.id || typeof st.interaction !== 'string' || typeof st.verifier !== 'string' || typeof st.nonce !== 'string') throw new AppError(400, 'interaction_expired');
      const interaction = await signIn.loadInteraction(st.interaction);
      const type = accountTypeForClient(clientOf(interaction));
      const back = (code: string) => {
        const page = type === 'admin' ? '/admin/login' : '/login';
        const qs = new URLSearchParams({ interaction: interaction.uid, error: code });
        return `${deps.config.appUrl}${page}?${qs.toString()}`;
      };
      let claims: { sub: string; email?: unknown; email_verified?: unknown } | undefined;
      try {
        const config = await upstream(deps.config, p);
        const current = new URL(requestUrl, deps.config.appUrl);
        const tokens = await oidc.authorizationCodeGrant(config, current, { pkceCodeVerifier: st.verifier, expectedState: stateValue, expectedNonce: st.nonce, idTokenExpected: true });
        const idClaims = tokens.claims();
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
      if (!claims || claims.email_verified !== true || typeof claims.email !== 'string') return back('sso_account_not_found');
      const db = deps.db.kysely;
      const account = await db
        .selectFrom('accounts')
        .selectAll()
        .where('type', '=', type)
        .where('email_normalized', '=', normalizeEmail(claims.email))
        .where('auth_type', '=', 'SSO')
        .where('provider', '=', p.id)
        .executeTakeFirst();
      if (!account || account.status !== 'ACTIVE' || (account.provider_subject && account.provider_subject !== claims.sub)) return back('sso_account_not_found');
      if (!account.provider_subject) {
        await db.updateTable('accounts').set({ provider_subject: claims.sub, updated_at: nowIso() }).where('id', '=', account.id).where('provider_subject', 'is', null).execute();
      }
      if (!account.email_verified_at) {
        // the upstream provider vouched for this address (email_verified: true is required above)
        await db.updateTable('accounts').set({ email_verified_at: nowIso() }).where('id', '=', account.id).where('email_verified_at', 'is', null).execute();
      }
      const done = await signIn.finishSignIn(interaction, account, ['ext'], client);
      return done.redirect_to;
    },
  };
}
export type SsoService = ReturnType<typeof createSsoService>;
