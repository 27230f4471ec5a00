/**
 * The app-wide API client. Every SPA call goes through `api` (ofetch) or the
 * typed helpers below: credentials are sent, the `locale` header carries the
 * active language, the bearer comes from the session actor, and failures are
 * normalized to `ApiError` (src/api/errors.ts).
 *
 * The session is bound once at start (`bindApiSession`, src/lib/session.ts);
 * until then requests go out without a bearer.
 *
 * 401: the failing request reports REQUEST_UNAUTHORIZED to the session (which
 * refreshes once for all waiters or logs out) and is replayed once with the
 * new token. The session's own calls (token refresh, locale save) use
 * `sessionHttp`, which never feeds 401s back (no loop).
 */
import { i18n } from '@lingui/core';
import { FetchError, ofetch, type FetchOptions } from 'ofetch';
import { waitFor } from 'xstate';
import type { Http, HttpInit } from '../../machines/shared';
import type { SessionHandle } from '../lib/router-context';
import { ApiError, parseErrorBody } from './errors';

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

function requestPath(request: unknown): string {
  if (typeof request === 'string') return request;
  if (request instanceof Request) return request.url;
  return String(request);
}

/** ofetch instance: credentials, locale header, bearer on own `/api` calls. */
export const api = ofetch.create({
  credentials: 'include',
  retry: false,
  timeout: 30_000,
  headers: { Accept: 'application/json' },
  onRequest({ request, options }) {
    const headers = new Headers(options.headers);
    headers.set('locale', i18n.locale || 'en');
    const token = currentAccessToken();
    if (token && isOwnApi(requestPath(request)) && !headers.has('Authorization')) headers.set('Authorization', `Bearer ${token}`);
    options.headers = headers;
  },
});

/** Converts whatever ofetch threw into an ApiError. */
export function toApiError(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  if (error instanceof FetchError) {
    const status = error.response?.status ?? error.statusCode;
    if (!status) {
      const timeout = error.cause instanceof Error && error.cause.name === 'TimeoutError';
      return new ApiError({ kind: timeout ? 'timeout' : 'network', message: error.message, cause: error });
    }
    const parsed = parseErrorBody(error.data);
    const header = error.response?.headers.get('Retry-After');
    const retryAfter = parsed.retryAfter ?? (header && /^\d+$/.test(header) ? Number(header) : undefined);
    return new ApiError({
      kind: 'http',
      status,
      message: parsed.message ?? error.statusMessage ?? error.message,
      code: parsed.code,
      fields: parsed.fields,
      retryAfter,
      cause: error,
    });
  }
  if (error instanceof DOMException && error.name === 'AbortError') {
    return new ApiError({ kind: 'network', message: 'aborted', cause: error });
  }
  return new ApiError({ kind: 'network', message: error instanceof Error ? error.message : String(error), cause: error });
}

export type ApiRequestOptions = Omit<FetchOptions<'json'>, 'method' | 'responseType'>;
type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** Waits for the session to finish a refresh; true when a replay makes sense. */
async function recoverFrom401(usedToken: string | null): Promise<boolean> {
  const session = binding.session;
  if (!session || usedToken === null) return false;
  session.send({ type: 'REQUEST_UNAUTHORIZED', accessToken: usedToken });
  const settled = await waitFor(session, (snapshot) => !snapshot.hasTag('loading'), { timeout: 30_000 }).catch(() => null);
  if (!settled || !settled.hasTag('session:signed-in')) return false;
  const next = settled.context.tokens?.access_token ?? null;
  return next !== null && next !== usedToken;
}

/** One request with 401 → refresh → single replay; always throws ApiError. */
export async function apiRequest<T>(method: Method, url: string, options: ApiRequestOptions = {}): Promise<T> {
  const usedToken = isOwnApi(url) ? currentAccessToken() : null;
  try {
    return await api<T>(url, { ...options, method });
  } catch (error) {
    const apiError = toApiError(error);
    if (apiError.status === 401 && (await recoverFrom401(usedToken))) {
      try {
        return await api<T>(url, { ...options, method });
      } catch (retryError) {
        throw toApiError(retryError);
      }
    }
    throw apiError;
  }
}

export const apiGet = <T>(url: string, options?: ApiRequestOptions) => apiRequest<T>('GET', url, options);
/** JSON-serializable object (sent as JSON), FormData/URLSearchParams/Blob (sent as is), or nothing. */
export type ApiBody = BodyInit | object | null | undefined;
const asBody = (body: ApiBody): FetchOptions['body'] => body as FetchOptions['body'];

export const apiPost = <T>(url: string, body?: ApiBody, options?: ApiRequestOptions) =>
  apiRequest<T>('POST', url, { ...options, body: asBody(body) });
export const apiPut = <T>(url: string, body?: ApiBody, options?: ApiRequestOptions) =>
  apiRequest<T>('PUT', url, { ...options, body: asBody(body) });
export const apiPatch = <T>(url: string, body?: ApiBody, options?: ApiRequestOptions) =>
  apiRequest<T>('PATCH', url, { ...options, body: asBody(body) });
export const apiDelete = <T>(url: string, options?: ApiRequestOptions) => apiRequest<T>('DELETE', url, options);

/** The `Http` shape the statecharts take (`createLoginActors({ http })` etc.). */
export const http: Http = <T>(url: string, init: HttpInit = {}) =>
  apiRequest<T>(init.method ?? 'GET', url, { body: init.body, query: init.query });

/**
 * Transport for the session's own calls (token refresh, locale save): same
 * headers, ApiError on failure, but 401s are NOT reported back to the session.
 */
export const sessionHttp: Http = async <T>(url: string, init: HttpInit = {}) => {
  try {
    return await api<T>(url, { method: init.method ?? 'GET', body: init.body, query: init.query });
  } catch (error) {
    throw toApiError(error);
  }
};
