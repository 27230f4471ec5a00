import type { FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import type { Account, AdminRole, Database } from '../../db/schema';
import { nowIso } from '../../db/index';
import { AppError } from '../../errors';
import { accountRow } from '../accounts';
import { audit } from './audit';
import { sendInvitation } from '../invitations';
import { actorOpts } from './users';
import { accountView, type AccountView } from './schemas';

export async function requireAdminAccount(db: Kysely<Database>, id: string): Promise<Account> {
  const a = await db.selectFrom('accounts').selectAll().where('id', '=', id).where('type', '=', 'admin').executeTakeFirst();
  if (!a) throw new AppError(404, 'admin_not_found');
  return a;
}

export async function createAdmin(
  request: FastifyRequest,
  input: { email: string; first_name: string; last_name: string; role: AdminRole; locale?: string | undefined },
): Promise<{ admin: AccountView; invitation_sent: boolean }> {
  const app = request.server;
  const row = accountRow({
    type: 'admin',
    email: input.email,
    first_name: input.first_name,
    last_name: input.last_name,
    admin_role: input.role,
    locale: input.locale ?? request.auth?.account.locale ?? 'en',
    auth_type: 'CREDENTIALS',
    status: 'ACTIVE',
    technical: 0,
    created_by: request.auth?.account.id ?? null,
  });
  const taken = () => new AppError(409, 'email_taken', { fields: { email: ['email_taken'] } });
  try {
    await app.db.kysely.transaction().execute(async (trx) => {
      const exists = await trx.selectFrom('accounts').select('id').where('type', '=', 'admin').where('email_normalized', '=', row.email_normalized).executeTakeFirst();
      if (exists) throw taken();
      await trx.insertInto('accounts').values(row).execute();
      await audit(request, 'admin.create', 'admin', row.id, null, row, trx);
    });
  } catch (err) {
    const e = err as { code?: string; message?: string };
    if (e?.code === '23505' || /UNIQUE constraint failed/.test(e?.message ?? '')) throw taken();
    throw err;
  }
  const admin = await requireAdminAccount(app.db.kysely, row.id);
  let invitation_sent = false;
  try {
    await sendInvitation(app, admin, actorOpts(request.auth?.account.id ?? null));
    invitation_sent = true;
  } catch (err) {
    request.log.error({ err }, 'admin invitation mail failed');
  }
  return { admin: accountView(admin), invitation_sent };
}

/** Role change; refuses to demote the last active super_admin (409 last_super_admin), checked inside the transaction. */
export async function changeAdminRole(request: FastifyRequest, id: string, role: AdminRole): Promise<AccountView> {
  const db = request.server.db.kysely;
  await db.transaction().execute(async (trx) => {
    const target = await requireAdminAccount(trx, id);
    if (target.admin_role === role) return;
    if (target.admin_role === 'super_admin') {
      const others = await trx
        .selectFrom('accounts')
        .select((eb) => eb.fn.countAll<number | string>().as('n'))
        .where('type', '=', 'admin')
        .where('admin_role', '=', 'super_admin')
        .where('status', '=', 'ACTIVE')
        .where('id', '!=', id)
        .executeTakeFirstOrThrow();
      if (Number(others.n) === 0) throw new AppError(409, 'last_super_admin');
    }
    await trx.updateTable('accounts').set({ admin_role: role, updated_at: nowIso() }).where('id', '=', id).execute();
    await audit(request, 'admin.role_change', 'admin', id, { role: target.admin_role }, { role }, trx);
  });
  return accountView(await requireAdminAccount(db, id));
}
