import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { requireAdmin } from '../../plugins/app/auth';
import { AppError } from '../../errors';
import { errorResponses } from '../../lib/openapi';
import { emailSchema, personNameSchema, phoneSchema } from '../../../contract/domain/formats';
import { accountSchema, boolQuery, idParams, listMeta, localeEnum, pageQuery } from '../../services/admin/schemas';
import {
  USER_RELATIONS,
  createUser,
  deleteAccount,
  listAccounts,
  reinvite,
  requireUserAccount,
  updateUser,
  userDetail,
  type UserRelation,
} from '../../services/admin/users';

export const userFilterQuery = {
  search: z.string().trim().max(200).optional(),
  status: z.enum(['ACTIVE', 'INACTIVE']).optional(),
  technical: boolQuery.optional(),
  auth_type: z.enum(['CREDENTIALS', 'SSO']).optional(),
  role: z.string().max(64).optional().describe('role id: users holding it through any subscription'),
  locale: localeEnum.optional(),
};

const roleSubscriptionSchema = z.object({
  subscription: z.object({ id: z.string(), name: z.string() }),
  roles: z.array(z.object({ id: z.string(), name: z.string() })),
});
const activitySchema = z.object({
  id: z.string(),
  client_id: z.string().nullable(),
  logged_in_at: z.string(),
  logged_out_at: z.string().nullable(),
  ip_address: z.string().nullable(),
  origin: z.string().nullable(),
});
const userDetailSchema = accountSchema.extend({
  role_subscriptions: z.array(roleSubscriptionSchema).optional(),
  user_authentication_activities: z.array(activitySchema).optional(),
  latest_activity: z
    .object({ logged_in_at: z.string(), logged_out_at: z.string().nullable(), ip_address: z.string().nullable(), origin: z.string().nullable() })
    .nullable(),
  created_by_admin: z.object({ id: z.string(), email: z.string(), first_name: z.string(), last_name: z.string() }).nullable().optional(),
  api_key: z.object({ prefix: z.string(), created_at: z.string() }).nullable().optional().describe('the current API key (technical users): its public prefix, never the key'),
  api_key_events: z
    .array(z.object({ id: z.string(), event: z.enum(['generated', 'revoked']), key_prefix: z.string().nullable(), actor_email: z.string().nullable(), created_at: z.string() }))
    .optional()
    .describe('API key generations and revocations, newest first (last 20)'),
});

const subscriptionsInput = z
  .array(z.object({ subscription_id: z.string().min(1).max(64), role_ids: z.array(z.string().min(1).max(64)).max(200) }))
  .max(200);

const routes: FastifyPluginAsyncZod = async (app) => {
  const guard = { onRequest: requireAdmin() };

  app.get(
    '/admin/users',
    {
      ...guard,
      schema: {
        tags: ['admin: users'],
        summary: 'List users (paginated, searchable, filterable; newest first)',
        security: [{ bearer: [] }],
        querystring: z.object({ ...pageQuery, ...userFilterQuery }),
        response: { 200: z.object({ data: z.array(accountSchema), meta: listMeta }), ...errorResponses(401, 403, 422) },
      },
    },
    async (req) => {
      const { page, size, ...filters } = req.query;
      const { rows, total } = await listAccounts(app, 'user', filters, page, size);
      return { data: rows, meta: { page, size, total, ...(total === 0 && filters.search ? { message: req.t('users_no_results') } : {}) } };
    },
  );

  app.get(
    '/admin/users/:id',
    {
      ...guard,
      schema: {
        tags: ['admin: users'],
        summary: 'User details with relations',
        security: [{ bearer: [] }],
        params: idParams,
        querystring: z.object({ with: z.string().max(300).optional().describe(`comma-separated: ${USER_RELATIONS.join(', ')}`) }),
        response: { 200: z.object({ data: userDetailSchema }), ...errorResponses(401, 403, 404, 422) },
      },
    },
    async (req) => {
      const requested = (req.query.with ?? '').split(',').map((s) => s.trim()).filter(Boolean);
      const unknown = requested.filter((r) => !(USER_RELATIONS as readonly string[]).includes(r));
      if (unknown.length) throw new AppError(422, 'validation_failed', { fields: { with: ['invalid'] } });
      const data = await userDetail(app, req.params.id, new Set(requested as UserRelation[]));
      return { data: data as z.infer<typeof userDetailSchema> };
    },
  );

  app.post(
    '/admin/users',
    {
      ...guard,
      schema: {
        tags: ['admin: users'],
        summary: 'Create a user (CREDENTIALS accounts get an invitation e-mail)',
        security: [{ bearer: [] }],
        body: z.object({
          email: emailSchema,
          first_name: personNameSchema,
          last_name: personNameSchema,
          locale: localeEnum,
          auth_type: z.enum(['CREDENTIALS', 'SSO']),
          provider: z.string().max(64).nullish(),
          technical: z.boolean().optional(),
          phone: phoneSchema.nullish(),
        }),
        response: {
          201: z.object({ data: accountSchema.extend({ invitation_sent: z.boolean() }) }),
          ...errorResponses(401, 403, 409, 422),
        },
      },
    },
    async (req, reply) => {
      const { user, invitation_sent } = await createUser(req, req.body);
      return reply.status(201).send({ data: { ...user, invitation_sent } });
    },
  );

  app.patch(
    '/admin/users/:id',
    {
      ...guard,
      schema: {
        tags: ['admin: users'],
        summary: 'Update a user; `subscriptions` replaces the roles held per subscription; status INACTIVE ends the sessions',
        security: [{ bearer: [] }],
        params: idParams,
        body: z.object({
          first_name: personNameSchema.optional(),
          last_name: personNameSchema.optional(),
          phone: phoneSchema.nullish(),
          locale: localeEnum.optional(),
          status: z.enum(['ACTIVE', 'INACTIVE']).optional(),
          technical: z.boolean().optional().describe('fixed at creation: a different value is 422 technical_immutable'),
          subscriptions: subscriptionsInput.optional(),
        }),
        response: { 200: z.object({ data: userDetailSchema }), ...errorResponses(401, 403, 404, 422) },
      },
    },
    async (req) => ({ data: (await updateUser(req, req.params.id, req.body)) as z.infer<typeof userDetailSchema> }),
  );

  app.delete(
    '/admin/users/:id',
    {
      ...guard,
      schema: {
        tags: ['admin: users'],
        summary: 'Delete a user (ends its sessions)',
        security: [{ bearer: [] }],
        params: idParams,
        response: { 200: z.object({ data: z.object({ id: z.string(), deleted: z.literal(true) }) }), ...errorResponses(401, 403, 404) },
      },
    },
    async (req) => {
      const account = await requireUserAccount(app.db.kysely, req.params.id);
      await deleteAccount(req, account);
      return { data: { id: account.id, deleted: true as const } };
    },
  );

  app.post(
    '/admin/users/:id/invite',
    {
      ...guard,
      schema: {
        tags: ['admin: users'],
        summary: 'Send the invitation e-mail again (409 when the account is already verified)',
        security: [{ bearer: [] }],
        params: idParams,
        response: { 200: z.object({ data: z.object({ id: z.string(), invitation_sent: z.boolean() }) }), ...errorResponses(401, 403, 404, 409) },
      },
    },
    async (req) => {
      const account = await requireUserAccount(app.db.kysely, req.params.id);
      return { data: { id: account.id, invitation_sent: await reinvite(req, account) } };
    },
  );
};
export default routes;
