/**
 * Every endpoint's method and path, without its schemas: what a client needs at run time to call it. Importing an
 * area module of the contract (contract/auth.ts…) builds all its zod schemas, so the SPA's eagerly loaded code (the
 * entry chunk, the login screen) calls through these entries instead and keeps zod out of the first load
 * (BENCHMARKS.md "Smaller first load"). Each entry's type still carries its endpoint (`Route<typeof auth.login>`,
 * types only), so `call(auth.login, …)` is typed exactly as with the contract module, and a method or path that
 * differs from the endpoint's fails tsc. The back office's tables are in contract/routes-admin.ts, a module of its own
 * (not re-exported here), so that the entry chunk, which calls through this one, does not carry them.
 * tests/contract/routes.test.ts checks that every endpoint has its entry in one of the two and that there is nothing
 * else. Add an endpoint: add its line to the table of its area.
 */
import { route } from './endpoint';
import type * as authEndpoints from './auth';
import type * as accountEndpoints from './account';
import type * as profileEndpoints from './profile';
import type * as systemEndpoints from './system';

export const auth = {
  adminLogin: route<typeof authEndpoints.adminLogin>('POST', '/api/admin/login'),
  adminValidateOtp: route<typeof authEndpoints.adminValidateOtp>('POST', '/api/admin/2fa/validate-otp'),
  currentAdmin: route<typeof authEndpoints.currentAdmin>('GET', '/api/admin'),
  currentUser: route<typeof authEndpoints.currentUser>('GET', '/api/user'),
  interactionStatus: route<typeof authEndpoints.interactionStatus>('GET', '/api/interactions/:interaction'),
  login: route<typeof authEndpoints.login>('POST', '/api/login'),
  logout: route<typeof authEndpoints.logout>('POST', '/api/logout'),
  resendSms: route<typeof authEndpoints.resendSms>('POST', '/api/2fa/sms/resend'),
  ssoCallback: route<typeof authEndpoints.ssoCallback>('GET', '/api/sso/:provider/callback'),
  ssoStart: route<typeof authEndpoints.ssoStart>('GET', '/api/sso/:provider/start'),
  validateOtp: route<typeof authEndpoints.validateOtp>('POST', '/api/2fa/google/validate-otp'),
  validateRecoveryCode: route<typeof authEndpoints.validateRecoveryCode>('POST', '/api/2fa/validate-recovery-code'),
  verifySms: route<typeof authEndpoints.verifySms>('POST', '/api/2fa/sms/verify'),
} as const;

export const account = {
  changeAdminPassword: route<typeof accountEndpoints.changeAdminPassword>('POST', '/api/admin/change-password'),
  changeUserPassword: route<typeof accountEndpoints.changeUserPassword>('POST', '/api/user/change-password'),
  checkAdminInvitationLink: route<typeof accountEndpoints.checkAdminInvitationLink>('GET', '/api/admin/verify-link'),
  checkAdminResetLink: route<typeof accountEndpoints.checkAdminResetLink>('GET', '/api/admin/reset-password-link'),
  checkAdminResetToken: route<typeof accountEndpoints.checkAdminResetToken>('POST', '/api/admin/reset-password-token'),
  checkUserInvitationLink: route<typeof accountEndpoints.checkUserInvitationLink>('GET', '/api/user/verify-link'),
  checkUserResetLink: route<typeof accountEndpoints.checkUserResetLink>('GET', '/api/reset-password-link'),
  checkUserResetToken: route<typeof accountEndpoints.checkUserResetToken>('POST', '/api/reset-password-token'),
  clearLock: route<typeof accountEndpoints.clearLock>('DELETE', '/api/admin/locks/:key'),
  createTotpSecret: route<typeof accountEndpoints.createTotpSecret>('POST', '/api/2fa/google/secret'),
  disableTwoFactor: route<typeof accountEndpoints.disableTwoFactor>('POST', '/api/2fa/disable'),
  enableSms: route<typeof accountEndpoints.enableSms>('POST', '/api/2fa/sms/enable'),
  enableTotp: route<typeof accountEndpoints.enableTotp>('POST', '/api/2fa/google/enable'),
  finishAdminInvitation: route<typeof accountEndpoints.finishAdminInvitation>('POST', '/api/admin/verify'),
  finishUserInvitation: route<typeof accountEndpoints.finishUserInvitation>('POST', '/api/user/verify'),
  forgotAdminPassword: route<typeof accountEndpoints.forgotAdminPassword>('POST', '/api/admin/forgot-password'),
  forgotUserPassword: route<typeof accountEndpoints.forgotUserPassword>('POST', '/api/forgot-password'),
  generateApiKey: route<typeof accountEndpoints.generateApiKey>('POST', '/api/admin/users/:id/token-generate'),
  listLocks: route<typeof accountEndpoints.listLocks>('GET', '/api/admin/locks'),
  resetAdminPassword: route<typeof accountEndpoints.resetAdminPassword>('POST', '/api/admin/reset-password'),
  resetUserPassword: route<typeof accountEndpoints.resetUserPassword>('POST', '/api/reset-password'),
  revokeApiKey: route<typeof accountEndpoints.revokeApiKey>('DELETE', '/api/admin/users/:id/token'),
  sendEnrollmentSms: route<typeof accountEndpoints.sendEnrollmentSms>('POST', '/api/2fa/sms/send'),
  setUserPassword: route<typeof accountEndpoints.setUserPassword>('POST', '/api/admin/user/change-password'),
  verifyUserManually: route<typeof accountEndpoints.verifyUserManually>('POST', '/api/admin/user/verify-manually'),
} as const;

export const profile = {
  avatarFile: route<typeof profileEndpoints.avatarFile>('GET', '/api/avatars/:file'),
  removeAdminAvatar: route<typeof profileEndpoints.removeAdminAvatar>('DELETE', '/api/admin/avatar'),
  removeUserAvatar: route<typeof profileEndpoints.removeUserAvatar>('DELETE', '/api/user/avatar'),
  updateAdminProfile: route<typeof profileEndpoints.updateAdminProfile>('PATCH', '/api/admin'),
  updateUserProfile: route<typeof profileEndpoints.updateUserProfile>('PATCH', '/api/user'),
  uploadAdminAvatar: route<typeof profileEndpoints.uploadAdminAvatar>('POST', '/api/admin/avatar'),
  uploadUserAvatar: route<typeof profileEndpoints.uploadUserAvatar>('POST', '/api/user/avatar'),
} as const;

export const system = {
  checkSetupLink: route<typeof systemEndpoints.checkSetupLink>('GET', '/api/setup/:token'),
  clientConfig: route<typeof systemEndpoints.clientConfig>('GET', '/api/config'),
  completeSetup: route<typeof systemEndpoints.completeSetup>('POST', '/api/setup'),
  health: route<typeof systemEndpoints.health>('GET', '/api/health'),
  languages: route<typeof systemEndpoints.languages>('GET', '/api/languages'),
  live: route<typeof systemEndpoints.live>('GET', '/api/health/live'),
  ready: route<typeof systemEndpoints.ready>('GET', '/api/health/ready'),
} as const;

/** The endpoints of contract/account.ts that exist for both account kinds, by kind (as `byKind` there). */
export const accountByKind = {
  user: {
    changePassword: account.changeUserPassword, checkInvitationLink: account.checkUserInvitationLink, finishInvitation: account.finishUserInvitation,
    forgotPassword: account.forgotUserPassword, checkResetLink: account.checkUserResetLink, checkResetToken: account.checkUserResetToken, resetPassword: account.resetUserPassword,
  },
  admin: {
    changePassword: account.changeAdminPassword, checkInvitationLink: account.checkAdminInvitationLink, finishInvitation: account.finishAdminInvitation,
    forgotPassword: account.forgotAdminPassword, checkResetLink: account.checkAdminResetLink, checkResetToken: account.checkAdminResetToken, resetPassword: account.resetAdminPassword,
  },
} as const;
