/**
 * Registers a route from its contract (contract/): method, URL, schemas (validation, serialization and the
 * OpenAPI document) and the access guard all come from the endpoint, so a route file holds only its handler:
 * parse (done by the schema), authorize (the guard), call a service, answer.
 *
 *   app.route({ ...routeOf(catalog.createRole), handler: async (req, reply) => reply.status(201).send(...) });
 *
 * Extra route options (an `onRequest` of its own, `config: { apiKey: true }`) may be spread after routeOf.
 */
import type { FastifyRequest } from 'fastify';
import type { z } from 'zod';
import type { EndpointShape, Access } from '../../contract/endpoint';
import { errorBody } from '../../contract/errors';
import { requireAccount, requireAdmin, requireUser } from '../plugins/app/auth';

type Guard = (request: FastifyRequest) => Promise<void>;

const guards: Record<Exclude<Access, 'public'>, Guard> = {
  user: requireUser,
  account: requireAccount,
  admin: requireAdmin(),
  super_admin: requireAdmin('super_admin'),
};

/** The `onRequest` guard for an access level (none for public endpoints). */
export function guardOf(access: Access): Guard | undefined {
  return access === 'public' ? undefined : guards[access];
}

type Statuses<E extends EndpointShape> = E['status'] extends number ? E['status'] : 200;
type ResponseSchemas<E extends EndpointShape> = (E['response'] extends z.ZodType ? { [S in Statuses<E>]: E['response'] } : unknown) & {
  [S in keyof E['errors']]: typeof errorBody;
};

export interface RouteSchema<E extends EndpointShape> {
  tags: string[];
  summary: string;
  security?: Array<Record<string, string[]>>;
  hide?: boolean;
  params: E['params'];
  querystring: E['query'];
  body: E['body'];
  response: ResponseSchemas<E>;
}

/** The fastify `schema` of an endpoint: its zod schemas, the success answer and its error statuses. */
export function schemaOf<const E extends EndpointShape>(endpoint: E): RouteSchema<E> {
  const response: Record<number, z.ZodType> = {};
  if (endpoint.response) response[endpoint.status ?? 200] = endpoint.response;
  for (const status of Object.keys(endpoint.errors)) response[Number(status)] = errorBody;
  const schema: Record<string, unknown> = { tags: [endpoint.tag], summary: endpoint.summary, response };
  if (endpoint.access !== 'public') schema.security = [{ bearer: [] }];
  if (endpoint.hide) schema.hide = true;
  if (endpoint.params) schema.params = endpoint.params;
  if (endpoint.query) schema.querystring = endpoint.query;
  if (endpoint.body) schema.body = endpoint.body;
  return schema as unknown as RouteSchema<E>;
}

/** Method, URL (under the `/api` prefix the routes plugin registers), schema and guard of an endpoint. */
export function routeOf<const E extends EndpointShape>(endpoint: E) {
  if (!endpoint.path.startsWith('/api/')) throw new Error(`contract path outside /api: ${endpoint.path}`);
  const guard = guardOf(endpoint.access);
  return {
    method: endpoint.method,
    url: endpoint.path.slice('/api'.length),
    schema: schemaOf(endpoint),
    ...(guard ? { onRequest: guard } : {}),
  };
}
