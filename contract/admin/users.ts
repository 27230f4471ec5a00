/** End users, as admins (super_admin and manager) manage them. CSV import and export: contract/admin/import.ts. */
import { z } from 'zod';
import { defineEndpoint } from '../endpoint';
import { BULK_MAX_IDS, USER_RELATIONS, USER_SORTS } from '../domain/lists';
import { ACCOUNT_STATES, accountSchema, boolQuery, dataOf, deletedAnswer, idParams, listMeta, localeEnum, pageQuery } from '../common';
import { emailSchema, personNameSchema, phoneSchema } from '../domain/formats';

const tag = 'admin: users';

/** The relations `GET /api/admin/users/:id?with=…` can add. */
export { BULK_MAX_IDS, USER_RELATIONS, type UserRelation } from '../domain/lists';

/** The filters of the user list, shared by the CSV export. */
export const userFilterQuery = {
  search: z.string().trim().max(200).optional(),
  status: z.enum(ACCOUNT_STATES).optional().describe('the account state (accountStateOf): INVITED, ACTIVE (active and not invited) or INACTIVE'),
  technical: boolQuery.optional(),
  auth_type: z.enum(['CREDENTIALS', 'SSO']).optional(),
  role: z.string().max(64).optional().describe('role id: users holding it through any subscription'),
  locale: localeEnum.optional(),
};
/**
 * Sort orders of the user list: a column, `-` in front for descending (default `-created_at`, newest first). Each is
 * backed by an index ((type, created_at, id), (type, email_normalized), (type, last_name, first_name)) with the id as
 * the tie-breaker, so offset pages never repeat or skip a row.
 */
export { USER_SORTS, type UserSort } from '../domain/lists';

/** The user list's filters as the server reads them (the export takes the same). */
export const userFilterSchema = z.object(userFilterQuery);
export type UserFilters = z.output<typeof userFilterSchema>;

const namedRef = z.object({ id: z.string(), name: z.string() });
export const roleSubscriptionSchema = z.object({ subscription: namedRef, roles: z.array(namedRef) });
export type RoleSubscription = z.infer<typeof roleSubscriptionSchema>;

export const activitySchema = z.object({
  id: z.string(),
  client_id: z.string().nullable(),
  logged_in_at: z.string(),
  logged_out_at: z.string().nullable(),
  ip_address: z.string().nullable(),
  origin: z.string().nullable(),
});
export type Activity = z.infer<typeof activitySchema>;

export const apiKeyEventSchema = z.object({
  id: z.string(),
  event: z.enum(['generated', 'revoked']),
  key_prefix: z.string().nullable(),
  actor_email: z.string().nullable(),
  created_at: z.string(),
});
export type ApiKeyEvent = z.infer<typeof apiKeyEventSchema>;

export const userDetailSchema = accountSchema.extend({
  role_subscriptions: z.array(roleSubscriptionSchema).optional(),
  user_authentication_activities: z.array(activitySchema).optional(),
  latest_activity: z
    .object({ logged_in_at: z.string(), logged_out_at: z.string().nullable(), ip_address: z.string().nullable(), origin: z.string().nullable() })
    .nullable(),
  created_by_admin: z.object({ id: z.string(), email: z.string(), first_name: z.string(), last_name: z.string() }).nullable().optional(),
  api_key: z.object({ prefix: z.string(), created_at: z.string() }).nullable().optional().describe('the current API key (technical users): its public prefix, never the key'),
  api_key_events: z.array(apiKeyEventSchema).optional().describe('API key generations and revocations, newest first (last 20)'),
});
export type UserDetail = z.infer<typeof userDetailSchema>;

const subscriptionsInput = z
  .array(z.object({ subscription_id: z.string().min(1).max(64), role_ids: z.array(z.string().min(1).max(64)).max(200) }))
  .max(200);

/** Totals up to this are exact; above it `total` is this number and `total_is_lower_bound` is true (unless `count=exact`). */
export const USER_COUNT_EXACT_BELOW = 10_000;

export const userListMeta = listMeta.extend({
  total_is_lower_bound: z
    .boolean()
    .describe(`true: at least \`total\` users match (more than ${USER_COUNT_EXACT_BELOW}; ask \`count=exact\` for the exact number)`),
  next_cursor: z.string().nullable().describe('`cursor` of the next page (sorts by created_at); null on the last page'),
  prev_cursor: z.string().nullable().describe('`cursor` of the previous page (sorts by created_at); null on the first page'),
});
export type UserListMeta = z.infer<typeof userListMeta>;

export const listUsers = defineEndpoint({
  method: 'GET', path: '/api/admin/users', tag, access: 'admin', summary: 'List users (paginated, searchable, filterable; newest first)',
  query: z.object({
    ...pageQuery,
    ...userFilterQuery,
    sort: z.enum(USER_SORTS).default('-created_at').describe('column to sort by; `-` for descending'),
    cursor: z
      .string()
      .max(300)
      .optional()
      .describe('keyset paging (sorts by created_at): `next_cursor` or `prev_cursor` of the page before; then `page` is only echoed in `meta.page` (send the page number the cursor leads to). Without it, `page` pages by offset.'),
    count: z
      .enum(['bounded', 'exact'])
      .default('bounded')
      .describe(`bounded: \`total\` is exact up to ${USER_COUNT_EXACT_BELOW} matches, else ${USER_COUNT_EXACT_BELOW} with \`total_is_lower_bound\`; exact: counts every match (slower on large lists)`),
  }),
  response: z.object({ data: z.array(accountSchema), meta: userListMeta }),
  errors: { 401: ['unauthorized'], 403: ['forbidden'], 422: ['validation_failed'] },
});

export const getUser = defineEndpoint({
  method: 'GET', path: '/api/admin/users/:id', tag, access: 'admin', summary: 'User details with relations',
  params: idParams,
  query: z.object({ with: z.string().max(300).optional().describe(`comma-separated: ${USER_RELATIONS.join(', ')}`) }),
  response: dataOf(userDetailSchema),
  errors: { 401: ['unauthorized'], 403: ['forbidden'], 404: ['user_not_found'], 422: ['validation_failed'] },
});

export const createUser = defineEndpoint({
  method: 'POST', path: '/api/admin/users', tag, access: 'admin', summary: 'Create a user (CREDENTIALS accounts get an invitation e-mail)',
  body: z.object({
    email: emailSchema,
    first_name: personNameSchema,
    last_name: personNameSchema,
    locale: localeEnum,
    auth_type: z.enum(['CREDENTIALS', 'SSO']),
    provider: z.string().max(64).nullish(),
    technical: z.boolean().optional(),
    phone: phoneSchema.nullish(),
  }),
  status: 201,
  response: dataOf(accountSchema.extend({ invitation_sent: z.boolean() })),
  errors: { 401: ['unauthorized'], 403: ['forbidden'], 409: ['email_taken'], 422: ['validation_failed'] },
});

export const updateUser = defineEndpoint({
  method: 'PATCH', path: '/api/admin/users/:id', tag, access: 'admin',
  summary: 'Update a user; `subscriptions` replaces the roles held per subscription; status INACTIVE ends the sessions',
  params: idParams,
  body: z.object({
    first_name: personNameSchema.optional(),
    last_name: personNameSchema.optional(),
    phone: phoneSchema.nullish(),
    locale: localeEnum.optional(),
    status: z.enum(['ACTIVE', 'INACTIVE']).optional(),
    technical: z.boolean().optional().describe('fixed at creation: a different value is 422 technical_immutable'),
    subscriptions: subscriptionsInput.optional(),
  }),
  response: dataOf(userDetailSchema),
  errors: { 401: ['unauthorized'], 403: ['forbidden'], 404: ['user_not_found'], 422: ['validation_failed'] },
});

export const deleteUser = defineEndpoint({
  method: 'DELETE', path: '/api/admin/users/:id', tag, access: 'admin', summary: 'Delete a user (ends its sessions)',
  params: idParams,
  response: deletedAnswer,
  errors: { 401: ['unauthorized'], 403: ['forbidden'], 404: ['user_not_found'] },
});

export const inviteUser = defineEndpoint({
  method: 'POST', path: '/api/admin/users/:id/invite', tag, access: 'admin', summary: 'Send the invitation e-mail again (409 when the account is already verified; at most 3 an hour per recipient, then 429 `invitation_resend_limited` with Retry-After)',
  params: idParams,
  response: dataOf(z.object({ id: z.string(), invitation_sent: z.boolean() })),
  errors: { 401: ['unauthorized'], 403: ['forbidden'], 404: ['user_not_found'], 409: ['already_verified', 'invitation_not_applicable'], 429: ['invitation_resend_limited'] },
});

export const endUserSessions = defineEndpoint({
  method: 'POST', path: '/api/admin/users/:id/end-sessions', tag, access: 'admin',
  summary: "Sign a user out everywhere: ends every session and grant of the user (their tokens stop at once) and tells the service apps with a back-channel logout URI; `grants_ended` counts the grants",
  params: idParams,
  response: dataOf(z.object({ id: z.string(), grants_ended: z.number().int() })),
  errors: { 401: ['unauthorized'], 403: ['forbidden'], 404: ['user_not_found'] },
});

/** What a bulk action does to each selected user (each row on its own, in its own transaction). */
export const BULK_USER_ACTIONS = ['invite', 'deactivate', 'delete', 'assign_subscription'] as const;
export type BulkUserAction = (typeof BULK_USER_ACTIONS)[number];
/** Users per bulk request; the SPA sends larger selections in chunks of this size to show progress. */

export const bulkResultSchema = z.object({
  id: z.string(),
  ok: z.boolean(),
  code: z.string().nullable().describe('the error code of a row that was not changed (user_not_found, already_verified, …)'),
});
export type BulkResult = z.infer<typeof bulkResultSchema>;

export const bulkUsers = defineEndpoint({
  method: 'POST', path: '/api/admin/users/bulk', tag, access: 'admin',
  summary: 'Apply one action to several users: each row is applied entirely or not at all, and answered with its own result',
  body: z.object({
    action: z.enum(BULK_USER_ACTIONS),
    ids: z.array(z.string().min(1).max(64)).min(1).max(BULK_MAX_IDS),
    subscription_id: z.string().min(1).max(64).optional().describe('assign_subscription: the subscription (required)'),
    role_ids: z.array(z.string().min(1).max(64)).max(200).optional().describe("assign_subscription: the subscription's roles the users get (at least one); replaces the roles they held in it"),
  }),
  response: dataOf(z.object({ results: z.array(bulkResultSchema), succeeded: z.number().int(), failed: z.number().int() })),
  errors: { 401: ['unauthorized'], 403: ['forbidden'], 422: ['validation_failed'] },
});
