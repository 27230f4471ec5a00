import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { requireAdmin } from '../../plugins/app/auth';
import { errorResponses } from '../../lib/openapi';
import { servicePathSchema, serviceUrlSchema } from '../../../contract/domain/formats';
import { idParams, listMeta, pageQuery } from '../../services/admin/schemas';
import { createServiceApp, deleteServiceApp, listServiceApps, requireServiceApp, updateServiceApp, type ServiceAppView } from '../../services/admin/service-apps';
import { serviceAppOidcSettings } from '../../oidc/adapter';
import { SECRET_AUTH_METHODS } from '../../db/schema';

const serviceAppSchema = z.object({
  id: z.string(),
  name: z.string(),
  display_name: z.string(),
  url: z.string(),
  path: z.string(),
  client_type: z.enum(['public', 'confidential']),
  pkce_required: z.boolean().describe('PKCE required (always true for public apps)'),
  client_credentials: z.boolean().describe('the app may use the client_credentials grant (confidential apps)'),
  token_endpoint_auth_method: z.enum(['none', ...SECRET_AUTH_METHODS]).describe('how the app authenticates at the token endpoint (public apps: none)'),
  roles: z.array(z.object({ id: z.string(), name: z.string() })),
  oidc: z.object({
    issuer: z.string(),
    discovery_url: z.string().describe('OpenID Connect discovery document of the provider'),
    redirect_uri: z.string().describe('the only registered redirect URI (url + path)'),
    post_logout_redirect_uris: z.array(z.string()),
    token_endpoint_auth_method: z.enum(['none', ...SECRET_AUTH_METHODS]),
    grant_types: z.array(z.string()),
    pkce_required: z.boolean(),
  }).describe('what to configure in the app\'s OIDC software'),
  created_at: z.string(),
  updated_at: z.string(),
});
const withSecret = serviceAppSchema.extend({ client_secret: z.string().nullable().describe('confidential clients: shown once, at creation or rotation') });
const clientId = z.string().trim().min(2).max(64).regex(/^[a-z0-9][a-z0-9-]*$/).describe('OIDC client_id: lowercase letters, digits, "-"; not portal/admin-console');
const displayName = z.string().trim().min(1).max(100);
const roleIds = z.array(z.string().min(1).max(64)).max(500);
const pkceRequired = z.boolean().describe('confidential apps only: false lets the app omit PKCE (software that cannot send it); public apps always need PKCE');
const authMethod = z.enum(SECRET_AUTH_METHODS).describe('confidential apps only: client_secret_basic (default, HTTP Basic) or client_secret_post (secret in the request body)');
const clientCredentials = z.boolean().describe('confidential apps only: allow the client_credentials grant (machine to machine)');

/** Service apps (OIDC clients): super_admin only. */
const routes: FastifyPluginAsyncZod = async (app) => {
  const withOidc = <T extends ServiceAppView>(v: T) => ({ ...v, oidc: serviceAppOidcSettings(app.config.issuer, { ...v, pkce_required: v.pkce_required ? 1 : 0, client_credentials: v.client_credentials ? 1 : 0, token_endpoint_auth_method: v.token_endpoint_auth_method === 'none' ? 'client_secret_basic' : v.token_endpoint_auth_method }) });
  const guard = { onRequest: requireAdmin('super_admin') };
  const sec = [{ bearer: [] }];
  const tags = ['admin: service apps'];

  app.get('/admin/service-apps', {
    ...guard,
    schema: {
      tags, summary: 'List service apps', security: sec,
      querystring: z.object({ ...pageQuery, size: z.coerce.number().int().min(1).max(100).default(100), search: z.string().trim().max(64).optional() }),
      response: { 200: z.object({ data: z.array(serviceAppSchema), meta: listMeta }), ...errorResponses(401, 403, 422) },
    },
  }, async (req) => {
    const { rows, total } = await listServiceApps(app.db.kysely, req.query.search, req.query.page, req.query.size);
    return { data: rows.map(withOidc), meta: { page: req.query.page, size: req.query.size, total } };
  });

  app.get('/admin/service-apps/:id', {
    ...guard,
    schema: { tags, summary: 'One service app', security: sec, params: idParams, response: { 200: z.object({ data: serviceAppSchema }), ...errorResponses(401, 403, 404) } },
  }, async (req) => ({ data: withOidc(await requireServiceApp(app.db.kysely, req.params.id)) }));

  app.post('/admin/service-apps', {
    ...guard,
    schema: {
      tags, summary: 'Create a service app (confidential: client_secret returned once)', security: sec,
      body: z.object({ name: clientId, display_name: displayName, url: serviceUrlSchema, path: servicePathSchema, role_ids: roleIds.default([]), client_type: z.enum(['public', 'confidential']).optional(), pkce_required: pkceRequired.optional(), client_credentials: clientCredentials.optional(), token_endpoint_auth_method: authMethod.optional() }),
      response: { 201: z.object({ data: withSecret }), ...errorResponses(401, 403, 409, 422) },
    },
  }, async (req, reply) => reply.status(201).send({ data: withOidc(await createServiceApp(req, req.body)) }));

  app.patch('/admin/service-apps/:id', {
    ...guard,
    schema: {
      tags, summary: 'Update a service app (regenerate_secret rotates a confidential secret, returned once)', security: sec, params: idParams,
      body: z.object({
        name: clientId.optional(), display_name: displayName.optional(), url: serviceUrlSchema.optional(), path: servicePathSchema.optional(),
        role_ids: roleIds.optional(), client_type: z.enum(['public', 'confidential']).optional(), regenerate_secret: z.boolean().optional(),
        pkce_required: pkceRequired.optional(), client_credentials: clientCredentials.optional(), token_endpoint_auth_method: authMethod.optional(),
      }),
      response: { 200: z.object({ data: withSecret }), ...errorResponses(401, 403, 404, 409, 422) },
    },
  }, async (req) => ({ data: withOidc(await updateServiceApp(req, req.params.id, req.body)) }));

  app.delete('/admin/service-apps/:id', {
    ...guard,
    schema: { tags, summary: 'Delete a service app', security: sec, params: idParams, response: { 200: z.object({ data: z.object({ id: z.string(), deleted: z.literal(true) }) }), ...errorResponses(401, 403, 404) } },
  }, async (req) => {
    await deleteServiceApp(req, req.params.id);
    return { data: { id: req.params.id, deleted: true as const } };
  });
};
export default routes;
