import type { Account } from '../../db/schema';
import { accountStateOf, type AccountState, type AccountView } from '../../../contract/common';
import { emailVerified } from '../../oidc/claims';

/** The account view the API answers with (contract/common.ts accountSchema), built from a database row. */

export const ACCOUNT_VIEW_COLUMNS = [
  'id', 'type', 'email', 'first_name', 'last_name', 'phone', 'locale', 'status', 'auth_type', 'provider', 'technical',
  'admin_role', 'avatar', 'email_verified_at', 'password_hash', 'two_factor_method', 'two_factor_confirmed_at',
  'api_key_hash', 'created_by', 'created_at', 'updated_at', 'provider_subject',
] as const;
export type AccountViewRow = Pick<Account, (typeof ACCOUNT_VIEW_COLUMNS)[number]>;

/** The account's state (contract/common.ts accountStateOf) from its row. */
export function accountState(a: Pick<Account, 'status' | 'auth_type' | 'password_hash' | 'email_verified_at'>): AccountState {
  return accountStateOf({ status: a.status, auth_type: a.auth_type, has_password: Boolean(a.password_hash), email_verified: Boolean(a.email_verified_at) });
}

export function accountView(a: AccountViewRow): AccountView {
  return {
    id: a.id,
    type: a.type,
    email: a.email,
    first_name: a.first_name,
    last_name: a.last_name,
    phone: a.phone,
    locale: a.locale,
    status: a.status,
    state: accountState(a),
    auth_type: a.auth_type,
    provider: a.provider,
    technical: Number(a.technical) === 1,
    role: a.admin_role,
    avatar_url: a.avatar ? `/api/avatars/${a.avatar}` : null,
    // the same as the `email_verified` claim: an SSO account the upstream provider vouched for is verified
    email_verified: emailVerified(a),
    has_password: Boolean(a.password_hash),
    two_factor: { enabled: Boolean(a.two_factor_confirmed_at), method: a.two_factor_confirmed_at ? a.two_factor_method : null },
    has_api_key: Boolean(a.api_key_hash),
    created_by: a.created_by,
    created_at: a.created_at,
    updated_at: a.updated_at,
  };
}

