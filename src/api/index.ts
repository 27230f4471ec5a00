/**
 * The app-wide API client. Every SPA call goes through the one ofetch client
 * (`createApiClient`, src/api/client.ts) via the typed helpers below: credentials are sent, the `locale` header carries the
 * active language, the bearer comes from the session actor, and failures are
 * normalized to `ApiError` (src/api/errors.ts).
 *
 * The session is bound once at start (`bindApiSession`, src/lib/session.ts);
 * until then requests go out without a bearer.
 *
 * 401 (createApiClient + session bridge): the failing request reports
 * REQUEST_UNAUTHORIZED to the session (which refreshes once for all waiters
 * or logs out) and is replayed once with the new token. The session's own
 * calls never feed 401s back (no loop): the locale save goes through
 * `sessionCall` (src/api/call.ts), the token endpoint through `sessionHttp`
 * (src/api/oidc.ts), which sends no bearer there.
 * Downloads use `apiBlob` (same client, blob response).
 */
import { i18n } from '@lingui/core';
import type { FetchOptions } from 'ofetch';
import type { SessionHandle } from '../lib/router-context';
import { createApiClient, type ApiClient, type RequestOptions } from './client';
export { toApiError } from './client';
import { ApiError } from './errors';
import { createSessionBridge } from './session-bridge';

export { ApiError, isApiError } from './errors';

const binding: { session: SessionHandle | null } = { session: null };

/** Called once the session actor exists (src/lib/session.ts). */
export function bindApiSession(session: SessionHandle | null): void {
  binding.session = session;
}

export function currentAccessToken(): string | null {
  return binding.session?.getSnapshot().context.tokens?.access_token ?? null;
}

function isOwnApi(request: string): boolean {
  if (request.startsWith('/api/') || request === '/api') return true;
  try {
    const url = new URL(request, window.location.origin);
    return url.origin === window.location.origin && url.pathname.startsWith('/api/');
  } catch {
    return false;
  }
}

export type ApiRequestOptions = Omit<FetchOptions<'json'>, 'method' | 'responseType' | 'credentials'> & { credentials?: RequestCredentials };
type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * The app-wide client: `createApiClient` (src/api/client.ts)
 * with the session bridge (src/api/session-bridge.ts) for the shared refresh.
 */
export const client: ApiClient = createApiClient({
  baseURL: '/',
  getLocale: () => i18n.locale || 'en',
  getAccessToken: () => currentAccessToken(),
  onUnauthorized: async (info) => {
    if (!binding.session) throw new ApiError({ kind: 'http', status: 401, code: 'unauthorized', message: 'Not signed in' });
    await createSessionBridge(binding.session).onUnauthorized?.(info);
  },
});

function toRequestOptions(method: Method, options: ApiRequestOptions): RequestOptions {
  const out: RequestOptions = { method };
  if (options.body !== undefined && options.body !== null) out.body = options.body as RequestOptions['body'];
  if (options.query) out.query = options.query as RequestOptions['query'];
  if (options.signal) out.signal = options.signal;
  if (options.credentials) out.credentials = options.credentials;
  if (options.headers) out.headers = Object.fromEntries(new Headers(options.headers as HeadersInit).entries());
  return out;
}

/** One request with 401 → shared session refresh → single replay; always throws ApiError. */
export async function apiRequest<T>(method: Method, url: string, options: ApiRequestOptions = {}): Promise<T> {
  return client<T>(url, toRequestOptions(method, options));
}

/** JSON-serializable object (sent as JSON), FormData/URLSearchParams/Blob (sent as is), or nothing. */
export type ApiBody = BodyInit | object | null | undefined;
const asBody = (body: ApiBody): FetchOptions['body'] => body as FetchOptions['body'];

export const apiPost = <T>(url: string, body?: ApiBody, options?: ApiRequestOptions) =>
  apiRequest<T>('POST', url, { ...options, body: asBody(body) });

/** GET a file (e.g. the CSV export) as a Blob through the same client (bearer, 401 → refresh → replay). */
export const apiBlob = (url: string, options: ApiRequestOptions = {}) => client<Blob>(url, { ...toRequestOptions('GET', options), responseType: 'blob' });

/** One request of the session's own (locale save): no 401 → refresh → replay, so no loop; always throws ApiError. */
export async function sessionRequest<T>(method: Method, url: string, options: ApiRequestOptions = {}): Promise<T> {
  return client<T>(url, { ...toRequestOptions(method, options), skipUnauthorized: true, anonymous: !isOwnApi(url) });
}

interface HttpInit {
  method?: Method;
  body?: Record<string, unknown> | URLSearchParams;
  query?: Record<string, string>;
}
/** A request by URL (the token endpoint's address comes from the client configuration, not the contract). */
export type Http = <T>(url: string, init?: HttpInit) => Promise<T>;

/**
 * Transport for the token endpoint (src/api/oidc.ts): same headers, ApiError on failure, but 401s are NOT reported
 * back to the session, and no bearer is sent outside the REST API.
 */
export const sessionHttp: Http = <T>(url: string, init: HttpInit = {}) =>
  client<T>(url, { method: init.method ?? 'GET', body: init.body, query: init.query, skipUnauthorized: true, anonymous: !isOwnApi(url) });
