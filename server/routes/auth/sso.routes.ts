import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { FastifyInstance } from 'fastify';
import * as oidc from 'openid-client';
import type { SsoProviderConfig } from '../../config';
import { AppError } from '../../errors';
import { errorResponses } from '../../lib/openapi';
import { createAdapterClass } from '../../oidc/adapter';
import { accountTypeForClient } from '../../oidc/access';
import { clientOf, finishSignIn, loadInteraction } from '../../services/sign-in';
import { normalizeEmail } from '../../services/accounts';
import { nowIso } from '../../db/index';

const STATE_TTL_SECONDS = 10 * 60;

interface SsoState {
  interaction: string;
  provider: string;
  verifier: string;
  nonce: string;
}

const configs = new WeakMap<FastifyInstance['config'], Map<string, Promise<oidc.Configuration>>>();

/** Discovery of an upstream provider, cached per provider (dropped on failure so it is retried). */
function upstream(app: FastifyInstance, p: SsoProviderConfig): Promise<oidc.Configuration> {
  let byId = configs.get(app.config);
  if (!byId) configs.set(app.config, (byId = new Map()));
  let c = byId.get(p.id);
  if (!c) {
    const insecure = p.issuer.startsWith('http:');
    c = oidc.discovery(new URL(p.issuer), p.client_id, p.client_secret ? { client_secret: p.client_secret } : undefined, p.client_secret ? oidc.ClientSecretPost(p.client_secret) : oidc.None(), insecure ? { execute: [oidc.allowInsecureRequests] } : undefined);
    byId.set(p.id, c);
    c.catch(() => byId.delete(p.id));
  }
  return c;
}

const callbackUrl = (app: FastifyInstance, id: string) => `${app.config.appUrl}/api/sso/${encodeURIComponent(id)}/callback`;

/**
 * Upstream single sign-on (the server as relying party): start redirects to the upstream provider with
 * PKCE S256, state and nonce (kept server-side, bound to the interaction); the callback verifies the ID
 * token, matches an ACTIVE SSO account by provider + verified e-mail (never creates one), and finishes
 * the same interaction.
 */
const routes: FastifyPluginAsyncZod = async (app) => {
  const States = createAdapterClass(app.db.kysely);
  const states = new States('SsoState');
  const providerOf = (id: string) => {
    const p = app.config.ssoProviders.find((x) => x.id === id);
    if (!p) throw new AppError(404, 'sso_provider_unknown');
    return p;
  };

  app.get(
    '/sso/:provider/start',
    {
      schema: {
        tags: ['authentication'],
        summary: 'Starts sign-in through an upstream identity provider (browser redirect)',
        params: z.object({ provider: z.string().max(64) }),
        querystring: z.object({ interaction: z.string().trim().min(1).max(100).regex(/^[A-Za-z0-9_-]+$/) }),
        response: { 302: z.null().describe('Redirect to the upstream provider'), ...errorResponses(400, 404, 502) },
      },
    },
    async (request, reply) => {
      const p = providerOf(request.params.provider);
      const interaction = await loadInteraction(app, request.query.interaction);
      let config: oidc.Configuration;
      try {
        config = await upstream(app, p);
      } catch (cause) {
        throw new AppError(502, 'sso_failed', { cause });
      }
      const verifier = oidc.randomPKCECodeVerifier();
      const state = oidc.randomState();
      const nonce = oidc.randomNonce();
      const record: SsoState = { interaction: interaction.uid, provider: p.id, verifier, nonce };
      await states.upsert(state, { ...record }, STATE_TTL_SECONDS);
      const url = oidc.buildAuthorizationUrl(config, {
        redirect_uri: callbackUrl(app, p.id),
        scope: p.scope ?? 'openid email profile',
        response_type: 'code',
        code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
        code_challenge_method: 'S256',
        state,
        nonce,
      });
      return reply.redirect(url.href, 302);
    },
  );

  app.get(
    '/sso/:provider/callback',
    {
      schema: {
        tags: ['authentication'],
        summary: 'Upstream provider callback: finishes the sign-in and redirects to the provider resume URL',
        params: z.object({ provider: z.string().max(64) }),
        querystring: z.object({ state: z.string().max(200).optional(), code: z.string().max(2000).optional(), error: z.string().max(200).optional() }).passthrough(),
        response: { 302: z.null().describe('Redirect'), ...errorResponses(400, 404) },
      },
    },
    async (request, reply) => {
      const p = providerOf(request.params.provider);
      const stateValue = request.query.state;
      const raw = stateValue ? await states.find(stateValue) : undefined;
      if (!stateValue || !raw) throw new AppError(400, 'interaction_expired');
      await states.destroy(stateValue); // single use
      const st = raw as unknown as Partial<SsoState>;
      if (st.provider !== p.id || typeof st.interaction !== 'string' || typeof st.verifier !== 'string' || typeof st.nonce !== 'string') throw new AppError(400, 'interaction_expired');
      const interaction = await loadInteraction(app, st.interaction);
      const type = accountTypeForClient(clientOf(interaction));
      const back = (code: string) => {
        const page = type === 'admin' ? '/admin/login' : '/login';
        const qs = new URLSearchParams({ interaction: interaction.uid, error: code });
        return reply.redirect(`${app.config.appUrl}${page}?${qs.toString()}`, 302);
      };
      let claims: { sub: string; email?: unknown; email_verified?: unknown } | undefined;
      try {
        const config = await upstream(app, p);
        const current = new URL(request.url, app.config.appUrl);
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
        request.log.warn({ err }, 'upstream sso failed');
        return back('sso_failed');
      }
      if (!claims || claims.email_verified !== true || typeof claims.email !== 'string') return back('sso_account_not_found');
      const account = await app.db.kysely
        .selectFrom('accounts')
        .selectAll()
        .where('type', '=', type)
        .where('email_normalized', '=', normalizeEmail(claims.email))
        .where('auth_type', '=', 'SSO')
        .where('provider', '=', p.id)
        .executeTakeFirst();
      if (!account || account.status !== 'ACTIVE' || (account.provider_subject && account.provider_subject !== claims.sub)) return back('sso_account_not_found');
      if (!account.provider_subject) {
        await app.db.kysely.updateTable('accounts').set({ provider_subject: claims.sub, updated_at: nowIso() }).where('id', '=', account.id).where('provider_subject', 'is', null).execute();
      }
      if (!account.email_verified_at) {
        // the upstream provider vouched for this address (email_verified: true is required above)
        await app.db.kysely.updateTable('accounts').set({ email_verified_at: nowIso() }).where('id', '=', account.id).where('email_verified_at', 'is', null).execute();
      }
      const done = await finishSignIn(app, request, interaction, account, ['ext']);
      return reply.redirect(done.redirect_to, 302);
    },
  );
};
export default routes;
