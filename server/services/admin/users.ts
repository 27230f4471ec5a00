import { sql, type ExpressionBuilder, type Expression, type SqlBool } from 'kysely';
import type { Account, AccountStatus, AuthType, Database } from '../../db/schema';
import type { Db } from '../../db/index';
import { AppError } from '../../errors';
import { USER_RELATIONS, type BulkResult, type BulkUserAction, type UserDetail, type UserRelation, type UserSort } from '../../../contract/admin/users';
import { accountRow, searchTextOf } from '../accounts';
import { sendInvitation } from '../invitations';
import { revokeAccountGrantsDb } from '../../oidc/grants';
import type { Actor, Deps, Queries } from '../deps';
import { recordAudit } from './audit';
import type { AccountView } from '../../../contract/common';
import { ACCOUNT_VIEW_COLUMNS, accountView } from './schemas';

/**
 * End users as admins manage them (contract/admin/users.ts): repository functions on the database handle or a
 * transaction, the operations shared with admin accounts (delete, invite again) and the service.
 */

export type { UserFilters } from '../../../contract/admin/users';
import type { UserFilters } from '../../../contract/admin/users';

type AccountsEb = ExpressionBuilder<Database, 'accounts'>;

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);
/** FTS5 phrase: the whole term as one quoted string (trigram tokenizer → substring match). */
const ftsPhrase = (s: string) => `"${s.replace(/"/g, '""')}"`;

/**
 * WHERE for account lists, every condition backed by an index:
 * type + filter columns → accounts_type_*_created_idx; search → trigram index (pg_trgm GIN on PostgreSQL,
 * FTS5 trigram on SQLite; terms under 3 characters fall back to LIKE); role → role_subscriptions_role_idx.
 */
export function accountWhere(dialect: 'sqlite' | 'postgres', type: 'user' | 'admin', f: UserFilters) {
  return (eb: AccountsEb): Expression<SqlBool> => {
    const conds: Expression<SqlBool>[] = [eb('accounts.type', '=', type)];
    if (f.status) {
      // the state (contract/common.ts accountStateOf): INVITED = active, credentials, no password, not verified
      const invited = eb.and([eb('accounts.auth_type', '=', 'CREDENTIALS'), eb('accounts.password_hash', 'is', null), eb('accounts.email_verified_at', 'is', null)]);
      if (f.status === 'INACTIVE') conds.push(eb('accounts.status', '=', 'INACTIVE'));
      else conds.push(eb('accounts.status', '=', 'ACTIVE'), f.status === 'INVITED' ? invited : eb.not(invited));
    }
    if (f.technical !== undefined) conds.push(eb('accounts.technical', '=', f.technical ? 1 : 0));
    if (f.auth_type) conds.push(eb('accounts.auth_type', '=', f.auth_type));
    if (f.locale) conds.push(eb('accounts.locale', '=', f.locale));
    if (f.role) {
      // EXISTS probes role_subscriptions' primary key (account_id, …) while the list walks its created_at index
      conds.push(
        eb.exists(
          eb.selectFrom('role_subscriptions').select(sql`1`.as('one')).whereRef('role_subscriptions.account_id', '=', 'accounts.id').where('role_subscriptions.role_id', '=', f.role),
        ),
      );
    }
    const term = f.search?.trim().toLowerCase();
    if (term) {
      if (dialect === 'sqlite' && [...term].length >= 3) {
        conds.push(sql<SqlBool>`accounts.rowid in (select rowid from accounts_fts where accounts_fts match ${ftsPhrase(term)})`);
      } else {
        conds.push(sql<SqlBool>`accounts.search_text like ${`%${escapeLike(term)}%`} escape '\\'`);
      }
    }
    return eb.and(conds);
  };
}

const hasFilters = (f: UserFilters) =>
  Boolean(f.search?.trim() || f.status || f.technical !== undefined || f.auth_type || f.role || f.locale);

async function countAccounts(handle: Db, type: 'user' | 'admin', f: UserFilters): Promise<number> {
  const db = handle.kysely;
  if (!hasFilters(f)) {
    const c = await db.selectFrom('account_counters').select('n').where('type', '=', type).executeTakeFirst();
    if (c) return Number(c.n);
  }
  if (type === 'user' && f.role && !hasFilters({ ...f, role: undefined })) {
    // only users hold roles: count on role_subscriptions_role_idx (role_id, account_id) alone
    const r = await db
      .selectFrom('role_subscriptions')
      .select((eb) => eb.fn.count<number | string>('account_id').distinct().as('n'))
      .where('role_id', '=', f.role)
      .executeTakeFirstOrThrow();
    return Number(r.n);
  }
  const r = await db
    .selectFrom('accounts')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where(accountWhere(handle.dialect, type, f))
    .executeTakeFirstOrThrow();
  return Number(r.n);
}

/**
 * One page, newest first (created_at desc, id desc). Deferred join: the inner query walks only the covering
 * (type[, filter], created_at, id) index to find the page's ids, the outer one fetches those rows by primary key.
 * Past the middle of the list the scan starts from the other end (ascending), so the deepest page costs what
 * the first half does.
 */
export async function listAccounts(
  handle: Db,
  type: 'user' | 'admin',
  f: UserFilters,
  page: number,
  size: number,
  sort: UserSort = '-created_at',
): Promise<{ rows: AccountView[]; total: number }> {
  const total = await countAccounts(handle, type, f);
  const offset = (page - 1) * size;
  if (offset >= total) return { rows: [], total };
  if (sort !== '-created_at') return { rows: await sortedPage(handle, type, f, sort, size, offset), total };
  const fromEnd = offset > total / 2;
  const dir = fromEnd ? 'asc' : 'desc';
  const limit = fromEnd ? Math.min(size, total - offset) : size;
  const off = fromEnd ? Math.max(0, total - offset - size) : offset;
  const ids = pageIdsQuery(handle, type, f, limit, off, dir);
  const rows = await handle.kysely
    .selectFrom('accounts')
    .select([...ACCOUNT_VIEW_COLUMNS])
    .where('id', 'in', ids)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
  return { rows: rows.map(accountView), total };
}

/** The columns of a sort order (USER_SORTS), the id last as the tie-breaker so that pages are disjoint and complete. */
function sortColumns(sort: UserSort): { cols: ('created_at' | 'email_normalized' | 'last_name' | 'first_name')[]; dir: 'asc' | 'desc' } {
  const dir = sort.startsWith('-') ? 'desc' : 'asc';
  const key = sort.replace(/^-/, '');
  const cols = key === 'email' ? (['email_normalized'] as const) : key === 'name' ? (['last_name', 'first_name'] as const) : (['created_at'] as const);
  return { cols: [...cols], dir };
}

/** One page in another order than newest first: the ids walk the order's index (deferred join), then the rows. */
async function sortedPage(handle: Db, type: 'user' | 'admin', f: UserFilters, sort: UserSort, limit: number, offset: number): Promise<AccountView[]> {
  const { cols, dir } = sortColumns(sort);
  let ids = handle.kysely.selectFrom('accounts').select('accounts.id').where(accountWhere(handle.dialect, type, f));
  for (const c of cols) ids = ids.orderBy(`accounts.${c}`, dir);
  ids = ids.orderBy('accounts.id', dir).limit(limit).offset(offset);
  let q = handle.kysely.selectFrom('accounts').select([...ACCOUNT_VIEW_COLUMNS, 'email_normalized']).where('id', 'in', ids);
  for (const c of cols) q = q.orderBy(c, dir);
  const rows = await q.orderBy('id', dir).execute();
  return rows.map(accountView);
}

/** The ids of one page (covering-index walk). */
function pageIdsQuery(handle: Db, type: 'user' | 'admin', f: UserFilters, limit: number, offset: number, dir: 'asc' | 'desc' = 'desc') {
  return handle.kysely
    .selectFrom('accounts')
    .select('accounts.id')
    .where(accountWhere(handle.dialect, type, f))
    .orderBy('accounts.created_at', dir)
    .orderBy('accounts.id', dir)
    .limit(limit)
    .offset(offset);
}

export function pageQuery(handle: Db, type: 'user' | 'admin', f: UserFilters, limit: number, offset: number, dir: 'asc' | 'desc' = 'desc') {
  return handle.kysely
    .selectFrom('accounts')
    .select([...ACCOUNT_VIEW_COLUMNS])
    .where('id', 'in', pageIdsQuery(handle, type, f, limit, offset, dir))
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc');
}

export function countQuery(handle: Db, type: 'user' | 'admin', f: UserFilters) {
  return handle.kysely
    .selectFrom('accounts')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where(accountWhere(handle.dialect, type, f));
}

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

/** The invitation's actor option (none for the system). */
export const actorOpts = (actorId: string | null): { actorId?: string } => (actorId ? { actorId } : {});

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
  await db.transaction().execute(async (trx) => {
    const beforeSubs = input.subscriptions ? await userRoleSubscriptions(trx, id) : undefined;
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
  });
  if (input.status === 'INACTIVE' && before.status !== 'INACTIVE') await revokeAccountGrantsDb(db, id);
  return userDetail(db, id, new Set(['role_subscriptions', 'created_by_admin']));
}

function pick(o: Account, keys: string[]): Record<string, unknown> {
  return Object.fromEntries(keys.map((k) => [k, (o as unknown as Record<string, unknown>)[k]]));
}

/** Deletes a user or an admin account after ending its sessions and grants (users and admins services). */
export async function deleteAccount(deps: Deps, actor: Actor, account: Account): Promise<void> {
  const db = deps.db.kysely;
  await revokeAccountGrantsDb(db, account.id);
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom('accounts').where('id', '=', account.id).execute();
    await recordAudit(trx, actor, `${account.type}.delete`, account.type, account.id, account, null, deps.clock.nowIso());
  });
}

/** Sends the invitation again (409 for SSO accounts and for accounts already verified). */
export async function reinvite(deps: Deps, actor: Actor, account: Account): Promise<boolean> {
  if (account.auth_type === 'SSO') throw new AppError(409, 'invitation_not_applicable');
  if (account.password_hash || account.email_verified_at) throw new AppError(409, 'already_verified');
  await sendInvitation(deps, account, actorOpts(actor.id));
  await recordAudit(deps.db.kysely, actor, `${account.type}.invite`, account.type, account.id, null, { email: account.email }, deps.clock.nowIso());
  return true;
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
    list: (filters: UserFilters, page: number, size: number, sort?: UserSort) => listAccounts(deps.db, 'user', filters, page, size, sort),
    bulk: (actor: Actor, input: BulkInput) => bulk(deps, actor, input),
    /** `with`: comma-separated relations (USER_RELATIONS); 422 for an unknown one. */
    detail: (id: string, relations: string | undefined) => userDetail(db(), id, parseRelations(relations)),
    create: (actor: Actor, input: CreateUserInput) => createUser(deps, actor, input),
    update: (actor: Actor, id: string, input: UpdateUserInput) => updateUser(deps, actor, id, input),
    remove: async (actor: Actor, id: string): Promise<void> => deleteAccount(deps, actor, await requireUserAccount(db(), id)),
    reinvite: async (actor: Actor, id: string): Promise<boolean> => reinvite(deps, actor, await requireUserAccount(db(), id)),
  };
}
export type UsersService = ReturnType<typeof createUsersService>;
