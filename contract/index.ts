/**
 * The API contract: every endpoint of the REST API, by area. One module per area; add a new module here so
 * the contract tests (tests/contract) and the route coverage check see it.
 */
import { isEndpoint, type EndpointShape } from './endpoint';
import * as adminCatalog from './admin/catalog';
import * as adminServiceApps from './admin/service-apps';
import * as auth from './auth';
import * as account from './account';
import * as profile from './profile';
import * as system from './system';
import * as adminUsers from './admin/users';
import * as adminImport from './admin/import';
import * as adminAdmins from './admin/admins';
import * as adminLogs from './admin/logs';
import * as sessions from './sessions';
import * as adminSessions from './admin/sessions';
import * as passkeys from './passkeys';

export * from './endpoint';
export * from './errors';
export * as adminCatalog from './admin/catalog';
export * as adminServiceApps from './admin/service-apps';
export * as auth from './auth';
export * as account from './account';
export * as profile from './profile';
export * as system from './system';
export * as adminUsers from './admin/users';
export * as adminImport from './admin/import';
export * as adminAdmins from './admin/admins';
export * as adminLogs from './admin/logs';
export * as sessions from './sessions';
export * as adminSessions from './admin/sessions';
export * as passkeys from './passkeys';

const modules: Record<string, Record<string, unknown>> = { adminCatalog, adminServiceApps, auth, system, account, profile, adminUsers, adminImport, adminAdmins, adminLogs, sessions, adminSessions, passkeys };

/** Every endpoint of the contract, named `<module>.<export>`. */
export function allEndpoints(): Array<{ name: string; endpoint: EndpointShape }> {
  return Object.entries(modules).flatMap(([module, exports]) =>
    Object.entries(exports).flatMap(([name, value]) => (isEndpoint(value) ? [{ name: `${module}.${name}`, endpoint: value }] : [])),
  );
}
