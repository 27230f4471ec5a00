import type { Account, AccountStatus, AuthType } from '../../db/schema';
import { AppError } from '../../errors';
import { USER_RELATIONS, type BulkResult, type BulkUserAction, type UserDetail, type UserFilters, type UserRelation } from '../../../contract/admin/users';
import { accountRow, searchTextOf } from '../accounts';
import { actorOpts, sendInvitation } from '../invitations';
import { revokeAccountGrantsDb } from '../../oidc/grants';
import { wakeLogoutDeliveries } from '../../oidc/backchannel-logout';
import type { Actor, Deps, Queries } from '../deps';
import { recordAudit } from './audit';
import type { AccountView } from '../../../contract/common';
import { accountView } from './schemas';
import { listAccounts, type ListOptions } from './user-search';
import { deleteAccount, endSessions, reinvite } from './account-actions';

/**
 * End users as admins manage them (contract/admin/users.ts): create, read, update, bulk actions and the service.
 * Lists and counts are planned in user-search.ts; the actions shared with admin accounts are in account-actions.ts.
 */

async function getAccount(db: Queries, type: 'user' | 'admin', id: string): Promise<Account | undefined> {
  return db.selectFrom('accounts').selectAll().where('id', '=', id).where('type', '=', type).executeTakeFirst();
}

async function requireUserAccount(db: Queries, id: string): Promise<Account> {
  const a = await getAccount(db, 'user', id);
  if (!a) throw new AppError(404, 'user_not_found');
  return a;
}

export { USER_RELATIONS, type UserRelation };

export interface RoleSubscriptionView {
  subscription: { id: string; name: string };
  roles: { id: string; name: string }[];
}

/** `with=a,b` → the relations; an unknown one is 422 `with: invalid`. */
function parseRelations(list: string | undefined): Set<UserRelation> {
  const requested = (list ?? '').split(',').map((s) => s.trim()).filter(Boolean);
  if (requested.some((r) => !(USER_RELATIONS as readonly string[]).includes(r))) throw new AppError(422, 'validation_failed', { fields: { with: ['invalid'] } });
  return new Set(requested as UserRelation[]);
}

async function userRoleSubscriptions(db: Queries, accountId: string): Promise<RoleSubscriptionView[]> {
  const rows = await db
    .selectFrom('role_subscriptions as rs')
    .innerJoin('subscriptions as s', 's.id', 'rs.subscription_id')
    .innerJoin('roles as r', 'r.id', 'rs.role_id')
    .select(['s.id as sid', 's.name as sname', 'r.id as rid', 'r.name as rname'])
    .where('rs.account_id', '=', accountId)
    .orderBy('s.name')
    .orderBy('r.name')
    .execute();
  const out = new Map<string, RoleSubscriptionView>();
  for (const r of rows) {
    const e = out.get(r.sid) ?? { subscription: { id: r.sid, name: r.sname }, roles: [] };
    e.roles.push({ id: r.rid, name: r.rname });
    out.set(r.sid, e);
  }
  return [...out.values()];
}

async function userDetail(db: Queries, id: string, relations: Set<UserRelation>): Promise<UserDetail> {
  const a = await requireUserAccount(db, id);
  const view: UserDetail = { ...accountView(a), latest_activity: null };
  if (relations.has('role_subscriptions') || relations.has('role') || relations.has('subscription')) {
    view.role_subscriptions = await userRoleSubscriptions(db, id);
  }
  const activities = await db
    .selectFrom('auth_activities')
    .select(['id', 'client_id', 'logged_in_at', 'logged_out_at', 'ip_address', 'origin'])
    .where('account_id', '=', id)
    .orderBy('logged_in_at', 'desc')
    .orderBy('id', 'desc')
    .limit(relations.has('user_authentication_activities') ? 20 : 1)
    .execute();
  if (relations.has('user_authentication_activities')) view.user_authentication_activities = activities;
  const latest = activities[0];
  view.latest_activity = latest
    ? { logged_in_at: latest.logged_in_at, logged_out_at: latest.logged_out_at, ip_address: latest.ip_address, origin: latest.origin }
    : null;
  view.api_key = a.api_key_hash ? { prefix: a.api_key_prefix ?? '', created_at: a.api_key_created_at ?? a.updated_at } : null;
  if (relations.has('api_key_events')) {
    // generation and revocation of this account's API key, from the audit trail (audit_log_target_idx)
    const rows = await db
      .selectFrom('audit_log')
      .select(['id', 'action', 'actor_email', 'before', 'after', 'created_at'])
      .where('target_type', '=', 'user')
      .where('target_id', '=', id)
      .where('action', 'in', ['user.api_key_generated', 'user.api_key_revoked'])
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(20)
      .execute();
    view.api_key_events = rows.map((r) => {
      const generated = r.action === 'user.api_key_generated';
      const data = JSON.parse((generated ? r.after : r.before) ?? '{}') as { key_prefix?: unknown };
      return {
        id: r.id,
        event: generated ? ('generated' as const) : ('revoked' as const),
        key_prefix: typeof data.key_prefix === 'string' ? data.key_prefix : null,
        actor_email: r.actor_email,
        created_at: r.created_at,
      };
    });
  }
  if (relations.has('created_by_admin')) {
    view.created_by_admin = a.created_by
      ? ((await db.selectFrom('accounts').select(['id', 'email', 'first_name', 'last_name']).where('id', '=', a.created_by).executeTakeFirst()) ?? null)
      : null;
  }
  return view;
}

export interface CreateUserInput {
  email: string;
  first_name: string;
  last_name: string;
  locale: string;
  auth_type: AuthType;
  provider?: string | null | undefined;
  technical?: boolean | undefined;
  phone?: string | null | undefined;
}

function checkProvider(config: Deps['config'], authType: AuthType, provider: string | null | undefined): string | null {
  if (authType !== 'SSO') return null;
  if (!provider) throw new AppError(422, 'validation_failed', { fields: { provider: ['provider_required'] } });
  if (!config.ssoProviders.some((p) => p.id === provider)) throw new AppError(422, 'validation_failed', { fields: { provider: ['provider_unknown'] } });
  return provider;
}

const emailTaken = () => new AppError(409, 'email_taken', { fields: { email: ['email_taken'] } });

function isUniqueViolation(err: unknown): boolean {
  const e = err as { code?: string; message?: string };
  return e?.code === '23505' || e?.code === 'SQLITE_CONSTRAINT_UNIQUE' || /UNIQUE constraint failed/.test(e?.message ?? '');
}

async function createUser(deps: Deps, actor: Actor, input: CreateUserInput): Promise<{ user: AccountView; invitation_sent: boolean }> {
  const provider = checkProvider(deps.config, input.auth_type, input.provider);
  const row = accountRow({
    type: 'user',
    email: input.email,
    first_name: input.first_name,
    last_name: input.last_name,
    locale: input.locale,
    auth_type: input.auth_type,
    provider,
    technical: input.technical ? 1 : 0,
    phone: input.phone ?? null,
    status: 'ACTIVE',
    created_by: actor.id,
  });
  try {
    await deps.db.kysely.transaction().execute(async (trx) => {
      const exists = await trx.selectFrom('accounts').select('id').where('type', '=', 'user').where('email_normalized', '=', row.email_normalized).executeTakeFirst();
      if (exists) throw emailTaken();
      await trx.insertInto('accounts').values(row).execute();
      await recordAudit(trx, actor, 'user.create', 'user', row.id, null, row, deps.clock.nowIso());
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw emailTaken();
    throw err;
  }
  const account = await requireUserAccount(deps.db.kysely, row.id);
  let invitation_sent = false;
  if (account.auth_type === 'CREDENTIALS') {
    try {
      await sendInvitation(deps, account, actorOpts(actor.id));
      invitation_sent = true;
    } catch (err) {
      deps.log.error({ err }, 'invitation mail failed');
    }
  }
  return { user: accountView(account), invitation_sent };
}

export interface UpdateUserInput {
  first_name?: string | undefined;
  last_name?: string | undefined;
  phone?: string | null | undefined;
  locale?: string | undefined;
  status?: AccountStatus | undefined;
  technical?: boolean | undefined;
  subscriptions?: { subscription_id: string; role_ids: string[] }[] | undefined;
}

/** Checks that each subscription exists and each role belongs to it (422 with the failing path otherwise). */
async function checkSubscriptionRoles(db: Queries, subs: { subscription_id: string; role_ids: string[] }[]): Promise<void> {
  const fields: Record<string, string[]> = {};
  const ids = [...new Set(subs.map((s) => s.subscription_id))];
  if (ids.length === 0) return;
  const known = new Set((await db.selectFrom('subscriptions').select('id').where('id', 'in', ids).execute()).map((r) => r.id));
  const pairs = await db.selectFrom('subscription_roles').select(['subscription_id', 'role_id']).where('subscription_id', 'in', ids).execute();
  const allowed = new Set(pairs.map((p) => `${p.subscription_id}/${p.role_id}`));
  subs.forEach((s, i) => {
    if (!known.has(s.subscription_id)) {
      fields[`subscriptions.${i}.subscription_id`] = ['subscription_unknown'];
      return;
    }
    s.role_ids.forEach((r, j) => {
      if (!allowed.has(`${s.subscription_id}/${r}`)) fields[`subscriptions.${i}.role_ids.${j}`] = ['role_not_in_subscription'];
    });
  });
  if (Object.keys(fields).length) throw new AppError(422, 'validation_failed', { fields });
}

async function updateUser(deps: Deps, actor: Actor, id: string, input: UpdateUserInput): Promise<UserDetail> {
  const db = deps.db.kysely;
  const before = await requireUserAccount(db, id);
  if (input.subscriptions) await checkSubscriptionRoles(db, input.subscriptions);
  const patch: Partial<Account> = {};
  if (input.first_name !== undefined) patch.first_name = input.first_name;
  if (input.last_name !== undefined) patch.last_name = input.last_name;
  if (input.phone !== undefined) patch.phone = input.phone;
  if (input.locale !== undefined) patch.locale = input.locale;
  if (input.status !== undefined) patch.status = input.status;
  // technical is fixed at creation: flipping it would turn an ordinary person's account into an API-key
  // holder (a backdoor that skips their 2FA) or revive an old key; the same value is accepted as a no-op
  if (input.technical !== undefined && (input.technical ? 1 : 0) !== Number(before.technical)) {
    throw new AppError(422, 'validation_failed', { fields: { technical: ['technical_immutable'] } });
  }
  const now = deps.clock.nowIso();
  // deactivation ends the account's credentials, as Keycloak and Zitadel do: its API key is revoked for good, so a
  // later reactivation does not bring it back (issue 28 finding 5b); a new key must be generated
  const deactivates = input.status === 'INACTIVE' && before.status !== 'INACTIVE';
  const revokesKey = deactivates && before.api_key_hash !== null;
  await db.transaction().execute(async (trx) => {
    const beforeSubs = input.subscriptions ? await userRoleSubscriptions(trx, id) : undefined;
    if (revokesKey) {
      await trx.updateTable('accounts').set({ api_key_hash: null, api_key_prefix: null, api_key_created_at: null }).where('id', '=', id).execute();
      await recordAudit(trx, actor, 'user.api_key_revoked', 'user', id, { key_prefix: before.api_key_prefix ?? '' }, { reason: 'deactivated' }, now);
    }
    if (Object.keys(patch).length || input.subscriptions) {
      const merged = { ...before, ...patch };
      await trx
        .updateTable('accounts')
        .set({ ...patch, search_text: searchTextOf(merged), updated_at: now })
        .where('id', '=', id)
        .execute();
    }
    if (input.subscriptions) {
      await trx.deleteFrom('role_subscriptions').where('account_id', '=', id).execute();
      const rows = [...new Map(input.subscriptions.flatMap((s) => s.role_ids.map((r) => [`${s.subscription_id}/${r}`, { account_id: id, subscription_id: s.subscription_id, role_id: r, created_at: now }]))).values()];
      if (rows.length) await trx.insertInto('role_subscriptions').values(rows).execute();
    }
    const afterSubs = input.subscriptions ? await userRoleSubscriptions(trx, id) : undefined;
    await recordAudit(
      trx,
      actor,
      'user.update',
      'user',
      id,
      { ...pick(before, Object.keys(patch)), ...(beforeSubs ? { role_subscriptions: beforeSubs } : {}) },
      { ...patch, ...(afterSubs ? { role_subscriptions: afterSubs } : {}) },
      now,
    );
    // deactivation ends every session in the same transaction, and queues the service apps' logout tokens
    if (deactivates) await revokeAccountGrantsDb(trx, id, { reason: 'account_deactivated' });
  });
  if (deactivates) wakeLogoutDeliveries(db);
  return userDetail(db, id, new Set(['role_subscriptions', 'created_by_admin']));
}

function pick(o: Account, keys: string[]): Record<string, unknown> {
  return Object.fromEntries(keys.map((k) => [k, (o as unknown as Record<string, unknown>)[k]]));
}


export interface BulkInput {
  action: BulkUserAction;
  ids: string[];
  subscription_id?: string | undefined;
  role_ids?: string[] | undefined;
}

/** Gives a user a subscription with these roles (replacing the roles they held in it), in one transaction. */
async function assignSubscription(deps: Deps, actor: Actor, id: string, subscriptionId: string, roleIds: string[]): Promise<void> {
  const now = deps.clock.nowIso();
  await deps.db.kysely.transaction().execute(async (trx) => {
    await requireUserAccount(trx, id);
    const before = await userRoleSubscriptions(trx, id);
    await trx.deleteFrom('role_subscriptions').where('account_id', '=', id).where('subscription_id', '=', subscriptionId).execute();
    await trx.insertInto('role_subscriptions').values([...new Set(roleIds)].map((role_id) => ({ account_id: id, subscription_id: subscriptionId, role_id, created_at: now }))).execute();
    await trx.updateTable('accounts').set({ updated_at: now }).where('id', '=', id).execute();
    await recordAudit(trx, actor, 'user.update', 'user', id, { role_subscriptions: before }, { role_subscriptions: await userRoleSubscriptions(trx, id) }, now);
  });
}

/**
 * One action on several users. The request as a whole is checked first (assign_subscription: the subscription exists
 * and the roles belong to it; 422 otherwise, nothing applied). Then each user is handled on its own, entirely or not at
 * all (every operation is one transaction); a row that cannot be done answers its error code, the others go on.
 */
async function bulk(deps: Deps, actor: Actor, input: BulkInput): Promise<{ results: BulkResult[]; succeeded: number; failed: number }> {
  const db = deps.db.kysely;
  const roleIds = input.role_ids ?? [];
  const subscriptionId = input.subscription_id ?? '';
  if (input.action === 'assign_subscription') {
    const fields: Record<string, string[]> = {};
    if (!subscriptionId) fields.subscription_id = ['required'];
    if (roleIds.length === 0) fields.role_ids = ['required'];
    if (Object.keys(fields).length) throw new AppError(422, 'validation_failed', { fields });
    try {
      await checkSubscriptionRoles(db, [{ subscription_id: subscriptionId, role_ids: roleIds }]);
    } catch (err) {
      // report on the bulk body's own field names
      if (err instanceof AppError && err.fields) {
        const mapped = Object.fromEntries(Object.entries(err.fields).map(([k, v]) => [k.replace(/^subscriptions\.0\./, ''), v]));
        throw new AppError(422, 'validation_failed', { fields: mapped });
      }
      throw err;
    }
  }
  const results: BulkResult[] = [];
  for (const id of [...new Set(input.ids)]) {
    try {
      if (input.action === 'invite') await reinvite(deps, actor, await requireUserAccount(db, id));
      else if (input.action === 'deactivate') await updateUser(deps, actor, id, { status: 'INACTIVE' });
      else if (input.action === 'delete') await deleteAccount(deps, actor, await requireUserAccount(db, id));
      else await assignSubscription(deps, actor, id, subscriptionId, roleIds);
      results.push({ id, ok: true, code: null });
    } catch (err) {
      // a refused row (not found, already verified…) is a result; an outage is not, it stops the request (503)
      if (!(err instanceof AppError) || err.status >= 500) throw err;
      results.push({ id, ok: false, code: err.code });
    }
  }
  const succeeded = results.filter((r) => r.ok).length;
  return { results, succeeded, failed: results.length - succeeded };
}

export function createUsersService(deps: Deps) {
  const db = () => deps.db.kysely;
  return {
    list: (filters: UserFilters, opts: ListOptions) => listAccounts(deps.db, 'user', filters, opts),
    bulk: (actor: Actor, input: BulkInput) => bulk(deps, actor, input),
    /** `with`: comma-separated relations (USER_RELATIONS); 422 for an unknown one. */
    detail: (id: string, relations: string | undefined) => userDetail(db(), id, parseRelations(relations)),
    create: (actor: Actor, input: CreateUserInput) => createUser(deps, actor, input),
    update: (actor: Actor, id: string, input: UpdateUserInput) => updateUser(deps, actor, id, input),
    remove: async (actor: Actor, id: string): Promise<void> => deleteAccount(deps, actor, await requireUserAccount(db(), id)),
    reinvite: async (actor: Actor, id: string): Promise<boolean> => reinvite(deps, actor, await requireUserAccount(db(), id)),
    endSessions: async (actor: Actor, id: string): Promise<number> => endSessions(deps, actor, await requireUserAccount(db(), id)),
  };
}
export type UsersService = ReturnType<typeof createUsersService>;
