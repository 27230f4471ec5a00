/** The signed-in account's own profile and avatar (users: /api/user…, admins: /api/admin…), and avatar files. */
import { z } from 'zod';
import { defineEndpoint } from './endpoint';
import { accountSchema, dataOf, localeEnum } from './common';
import { emailSchema, personNameSchema, phoneSchema } from './domain/formats';
import type { AccountKind } from './account';

export const profileBody = z.object({
  first_name: personNameSchema.optional(),
  last_name: personNameSchema.optional(),
  phone: phoneSchema.nullish(),
  locale: localeEnum.optional(),
  email: emailSchema.optional(),
  current_password: z.string().max(200).optional().describe('required to change the e-mail address'),
});
export type ProfileInput = z.infer<typeof profileBody>;

const tagOf = <K extends AccountKind>(kind: K) => `profile: ${kind}` as const;

function updateProfile<K extends AccountKind>(kind: K) {
  return defineEndpoint({
    method: 'PATCH', path: `/api/${kind}`, tag: tagOf(kind), access: kind,
    summary: 'Update the own profile (e-mail change needs current_password); answer has data.locale',
    body: profileBody,
    response: dataOf(accountSchema),
    errors: { 401: ['unauthorized'], 403: ['forbidden'], 409: ['email_taken'], 422: ['validation_failed', 'current_password_invalid'] },
  });
}
export const updateUserProfile = updateProfile('user');
export const updateAdminProfile = updateProfile('admin');

/**
 * The upload is `multipart/form-data` with the file in the field `avatar` (no JSON body): the SPA sends a FormData
 * to `pathOf(endpoint)`.
 */
function uploadAvatar<K extends AccountKind>(kind: K) {
  return defineEndpoint({
    method: 'POST', path: `/api/${kind}/avatar`, tag: tagOf(kind), access: kind,
    summary: 'Upload the avatar (multipart field `avatar`; JPG or PNG by content, at most 1200x600 and 2 MB; stored re-encoded as PNG without metadata)',
    response: dataOf(z.object({ avatar_url: z.string() })),
    errors: { 401: ['unauthorized'], 403: ['forbidden'], 413: ['avatar_too_large'], 422: ['validation_failed', 'avatar_invalid_type', 'avatar_too_large_dimensions'] },
  });
}
export const uploadUserAvatar = uploadAvatar('user');
export const uploadAdminAvatar = uploadAvatar('admin');

function removeAvatar<K extends AccountKind>(kind: K) {
  return defineEndpoint({
    method: 'DELETE', path: `/api/${kind}/avatar`, tag: tagOf(kind), access: kind,
    summary: 'Remove the avatar',
    response: dataOf(z.object({ avatar_url: z.null() })),
    errors: { 401: ['unauthorized'], 403: ['forbidden'] },
  });
}
export const removeUserAvatar = removeAvatar('user');
export const removeAdminAvatar = removeAvatar('admin');

/** An avatar file (PNG bytes, not JSON). */
export const avatarFile = defineEndpoint({
  method: 'GET', path: '/api/avatars/:file', tag: 'profile: user', access: 'public',
  summary: 'An avatar image (PNG)',
  params: z.object({ file: z.string().max(64) }),
  response: z.string().describe('image/png'),
  errors: { 404: ['avatar_not_found'] },
});

/** The endpoints of one kind of account. */
export const byKind = {
  user: { updateProfile: updateUserProfile, uploadAvatar: uploadUserAvatar, removeAvatar: removeUserAvatar },
  admin: { updateProfile: updateAdminProfile, uploadAvatar: uploadAdminAvatar, removeAvatar: removeAdminAvatar },
} as const;
