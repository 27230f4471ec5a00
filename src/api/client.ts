/**
 * The SPA's one HTTP client (docs/SPEC.md §7: every call sends credentials, a locale
 * header, and a bearer token when signed in). A 401 is handed to the session
 * (see session-bridge.ts): `onUnauthorized` resolves once the single shared
 * refresh finished (→ the request is replayed once) or rejects (→ the 401 is
 * propagated). Every failure is normalized into an `ApiError`.
 */
import { FetchError, ofetch } from 'ofetch';
import { ApiError, isApiError, parseErrorBody } from './errors';

export { ApiError, isApiError } from './errors';

export interface UnauthorizedInfo {
  /** The access token the failing request was sent with (null when none). */
  accessToken: string | null;
  url: string;
}

export interface ApiClientOptions {
  baseURL: string;
  getLocale: () => string;
  getAccessToken: () => string | null;
  onUnauthorized?: (info: UnauthorizedInfo) => Promise<void>;
  /** Milliseconds per attempt; 0/undefined = none. */
  timeout?: number;
  /** For tests / non-browser hosts. */
  fetch?: typeof globalThis.fetch;
}

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'HEAD';
  body?: Record<string, unknown> | unknown[] | URLSearchParams | FormData | Blob | string;
  query?: Record<string, string | number | boolean | null | undefined | readonly (string | number | boolean)[]>;
  headers?: Record<string, string>;
  signal?: AbortSignal;
  /** Do not send the bearer token (e.g. /api/languages, forgot-password). */
  anonymous?: boolean;
  /** Do not route a 401 through the session (token endpoint calls use this). */
  skipUnauthorized?: boolean;
  /** 'blob' for downloads (CSV export); JSON otherwise. */
  responseType?: 'json' | 'blob' | 'text';
  /** Overrides the default 'include' (e.g. 'omit' for calls the spec makes without credentials). */
  credentials?: RequestCredentials;
}

export type ApiClient = <T>(url: string, options?: RequestOptions) => Promise<T>;

export const DEFAULT_TIMEOUT_MS = 15_000;

export function toApiError(error: unknown): ApiError {
  if (isApiError(error)) return error;
  if (error instanceof FetchError) {
    const response = error.response;
    if (response) {
      const parsed = parseErrorBody(error.data);
      const header = response.headers.get('retry-after');
      const retryAfter = parsed.retryAfter ?? (header && /^\d+$/.test(header) ? Number(header) : undefined);
      return new ApiError({
        kind: 'http',
        status: response.status,
        code: parsed.code,
        message: parsed.message ?? (response.statusText || `HTTP ${response.status}`),
        fields: parsed.fields,
        retryAfter,
        cause: error,
      });
    }
    const cause = error.cause as { name?: string } | undefined;
    const timeout = cause?.name === 'TimeoutError';
    return new ApiError({ kind: timeout ? 'timeout' : 'network', message: timeout ? 'Request timed out' : 'Network error', cause: error });
  }
  const name = (error as { name?: string } | null)?.name;
  if (name === 'TimeoutError') return new ApiError({ kind: 'timeout', message: 'Request timed out', cause: error });
  return new ApiError({ kind: 'network', message: error instanceof Error ? error.message : 'Network error', cause: error });
}

export function createApiClient(options: ApiClientOptions): ApiClient {
  const raw = ofetch.create(
    { baseURL: options.baseURL, credentials: 'include', retry: 0, timeout: options.timeout ?? DEFAULT_TIMEOUT_MS },
    options.fetch ? { fetch: options.fetch } : {},
  );

  async function request<T>(url: string, init: RequestOptions, replayed: boolean): Promise<T> {
    const locale = options.getLocale();
    const token = init.anonymous ? null : options.getAccessToken();
    const headers: Record<string, string> = { ...init.headers, locale, 'Accept-Language': locale };
    if (token) headers.Authorization = `Bearer ${token}`;
    const { anonymous: _a, skipUnauthorized, responseType, ...fetchInit } = init;
    try {
      if (responseType === 'blob') return (await raw(url, { ...fetchInit, headers, responseType: 'blob' })) as unknown as T;
      if (responseType === 'text') return (await raw(url, { ...fetchInit, headers, responseType: 'text' })) as unknown as T;
      return await raw<T>(url, { ...fetchInit, headers });
    } catch (error) {
      const status = error instanceof FetchError ? error.response?.status : undefined;
      if (status === 401 && !replayed && !skipUnauthorized && !init.anonymous && options.onUnauthorized) {
        try {
          await options.onUnauthorized({ accessToken: token, url });
        } catch {
          throw toApiError(error);
        }
        return request<T>(url, init, true);
      }
      throw toApiError(error);
    }
  }

  return <T>(url: string, init: RequestOptions = {}) => request<T>(url, init, false);
}
