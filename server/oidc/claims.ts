import type { Kysely } from 'kysely';
import type { Account, Database } from '../db/schema';
import { ROLES_CLAIM, rolesForClient } from './access';

/**
 * Whether the account's e-mail address is known to be controlled by the person: set when they set a
 * password through a mailed link (invitation / verification, `email_verified_at`), or for single
 * sign-on accounts once an upstream provider asserted a verified address at sign-in (the SSO sign-in
 * requires email_verified upstream and then records `provider_subject`). An admin-set password proves
 * nothing about the mailbox.
 */
export const emailVerified = (a: Pick<Account, 'email_verified_at' | 'auth_type' | 'provider_subject'>): boolean =>
  a.email_verified_at !== null || (a.auth_type === 'SSO' && a.provider_subject !== null);

export interface AccountClaims {
  sub: string;
  email?: string;
  email_verified?: boolean;
  name?: string;
  given_name?: string;
  family_name?: string;
  locale?: string;
  updated_at?: number;
  roles?: string[];
}

/**
 * The claims about `account` for `clientId`. `scopes` limits them (UserInfo); undefined returns every
 * claim and lets the provider filter by scope (ID token). `roles`: the app's allowed roles the person
 * holds through subscriptions (service apps; empty for the product's own clients).
 */
export async function accountClaims(db: Kysely<Database>, account: Account, clientId: string, scopes?: ReadonlySet<string>): Promise<AccountClaims> {
  const has = (s: string) => !scopes || scopes.has(s);
  return {
    sub: account.id,
    ...(has('email') ? { email: account.email, email_verified: emailVerified(account) } : {}),
    ...(has('profile')
      ? {
          name: `${account.first_name} ${account.last_name}`.trim(),
          given_name: account.first_name,
          family_name: account.last_name,
          locale: account.locale,
          updated_at: Math.floor(new Date(account.updated_at).getTime() / 1000),
        }
      : {}),
    ...(has('roles') ? { [ROLES_CLAIM]: await rolesForClient(db, clientId, account.id) } : {}),
  };
}

/**
 * UserInfo: the claims of the token's account for its client and scopes, or null when the account is gone or not
 * ACTIVE (the caller answers 401 invalid_token).
 */
export async function userinfoClaims(db: Kysely<Database>, accountId: string, clientId: string, scopes: ReadonlySet<string>): Promise<AccountClaims | null> {
  const account = await db.selectFrom('accounts').selectAll().where('id', '=', accountId).executeTakeFirst();
  if (!account || account.status !== 'ACTIVE') return null;
  return accountClaims(db, account, clientId, scopes);
}
