import { randomUUID } from 'node:crypto';
import type { Role } from '../../db/schema';
import { AppError } from '../../errors';
import { recordAudit } from './audit';
import type { Actor, Deps, Queries } from '../deps';

/** Roles and subscriptions: repository functions on a query builder (or a transaction), and the service. */
export interface RoleView {
  id: string;
  name: string;
  description: string;
  created_at: string;
  updated_at: string;
}

const roleView = (r: Role): RoleView => ({ id: r.id, name: r.name, description: r.description, created_at: r.created_at, updated_at: r.updated_at });

export const isUniqueViolation = (err: unknown): boolean => {
  const e = err as { code?: string; message?: string };
  return e?.code === '23505' || /UNIQUE constraint failed/.test(e?.message ?? '');
};
const nameTaken = () => new AppError(409, 'name_taken', { fields: { name: ['name_taken'] } });

async function withUniqueName<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if (isUniqueViolation(err)) throw nameTaken();
    throw err;
  }
}

async function listRoles(db: Queries, search: string | undefined, page: number, size: number) {
  let q = db.selectFrom('roles');
  if (search) q = q.where('name', 'like', `%${search.toUpperCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
  const total = Number((await q.select((eb) => eb.fn.countAll<number | string>().as('n')).executeTakeFirstOrThrow()).n);
  const rows = await q.selectAll().orderBy('name').limit(size).offset((page - 1) * size).execute();
  return { rows: rows.map(roleView), total };
}

export async function requireRole(db: Queries, id: string): Promise<Role> {
  const r = await db.selectFrom('roles').selectAll().where('id', '=', id).executeTakeFirst();
  if (!r) throw new AppError(404, 'role_not_found');
  return r;
}

async function createRole(deps: CatalogDeps, actor: Actor, input: { name: string; description?: string | undefined }): Promise<RoleView> {
  const now = deps.clock.nowIso();
  const row = { id: randomUUID(), name: input.name, description: input.description ?? '', created_at: now, updated_at: now };
  await withUniqueName(() =>
    deps.db.kysely.transaction().execute(async (trx) => {
      if (await trx.selectFrom('roles').select('id').where('name', '=', row.name).executeTakeFirst()) throw nameTaken();
      await trx.insertInto('roles').values(row).execute();
      await recordAudit(trx, actor, 'role.create', 'role', row.id, null, row, now);
    }),
  );
  return roleView(row);
}

async function updateRole(deps: CatalogDeps, actor: Actor, id: string, input: { name?: string | undefined; description?: string | undefined }): Promise<RoleView> {
  const db = deps.db.kysely;
  await withUniqueName(() =>
    db.transaction().execute(async (trx) => {
      const before = await requireRole(trx, id);
      if (input.name && input.name !== before.name && (await trx.selectFrom('roles').select('id').where('name', '=', input.name).executeTakeFirst())) throw nameTaken();
      const patch = { ...(input.name !== undefined ? { name: input.name } : {}), ...(input.description !== undefined ? { description: input.description } : {}) };
      await trx.updateTable('roles').set({ ...patch, updated_at: deps.clock.nowIso() }).where('id', '=', id).execute();
      await recordAudit(trx, actor, 'role.update', 'role', id, roleView(before), patch, deps.clock.nowIso());
    }),
  );
  return roleView(await requireRole(db, id));
}

export async function roleUsage(db: Queries, id: string) {
  const subscriptions = await db
    .selectFrom('subscription_roles as sr')
    .innerJoin('subscriptions as s', 's.id', 'sr.subscription_id')
    .select(['s.id', 's.name'])
    .where('sr.role_id', '=', id)
    .orderBy('s.name')
    .execute();
  const service_apps = await db
    .selectFrom('service_app_roles as sar')
    .innerJoin('service_apps as a', 'a.id', 'sar.service_app_id')
    .select(['a.id', 'a.name'])
    .where('sar.role_id', '=', id)
    .orderBy('a.name')
    .execute();
  const users = Number(
    (
      await db
        .selectFrom('role_subscriptions')
        .select((eb) => eb.fn.count<number | string>('account_id').distinct().as('n'))
        .where('role_id', '=', id)
        .executeTakeFirstOrThrow()
    ).n,
  );
  return { subscriptions, service_apps, users };
}

/** Deletes an unused role; in use → 409 role_in_use naming the subscriptions, service apps and user count. */
async function deleteRole(deps: CatalogDeps, actor: Actor, id: string): Promise<void> {
  await deps.db.kysely.transaction().execute(async (trx) => {
    const before = await requireRole(trx, id);
    const usage = await roleUsage(trx, id);
    if (usage.subscriptions.length || usage.service_apps.length || usage.users) {
      throw new AppError(409, 'role_in_use', {
        params: {
          subscriptions: usage.subscriptions.map((s) => s.name).join(', ') || '-',
          service_apps: usage.service_apps.map((s) => s.name).join(', ') || '-',
          users: usage.users,
        },
      });
    }
    await trx.deleteFrom('roles').where('id', '=', id).execute();
    await recordAudit(trx, actor, 'role.delete', 'role', id, roleView(before), null, deps.clock.nowIso());
  });
}

/** Unknown role ids → 422 field `role_ids.N: role_unknown`. */
export async function checkRoleIds(db: Queries, roleIds: string[]): Promise<void> {
  if (!roleIds.length) return;
  const known = new Set((await db.selectFrom('roles').select('id').where('id', 'in', [...new Set(roleIds)]).execute()).map((r) => r.id));
  const fields: Record<string, string[]> = {};
  roleIds.forEach((r, i) => {
    if (!known.has(r)) fields[`role_ids.${i}`] = ['role_unknown'];
  });
  if (Object.keys(fields).length) throw new AppError(422, 'validation_failed', { fields });
}

export interface SubscriptionView {
  id: string;
  name: string;
  description: string;
  roles: { id: string; name: string }[];
  role_count: number;
  user_count: number;
  created_at: string;
  updated_at: string;
}

export async function subscriptionViews(db: Queries, ids: string[]): Promise<SubscriptionView[]> {
  if (!ids.length) return [];
  const subs = await db.selectFrom('subscriptions').selectAll().where('id', 'in', ids).orderBy('name').execute();
  const roles = await db
    .selectFrom('subscription_roles as sr')
    .innerJoin('roles as r', 'r.id', 'sr.role_id')
    .select(['sr.subscription_id', 'r.id', 'r.name'])
    .where('sr.subscription_id', 'in', ids)
    .orderBy('r.name')
    .execute();
  const users = await db
    .selectFrom('role_subscriptions')
    .select(['subscription_id', (eb) => eb.fn.count<number | string>('account_id').distinct().as('n')])
    .where('subscription_id', 'in', ids)
    .groupBy('subscription_id')
    .execute();
  const userCount = new Map(users.map((u) => [u.subscription_id, Number(u.n)]));
  return subs.map((s) => {
    const rs = roles.filter((r) => r.subscription_id === s.id).map((r) => ({ id: r.id, name: r.name }));
    return { id: s.id, name: s.name, description: s.description, roles: rs, role_count: rs.length, user_count: userCount.get(s.id) ?? 0, created_at: s.created_at, updated_at: s.updated_at };
  });
}

export async function requireSubscription(db: Queries, id: string): Promise<SubscriptionView> {
  const [v] = await subscriptionViews(db, [id]);
  if (!v) throw new AppError(404, 'subscription_not_found');
  return v;
}

async function listSubscriptions(db: Queries, search: string | undefined, page: number, size: number) {
  let q = db.selectFrom('subscriptions');
  if (search) q = q.where('name', 'like', `%${search.toUpperCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
  const total = Number((await q.select((eb) => eb.fn.countAll<number | string>().as('n')).executeTakeFirstOrThrow()).n);
  const ids = (await q.select('id').orderBy('name').limit(size).offset((page - 1) * size).execute()).map((r) => r.id);
  return { rows: await subscriptionViews(db, ids), total };
}

async function createSubscription(deps: CatalogDeps, actor: Actor, input: { name: string; description?: string | undefined; role_ids: string[] }): Promise<SubscriptionView> {
  const db = deps.db.kysely;
  await checkRoleIds(db, input.role_ids);
  const now = deps.clock.nowIso();
  const row = { id: randomUUID(), name: input.name, description: input.description ?? '', created_at: now, updated_at: now };
  await withUniqueName(() =>
    db.transaction().execute(async (trx) => {
      if (await trx.selectFrom('subscriptions').select('id').where('name', '=', row.name).executeTakeFirst()) throw nameTaken();
      await trx.insertInto('subscriptions').values(row).execute();
      const roleIds = [...new Set(input.role_ids)];
      if (roleIds.length) await trx.insertInto('subscription_roles').values(roleIds.map((r) => ({ subscription_id: row.id, role_id: r }))).execute();
      await recordAudit(trx, actor, 'subscription.create', 'subscription', row.id, null, { ...row, role_ids: roleIds }, now);
    }),
  );
  return requireSubscription(db, row.id);
}

/** Update; a role removed from the subscription also leaves the users holding it (reported as removed_assignments). */
async function updateSubscription(
  deps: CatalogDeps,
  actor: Actor,
  id: string,
  input: { name?: string | undefined; description?: string | undefined; role_ids?: string[] | undefined },
): Promise<SubscriptionView & { removed_assignments: number }> {
  const db = deps.db.kysely;
  if (input.role_ids) await checkRoleIds(db, input.role_ids);
  let removed = 0;
  await withUniqueName(() =>
    db.transaction().execute(async (trx) => {
      const before = await requireSubscription(trx, id);
      if (input.name && input.name !== before.name && (await trx.selectFrom('subscriptions').select('id').where('name', '=', input.name).executeTakeFirst())) throw nameTaken();
      const patch = { ...(input.name !== undefined ? { name: input.name } : {}), ...(input.description !== undefined ? { description: input.description } : {}) };
      await trx.updateTable('subscriptions').set({ ...patch, updated_at: deps.clock.nowIso() }).where('id', '=', id).execute();
      if (input.role_ids) {
        const next = new Set(input.role_ids);
        const drop = before.roles.map((r) => r.id).filter((r) => !next.has(r));
        const add = [...next].filter((r) => !before.roles.some((b) => b.id === r));
        if (drop.length) {
          const res = await trx.deleteFrom('role_subscriptions').where('subscription_id', '=', id).where('role_id', 'in', drop).executeTakeFirst();
          removed = Number(res.numDeletedRows);
          await trx.deleteFrom('subscription_roles').where('subscription_id', '=', id).where('role_id', 'in', drop).execute();
        }
        if (add.length) await trx.insertInto('subscription_roles').values(add.map((r) => ({ subscription_id: id, role_id: r }))).execute();
      }
      await recordAudit(trx, actor, 'subscription.update', 'subscription', id, before, { ...patch, ...(input.role_ids ? { role_ids: input.role_ids } : {}), removed_assignments: removed }, deps.clock.nowIso());
    }),
  );
  return { ...(await requireSubscription(db, id)), removed_assignments: removed };
}

async function deleteSubscription(deps: CatalogDeps, actor: Actor, id: string): Promise<{ removed_assignments: number }> {
  let removed = 0;
  await deps.db.kysely.transaction().execute(async (trx) => {
    const before = await requireSubscription(trx, id);
    const res = await trx.deleteFrom('role_subscriptions').where('subscription_id', '=', id).executeTakeFirst();
    removed = Number(res.numDeletedRows);
    await trx.deleteFrom('subscriptions').where('id', '=', id).execute();
    await recordAudit(trx, actor, 'subscription.delete', 'subscription', id, before, { removed_assignments: removed }, deps.clock.nowIso());
  });
  return { removed_assignments: removed };
}

type CatalogDeps = Pick<Deps, 'db' | 'clock'>;
type RoleInput = { name: string; description?: string | undefined };
type SubscriptionInput = { name: string; description?: string | undefined; role_ids: string[] };
type SubscriptionPatch = { name?: string | undefined; description?: string | undefined; role_ids?: string[] | undefined };
type ListQuery = { search?: string | undefined; page: number; size: number };

/** Roles and subscriptions (contract/admin/catalog.ts): every change is audited in its own transaction. */
export function createCatalogService(deps: CatalogDeps) {
  const db = () => deps.db.kysely;
  return {
    listRoles: (q: ListQuery) => listRoles(db(), q.search, q.page, q.size),
    async getRole(id: string) {
      const role = roleView(await requireRole(db(), id));
      return { ...role, usage: await roleUsage(db(), id) };
    },
    createRole: (actor: Actor, input: RoleInput) => createRole(deps, actor, input),
    updateRole: (actor: Actor, id: string, input: Partial<RoleInput>) => updateRole(deps, actor, id, input),
    deleteRole: (actor: Actor, id: string) => deleteRole(deps, actor, id),
    listSubscriptions: (q: ListQuery) => listSubscriptions(db(), q.search, q.page, q.size),
    getSubscription: (id: string) => requireSubscription(db(), id),
    createSubscription: (actor: Actor, input: SubscriptionInput) => createSubscription(deps, actor, input),
    updateSubscription: (actor: Actor, id: string, input: SubscriptionPatch) => updateSubscription(deps, actor, id, input),
    async deleteSubscription(actor: Actor, id: string) {
      return { id, deleted: true as const, ...(await deleteSubscription(deps, actor, id)) };
    },
  };
}
export type CatalogService = ReturnType<typeof createCatalogService>;
