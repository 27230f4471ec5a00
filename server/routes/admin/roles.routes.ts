import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { requireAdmin } from '../../plugins/app/auth';
import { errorResponses } from '../../lib/openapi';
import { roleNameSchema, subscriptionNameSchema } from '../../../src/domain/formats';
import { idParams, listMeta, pageQuery } from '../../services/admin/schemas';
import {
  createRole, createSubscription, deleteRole, deleteSubscription, listRoles, listSubscriptions, requireRole, requireSubscription,
  roleUsage, updateRole, updateSubscription,
} from '../../services/admin/catalog';

const roleSchema = z.object({ id: z.string(), name: z.string(), description: z.string(), created_at: z.string(), updated_at: z.string() });
const subscriptionSchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  roles: z.array(z.object({ id: z.string(), name: z.string() })),
  role_count: z.number().int(),
  user_count: z.number().int(),
  created_at: z.string(),
  updated_at: z.string(),
});
const description = z.string().trim().max(500);
const roleIds = z.array(z.string().min(1).max(64)).max(500);
const deleted = z.object({ data: z.object({ id: z.string(), deleted: z.literal(true) }) });

/** Roles and subscriptions: super_admin only. */
const routes: FastifyPluginAsyncZod = async (app) => {
  const guard = { onRequest: requireAdmin('super_admin') };
  const sec = [{ bearer: [] }];
  const db = () => app.db.kysely;

  app.get('/admin/roles', {
    ...guard,
    schema: {
      tags: ['admin: roles'], summary: 'List roles (by name)', security: sec,
      querystring: z.object({ ...pageQuery, size: z.coerce.number().int().min(1).max(100).default(100), search: z.string().trim().max(64).optional() }),
      response: { 200: z.object({ data: z.array(roleSchema), meta: listMeta }), ...errorResponses(401, 403, 422) },
    },
  }, async (req) => {
    const { rows, total } = await listRoles(db(), req.query.search, req.query.page, req.query.size);
    return { data: rows, meta: { page: req.query.page, size: req.query.size, total } };
  });

  app.get('/admin/roles/:id', {
    ...guard,
    schema: {
      tags: ['admin: roles'], summary: 'One role with where it is used', security: sec, params: idParams,
      response: {
        200: z.object({ data: roleSchema.extend({ usage: z.object({ subscriptions: z.array(z.object({ id: z.string(), name: z.string() })), service_apps: z.array(z.object({ id: z.string(), name: z.string() })), users: z.number().int() }) }) }),
        ...errorResponses(401, 403, 404),
      },
    },
  }, async (req) => {
    const r = await requireRole(db(), req.params.id);
    return { data: { id: r.id, name: r.name, description: r.description, created_at: r.created_at, updated_at: r.updated_at, usage: await roleUsage(db(), r.id) } };
  });

  app.post('/admin/roles', {
    ...guard,
    schema: {
      tags: ['admin: roles'], summary: 'Create a role (name XX_XX(_XX)*, unique: 409 name_taken)', security: sec,
      body: z.object({ name: roleNameSchema, description: description.optional() }),
      response: { 201: z.object({ data: roleSchema }), ...errorResponses(401, 403, 409, 422) },
    },
  }, async (req, reply) => reply.status(201).send({ data: await createRole(req, req.body) }));

  app.patch('/admin/roles/:id', {
    ...guard,
    schema: {
      tags: ['admin: roles'], summary: 'Update a role', security: sec, params: idParams,
      body: z.object({ name: roleNameSchema.optional(), description: description.optional() }),
      response: { 200: z.object({ data: roleSchema }), ...errorResponses(401, 403, 404, 409, 422) },
    },
  }, async (req) => ({ data: await updateRole(req, req.params.id, req.body) }));

  app.delete('/admin/roles/:id', {
    ...guard,
    schema: {
      tags: ['admin: roles'], summary: 'Delete a role (409 role_in_use names its subscriptions, service apps and user count)', security: sec, params: idParams,
      response: { 200: deleted, ...errorResponses(401, 403, 404, 409) },
    },
  }, async (req) => {
    await deleteRole(req, req.params.id);
    return { data: { id: req.params.id, deleted: true as const } };
  });

  app.get('/admin/subscriptions', {
    ...guard,
    schema: {
      tags: ['admin: subscriptions'], summary: 'List subscriptions with their roles, role count and user count', security: sec,
      querystring: z.object({ ...pageQuery, size: z.coerce.number().int().min(1).max(100).default(100), search: z.string().trim().max(64).optional() }),
      response: { 200: z.object({ data: z.array(subscriptionSchema), meta: listMeta }), ...errorResponses(401, 403, 422) },
    },
  }, async (req) => {
    const { rows, total } = await listSubscriptions(db(), req.query.search, req.query.page, req.query.size);
    return { data: rows, meta: { page: req.query.page, size: req.query.size, total } };
  });

  app.get('/admin/subscriptions/:id', {
    ...guard,
    schema: { tags: ['admin: subscriptions'], summary: 'One subscription', security: sec, params: idParams, response: { 200: z.object({ data: subscriptionSchema }), ...errorResponses(401, 403, 404) } },
  }, async (req) => ({ data: await requireSubscription(db(), req.params.id) }));

  app.post('/admin/subscriptions', {
    ...guard,
    schema: {
      tags: ['admin: subscriptions'], summary: 'Create a subscription (name XX_XX(X))', security: sec,
      body: z.object({ name: subscriptionNameSchema, description: description.optional(), role_ids: roleIds.default([]) }),
      response: { 201: z.object({ data: subscriptionSchema }), ...errorResponses(401, 403, 409, 422) },
    },
  }, async (req, reply) => reply.status(201).send({ data: await createSubscription(req, req.body) }));

  app.patch('/admin/subscriptions/:id', {
    ...guard,
    schema: {
      tags: ['admin: subscriptions'], summary: 'Update a subscription; removing a role also removes it from the users holding it (removed_assignments)', security: sec, params: idParams,
      body: z.object({ name: subscriptionNameSchema.optional(), description: description.optional(), role_ids: roleIds.optional() }),
      response: { 200: z.object({ data: subscriptionSchema.extend({ removed_assignments: z.number().int() }) }), ...errorResponses(401, 403, 404, 409, 422) },
    },
  }, async (req) => ({ data: await updateSubscription(req, req.params.id, req.body) }));

  app.delete('/admin/subscriptions/:id', {
    ...guard,
    schema: {
      tags: ['admin: subscriptions'], summary: "Delete a subscription and the users' role assignments through it", security: sec, params: idParams,
      response: { 200: z.object({ data: z.object({ id: z.string(), deleted: z.literal(true), removed_assignments: z.number().int() }) }), ...errorResponses(401, 403, 404) },
    },
  }, async (req) => ({ data: { id: req.params.id, deleted: true as const, ...(await deleteSubscription(req, req.params.id)) } }));
};
export default routes;
