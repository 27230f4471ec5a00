/** Admin accounts (super_admin only). */
import { z } from 'zod';
import { defineEndpoint } from '../endpoint';
import { accountSchema, dataOf, deletedAnswer, idParams, listOf, localeEnum, pageQuery } from '../common';
import { ADMIN_ROLES } from '../domain/admin-roles';
import { emailSchema, personNameSchema } from '../domain/formats';

const tag = 'admin: admins';
export const adminRoleEnum = z.enum(ADMIN_ROLES);
export type AdminRoleName = z.infer<typeof adminRoleEnum>;

export const listAdmins = defineEndpoint({
  method: 'GET', path: '/api/admin/admins', tag, access: 'super_admin', summary: 'List admins (paginated, searchable)',
  query: z.object({ ...pageQuery, search: z.string().trim().max(200).optional(), role: adminRoleEnum.optional() }),
  response: listOf(accountSchema),
  errors: { 401: ['unauthorized'], 403: ['forbidden'], 422: ['validation_failed'] },
});

export const getAdmin = defineEndpoint({
  method: 'GET', path: '/api/admin/admins/:id', tag, access: 'super_admin', summary: 'One admin',
  params: idParams,
  response: dataOf(accountSchema),
  errors: { 401: ['unauthorized'], 403: ['forbidden'], 404: ['admin_not_found'] },
});

export const createAdmin = defineEndpoint({
  method: 'POST', path: '/api/admin/admins', tag, access: 'super_admin', summary: 'Create an admin; invited by e-mail to /verify/admin',
  body: z.object({ email: emailSchema, first_name: personNameSchema, last_name: personNameSchema, role: adminRoleEnum, locale: localeEnum.optional() }),
  status: 201,
  response: dataOf(accountSchema.extend({ invitation_sent: z.boolean() })),
  errors: { 401: ['unauthorized'], 403: ['forbidden'], 409: ['email_taken'], 422: ['validation_failed'] },
});

export const updateAdmin = defineEndpoint({
  method: 'PATCH', path: '/api/admin/admins/:id', tag, access: 'super_admin',
  summary: "Change an admin's role (the last super_admin cannot be demoted: 409 last_super_admin)",
  params: idParams,
  body: z.object({ role: adminRoleEnum }),
  response: dataOf(accountSchema),
  errors: { 401: ['unauthorized'], 403: ['forbidden'], 404: ['admin_not_found'], 409: ['last_super_admin'], 422: ['validation_failed'] },
});

export const deleteAdmin = defineEndpoint({
  method: 'DELETE', path: '/api/admin/admins/:id', tag, access: 'super_admin',
  summary: 'Delete an admin (403 cannot_delete_self for your own account, 409 last_super_admin)',
  params: idParams,
  response: deletedAnswer,
  errors: { 401: ['unauthorized'], 403: ['forbidden', 'cannot_delete_self'], 404: ['admin_not_found'], 409: ['last_super_admin'] },
});

export const inviteAdmin = defineEndpoint({
  method: 'POST', path: '/api/admin/admins/:id/invite', tag, access: 'super_admin', summary: 'Send the admin invitation again (at most 3 an hour per recipient, then 429 `invitation_resend_limited` with Retry-After)',
  params: idParams,
  response: dataOf(z.object({ id: z.string(), invitation_sent: z.boolean() })),
  errors: { 401: ['unauthorized'], 403: ['forbidden'], 404: ['admin_not_found'], 409: ['already_verified', 'invitation_not_applicable'], 429: ['invitation_resend_limited'] },
});
