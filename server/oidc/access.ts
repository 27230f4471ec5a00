import type { Kysely } from 'kysely';
import type { Account, Database } from '../db/schema';

export const PORTAL_CLIENT = 'portal';
export const ADMIN_CLIENT = 'admin-console';
export const FIRST_PARTY_CLIENTS = new Set([PORTAL_CLIENT, ADMIN_CLIENT]);
/** Where the provider sends a consent prompt (first-party consent, server/oidc/consent.ts). */
export const CONSENT_PATH = '/api/oidc-pages/consent';
/** The localized 'you have no access to <app>' page of a refused sign-in (routes/oidc-pages.routes.ts). */
export const DENIED_PATH = '/api/oidc-pages/denied';
export const OIDC_SCOPES = ['openid', 'profile', 'email', 'offline_access', 'roles'] as const;

/** The claim (scope `roles`) listing the person's roles for the app: the app's allowed roles they hold. */
export const ROLES_CLAIM = 'roles';

/**
 * Authentication context classes (acr), by what the sign-in used (amr, RFC 8176 values): a password
 * only, a password and a second factor, or an upstream identity provider (single sign-on).
 */
export const ACR = { password: 'urn:iam:acr:pwd', mfa: 'urn:iam:acr:mfa', sso: 'urn:iam:acr:sso' } as const;

/**
 * The amr of a finished sign-in (RFC 8176): the methods used, plus `mfa` when two factors were used
 * (pwd + otp/sms/kba/hwk/swk, or a passkey alone: `hwk`/`swk` with user verification); `ext` (product-specific)
 * marks a sign-in through an upstream identity provider. Passkeys: `hwk` for a device-bound security key
 * (cross-platform attachment, not backup-eligible), `swk` otherwise (server/services/passkeys.ts passkeyKind).
 */
export function signInMethods(amr: readonly string[]): { amr: string[]; acr: string } {
  const methods = [...new Set(amr)];
  if (methods.includes('ext')) return { amr: methods, acr: ACR.sso };
  const second = methods.some((m) => m === 'otp' || m === 'sms' || m === 'kba' || m === 'hwk' || m === 'swk');
  if (methods.includes('pwd') && second) return { amr: [...methods.filter((m) => m !== 'mfa'), 'mfa'], acr: ACR.mfa };
  // a passkey alone: user verification is required in every ceremony, so the authenticator proved possession and a
  // PIN or biometric (a multi-factor cryptographic authenticator): the two-factor class
  if (methods.some((m) => m === 'hwk' || m === 'swk')) return { amr: [...methods.filter((m) => m !== 'mfa'), 'mfa'], acr: ACR.mfa };
  return { amr: methods, acr: ACR.password };
}

/** The short form apps may send in `acr_values` for the two-factor class (besides its URN). */
const MFA_ACR_ALIASES: ReadonlySet<string> = new Set([ACR.mfa, 'mfa']);

/**
 * Whether an authorization request asks for a sign-in with two factors (step-up): `urn:iam:acr:mfa` or `mfa` among
 * its `acr_values`. The product treats it as a requirement (docs/INTEGRATING.md "Step-up"): a session below it signs
 * in again, and a sign-in that cannot reach it ends with `unmet_authentication_requirements` at the app. (The `claims`
 * request parameter is not enabled, so `acr_values` is the only way to ask.)
 */
export function requestsMfa(params: { acr_values?: unknown }): boolean {
  return typeof params.acr_values === 'string' && params.acr_values.split(' ').some((v) => MFA_ACR_ALIASES.has(v));
}

/** Names of the roles `accountId` holds (through subscriptions) among the service app's allowed roles. */
export async function rolesForClient(db: Kysely<Database>, clientId: string, accountId: string): Promise<string[]> {
  if (!isServiceAppClient(clientId)) return [];
  const rows = await db
    .selectFrom('service_apps as sa')
    .innerJoin('service_app_roles as sar', 'sar.service_app_id', 'sa.id')
    .innerJoin('role_subscriptions as rs', 'rs.role_id', 'sar.role_id')
    .innerJoin('roles as r', 'r.id', 'sar.role_id')
    .select('r.name')
    .distinct()
    .where('sa.name', '=', clientId)
    .where('rs.account_id', '=', accountId)
    .orderBy('r.name')
    .execute();
  return rows.map((r) => r.name);
}

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

/** The name a service app is shown with on the provider's pages (its client id when it has none or is unknown). */
export async function clientDisplayName(db: Kysely<Database>, clientId: string): Promise<string> {
  const sa = await db.selectFrom('service_apps').select('display_name').where('name', '=', clientId).executeTakeFirst();
  return sa?.display_name ?? clientId;
}
