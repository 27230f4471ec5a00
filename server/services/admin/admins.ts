import type { Account, AdminRole } from '../../db/schema';
import { AppError } from '../../errors';
import { accountRow } from '../accounts';
import { sendInvitation } from '../invitations';
import type { Actor, Deps, Queries } from '../deps';
import { recordAudit } from './audit';
import type { AccountView } from '../../../contract/common';
import { accountView } from './schemas';
import { actorOpts } from '../invitations';
import { deleteAccount, reinvite } from './account-actions';
import { listAccounts } from './user-search';

/** Admin accounts (super_admin only, contract/admin/admins.ts): the last active super_admin always stays. */

async function requireAdminAccount(db: Queries, id: string): Promise<Account> {
  const a = await db.selectFrom('accounts').selectAll().where('id', '=', id).where('type', '=', 'admin').executeTakeFirst();
  if (!a) throw new AppError(404, 'admin_not_found');
  return a;
}

/** 409 last_super_admin when no other active super_admin than `id` exists. */
async function requireOtherSuperAdmin(db: Queries, id: string): Promise<void> {
  const others = await db
    .selectFrom('accounts')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('type', '=', 'admin')
    .where('admin_role', '=', 'super_admin')
    .where('status', '=', 'ACTIVE')
    .where('id', '!=', id)
    .executeTakeFirstOrThrow();
  if (Number(others.n) === 0) throw new AppError(409, 'last_super_admin');
}

export interface CreateAdminInput {
  email: string;
  first_name: string;
  last_name: string;
  role: AdminRole;
  /** the given locale, else the creating admin's */
  locale: string;
}

async function createAdmin(deps: Deps, actor: Actor, input: CreateAdminInput): Promise<{ admin: AccountView; invitation_sent: boolean }> {
  const row = accountRow({
    type: 'admin',
    email: input.email,
    first_name: input.first_name,
    last_name: input.last_name,
    admin_role: input.role,
    locale: input.locale,
    auth_type: 'CREDENTIALS',
    status: 'ACTIVE',
    technical: 0,
    created_by: actor.id,
  });
  const taken = () => new AppError(409, 'email_taken', { fields: { email: ['email_taken'] } });
  try {
    await deps.db.kysely.transaction().execute(async (trx) => {
      const exists = await trx.selectFrom('accounts').select('id').where('type', '=', 'admin').where('email_normalized', '=', row.email_normalized).executeTakeFirst();
      if (exists) throw taken();
      await trx.insertInto('accounts').values(row).execute();
      await recordAudit(trx, actor, 'admin.create', 'admin', row.id, null, row, deps.clock.nowIso());
    });
  } catch (err) {
    const e = err as { code?: string; message?: string };
    if (e?.code === '23505' || /UNIQUE constraint failed/.test(e?.message ?? '')) throw taken();
    throw err;
  }
  const admin = await requireAdminAccount(deps.db.kysely, row.id);
  let invitation_sent = false;
  try {
    await sendInvitation(deps, admin, actorOpts(actor.id));
    invitation_sent = true;
  } catch (err) {
    deps.log.error({ err }, 'admin invitation mail failed');
  }
  return { admin: accountView(admin), invitation_sent };
}

/** Role change; refuses to demote the last active super_admin (409 last_super_admin), checked inside the transaction. */
async function changeAdminRole(deps: Deps, actor: Actor, id: string, role: AdminRole): Promise<AccountView> {
  const db = deps.db.kysely;
  await db.transaction().execute(async (trx) => {
    const target = await requireAdminAccount(trx, id);
    if (target.admin_role === role) return;
    if (target.admin_role === 'super_admin') await requireOtherSuperAdmin(trx, id);
    const now = deps.clock.nowIso();
    await trx.updateTable('accounts').set({ admin_role: role, updated_at: now }).where('id', '=', id).execute();
    await recordAudit(trx, actor, 'admin.role_change', 'admin', id, { role: target.admin_role }, { role }, now);
  });
  return accountView(await requireAdminAccount(db, id));
}

/** 403 cannot_delete_self for the actor's own account, 409 last_super_admin for the last active super_admin. */
async function deleteAdmin(deps: Deps, actor: Actor, id: string): Promise<void> {
  if (id === actor.id) throw new AppError(403, 'cannot_delete_self');
  const target = await requireAdminAccount(deps.db.kysely, id);
  if (target.admin_role === 'super_admin') await requireOtherSuperAdmin(deps.db.kysely, target.id);
  await deleteAccount(deps, actor, target);
}

export function createAdminsService(deps: Deps) {
  const db = () => deps.db.kysely;
  return {
    /** Newest first; `role` filters after the search (admins are few). */
    async list(q: { page: number; size: number; search?: string | undefined; role?: AdminRole | undefined }): Promise<{ rows: AccountView[]; total: number }> {
      if (q.role) {
        const all = await listAccounts(deps.db, 'admin', { search: q.search }, { page: 1, size: 100_000, count: 'exact' });
        const filtered = all.rows.filter((r) => r.role === q.role);
        return { rows: filtered.slice((q.page - 1) * q.size, q.page * q.size), total: filtered.length };
      }
      return listAccounts(deps.db, 'admin', { search: q.search }, { page: q.page, size: q.size, count: 'exact' });
    },
    get: async (id: string): Promise<AccountView> => accountView(await requireAdminAccount(db(), id)),
    create: (actor: Actor, input: CreateAdminInput) => createAdmin(deps, actor, input),
    changeRole: (actor: Actor, id: string, role: AdminRole) => changeAdminRole(deps, actor, id, role),
    remove: (actor: Actor, id: string) => deleteAdmin(deps, actor, id),
    reinvite: async (actor: Actor, id: string): Promise<boolean> => reinvite(deps, actor, await requireAdminAccount(db(), id)),
  };
}
export type AdminsService = ReturnType<typeof createAdminsService>;
