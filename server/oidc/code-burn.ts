import type { KoaContextWithOIDC } from 'oidc-provider';

/**
 * An authorization code is consumed by the first token request that presents it, even a failed one (RFC 9700
 * §2.1.1 / §4.8: a code must not survive a wrong PKCE verifier, or an attacker holding a stolen code gets
 * unlimited guesses while the client still waits). oidc-provider checks PKCE and redirect_uri before it marks the
 * code consumed, so this middleware marks it afterwards when the grant failed with invalid_grant. A later
 * attempt then meets a consumed code: refused, and the provider revokes whatever the grant had issued.
 */
export async function consumeCodeOnFailedGrant(ctx: KoaContextWithOIDC, next: () => Promise<void>): Promise<void> {
  await next();
  if (ctx.method !== 'POST' || ctx.path !== '/token' || ctx.status !== 400) return;
  if ((ctx.body as { error?: unknown } | undefined)?.error !== 'invalid_grant') return;
  const params = ctx.oidc?.params as { grant_type?: unknown; code?: unknown } | undefined;
  if (params?.grant_type !== 'authorization_code' || typeof params.code !== 'string' || params.code.length > 512) return;
  const code = await ctx.oidc.provider.AuthorizationCode.find(params.code, { ignoreExpiration: true }).catch(() => undefined);
  if (code) await code.consume();
}
