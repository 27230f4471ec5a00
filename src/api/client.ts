/**
 * The SPA's one HTTP client (docs/SPEC.md §7: every call sends credentials, a locale
 * header, and a bearer token when signed in). A 401 is handed to the session
 * (see session-bridge.ts): `onUnauthorized` resolves once the single shared
 * refresh finished (→ the request is replayed once) or rejects (→ the 401 is
 * propagated). Every failure is normalized into an `ApiError`.
 *
 * On `fetch` itself (no HTTP library: ofetch, ufo and destr were ~3.7 KB brotli of every first load, BENCHMARKS.md
 * "Step 7"), doing what this app used of ofetch, the same way: the base URL joined to relative paths, the query
 * appended (undefined values left out, arrays repeated), plain objects and arrays sent as JSON on POST/PUT/PATCH/DELETE
 * (with `content-type` and `accept` set unless given), the answer read by its content type (JSON, falling back to the
 * text when it does not parse; text; otherwise a Blob) or as asked, a 4xx/5xx thrown with its parsed body, and the
 * timeout per attempt when the caller passes no signal of its own.
 */
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
  query?: Record<string, unknown>;
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

/** An answer of 400–599 (thrown by the client, turned into an ApiError by `toApiError`). */
class HttpFailure extends Error {
  constructor(
    readonly response: Response,
    readonly data: unknown,
  ) {
    super(`HTTP ${response.status}`);
  }
}

/** A failure the request itself raised (fetch rejected: offline, refused, aborted, timed out). */
class RequestFailure extends Error {
  constructor(override readonly cause: unknown) {
    super('Network error');
  }
}

export function toApiError(error: unknown): ApiError {
  if (isApiError(error)) return error;
  if (error instanceof HttpFailure) {
    const { response } = error;
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
  if (error instanceof RequestFailure) {
    const timeout = (error.cause as { name?: string } | undefined)?.name === 'TimeoutError';
    return new ApiError({ kind: timeout ? 'timeout' : 'network', message: timeout ? 'Request timed out' : 'Network error', cause: error });
  }
  const name = (error as { name?: string } | null)?.name;
  if (name === 'TimeoutError') return new ApiError({ kind: 'timeout', message: 'Request timed out', cause: error });
  return new ApiError({ kind: 'network', message: error instanceof Error ? error.message : 'Network error', cause: error });
}

/** `base` + a relative path (an absolute URL stays as it is); `/` or no base: the path unchanged. */
function withBase(url: string, base: string): string {
  const trimmed = base.replace(/\/+$/, '');
  if (!trimmed || /^[a-z][a-z\d+.-]*:|^\/\//i.test(url) || url.startsWith(`${trimmed}/`)) return url;
  return `${trimmed}${url.startsWith('/') ? '' : '/'}${url}`;
}

/** `url` with the query appended: undefined values left out, arrays repeated, objects as JSON. */
export function withQuery(url: string, query: Record<string, unknown> | undefined): string {
  if (!query) return url;
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined) continue;
    for (const item of Array.isArray(value) ? (value as unknown[]) : [value]) {
      search.append(key, item === null ? '' : typeof item === 'object' ? JSON.stringify(item) : String(item));
    }
  }
  const text = search.toString();
  return text ? `${url}${url.includes('?') ? '&' : '?'}${text}` : url;
}

/** Sent as JSON: strings, numbers, booleans, arrays, plain objects and objects with toJSON (not forms, blobs, buffers). */
function isJsonBody(body: unknown): boolean {
  if (typeof body !== 'object' || body === null) return typeof body === 'string' || typeof body === 'number' || typeof body === 'boolean';
  if (Array.isArray(body)) return true;
  if ('buffer' in body || body instanceof FormData || body instanceof URLSearchParams || body instanceof Blob) return false;
  return body.constructor?.name === 'Object' || typeof (body as { toJSON?: unknown }).toJSON === 'function';
}

/** The answer's body as asked, else by its content type; none for 204/205/304 and HEAD. */
async function readBody(response: Response, method: string, responseType: RequestOptions['responseType']): Promise<unknown> {
  if (!response.body || [101, 204, 205, 304].includes(response.status) || method === 'HEAD') return undefined;
  const type = (response.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
  const as = responseType ?? (!type || /^application\/(?:[\w!#$%&*.^`~-]*\+)?json$/.test(type) ? 'json' : type.startsWith('text/') || /^(image\/svg|application\/(xml|xhtml|html))$/.test(type) ? 'text' : 'blob');
  if (as === 'blob') return response.blob();
  const text = await response.text();
  if (as === 'text') return text;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

export function createApiClient(options: ApiClientOptions): ApiClient {
  const timeoutMs = options.timeout ?? DEFAULT_TIMEOUT_MS;

  /** One attempt: the answer's body, or a thrown HttpFailure (4xx/5xx) or RequestFailure (no answer). */
  async function send(url: string, init: RequestOptions, headers: Headers): Promise<unknown> {
    const method = (init.method ?? 'GET').toUpperCase();
    let body: BodyInit | undefined = init.body as BodyInit | undefined;
    if (init.body && ['POST', 'PUT', 'PATCH', 'DELETE'].includes(method) && isJsonBody(init.body)) {
      if (typeof init.body !== 'string') body = JSON.stringify(init.body);
      if (!headers.has('content-type')) headers.set('content-type', 'application/json');
      if (!headers.has('accept')) headers.set('accept', 'application/json');
    }
    // the caller's signal replaces the timeout (as with ofetch before: react-query's cancellation, the caller's own bound)
    const timer = init.signal || !timeoutMs ? undefined : new AbortController();
    const timeout = timer && setTimeout(() => timer.abort(new DOMException('The operation was aborted due to timeout', 'TimeoutError')), timeoutMs);
    let response: Response;
    try {
      response = await (options.fetch ?? globalThis.fetch)(withQuery(withBase(url, options.baseURL), init.query), {
        method,
        headers,
        body,
        credentials: init.credentials ?? 'include',
        signal: init.signal ?? timer?.signal,
      });
    } catch (error) {
      throw new RequestFailure(error);
    } finally {
      clearTimeout(timeout);
    }
    const data = await readBody(response, method, init.responseType);
    if (response.status >= 400 && response.status < 600) throw new HttpFailure(response, data);
    return data;
  }

  async function request<T>(url: string, init: RequestOptions, replayed: boolean): Promise<T> {
    const locale = options.getLocale();
    const token = init.anonymous ? null : options.getAccessToken();
    const headers = new Headers({ ...init.headers, locale, 'Accept-Language': locale });
    if (token) headers.set('Authorization', `Bearer ${token}`);
    const { skipUnauthorized } = init;
    try {
      return (await send(url, init, headers)) as T;
    } catch (error) {
      const status = error instanceof HttpFailure ? error.response.status : undefined;
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
