import { sql } from 'kysely';
import type { ActivityLog, AuditEntry, DailyCount, ErrorLog } from '../../../contract/admin/logs';
import { normalizeEmail } from '../accounts';
import type { Deps, Queries } from '../deps';

/** Dashboard logs (sign-in activities, errors) and the audit trail: read-only queries, newest first. */

interface Page {
  page: number;
  size: number;
}
interface Range {
  from?: string | undefined;
  to?: string | undefined;
}

const count = (n: number | string) => Number(n);

async function accountIdsFor(db: Queries, user: string): Promise<string[]> {
  const rows = await db
    .selectFrom('accounts')
    .select('id')
    .where((eb) => eb.or([eb('id', '=', user), eb('email_normalized', '=', normalizeEmail(user))]))
    .execute();
  return rows.map((r) => r.id);
}

/** Authentication activities; `user` is an e-mail (exact, case-insensitive) or an account id. */
async function activities(db: Queries, q: Page & Range & { user?: string | undefined }, providerName: (id: string) => string): Promise<{ rows: ActivityLog[]; total: number }> {
  let query = db.selectFrom('auth_activities as x');
  if (q.from) query = query.where('x.logged_in_at', '>=', q.from);
  if (q.to) query = query.where('x.logged_in_at', '<=', q.to);
  if (q.user) {
    const ids = await accountIdsFor(db, q.user);
    if (!ids.length) return { rows: [], total: 0 };
    query = query.where('x.account_id', 'in', ids);
  }
  const total = count((await query.select((eb) => eb.fn.countAll<number | string>().as('n')).executeTakeFirstOrThrow()).n);
  const rows = await query
    .leftJoin('accounts as a', 'a.id', 'x.account_id')
    .select(['x.id', 'x.account_id', 'a.email', 'a.type', 'x.client_id', 'x.logged_in_at', 'x.logged_out_at', 'x.ip_address', 'x.origin', 'a.auth_type', 'a.provider'])
    .orderBy('x.logged_in_at', 'desc')
    .orderBy('x.id', 'desc')
    .limit(q.size)
    .offset((q.page - 1) * q.size)
    .execute();
  // an SSO account signs in only through its upstream provider (it has no password): that provider is the sign-in's
  return {
    rows: rows.map(({ auth_type, provider, ...r }) => ({ ...r, provider: auth_type === 'SSO' && provider ? { id: provider, name: providerName(provider) } : null })),
    total,
  };
}

/** Sign-ins per UTC day over the last `days` days (today included), days without any counted as 0. */
async function dailySignIns(db: Queries, now: Date, days: number): Promise<DailyCount[]> {
  const start = new Date(now.getTime());
  start.setUTCHours(0, 0, 0, 0);
  start.setUTCDate(start.getUTCDate() - (days - 1));
  const day = sql<string>`substr(logged_in_at, 1, 10)`;
  const rows = await db
    .selectFrom('auth_activities')
    .select([day.as('day'), (eb) => eb.fn.countAll<number | string>().as('n')])
    .where('logged_in_at', '>=', start.toISOString())
    .groupBy(day)
    .execute();
  const counts = new Map(rows.map((r) => [r.day, count(r.n)]));
  return Array.from({ length: days }, (_, i) => {
    const d = new Date(start.getTime() + i * 86_400_000).toISOString().slice(0, 10);
    return { day: d, count: counts.get(d) ?? 0 };
  });
}

async function errors(db: Queries, q: Page & Range & { code?: string | undefined; user?: string | undefined }): Promise<{ rows: ErrorLog[]; total: number }> {
  let query = db.selectFrom('error_logs');
  if (q.from) query = query.where('created_at', '>=', q.from);
  if (q.to) query = query.where('created_at', '<=', q.to);
  if (q.code) query = query.where('error_code', '=', q.code);
  if (q.user) query = query.where('user_email', '=', q.user);
  const total = count((await query.select((eb) => eb.fn.countAll<number | string>().as('n')).executeTakeFirstOrThrow()).n);
  const rows = await query
    .select(['id', 'error_code', 'status', 'method', 'url', 'message', 'user_email', 'created_at'])
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(q.size)
    .offset((q.page - 1) * q.size)
    .execute();
  return { rows: rows.map((r) => ({ ...r, status: Number(r.status) })), total };
}

export interface AuditQuery extends Page, Range {
  /** actor id or e-mail */
  actor?: string | undefined;
  action?: string | undefined;
  target_type?: string | undefined;
  target_id?: string | undefined;
}

async function auditTrail(db: Queries, q: AuditQuery): Promise<{ rows: AuditEntry[]; total: number }> {
  let query = db.selectFrom('audit_log');
  const actor = q.actor;
  if (actor) query = query.where((eb) => eb.or([eb('actor_id', '=', actor), eb('actor_email', '=', actor)]));
  if (q.action) query = query.where('action', '=', q.action);
  if (q.target_type) query = query.where('target_type', '=', q.target_type);
  if (q.target_id) query = query.where('target_id', '=', q.target_id);
  if (q.from) query = query.where('created_at', '>=', q.from);
  if (q.to) query = query.where('created_at', '<=', q.to);
  const total = count((await query.select((eb) => eb.fn.countAll<number | string>().as('n')).executeTakeFirstOrThrow()).n);
  const rows = await query.selectAll().orderBy('created_at', 'desc').orderBy('id', 'desc').limit(q.size).offset((q.page - 1) * q.size).execute();
  const parse = (s: string | null): unknown => (s === null ? null : (JSON.parse(s) as unknown));
  return { rows: rows.map((r) => ({ ...r, before: parse(r.before), after: parse(r.after) })), total };
}

export function createLogsService(deps: Pick<Deps, 'db' | 'clock' | 'config'>) {
  const db = () => deps.db.kysely;
  /** A configured provider's display name; the id when it is no longer configured. */
  const providerName = (id: string) => deps.config.ssoProviders.find((p) => p.id === id)?.name ?? id;
  return {
    activities: (q: Page & Range & { user?: string | undefined }) => activities(db(), q, providerName),
    dailySignIns: (days: number) => dailySignIns(db(), deps.clock.now(), days),
    errors: (q: Page & Range & { code?: string | undefined; user?: string | undefined }) => errors(db(), q),
    audit: (q: AuditQuery) => auditTrail(db(), q),
  };
}
export type LogsService = ReturnType<typeof createLogsService>;
