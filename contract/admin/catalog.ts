/** Roles and subscriptions (super_admin only). Service apps: contract/admin/service-apps.ts. */
import { z } from 'zod';
import { defineEndpoint } from '../endpoint';
import { dataOf, idParams, listOf, pageQuery } from '../common';
import { roleNameSchema, subscriptionNameSchema } from '../domain/formats';

export const roleSchema = z.object({ id: z.string(), name: z.string(), description: z.string(), created_at: z.string(), updated_at: z.string() });
export type Role = z.infer<typeof roleSchema>;

const ref = z.object({ id: z.string(), name: z.string() });
export const roleUsageSchema = z.object({ subscriptions: z.array(ref), service_apps: z.array(ref), users: z.number().int() });
export type RoleUsage = z.infer<typeof roleUsageSchema>;

export const subscriptionSchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  roles: z.array(ref),
  role_count: z.number().int(),
  user_count: z.number().int(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Subscription = z.infer<typeof subscriptionSchema>;

const description = z.string().trim().max(500);
const roleIds = z.array(z.string().min(1).max(64)).max(500);
/** Catalog lists are small: pages of up to 100, searched by name. */
const catalogQuery = z.object({ ...pageQuery, size: z.coerce.number().int().min(1).max(100).default(100), search: z.string().trim().max(64).optional() });

export const listRoles = defineEndpoint({
  method: 'GET', path: '/api/admin/roles', tag: 'admin: roles', access: 'super_admin', summary: 'List roles (by name)',
  query: catalogQuery,
  response: listOf(roleSchema),
  errors: { 401: ['unauthorized'], 403: ['forbidden'], 422: ['validation_failed'] },
});

export const getRole = defineEndpoint({
  method: 'GET', path: '/api/admin/roles/:id', tag: 'admin: roles', access: 'super_admin', summary: 'One role with where it is used',
  params: idParams,
  response: dataOf(roleSchema.extend({ usage: roleUsageSchema })),
  errors: { 401: ['unauthorized'], 403: ['forbidden'], 404: ['role_not_found'] },
});

export const createRole = defineEndpoint({
  method: 'POST', path: '/api/admin/roles', tag: 'admin: roles', access: 'super_admin', summary: 'Create a role (name XX_XX(_XX)*, unique: 409 name_taken)',
  body: z.object({ name: roleNameSchema, description: description.optional() }),
  status: 201,
  response: dataOf(roleSchema),
  errors: { 401: ['unauthorized'], 403: ['forbidden'], 409: ['name_taken'], 422: ['validation_failed'] },
});

export const updateRole = defineEndpoint({
  method: 'PATCH', path: '/api/admin/roles/:id', tag: 'admin: roles', access: 'super_admin', summary: 'Update a role',
  params: idParams,
  body: z.object({ name: roleNameSchema.optional(), description: description.optional() }),
  response: dataOf(roleSchema),
  errors: { 401: ['unauthorized'], 403: ['forbidden'], 404: ['role_not_found'], 409: ['name_taken'], 422: ['validation_failed'] },
});

export const deleteRole = defineEndpoint({
  method: 'DELETE', path: '/api/admin/roles/:id', tag: 'admin: roles', access: 'super_admin',
  summary: 'Delete a role (409 role_in_use names its subscriptions, service apps and user count)',
  params: idParams,
  response: dataOf(z.object({ id: z.string(), deleted: z.literal(true) })),
  errors: { 401: ['unauthorized'], 403: ['forbidden'], 404: ['role_not_found'], 409: ['role_in_use'] },
});

export const listSubscriptions = defineEndpoint({
  method: 'GET', path: '/api/admin/subscriptions', tag: 'admin: subscriptions', access: 'super_admin',
  summary: 'List subscriptions with their roles, role count and user count',
  query: catalogQuery,
  response: listOf(subscriptionSchema),
  errors: { 401: ['unauthorized'], 403: ['forbidden'], 422: ['validation_failed'] },
});

export const getSubscription = defineEndpoint({
  method: 'GET', path: '/api/admin/subscriptions/:id', tag: 'admin: subscriptions', access: 'super_admin', summary: 'One subscription',
  params: idParams,
  response: dataOf(subscriptionSchema),
  errors: { 401: ['unauthorized'], 403: ['forbidden'], 404: ['subscription_not_found'] },
});

export const createSubscription = defineEndpoint({
  method: 'POST', path: '/api/admin/subscriptions', tag: 'admin: subscriptions', access: 'super_admin', summary: 'Create a subscription (name XX_XX(X))',
  body: z.object({ name: subscriptionNameSchema, description: description.optional(), role_ids: roleIds.default([]) }),
  status: 201,
  response: dataOf(subscriptionSchema),
  errors: { 401: ['unauthorized'], 403: ['forbidden'], 409: ['name_taken'], 422: ['validation_failed'] },
});

export const updateSubscription = defineEndpoint({
  method: 'PATCH', path: '/api/admin/subscriptions/:id', tag: 'admin: subscriptions', access: 'super_admin',
  summary: 'Update a subscription; removing a role also removes it from the users holding it (removed_assignments)',
  params: idParams,
  body: z.object({ name: subscriptionNameSchema.optional(), description: description.optional(), role_ids: roleIds.optional() }),
  response: dataOf(subscriptionSchema.extend({ removed_assignments: z.number().int() })),
  errors: { 401: ['unauthorized'], 403: ['forbidden'], 404: ['subscription_not_found'], 409: ['name_taken'], 422: ['validation_failed'] },
});

export const deleteSubscription = defineEndpoint({
  method: 'DELETE', path: '/api/admin/subscriptions/:id', tag: 'admin: subscriptions', access: 'super_admin',
  summary: "Delete a subscription and the users' role assignments through it",
  params: idParams,
  response: dataOf(z.object({ id: z.string(), deleted: z.literal(true), removed_assignments: z.number().int() })),
  errors: { 401: ['unauthorized'], 403: ['forbidden'], 404: ['subscription_not_found'] },
});
