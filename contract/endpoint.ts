/**
 * One endpoint of the REST API, described once: the server registers its route from it
 * (server/lib/route.ts) and the SPA calls it through one typed client (src/api/call.ts).
 *
 * Framework-free: zod and TypeScript only, so the server, the SPA, the machines and the tests
 * can all import it. See docs/ARCHITECTURE.md "Add an endpoint".
 */
import type { z } from 'zod';
import type { ErrorCode } from './errors';

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** Who may call: nobody signed in, a signed-in end user, any admin, or a super_admin. */
export type Access = 'public' | 'user' | 'admin' | 'super_admin' | 'account';

export interface EndpointShape {
  method: Method;
  /** Full path as the browser calls it, `:name` for path parameters (e.g. `/api/admin/roles/:id`). */
  path: string;
  /** One line for the OpenAPI document. */
  summary: string;
  /** OpenAPI tag (`admin: roles`, `account`, …). */
  tag: string;
  access: Access;
  params?: z.ZodType;
  query?: z.ZodType;
  body?: z.ZodType;
  /** The success status (default 200); 302 for the browser redirects of single sign-on. */
  status?: 200 | 201 | 202 | 204 | 302;
  /** The success body; omitted for answers without a JSON body (CSV, redirects). */
  response?: z.ZodType;
  /**
   * The error codes this endpoint answers with, by HTTP status, beyond the refusals every route can give
   * (bad_request, route_not_found, payload_too_large, too_many_requests, service_unavailable…).
   */
  errors: Partial<Record<400 | 401 | 403 | 404 | 409 | 410 | 413 | 415 | 422 | 423 | 429 | 502 | 503, readonly ErrorCode[]>>;
  /** Hidden from the OpenAPI document. */
  hide?: boolean;
}

/** Keeps the literal types of an endpoint (method, path, schemas) for the server and the client. */
export function defineEndpoint<const E extends EndpointShape>(endpoint: E): E {
  return endpoint;
}

type Input<S> = S extends z.ZodType ? z.input<S> : undefined;

export type ParamsOf<E extends EndpointShape> = Input<E['params']>;
export type QueryOf<E extends EndpointShape> = Input<E['query']>;
export type BodyOf<E extends EndpointShape> = Input<E['body']>;
/** What a successful call resolves to (the parsed JSON body). */
export type ResultOf<E extends EndpointShape> = E['response'] extends z.ZodType ? z.output<E['response']> : void;

type Key<K extends string, V> = undefined extends V ? { [P in K]?: V } : { [P in K]: V };
/** The arguments of a call: `params`, `query` and `body` where the endpoint has them. */
export type CallInput<E extends EndpointShape> = Key<'params', ParamsOf<E>> & Key<'query', QueryOf<E>> & Key<'body', BodyOf<E>>;

/** `/api/admin/roles/:id` + `{ id: 'a b' }` → `/api/admin/roles/a%20b`. Throws when a parameter is missing. */
export function pathOf(endpoint: Pick<EndpointShape, 'path'>, params?: Record<string, string | number> | undefined): string {
  return endpoint.path.replace(/:([A-Za-z_][A-Za-z0-9_]*)/g, (_, name: string) => {
    const value = params?.[name];
    if (value === undefined || value === '') throw new Error(`missing path parameter ${name} for ${endpoint.path}`);
    return encodeURIComponent(String(value));
  });
}

declare const endpointType: unique symbol;

/**
 * An endpoint's method and path without its schemas (contract/routes.ts): all a client reads at run time. The type
 * carries the endpoint (a phantom, type-only member), so a call through it is typed as through the endpoint itself.
 */
export interface Route<E extends EndpointShape = EndpointShape> {
  readonly method: E['method'];
  readonly path: E['path'];
  readonly [endpointType]?: E;
}

/** A route entry of contract/routes.ts and contract/routes-admin.ts: the endpoint's method and path, typed by the endpoint. */
export const route = <E extends EndpointShape>(method: E['method'], path: E['path']): Route<E> => ({ method, path });

/** Per-call options a client honours (abort, credentials for the few calls made without cookies). */
export interface CallOptions {
  signal?: AbortSignal;
  credentials?: RequestCredentials;
  headers?: Record<string, string>;
}

/**
 * The typed client: `call(endpoint, { params, query, body })` resolves to the endpoint's answer and rejects with
 * the client's error type on a non-2xx. The SPA makes one (src/api/call.ts); machines and tests receive it injected.
 */
export type Call = CallOf<EndpointShape>;

/** A typed client that takes only the endpoints `Allowed` (a flow's own, e.g. the sign-in's in machines/login.machine.ts). */
export type CallOf<Allowed extends EndpointShape> = <E extends Allowed>(
  endpoint: E | Route<E>,
  ...args: object extends CallInput<E> ? [input?: CallInput<E>, options?: CallOptions] : [input: CallInput<E>, options?: CallOptions]
) => Promise<ResultOf<E>>;

/** The endpoint a route entry of contract/routes.ts stands for (`EndpointOf<typeof auth.login>`). */
export type EndpointOf<R> = R extends Route<infer E> ? E : never;

/** The error codes an endpoint (or each of a union of them) declares in its `errors`, at every status. */
export type ErrorCodeOf<E extends EndpointShape> = E extends EndpointShape
  ? { [S in keyof E['errors']]-?: NonNullable<E['errors'][S]> extends readonly (infer C)[] ? C : never }[keyof E['errors']]
  : never;

export function isEndpoint(value: unknown): value is EndpointShape {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Partial<EndpointShape>;
  return typeof v.method === 'string' && typeof v.path === 'string' && typeof v.access === 'string' && typeof v.errors === 'object';
}
