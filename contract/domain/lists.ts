/**
 * Value lists without schemas (no zod), so code the SPA loads eagerly (the user list's URL search validation) can use
 * them without building the contract's schemas. contract/common.ts and contract/admin/users.ts re-export them.
 */

/** The account states of contract/common.ts (accountStateOf). */
export const ACCOUNT_STATES = ['INVITED', 'ACTIVE', 'INACTIVE'] as const;
export type AccountState = (typeof ACCOUNT_STATES)[number];

/** The relations a user's page can ask for (contract/admin/users.ts getUser `?with=`). */
export const USER_RELATIONS = ['role_subscriptions', 'role', 'subscription', 'user_authentication_activities', 'created_by_admin', 'api_key_events'] as const;
export type UserRelation = (typeof USER_RELATIONS)[number];

/** At most this many ids per bulk request (contract/admin/users.ts bulkUsers). */
export const BULK_MAX_IDS = 100;

/** The user list's sorts (contract/admin/users.ts listUsers). */
export const USER_SORTS = ['-created_at', 'created_at', 'email', '-email', 'name', '-name'] as const;
export type UserSort = (typeof USER_SORTS)[number];
