/**
 * The signed-in account's own security, and the account operations around it: change password, invitation
 * and reset links, expired password, two-factor enrollment, and (for admins) setting a user's password,
 * verifying an e-mail by hand, API keys of technical users and lockouts. Profile and avatar: contract/profile.ts.
 *
 * Routes: server/routes/account/*.routes.ts; services: server/services/account-passwords.ts, two-factor.ts,
 * api-keys.ts, locks.ts.
 */
import { z } from 'zod';
import { defineEndpoint } from './endpoint';
import { dataOf } from './common';
import { emailSchema, NO_CONTROL } from './domain/formats';
import { passwordSchema } from './domain/password-policy';

export type AccountKind = 'user' | 'admin';

/**
 * `{password, password_confirmation}` plus `extra`, with the confirmation rule ('Passwords do not match').
 * `password` is the shared policy; the server passes its stricter schema (adds `password_common`).
 */
export function newPasswordBody<T extends z.ZodRawShape>(extra: T, password: typeof passwordSchema = passwordSchema) {
  return z
    .object({ ...extra, password, password_confirmation: z.string().max(200) })
    .superRefine((v, ctx) => {
      const { password: given, password_confirmation } = v as { password: string; password_confirmation: string };
      if (given !== password_confirmation) {
        ctx.addIssue({ code: 'custom', path: ['password_confirmation'], message: 'password_mismatch', params: { code: 'password_mismatch' } });
      }
    });
}

/** The bodies that carry a new password, built with a password schema (the server adds its own rule). */
export const passwordBodies = (password: typeof passwordSchema = passwordSchema) => ({
  change: newPasswordBody({ current_password: z.string().min(1).max(200) }, password),
  setUser: newPasswordBody({ uuid: z.string().trim().min(1).max(64).regex(NO_CONTROL) }, password),
  invitation: newPasswordBody({ url: z.string().min(1).max(4096) }, password),
  reset: newPasswordBody({ url: z.string().min(1).max(4096).optional(), reset_token: z.string().min(1).max(512).optional() }, password),
});
const bodies = passwordBodies();

const flowOf = <F extends 'cp' | 'sc'>(flow: F) => dataOf(z.object({ flow: z.literal(flow) }));
/** The parameters of a signed link (`?token=&expires=&signature=`). */
const linkQuery = z.object({
  token: z.string().max(256).optional(),
  expires: z.string().max(32).optional(),
  signature: z.string().max(256).optional(),
});
const validLink = dataOf(z.object({ valid: z.literal(true), email: z.string() }));
const locked = ['account_locked', 'too_many_requests'] as const;
/** The code left empty or wrong answers as at sign-in (contract/auth.ts): `otp_required`, `otp_invalid`, with the field. */
const secondFactorInvalid = ['validation_failed', 'otp_required', 'otp_invalid'] as const;

// ---------------------------------------------------------------- change password

function changePassword<K extends AccountKind>(kind: K) {
  return defineEndpoint({
    method: 'POST', path: `/api/${kind}/change-password`, tag: 'password', access: kind,
    summary: `Changes the signed-in ${kind}'s password; ends the account's other sessions and mails a notice`,
    body: bodies.change,
    response: flowOf('cp'),
    errors: { 401: ['unauthorized'], 403: ['forbidden', 'api_key_not_allowed'], 422: ['validation_failed'], 429: locked },
  });
}
export const changeUserPassword = changePassword('user');
export const changeAdminPassword = changePassword('admin');

/** Admins (super_admin, manager) set a user's password. */
export const setUserPassword = defineEndpoint({
  method: 'POST', path: '/api/admin/user/change-password', tag: 'password', access: 'admin',
  summary: "Sets a user's password (admin); ends all of that user's sessions",
  body: bodies.setUser,
  response: dataOf(z.object({ id: z.string() })),
  errors: { 401: ['unauthorized'], 403: ['forbidden'], 404: ['not_found'], 422: ['validation_failed'] },
});

export const verifyUserManually = defineEndpoint({
  method: 'POST', path: '/api/admin/user/verify-manually', tag: 'password', access: 'admin',
  summary: "Marks a user's e-mail as verified (admin)",
  body: z.object({ uuid: z.string().trim().min(1).max(64).regex(NO_CONTROL) }),
  response: dataOf(z.object({ id: z.string(), email_verified_at: z.string() })),
  errors: { 401: ['unauthorized'], 403: ['forbidden'], 404: ['not_found'], 422: ['validation_failed'] },
});

// ---------------------------------------------------------------- invitation

function checkInvitationLink<K extends AccountKind>(kind: K) {
  return defineEndpoint({
    method: 'GET', path: `/api/${kind}/verify-link`, tag: 'invitation', access: 'public',
    summary: `Checks a signed ${kind} invitation link (the full URL from the verify page's url parameter)`,
    query: linkQuery,
    response: validLink,
    errors: { 403: ['invalid_link'], 422: ['validation_failed'] },
  });
}
export const checkUserInvitationLink = checkInvitationLink('user');
export const checkAdminInvitationLink = checkInvitationLink('admin');

function finishInvitation<K extends AccountKind>(kind: K) {
  return defineEndpoint({
    method: 'POST', path: `/api/${kind}/verify`, tag: 'invitation', access: 'public',
    summary: `Finishes the ${kind} invitation: sets the password (the link works once)`,
    body: bodies.invitation,
    response: flowOf('sc'),
    errors: { 403: ['invalid_link'], 422: ['validation_failed'], 429: ['too_many_requests'] },
  });
}
export const finishUserInvitation = finishInvitation('user');
export const finishAdminInvitation = finishInvitation('admin');

// ---------------------------------------------------------------- password reset

const resetBase = <K extends AccountKind>(kind: K) => (kind === 'admin' ? '/api/admin' : '/api') as K extends 'admin' ? '/api/admin' : '/api';

function forgotPassword<K extends AccountKind>(kind: K) {
  return defineEndpoint({
    method: 'POST', path: `${resetBase(kind)}/forgot-password`, tag: 'password reset', access: 'public',
    summary: `Mails a ${kind} password reset link. Same answer whether or not the e-mail exists (unless IAM_FORGOT_PASSWORD_REVEAL=true)`,
    body: z.object({ email: emailSchema }),
    response: dataOf(z.object({ message: z.string() })),
    errors: { 404: ['email_not_found'], 422: ['validation_failed'], 429: ['too_many_requests'] },
  });
}
export const forgotUserPassword = forgotPassword('user');
export const forgotAdminPassword = forgotPassword('admin');

function checkResetLink<K extends AccountKind>(kind: K) {
  return defineEndpoint({
    method: 'GET', path: `${resetBase(kind)}/reset-password-link`, tag: 'password reset', access: 'public',
    summary: `Checks a signed ${kind} reset link (GET the full URL from the reset page's url parameter)`,
    query: linkQuery,
    response: validLink,
    errors: { 403: ['invalid_link'], 422: ['validation_failed'] },
  });
}
export const checkUserResetLink = checkResetLink('user');
export const checkAdminResetLink = checkResetLink('admin');

function checkResetToken<K extends AccountKind>(kind: K) {
  return defineEndpoint({
    method: 'POST', path: `${resetBase(kind)}/reset-password-token`, tag: 'password reset', access: 'public',
    summary: `Checks a ${kind} reset link given as {url}: 200 or 403 invalid_link`,
    body: z.object({ url: z.string().min(1).max(4096) }),
    response: validLink,
    errors: { 403: ['invalid_link'], 422: ['validation_failed'] },
  });
}
export const checkUserResetToken = checkResetToken('user');
export const checkAdminResetToken = checkResetToken('admin');

function resetPassword<K extends AccountKind>(kind: K) {
  return defineEndpoint({
    method: 'POST', path: `${resetBase(kind)}/reset-password`, tag: 'password reset', access: 'public',
    summary: `Sets a new ${kind} password from a reset link {url} or the expired-password {reset_token}; ends every session`,
    body: bodies.reset,
    response: flowOf('cp'),
    errors: { 403: ['invalid_link'], 422: ['validation_failed'], 429: ['too_many_requests'] },
  });
}
export const resetUserPassword = resetPassword('user');
export const resetAdminPassword = resetPassword('admin');

// ---------------------------------------------------------------- two-factor enrollment (user or admin)

const otpBody = z.object({ one_time_password: z.string().max(64).optional() });
const recoveryCodes = dataOf(z.object({ recovery_codes: z.array(z.string()) }));

export const createTotpSecret = defineEndpoint({
  method: 'POST', path: '/api/2fa/google/secret', tag: 'two-factor', access: 'account',
  summary: 'Starts authenticator-app enrollment: a new secret (pending until enabled) and its otpauth:// URL for the QR code',
  response: dataOf(z.object({ secret: z.string(), otpauth_url: z.string() })),
  errors: { 401: ['unauthorized'], 403: ['api_key_not_allowed'], 409: ['two_factor_already_enabled'] },
});

export const enableTotp = defineEndpoint({
  method: 'POST', path: '/api/2fa/google/enable', tag: 'two-factor', access: 'account',
  summary: 'Confirms authenticator-app enrollment with a current code; returns 10 recovery codes (shown once)',
  body: otpBody,
  response: recoveryCodes,
  errors: { 401: ['unauthorized'], 403: ['api_key_not_allowed'], 409: ['two_factor_already_enabled', 'two_factor_not_started'], 422: secondFactorInvalid, 429: locked },
});

export const sendEnrollmentSms = defineEndpoint({
  method: 'POST', path: '/api/2fa/sms/send', tag: 'two-factor', access: 'account',
  summary: 'Sends an SMS code to the profile phone: the enrollment code, or (SMS 2FA active) the code that confirms disabling',
  response: dataOf(z.object({ status: z.literal('sent') })),
  errors: { 401: ['unauthorized'], 403: ['api_key_not_allowed'], 409: ['two_factor_already_enabled'], 422: ['phone_required'], 429: ['too_many_requests'] },
});

export const enableSms = defineEndpoint({
  method: 'POST', path: '/api/2fa/sms/enable', tag: 'two-factor', access: 'account',
  summary: 'Confirms SMS enrollment with the code sent; returns 10 recovery codes (shown once)',
  body: otpBody,
  response: recoveryCodes,
  errors: { 401: ['unauthorized'], 403: ['api_key_not_allowed'], 409: ['two_factor_already_enabled'], 422: secondFactorInvalid, 429: locked },
});

export const disableTwoFactor = defineEndpoint({
  method: 'POST', path: '/api/2fa/disable', tag: 'two-factor', access: 'account',
  summary: 'Turns 2FA off; needs a fresh code (authenticator, or the SMS from /2fa/sms/send) or the current password',
  body: z.object({ one_time_password: z.string().max(64).optional(), password: z.string().max(200).optional() }).nullish(),
  response: dataOf(z.object({ enabled: z.literal(false) })),
  errors: { 401: ['unauthorized'], 403: ['api_key_not_allowed'], 422: secondFactorInvalid, 429: locked },
});

// ---------------------------------------------------------------- API keys of technical users (super_admin, manager)

const userIdParams = z.object({ id: z.string().min(1).max(64).regex(NO_CONTROL) });

/** `iam_<8 hex prefix>_<43 base64url>`: the format of an API key. */
export const API_KEY_RE = /^iam_[0-9a-f]{8}_[A-Za-z0-9_-]{43}$/;

export const generateApiKey = defineEndpoint({
  method: 'POST', path: '/api/admin/users/:id/token-generate', tag: 'api keys', access: 'admin',
  summary: 'Generates an API key for a technical user (shown once; replaces the previous key; audited, the owner is mailed)',
  params: userIdParams,
  response: dataOf(z.object({ api_key: z.string() })),
  errors: { 401: ['unauthorized'], 403: ['forbidden'], 404: ['not_found'], 422: ['not_technical', 'validation_failed'] },
});

export const revokeApiKey = defineEndpoint({
  method: 'DELETE', path: '/api/admin/users/:id/token', tag: 'api keys', access: 'admin',
  summary: "Revokes a technical user's API key at once (audited, the owner is mailed); `revoked: false` when there was none",
  params: userIdParams,
  response: dataOf(z.object({ id: z.string(), revoked: z.boolean() })),
  errors: { 401: ['unauthorized'], 403: ['forbidden'], 404: ['not_found'] },
});

// ---------------------------------------------------------------- lockouts (super_admin, manager)

export const lockSchema = z.object({ key: z.string(), failures: z.number().int(), locked_until: z.string(), retry_after_seconds: z.number().int() });
export type Lock = z.infer<typeof lockSchema>;

export const listLocks = defineEndpoint({
  method: 'GET', path: '/api/admin/locks', tag: 'account security', access: 'admin',
  summary: 'Locked keys (accounts, e-mails, IP addresses) with their lock end. A manager sees only the locks of users (`account:`/`otp:` of user accounts, `email:user:`), never those of admins or IP addresses',
  query: z.object({
    account_id: z.string().trim().min(1).max(64).regex(NO_CONTROL).optional(),
    prefix: z.string().trim().min(1).max(200).regex(NO_CONTROL).optional(),
  }),
  response: z.object({ data: z.array(lockSchema) }),
  errors: { 401: ['unauthorized'], 403: ['forbidden'], 422: ['validation_failed'] },
});

export const clearLock = defineEndpoint({
  method: 'DELETE', path: '/api/admin/locks/:key', tag: 'account security', access: 'admin',
  summary: 'Clears a lock (and its failure counter); the key is URL-encoded, e.g. account%3A<id>. Audited (`lock.cleared`). A manager may clear only the locks of users (403 `lock_forbidden` for an admin\'s or an IP address\'s lock)',
  params: z.object({ key: z.string().min(3).max(300).regex(NO_CONTROL) }),
  response: dataOf(z.object({ cleared: z.literal(true) })),
  errors: { 401: ['unauthorized'], 403: ['forbidden', 'lock_forbidden'], 404: ['lock_not_found'], 422: ['validation_failed'] },
});

/** The endpoints of one kind of account, for screens that serve users and admins alike. */
export const byKind = {
  user: {
    changePassword: changeUserPassword, checkInvitationLink: checkUserInvitationLink, finishInvitation: finishUserInvitation,
    forgotPassword: forgotUserPassword, checkResetLink: checkUserResetLink, checkResetToken: checkUserResetToken, resetPassword: resetUserPassword,
  },
  admin: {
    changePassword: changeAdminPassword, checkInvitationLink: checkAdminInvitationLink, finishInvitation: finishAdminInvitation,
    forgotPassword: forgotAdminPassword, checkResetLink: checkAdminResetLink, checkResetToken: checkAdminResetToken, resetPassword: resetAdminPassword,
  },
} as const;
