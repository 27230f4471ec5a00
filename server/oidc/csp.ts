import type { KoaContextWithOIDC } from 'oidc-provider';

/**
 * Per-response Content-Security-Policy for the provider's pages that send the browser to a relying
 * party with a form: the end-session confirmation (its POST answers with a redirect to the registered
 * post_logout_redirect_uri, and browsers apply form-action to that redirect too) and the form_post
 * response mode (the form's action is the registered redirect_uri). Our CSP has form-action 'self';
 * these pages add exactly the relying party's origin, taken from a URI the provider has already
 * checked against the client's registration — never from unchecked input.
 */

/** The origin of `uri` as a CSP source (scheme://host[:port]), or null for anything unusual. */
export function cspOrigin(uri: unknown): string | null {
  if (typeof uri !== 'string') return null;
  const u = URL.parse(uri);
  if (!u || (u.protocol !== 'https:' && u.protocol !== 'http:')) return null;
  // an origin has no characters that could end a CSP directive or source list
  return /^[a-z][a-z0-9+.-]*:\/\/[a-z0-9.:[\]-]+$/i.test(u.origin) ? u.origin : null;
}

/** `csp` with `origin` added to its form-action directive (created when missing). */
export function withFormAction(csp: string, origin: string): string {
  const parts = csp.split(';').map((p) => p.trim()).filter(Boolean);
  let found = false;
  const out = parts.map((p) => {
    const [name, ...values] = p.split(/\s+/);
    if (name?.toLowerCase() !== 'form-action') return p;
    found = true;
    if (values.includes(origin)) return p;
    return [name, ...values.filter((v) => v !== "'none'"), origin].join(' ');
  });
  if (!found) out.push(`form-action 'self' ${origin}`);
  return out.join(';');
}

/** Adds the origin of `uri` to the response's form-action, when `uri` is a usable origin. */
export function allowFormActionTo(ctx: KoaContextWithOIDC, uri: unknown): void {
  const origin = cspOrigin(uri);
  const csp = ctx.response.get('content-security-policy');
  if (origin && csp) ctx.set('content-security-policy', withFormAction(csp, origin));
}

/**
 * Koa middleware for the provider (installed with provider.use): the end-session pages (the
 * confirmation page, or the provider's self-submitting form when no one is signed in) may be followed
 * by a redirect to the accepted post_logout_redirect_uri; a form_post authorization response submits to
 * the client's redirect_uri (checked by the provider against the registration before any form_post).
 */
export async function formActionCsp(ctx: KoaContextWithOIDC, next: () => Promise<void>): Promise<void> {
  await next();
  const oidc = ctx.oidc as KoaContextWithOIDC['oidc'] | undefined;
  if (!oidc?.client || !ctx.response.is('html')) return;
  const params = (oidc.params ?? {}) as Record<string, unknown>;
  if (oidc.route === 'end_session') {
    const uri = params.post_logout_redirect_uri;
    if (typeof uri === 'string' && oidc.client.postLogoutRedirectUriAllowed(uri)) allowFormActionTo(ctx, uri);
    return;
  }
  const uri = params.redirect_uri;
  if (params.response_mode === 'form_post' && typeof uri === 'string' && oidc.client.redirectUriAllowed(uri)) allowFormActionTo(ctx, uri);
}
