/**
 * The SPA's typed API client, derived from the contract (contract/): `call(endpoint, { params, query, body })`
 * builds the URL from the endpoint's path, sends the request through the one HTTP client (bearer, locale,
 * 401 → shared refresh → one replay, src/api/index.ts) and resolves to the endpoint's answer type.
 * Failures reject with ApiError, whose `code` is one of the contract's ERROR_CODES.
 */
import { pathOf, type Call, type CallInput, type CallOptions, type EndpointShape, type ResultOf, type Route } from '../../contract/endpoint';
import { apiRequest, sessionRequest, type ApiRequestOptions } from './index';

type Requester = (method: EndpointShape['method'], url: string, options: ApiRequestOptions) => Promise<unknown>;

export function createCall(request: Requester): Call {
  return (async <E extends EndpointShape>(endpoint: E | Route<E>, input?: CallInput<E>, options: CallOptions = {}): Promise<ResultOf<E>> => {
    const parts = (input ?? {}) as { params?: Record<string, string | number>; query?: Record<string, unknown>; body?: unknown };
    const init: ApiRequestOptions = {};
    if (parts.query) init.query = Object.fromEntries(Object.entries(parts.query).filter(([, v]) => v !== undefined && v !== null && v !== ''));
    if (parts.body !== undefined) init.body = parts.body as ApiRequestOptions['body'];
    if (options.signal) init.signal = options.signal;
    if (options.credentials) init.credentials = options.credentials;
    if (options.headers) init.headers = options.headers;
    return (await request(endpoint.method, pathOf(endpoint, parts.params), init)) as ResultOf<E>;
  }) as Call;
}

/** The app-wide typed client. */
export const call: Call = createCall((method, url, options) => apiRequest(method, url, options));

/** The session's own calls (the locale save): 401s are not fed back into the session (no refresh loop). */
export const sessionCall: Call = createCall((method, url, options) => sessionRequest(method, url, options));

/**
 * An endpoint that takes `multipart/form-data` (its contract has no JSON body, e.g. the avatar upload): the form
 * goes as the body, through the same requester as `call`.
 */
export function createUpload(request: Requester) {
  return async <E extends EndpointShape>(endpoint: E | Route<E>, form: FormData, options: CallOptions & { params?: Record<string, string | number> } = {}): Promise<ResultOf<E>> => {
    const init: ApiRequestOptions = { body: form };
    if (options.signal) init.signal = options.signal;
    return (await request(endpoint.method, pathOf(endpoint, options.params), init)) as ResultOf<E>;
  };
}

/** The app-wide multipart upload. */
export const upload = createUpload((method, url, options) => apiRequest(method, url, options));
