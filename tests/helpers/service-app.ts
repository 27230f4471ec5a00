import { randomUUID } from 'node:crypto';
import type { TestApp } from './app';
import { nowIso } from '../../server/db/index';
import { encryptSecret } from '../../server/services/admin/service-apps';

let seq = 0;

export interface SeededServiceApp {
  id: string;
  name: string;
  roleId: string;
  roleName: string;
  subscriptionId: string;
  redirectUri: string;
  secret: string | null;
}

/**
 * Inserts a service app (OIDC client) with one allowed role, a subscription holding that role, and
 * subscribes `members` to it (so they may sign in to the app). Confidential apps get `secret`
 * (stored encrypted like the admin API does).
 */
export async function seedServiceApp(
  t: TestApp,
  opts: { members?: string[]; clientType?: 'public' | 'confidential'; url?: string; path?: string; secret?: string; extra?: Record<string, unknown> } = {},
): Promise<SeededServiceApp> {
  const db = t.db.kysely;
  const now = nowIso();
  const k = `${++seq}${randomUUID().slice(0, 4)}`;
  const name = `svc-${k}`;
  const roleId = randomUUID();
  const roleName = `SVC_ROLE_${k}`;
  const subscriptionId = randomUUID();
  const id = randomUUID();
  const url = opts.url ?? 'https://svc.example.com';
  const path = opts.path ?? '/callback';
  const clientType = opts.clientType ?? 'public';
  const secret = clientType === 'confidential' ? (opts.secret ?? `secret-${randomUUID()}`) : null;
  await db.insertInto('roles').values({ id: roleId, name: roleName, description: '', created_at: now, updated_at: now }).execute();
  await db.insertInto('subscriptions').values({ id: subscriptionId, name: `SVC_SUB_${k}`, description: '', created_at: now, updated_at: now }).execute();
  await db.insertInto('subscription_roles').values({ subscription_id: subscriptionId, role_id: roleId }).execute();
  await db
    .insertInto('service_apps')
    .values({ id, name, display_name: `Service ${k}`, url, path, client_type: clientType, client_secret: secret ? await encryptSecret(db, secret) : null, created_at: now, updated_at: now, ...opts.extra })
    .execute();
  await db.insertInto('service_app_roles').values({ service_app_id: id, role_id: roleId }).execute();
  for (const accountId of opts.members ?? []) {
    await db.insertInto('role_subscriptions').values({ account_id: accountId, subscription_id: subscriptionId, role_id: roleId, created_at: now }).execute();
  }
  return { id, name, roleId, roleName, subscriptionId, redirectUri: `${url}${path}`, secret };
}
