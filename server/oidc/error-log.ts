import type { Kysely } from 'kysely';
import type Provider from 'oidc-provider';
import type { KoaContextWithOIDC } from 'oidc-provider';
import type { Database } from '../db/schema';
import type { ErrorLogService } from '../services/error-log';
import { unavailableDependency } from '../plugins/app/errors';

/**
 * The provider's own errors (the OAuth answers of /oidc: a bad authorization request, invalid_grant or invalid_client
 * at the token endpoint, an invalid token at userinfo, a refused logout…) go to the admin error log too, through the
 * same service as the REST API's (server/services/error-log.ts): client errors share its token buckets per (status,
 * code, method, route template) and its per-minute cap, server errors are always recorded, and the same retention
 * applies.
 *
 * What is stored: the OAuth error code the client got (`invalid_grant`), the status, the method, the route template
 * (`/oidc/token`, `/oidc/auth/:uid` — never the query string, never the interaction id) and the provider's English
 * description and detail, with every secret the request carried (code, tokens, verifier, client secret, assertions,
 * hints) and any token-like run of characters replaced by `[redacted]`. The e-mail is the signed-in person's when the
 * provider had loaded a session.
 */

/** The provider events that report an error answered to a client (one per endpoint; server errors separately). */
export const PROVIDER_ERROR_EVENTS = [
  'authorization.error',
  'grant.error',
  'userinfo.error',
  'jwks.error',
  'discovery.error',
  'revocation.error',
  'introspection.error',
  'end_session.error',
  'end_session_confirm.error',
  'end_session_success.error',
  'pushed_authorization_request.error',
] as const;

/** Request parameters whose values are secrets: never part of a stored message. */
const SECRET_PARAMS = [
  'code',
  'code_verifier',
  'refresh_token',
  'access_token',
  'token',
  'client_secret',
  'client_assertion',
  'id_token_hint',
  'login_hint_token',
  'request',
  'device_code',
  'assertion',
  'subject_token',
  'actor_token',
  'state',
  'nonce',
] as const;

const REDACTED = '[redacted]';
/** A run of 20+ token characters with a digit in it: codes, JWTs, secrets, UUIDs — never an English word. */
const TOKEN_LIKE = /[A-Za-z0-9_\-.~+/=]{20,}/g;

interface ProviderError {
  error?: unknown;
  message?: unknown;
  error_description?: unknown;
  error_detail?: unknown;
  statusCode?: unknown;
  status?: unknown;
  name?: unknown;
}

/** `text` with each of `secrets` and every token-like run replaced by `[redacted]`. */
export function redactSecrets(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const s of secrets) if (s.length >= 4) out = out.split(s).join(REDACTED);
  return out.replace(TOKEN_LIKE, (run) => (/\d/.test(run) ? REDACTED : run));
}

/** The secret values this request carried: secret parameters (query or body) and the Basic credentials. */
function secretsOf(ctx: KoaContextWithOIDC): string[] {
  const values: string[] = [];
  const sources: unknown[] = [ctx.oidc?.params, (ctx.oidc as { body?: unknown } | undefined)?.body, ctx.query];
  for (const source of sources) {
    if (!source || typeof source !== 'object') continue;
    for (const name of SECRET_PARAMS) {
      const v = (source as Record<string, unknown>)[name];
      if (typeof v === 'string') values.push(v);
    }
  }
  const auth = ctx.get('authorization');
  const basic = /^basic\s+(.+)$/i.exec(auth)?.[1];
  if (basic) {
    const decoded = Buffer.from(basic, 'base64').toString('utf8');
    const unescape = (part: string) => {
      try {
        return decodeURIComponent(part.replace(/\+/g, ' '));
      } catch {
        return part;
      }
    };
    values.push(basic, ...decoded.split(':').flatMap((part) => [part, unescape(part)]));
  } else if (/^(bearer|dpop)\s+/i.test(auth)) values.push(auth.replace(/^\S+\s+/, ''));
  // longest first, so a secret containing another is replaced whole
  return values.sort((a, b) => b.length - a.length);
}

/** The English message stored for a provider error: its description and detail, secrets redacted. */
export function providerErrorMessage(err: ProviderError, secrets: readonly string[]): string {
  const description = typeof err.error_description === 'string' ? err.error_description : '';
  const detail = typeof err.error_detail === 'string' && err.error_detail !== description ? err.error_detail : '';
  const text = [description, detail].filter(Boolean).join(' (') + (description && detail ? ')' : '');
  return redactSecrets(text || String(err.error ?? err.message ?? 'error'), secrets);
}

/** The e-mail of the person whose provider session the request carried, if the provider had loaded one. */
async function sessionEmail(db: Kysely<Database>, ctx: KoaContextWithOIDC): Promise<string | null> {
  const entities = (ctx.oidc as { entities?: { Session?: { accountId?: unknown } } } | undefined)?.entities;
  const accountId = entities?.Session?.accountId;
  if (typeof accountId !== 'string' || accountId === '') return null;
  const row = await db.selectFrom('accounts').select('email').where('id', '=', accountId).executeTakeFirst();
  return row?.email ?? null;
}

/**
 * Subscribes `errorLog` to the provider's error events. The provider may report two errors for one authorization
 * request (the original one, then invalid_redirect_uri when the redirect_uri is not registered): only the last
 * one of a request — the one the client got — is recorded.
 */
export function recordProviderErrors(provider: Provider, errorLog: ErrorLogService, db: Kysely<Database>, log: { warn: (obj: object, msg: string) => void }): void {
  const latest = new WeakMap<KoaContextWithOIDC, { err: ProviderError; server: boolean }>();

  const write = async (ctx: KoaContextWithOIDC) => {
    const entry = latest.get(ctx);
    if (!entry) return;
    latest.delete(ctx);
    const { err, server } = entry;
    const template = (ctx as { _matchedRoute?: unknown })._matchedRoute;
    const status = server ? 500 : Number(err.statusCode ?? err.status ?? 400) || 400;
    await errorLog.record({
      status,
      code: server ? 'server_error' : String(err.error ?? err.message ?? 'invalid_request').slice(0, 100),
      method: ctx.method,
      route: typeof template === 'string' ? `/oidc${template}` : null,
      // the route's parameters (the interaction id of /auth/:uid) stay as their `:name`
      params: {},
      path: `/oidc${ctx.path}`,
      // a server error's message may carry anything: only its class
      message: server ? String(err.name ?? 'Error') : providerErrorMessage(err, secretsOf(ctx)),
      userEmail: await sessionEmail(db, ctx).catch(() => null),
    });
  };

  const report = (ctx: KoaContextWithOIDC, err: ProviderError, server: boolean) => {
    const first = !latest.has(ctx);
    latest.set(ctx, { err, server });
    // after the handler's synchronous emits, so a replaced error is recorded once, as what was answered
    if (first) setImmediate(() => void write(ctx).catch((e: unknown) => log.warn({ err: e }, 'could not record an oidc error')));
  };

  // every endpoint's error event has the same (ctx, error) arguments: one listener type for the list
  const on = provider.on.bind(provider) as unknown as (event: string, listener: (ctx: KoaContextWithOIDC, err: ProviderError) => void) => void;
  for (const event of PROVIDER_ERROR_EVENTS) {
    on(event, (ctx, err) => {
      // the provider refuses our JWT access tokens at revocation; the product answers those requests itself
      // (server/oidc/revocation.ts), so the client never gets this error
      if (event === 'revocation.error' && err.error === 'unsupported_token_type') return;
      report(ctx, err, false);
    });
  }
  provider.on('server_error', (ctx: KoaContextWithOIDC, err: unknown) => {
    // a dependency outage is answered 503 (provider.ts) and, like the API's, not written to the database it may lack
    if (unavailableDependency(err)) return;
    report(ctx, err instanceof Error ? { name: err.name } : { name: 'Error' }, true);
  });
}
