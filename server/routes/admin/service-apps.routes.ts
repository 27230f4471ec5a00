import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { requireAdmin } from '../../plugins/app/auth';
import { errorResponses } from '../../lib/openapi';
import { servicePathSchema, serviceUrlSchema } from '../../../src/domain/formats';
import { idParams, listMeta, pageQuery } from '../../services/admin/schemas';
import { createServiceApp, deleteServiceApp, listServiceApps, requireServiceApp, updateServiceApp } from '../../services/admin/service-apps';

const serviceAppSchema = z.object({
  id: z.string(),
  name: z.string(),
  display_name: z.string(),
  url: z.string(),
  path: z.string(),
  client_type: z.enum(['public', 'confidential']),
  roles: z.array(z.object({ id: z.string(), name: z.string() })),
  created_at: z.string(),
  updated_at: z.string(),
});
const withSecret = serviceAppSchema.extend({ client_secret: z.string().nullable().describe('confidential clients: shown once, at creation or rotation') });
const clientId = z.string().trim().min(2).max(64).regex(/^[a-z0-9][a-z0-9-]*$/).describe('OIDC client_id: lowercase letters, digits, "-"; not portal/admin-console');
const displayName = z.string().trim().min(1).max(100);
const roleIds = z.array(z.string().min(1).max(64)).max(500);

/** Service apps (OIDC clients): super_admin only. */
const routes: FastifyPluginAsyncZod = async (app) => {
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
    return { data: rows, meta: { page: req.query.page, size: req.query.size, total } };
  });

  app.get('/admin/service-apps/:id', {
    ...guard,
    schema: { tags, summary: 'One service app', security: sec, params: idParams, response: { 200: z.object({ data: serviceAppSchema }), ...errorResponses(401, 403, 404) } },
  }, async (req) => ({ data: await requireServiceApp(app.db.kysely, req.params.id) }));

  app.post('/admin/service-apps', {
    ...guard,
    schema: {
      tags, summary: 'Create a service app (confidential: client_secret returned once)', security: sec,
      body: z.object({ name: clientId, display_name: displayName, url: serviceUrlSchema, path: servicePathSchema, role_ids: roleIds.default([]), client_type: z.enum(['public', 'confidential']).optional() }),
      response: { 201: z.object({ data: withSecret }), ...errorResponses(401, 403, 409, 422) },
    },
  }, async (req, reply) => reply.status(201).send({ data: await createServiceApp(req, req.body) }));

  app.patch('/admin/service-apps/:id', {
    ...guard,
    schema: {
      tags, summary: 'Update a service app (regenerate_secret rotates a confidential secret, returned once)', security: sec, params: idParams,
      body: z.object({
        name: clientId.optional(), display_name: displayName.optional(), url: serviceUrlSchema.optional(), path: servicePathSchema.optional(),
        role_ids: roleIds.optional(), client_type: z.enum(['public', 'confidential']).optional(), regenerate_secret: z.boolean().optional(),
      }),
      response: { 200: z.object({ data: withSecret }), ...errorResponses(401, 403, 404, 409, 422) },
    },
  }, async (req) => ({ data: await updateServiceApp(req, req.params.id, req.body) }));

  app.delete('/admin/service-apps/:id', {
    ...guard,
    schema: { tags, summary: 'Delete a service app', security: sec, params: idParams, response: { 200: z.object({ data: z.object({ id: z.string(), deleted: z.literal(true) }) }), ...errorResponses(401, 403, 404) } },
  }, async (req) => {
    await deleteServiceApp(req, req.params.id);
    return { data: { id: req.params.id, deleted: true as const } };
  });
};
export default routes;
