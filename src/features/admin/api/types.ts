/** Admin API shapes: the contract's (contract/admin/*.ts), inferred from its zod schemas. */
export type { Role, RoleUsage, Subscription } from '../../../../contract/admin/catalog';
export type { ClientType, SecretAuthMethod, ServiceApp, TokenEndpointAuthMethod } from '../../../../contract/admin/service-apps';
export type { ListMeta, AccountView as Account } from '../../../../contract/common';
export type { RoleSubscription, Activity, UserDetail, ApiKeyEvent } from '../../../../contract/admin/users';
export type { AdminRoleName } from '../../../../contract/admin/admins';
export type { ActivityLog, AuditEntry, DailyCount, ErrorLog } from '../../../../contract/admin/logs';
export type { ImportReport, ImportJob } from '../../../../contract/admin/import';
import type { AccountView } from '../../../../contract/common';

export type AccountStatus = AccountView['status'];
export type AuthType = AccountView['auth_type'];
