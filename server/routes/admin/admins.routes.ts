import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { requireAdmin } from '../../plugins/app/auth';
import { AppError } from '../../errors';
import { errorResponses } from '../../lib/openapi';
import { emailSchema, personNameSchema } from '../../../contract/domain/formats';
import { accountSchema, idParams, listMeta, localeEnum, pageQuery, accountView } from '../../services/admin/schemas';
import { createAdmin, changeAdminRole, requireAdminAccount } from '../../services/admin/admins';
import { deleteAccount, listAccounts, reinvite } from '../../services/admin/users';

/** Admin management: super_admin only. */
const routes: FastifyPluginAsyncZod = async (app) => {
  const guard = { onRequest: requireAdmin('super_admin') };
  const tags = ['admin: admins'];

  app.get(
    '/admin/admins',
    {
      ...guard,
      schema: {
        tags,
        summary: 'List admins (paginated, searchable)',
        security: [{ bearer: [] }],
        querystring: z.object({ ...pageQuery, search: z.string().trim().max(200).optional(), role: z.enum(['super_admin', 'manager']).optional() }),
        response: { 200: z.object({ data: z.array(accountSchema), meta: listMeta }), ...errorResponses(401, 403, 422) },
      },
    },
    async (req) => {
      const { page, size, search, role } = req.query;
      if (role) {
        // few admins: filter in SQL without a dedicated index
        const all = await listAccounts(app, 'admin', { search }, 1, 100_000);
        const filtered = all.rows.filter((r) => r.role === role);
        return { data: filtered.slice((page - 1) * size, page * size), meta: { page, size, total: filtered.length } };
      }
      const { rows, total } = await listAccounts(app, 'admin', { search }, page, size);
      return { data: rows, meta: { page, size, total, ...(total === 0 && search ? { message: req.t('users_no_results') } : {}) } };
    },
  );

  app.get(
    '/admin/admins/:id',
    {
      ...guard,
      schema: { tags, summary: 'One admin', security: [{ bearer: [] }], params: idParams, response: { 200: z.object({ data: accountSchema }), ...errorResponses(401, 403, 404) } },
    },
    async (req) => ({ data: accountView(await requireAdminAccount(app.db.kysely, req.params.id)) }),
  );

  app.post(
    '/admin/admins',
    {
      ...guard,
      schema: {
        tags,
        summary: 'Create an admin; invited by e-mail to /verify/admin',
        security: [{ bearer: [] }],
        body: z.object({
          email: emailSchema,
          first_name: personNameSchema,
          last_name: personNameSchema,
          role: z.enum(['super_admin', 'manager']),
          locale: localeEnum.optional(),
        }),
        response: { 201: z.object({ data: accountSchema.extend({ invitation_sent: z.boolean() }) }), ...errorResponses(401, 403, 409, 422) },
      },
    },
    async (req, reply) => {
      const { admin, invitation_sent } = await createAdmin(req, req.body);
      return reply.status(201).send({ data: { ...admin, invitation_sent } });
    },
  );

  app.patch(
    '/admin/admins/:id',
    {
      ...guard,
      schema: {
        tags,
        summary: "Change an admin's role (the last super_admin cannot be demoted: 409 last_super_admin)",
        security: [{ bearer: [] }],
        params: idParams,
        body: z.object({ role: z.enum(['super_admin', 'manager']) }),
        response: { 200: z.object({ data: accountSchema }), ...errorResponses(401, 403, 404, 409, 422) },
      },
    },
    async (req) => ({ data: await changeAdminRole(req, req.params.id, req.body.role) }),
  );

  app.delete(
    '/admin/admins/:id',
    {
      ...guard,
      schema: {
        tags,
        summary: 'Delete an admin (403 cannot_delete_self for your own account, 409 last_super_admin)',
        security: [{ bearer: [] }],
        params: idParams,
        response: { 200: z.object({ data: z.object({ id: z.string(), deleted: z.literal(true) }) }), ...errorResponses(401, 403, 404, 409) },
      },
    },
    async (req) => {
      if (req.params.id === req.auth?.account.id) throw new AppError(403, 'cannot_delete_self');
      const target = await requireAdminAccount(app.db.kysely, req.params.id);
      if (target.admin_role === 'super_admin') {
        const others = await app.db.kysely
          .selectFrom('accounts')
          .select((eb) => eb.fn.countAll<number | string>().as('n'))
          .where('type', '=', 'admin')
          .where('admin_role', '=', 'super_admin')
          .where('status', '=', 'ACTIVE')
          .where('id', '!=', target.id)
          .executeTakeFirstOrThrow();
        if (Number(others.n) === 0) throw new AppError(409, 'last_super_admin');
      }
      await deleteAccount(req, target);
      return { data: { id: target.id, deleted: true as const } };
    },
  );

  app.post(
    '/admin/admins/:id/invite',
    {
      ...guard,
      schema: {
        tags,
        summary: 'Send the admin invitation again',
        security: [{ bearer: [] }],
        params: idParams,
        response: { 200: z.object({ data: z.object({ id: z.string(), invitation_sent: z.boolean() }) }), ...errorResponses(401, 403, 404, 409) },
      },
    },
    async (req) => {
      const target = await requireAdminAccount(app.db.kysely, req.params.id);
      return { data: { id: target.id, invitation_sent: await reinvite(req, target) } };
    },
  );
};
export default routes;
