/**
 * The back office's endpoints as method and path, without their schemas (contract/routes.ts explains why). Apart from
 * contract/routes.ts so that the SPA's entry chunk does not carry them; tests/contract/routes.test.ts checks both.
 */
import { route } from './endpoint';
import type * as adminCatalogEndpoints from './admin/catalog';
import type * as adminServiceAppsEndpoints from './admin/service-apps';
import type * as adminUsersEndpoints from './admin/users';
import type * as adminImportEndpoints from './admin/import';
import type * as adminAdminsEndpoints from './admin/admins';
import type * as adminLogsEndpoints from './admin/logs';

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

export const adminUsers = {
  bulkUsers: route<typeof adminUsersEndpoints.bulkUsers>('POST', '/api/admin/users/bulk'),
  createUser: route<typeof adminUsersEndpoints.createUser>('POST', '/api/admin/users'),
  deleteUser: route<typeof adminUsersEndpoints.deleteUser>('DELETE', '/api/admin/users/:id'),
  endUserSessions: route<typeof adminUsersEndpoints.endUserSessions>('POST', '/api/admin/users/:id/end-sessions'),
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
