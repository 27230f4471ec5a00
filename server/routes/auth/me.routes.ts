import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Kysely } from 'kysely';
import type { Account, Database } from '../../db/schema';
import { AppError } from '../../errors';
import { errorResponses } from '../../lib/openapi';
import { requireAdmin, requireUser } from '../../plugins/app/auth';

const authUser = z.object({
  id: z.string(),
  email: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  phone: z.string().nullable(),
  locale: z.string(),
  type: z.enum(['user', 'admin']),
  status: z.enum(['ACTIVE', 'INACTIVE']),
  auth_type: z.enum(['CREDENTIALS', 'SSO']),
  provider: z.string().nullable(),
  technical: z.boolean(),
  avatar_url: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
const subscription = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  roles: z.array(z.object({ id: z.string(), name: z.string() })),
  service_apps: z.array(z.object({ id: z.string(), name: z.string(), display_name: z.string(), url: z.string(), path: z.string() })),
});
const twoFactor = z.object({ enabled: z.boolean(), method: z.enum(['GOOGLE', 'SMS']).nullable() });

function authUserView(a: Account): z.infer<typeof authUser> {
  return {
    id: a.id,
    email: a.email,
    first_name: a.first_name,
    last_name: a.last_name,
    phone: a.phone,
    locale: a.locale,
    type: a.type,
    status: a.status,
    auth_type: a.auth_type,
    provider: a.provider,
    technical: Number(a.technical) === 1,
    avatar_url: a.avatar ? `/api/avatars/${a.avatar}` : null,
    created_at: a.created_at,
    updated_at: a.updated_at,
  };
}

const twoFactorView = (a: Account) => {
  const enabled = Boolean(a.two_factor_method && a.two_factor_confirmed_at);
  return { enabled, method: enabled ? a.two_factor_method : null };
};

/** The user's subscriptions with the roles held in each and the service apps those roles open. */
export async function subscriptionsOf(db: Kysely<Database>, accountId: string): Promise<z.infer<typeof subscription>[]> {
  const held = await db
    .selectFrom('role_subscriptions as rs')
    .innerJoin('subscriptions as s', 's.id', 'rs.subscription_id')
    .innerJoin('roles as r', 'r.id', 'rs.role_id')
    .select(['s.id as sid', 's.name as sname', 's.description as sdesc', 'r.id as rid', 'r.name as rname'])
    .where('rs.account_id', '=', accountId)
    .orderBy('s.name')
    .orderBy('r.name')
    .execute();
  const bySub = new Map<string, z.infer<typeof subscription>>();
  for (const h of held) {
    let s = bySub.get(h.sid);
    if (!s) bySub.set(h.sid, (s = { id: h.sid, name: h.sname, description: h.sdesc, roles: [], service_apps: [] }));
    s.roles.push({ id: h.rid, name: h.rname });
  }
  const roleIds = [...new Set(held.map((h) => h.rid))];
  if (roleIds.length) {
    const apps = await db
      .selectFrom('service_apps as a')
      .innerJoin('service_app_roles as ar', 'ar.service_app_id', 'a.id')
      .select(['a.id', 'a.name', 'a.display_name', 'a.url', 'a.path', 'ar.role_id'])
      .where('ar.role_id', 'in', roleIds)
      .orderBy('a.display_name')
      .execute();
    for (const s of bySub.values()) {
      const mine = new Set(s.roles.map((r) => r.id));
      const seen = new Set<string>();
      for (const a of apps) {
        if (mine.has(a.role_id) && !seen.has(a.id)) {
          seen.add(a.id);
          s.service_apps.push({ id: a.id, name: a.name, display_name: a.display_name, url: a.url, path: a.path });
        }
      }
    }
  }
  return [...bySub.values()];
}

/** The signed-in account (docs/SPEC.md §3 "Authenticated user response" / "Admin response"). */
const routes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/user',
    {
      onRequest: requireUser,
      // the one route a technical user's API key is for: who am I, with which subscriptions and roles
      config: { apiKey: true },
      schema: {
        tags: ['authentication'],
        summary: 'The signed-in user, optionally with subscriptions, roles and service apps',
        security: [{ bearer: [] }],
        querystring: z.object({ with: z.string().max(100).optional() }),
        response: {
          200: z.object({ data: z.object({ auth_user: authUser.extend({ subscriptions: z.array(subscription).optional() }), '2fa': twoFactor, sso_login: z.boolean() }) }),
          ...errorResponses(401, 403),
        },
      },
    },
    async (request) => {
      const account = request.auth?.account;
      if (!account) throw new AppError(401, 'unauthorized');
      const include = new Set((request.query.with ?? '').split(',').map((s) => s.trim()));
      const user = authUserView(account);
      return {
        data: {
          auth_user: include.has('subscriptions') ? { ...user, subscriptions: await subscriptionsOf(app.db.kysely, account.id) } : user,
          '2fa': twoFactorView(account),
          sso_login: account.auth_type === 'SSO',
        },
      };
    },
  );

  app.get(
    '/admin',
    {
      onRequest: requireAdmin(),
      schema: {
        tags: ['authentication'],
        summary: 'The signed-in admin',
        security: [{ bearer: [] }],
        response: {
          200: z.object({ data: z.object({ auth_user: authUser.extend({ role: z.enum(['super_admin', 'manager']).nullable() }), '2fa': twoFactor }) }),
          ...errorResponses(401, 403),
        },
      },
    },
    async (request) => {
      const account = request.auth?.account;
      if (!account) throw new AppError(401, 'unauthorized');
      return { data: { auth_user: { ...authUserView(account), role: account.admin_role }, '2fa': twoFactorView(account) } };
    },
  );
};
export default routes;
