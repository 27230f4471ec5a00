import type { Kysely } from 'kysely';
import type { Account, Database } from '../db/schema';

export const PORTAL_CLIENT = 'portal';
export const ADMIN_CLIENT = 'admin-console';
export const FIRST_PARTY_CLIENTS = new Set([PORTAL_CLIENT, ADMIN_CLIENT]);
/** Where the provider sends a consent prompt (first-party consent, server/oidc/consent.ts). */
export const CONSENT_PATH = '/api/oidc-pages/consent';
export const OIDC_SCOPES = ['openid', 'profile', 'email', 'offline_access'] as const;

/** Which account type a client signs in: admin-console admins, everything else users. */
export function accountTypeForClient(clientId: string): 'user' | 'admin' {
  return clientId === ADMIN_CLIENT ? 'admin' : 'user';
}

/** Whether the client is a service app (not one of our own SPA clients). */
export const isServiceAppClient = (clientId: string): boolean => !FIRST_PARTY_CLIENTS.has(clientId);

/**
 * Whether `account` may sign in to `clientId`: portal → users, admin-console → admins, a service app →
 * users holding one of its allowed roles through a subscription (role_subscriptions ∩ service_app_roles).
 */
export async function mayUseClient(db: Kysely<Database>, clientId: string, account: Pick<Account, 'id' | 'type' | 'status'>): Promise<boolean> {
  if (account.status !== 'ACTIVE') return false;
  if (account.type !== accountTypeForClient(clientId)) return false;
  if (!isServiceAppClient(clientId)) return true;
  const hit = await db
    .selectFrom('service_apps as sa')
    .innerJoin('service_app_roles as sar', 'sar.service_app_id', 'sa.id')
    .innerJoin('role_subscriptions as rs', 'rs.role_id', 'sar.role_id')
    .select('sa.id')
    .where('sa.name', '=', clientId)
    .where('rs.account_id', '=', account.id)
    .limit(1)
    .executeTakeFirst();
  return !!hit;
}
