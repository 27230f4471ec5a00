import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { sql } from 'kysely';
import { requireAdmin } from '../../plugins/app/auth';
import { errorResponses } from '../../lib/openapi';
import { listMeta, pageQuery } from '../../services/admin/schemas';
import { normalizeEmail } from '../../services/accounts';

const isoDate = z.string().trim().max(40).refine((s) => !Number.isNaN(Date.parse(s)), { params: { code: 'invalid' } }).transform((s) => new Date(s).toISOString());
const userQuery = z.string().trim().max(254).optional().describe('e-mail (exact, case-insensitive) or account id');

/** Dashboard logs (super_admin, manager) and the admin audit trail (super_admin). */
const routes: FastifyPluginAsyncZod = async (app) => {
  const sec = [{ bearer: [] }];
  const db = () => app.db.kysely;

  async function accountIdsFor(user: string): Promise<string[]> {
    const rows = await db()
      .selectFrom('accounts')
      .select('id')
      .where((eb) => eb.or([eb('id', '=', user), eb('email_normalized', '=', normalizeEmail(user))]))
      .execute();
    return rows.map((r) => r.id);
  }

  app.get('/admin/logs/activities', {
    onRequest: requireAdmin(),
    schema: {
      tags: ['admin: logs'], summary: 'Authentication activities, newest first', security: sec,
      querystring: z.object({ ...pageQuery, from: isoDate.optional(), to: isoDate.optional(), user: userQuery }),
      response: {
        200: z.object({
          data: z.array(z.object({
            id: z.string(), account_id: z.string(), email: z.string().nullable(), type: z.string().nullable(), client_id: z.string().nullable(),
            logged_in_at: z.string(), logged_out_at: z.string().nullable(), ip_address: z.string().nullable(), origin: z.string().nullable(),
          })),
          meta: listMeta,
        }),
        ...errorResponses(401, 403, 422),
      },
    },
  }, async (req) => {
    const { page, size, from, to, user } = req.query;
    let q = db().selectFrom('auth_activities as x');
    if (from) q = q.where('x.logged_in_at', '>=', from);
    if (to) q = q.where('x.logged_in_at', '<=', to);
    if (user) {
      const ids = await accountIdsFor(user);
      if (!ids.length) return { data: [], meta: { page, size, total: 0 } };
      q = q.where('x.account_id', 'in', ids);
    }
    const total = Number((await q.select((eb) => eb.fn.countAll<number | string>().as('n')).executeTakeFirstOrThrow()).n);
    const rows = await q
      .leftJoin('accounts as a', 'a.id', 'x.account_id')
      .select(['x.id', 'x.account_id', 'a.email', 'a.type', 'x.client_id', 'x.logged_in_at', 'x.logged_out_at', 'x.ip_address', 'x.origin'])
      .orderBy('x.logged_in_at', 'desc')
      .orderBy('x.id', 'desc')
      .limit(size)
      .offset((page - 1) * size)
      .execute();
    return { data: rows, meta: { page, size, total } };
  });

  app.get('/admin/logs/activities/daily', {
    onRequest: requireAdmin(),
    schema: {
      tags: ['admin: logs'], summary: 'Sign-ins per day (UTC) over the last `days` days, for the dashboard chart', security: sec,
      querystring: z.object({ days: z.coerce.number().int().min(1).max(366).default(30) }),
      response: { 200: z.object({ data: z.array(z.object({ day: z.string(), count: z.number().int() })) }), ...errorResponses(401, 403, 422) },
    },
  }, async (req) => {
    const days = req.query.days;
    const start = new Date();
    start.setUTCHours(0, 0, 0, 0);
    start.setUTCDate(start.getUTCDate() - (days - 1));
    const day = sql<string>`substr(logged_in_at, 1, 10)`;
    const rows = await db()
      .selectFrom('auth_activities')
      .select([day.as('day'), (eb) => eb.fn.countAll<number | string>().as('n')])
      .where('logged_in_at', '>=', start.toISOString())
      .groupBy(day)
      .execute();
    const counts = new Map(rows.map((r) => [r.day, Number(r.n)]));
    const data = Array.from({ length: days }, (_, i) => {
      const d = new Date(start.getTime() + i * 86_400_000).toISOString().slice(0, 10);
      return { day: d, count: counts.get(d) ?? 0 };
    });
    return { data };
  });

  app.get('/admin/logs/errors', {
    onRequest: requireAdmin(),
    schema: {
      tags: ['admin: logs'], summary: 'Error log (code, url, message, timestamp, user e-mail), newest first', security: sec,
      querystring: z.object({ ...pageQuery, from: isoDate.optional(), to: isoDate.optional(), code: z.string().trim().max(100).optional(), user: z.string().trim().max(254).optional().describe('user e-mail') }),
      response: {
        200: z.object({
          data: z.array(z.object({ id: z.string(), error_code: z.string(), status: z.number().int(), method: z.string(), url: z.string(), message: z.string(), user_email: z.string().nullable(), created_at: z.string() })),
          meta: listMeta,
        }),
        ...errorResponses(401, 403, 422),
      },
    },
  }, async (req) => {
    const { page, size, from, to, code, user } = req.query;
    let q = db().selectFrom('error_logs');
    if (from) q = q.where('created_at', '>=', from);
    if (to) q = q.where('created_at', '<=', to);
    if (code) q = q.where('error_code', '=', code);
    if (user) q = q.where('user_email', '=', user);
    const total = Number((await q.select((eb) => eb.fn.countAll<number | string>().as('n')).executeTakeFirstOrThrow()).n);
    const rows = await q
      .select(['id', 'error_code', 'status', 'method', 'url', 'message', 'user_email', 'created_at'])
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(size)
      .offset((page - 1) * size)
      .execute();
    return { data: rows.map((r) => ({ ...r, status: Number(r.status) })), meta: { page, size, total } };
  });

  app.get('/admin/audit', {
    onRequest: requireAdmin('super_admin'),
    schema: {
      tags: ['admin: audit'], summary: 'Audit trail of admin changes (who, what, before/after without secrets, when)', security: sec,
      querystring: z.object({
        ...pageQuery, actor: z.string().trim().max(254).optional().describe('actor id or e-mail'), action: z.string().trim().max(100).optional(),
        target_type: z.string().trim().max(50).optional(), target_id: z.string().trim().max(64).optional(), from: isoDate.optional(), to: isoDate.optional(),
      }),
      response: {
        200: z.object({
          data: z.array(z.object({
            id: z.string(), actor_id: z.string().nullable(), actor_email: z.string().nullable(), action: z.string(), target_type: z.string(), target_id: z.string().nullable(),
            before: z.unknown(), after: z.unknown(), ip_address: z.string().nullable(), created_at: z.string(),
          })),
          meta: listMeta,
        }),
        ...errorResponses(401, 403, 422),
      },
    },
  }, async (req) => {
    const { page, size, actor, action, target_type, target_id, from, to } = req.query;
    let q = db().selectFrom('audit_log');
    if (actor) q = q.where((eb) => eb.or([eb('actor_id', '=', actor), eb('actor_email', '=', actor)]));
    if (action) q = q.where('action', '=', action);
    if (target_type) q = q.where('target_type', '=', target_type);
    if (target_id) q = q.where('target_id', '=', target_id);
    if (from) q = q.where('created_at', '>=', from);
    if (to) q = q.where('created_at', '<=', to);
    const total = Number((await q.select((eb) => eb.fn.countAll<number | string>().as('n')).executeTakeFirstOrThrow()).n);
    const rows = await q.selectAll().orderBy('created_at', 'desc').orderBy('id', 'desc').limit(size).offset((page - 1) * size).execute();
    const parse = (s: string | null): unknown => (s === null ? null : (JSON.parse(s) as unknown));
    return { data: rows.map((r) => ({ ...r, before: parse(r.before), after: parse(r.after) })), meta: { page, size, total } };
  });
};
export default routes;
