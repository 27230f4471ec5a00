/**
 * Every endpoint's method and path, without its schemas: what a client needs at run time to call it. Importing an
 * area module of the contract (contract/auth.ts…) builds all its zod schemas, so the SPA's eagerly loaded code (the
 * entry chunk, the login screen) calls through these entries instead and keeps zod out of the first load
 * (BENCHMARKS.md "Smaller first load"). Each entry's type still carries its endpoint (`Route<typeof auth.login>`,
 * types only), so `call(auth.login, …)` is typed exactly as with the contract module, and a method or path that
 * differs from the endpoint's fails tsc. tests/contract/routes.test.ts checks that every endpoint has its entry here
 * and that there is nothing else. Add an endpoint: add its line to the table of its area.
 */
import type { EndpointShape, Route } from './endpoint';
import type * as adminCatalogEndpoints from './admin/catalog';
import type * as adminServiceAppsEndpoints from './admin/service-apps';
import type * as authEndpoints from './auth';
import type * as accountEndpoints from './account';
import type * as profileEndpoints from './profile';
import type * as systemEndpoints from './system';
import type * as adminUsersEndpoints from './admin/users';
import type * as adminImportEndpoints from './admin/import';
import type * as adminAdminsEndpoints from './admin/admins';
import type * as adminLogsEndpoints from './admin/logs';

const route = <E extends EndpointShape>(method: E['method'], path: E['path']): Route<E> => ({ method, path });

export const adminCatalog = {
  createRole: route<typeof adminCatalogEndpoints.createRole>('POST', '/api/admin/roles'),
  createSubscription: route<typeof adminCatalogEndpoints.createSubscription>('POST', '/api/admin/subscriptions'),
  deleteRole: route<typeof adminCatalogEndpoints.deleteRole>('DELETE', '/api/admin/roles/:id'),
  deleteSubscription: route<typeof adminCatalogEndpoints.deleteSubscription>('DELETE', '/api/admin/subscriptions/:id'),
  getRole: route<typeof adminCatalogEndpoints.getRole>('GET', '/api/admin/roles/:id'),
  getSubscription: route<typeof adminCatalogEndpoints.getSubscription>('GET', '/api/admin/subscriptions/:id'),
  listRoles: route<typeof adminCatalogEndpoints.listRoles>('GET', '/api/admin/roles'),
  listSubscriptions: route<typeof adminCatalogEndpoints.listSubscriptions>('GET', '/api/admin/subscriptions'),
  updateRole: route<typeof adminCatalogEndpoints.updateRole>('PATCH', '/api/admin/roles/:id'),
  updateSubscription: route<typeof adminCatalogEndpoints.updateSubscription>('PATCH', '/api/admin/subscriptions/:id'),
} as const;

export const adminServiceApps = {
  createServiceApp: route<typeof adminServiceAppsEndpoints.createServiceApp>('POST', '/api/admin/service-apps'),
  deleteServiceApp: route<typeof adminServiceAppsEndpoints.deleteServiceApp>('DELETE', '/api/admin/service-apps/:id'),
  getServiceApp: route<typeof adminServiceAppsEndpoints.getServiceApp>('GET', '/api/admin/service-apps/:id'),
  listServiceApps: route<typeof adminServiceAppsEndpoints.listServiceApps>('GET', '/api/admin/service-apps'),
  updateServiceApp: route<typeof adminServiceAppsEndpoints.updateServiceApp>('PATCH', '/api/admin/service-apps/:id'),
} as const;

export const auth = {
  adminLogin: route<typeof authEndpoints.adminLogin>('POST', '/api/admin/login'),
  adminValidateOtp: route<typeof authEndpoints.adminValidateOtp>('POST', '/api/admin/2fa/validate-otp'),
  currentAdmin: route<typeof authEndpoints.currentAdmin>('GET', '/api/admin'),
  currentUser: route<typeof authEndpoints.currentUser>('GET', '/api/user'),
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

export const adminUsers = {
  bulkUsers: route<typeof adminUsersEndpoints.bulkUsers>('POST', '/api/admin/users/bulk'),
  createUser: route<typeof adminUsersEndpoints.createUser>('POST', '/api/admin/users'),
  deleteUser: route<typeof adminUsersEndpoints.deleteUser>('DELETE', '/api/admin/users/:id'),
  getUser: route<typeof adminUsersEndpoints.getUser>('GET', '/api/admin/users/:id'),
  inviteUser: route<typeof adminUsersEndpoints.inviteUser>('POST', '/api/admin/users/:id/invite'),
  listUsers: route<typeof adminUsersEndpoints.listUsers>('GET', '/api/admin/users'),
  updateUser: route<typeof adminUsersEndpoints.updateUser>('PATCH', '/api/admin/users/:id'),
} as const;

export const adminImport = {
  cancelImportJob: route<typeof adminImportEndpoints.cancelImportJob>('POST', '/api/admin/users/import/:id/cancel'),
  exportUsers: route<typeof adminImportEndpoints.exportUsers>('GET', '/api/admin/users/export'),
  getImportJob: route<typeof adminImportEndpoints.getImportJob>('GET', '/api/admin/users/import/:id'),
  importUsers: route<typeof adminImportEndpoints.importUsers>('POST', '/api/admin/users/import'),
} as const;

export const adminAdmins = {
  createAdmin: route<typeof adminAdminsEndpoints.createAdmin>('POST', '/api/admin/admins'),
  deleteAdmin: route<typeof adminAdminsEndpoints.deleteAdmin>('DELETE', '/api/admin/admins/:id'),
  getAdmin: route<typeof adminAdminsEndpoints.getAdmin>('GET', '/api/admin/admins/:id'),
  inviteAdmin: route<typeof adminAdminsEndpoints.inviteAdmin>('POST', '/api/admin/admins/:id/invite'),
  listAdmins: route<typeof adminAdminsEndpoints.listAdmins>('GET', '/api/admin/admins'),
  updateAdmin: route<typeof adminAdminsEndpoints.updateAdmin>('PATCH', '/api/admin/admins/:id'),
} as const;

export const adminLogs = {
  dailySignIns: route<typeof adminLogsEndpoints.dailySignIns>('GET', '/api/admin/logs/activities/daily'),
  listActivities: route<typeof adminLogsEndpoints.listActivities>('GET', '/api/admin/logs/activities'),
  listAudit: route<typeof adminLogsEndpoints.listAudit>('GET', '/api/admin/audit'),
  listErrors: route<typeof adminLogsEndpoints.listErrors>('GET', '/api/admin/logs/errors'),
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
