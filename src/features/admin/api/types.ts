export type { Role, RoleUsage, Subscription } from '../../../../contract/admin/catalog';
export type { ClientType, SecretAuthMethod, ServiceApp, TokenEndpointAuthMethod } from '../../../../contract/admin/service-apps';
/** Admin API shapes (docs/DESIGN.md §7; server/routes/admin/*.routes.ts). */

export interface ListMeta {
  page: number;
  size: number;
  total: number;
  message?: string;
}

export interface ListResponse<T> {
  data: T[];
  meta: ListMeta;
}

export type AccountStatus = 'ACTIVE' | 'INACTIVE';
export type AuthType = 'CREDENTIALS' | 'SSO';
export type AdminRoleName = 'super_admin' | 'manager';

export interface Account {
  id: string;
  type: 'user' | 'admin';
  email: string;
  first_name: string;
  last_name: string;
  phone: string | null;
  locale: string;
  status: AccountStatus;
  auth_type: AuthType;
  provider: string | null;
  technical: boolean;
  role: AdminRoleName | null;
  avatar_url: string | null;
  email_verified: boolean;
  has_password: boolean;
  two_factor: { enabled: boolean; method: 'GOOGLE' | 'SMS' | null };
  has_api_key: boolean;
  created_by: string | null;
  created_at: string;
  updated_at: string;
}

export interface NamedRef {
  id: string;
  name: string;
}

export interface RoleSubscription {
  subscription: NamedRef;
  roles: NamedRef[];
}

export interface Activity {
  id: string;
  client_id: string | null;
  logged_in_at: string;
  logged_out_at: string | null;
  ip_address: string | null;
  origin: string | null;
}

export interface UserDetail extends Account {
  role_subscriptions?: RoleSubscription[];
  user_authentication_activities?: Activity[];
  latest_activity: Omit<Activity, 'id' | 'client_id'> | null;
  created_by_admin?: { id: string; email: string; first_name: string; last_name: string } | null;
  /** the current API key of a technical user: its public prefix, never the key */
  api_key?: { prefix: string; created_at: string } | null;
  /** API key generations and revocations, newest first */
  api_key_events?: ApiKeyEvent[];
}

export interface ApiKeyEvent {
  id: string;
  event: 'generated' | 'revoked';
  key_prefix: string | null;
  actor_email: string | null;
  created_at: string;
}

export interface ActivityLog {
  id: string;
  account_id: string;
  email: string | null;
  type: string | null;
  client_id: string | null;
  logged_in_at: string;
  logged_out_at: string | null;
  ip_address: string | null;
  origin: string | null;
}

export interface DailyCount {
  day: string;
  count: number;
}

export interface ErrorLog {
  id: string;
  error_code: string;
  status: number;
  method: string;
  url: string;
  message: string;
  user_email: string | null;
  created_at: string;
}

export interface ImportSkipped {
  row: number;
  email: string;
  reason: string;
}

export interface ImportFailed {
  row: number;
  email?: string;
  fields: Record<string, string[]>;
}

export interface ImportReport {
  total: number;
  created: number;
  skipped: ImportSkipped[];
  failed: ImportFailed[];
  dry_run?: boolean;
  /** how the server decoded the file: utf-8, utf-16le, utf-16be or windows-1252 */
  encoding?: string;
}

/** `GET /api/admin/users/import/:id`: progress, then the report once done. */
export interface ImportJob {
  id: string;
  status: 'queued' | 'running' | 'done' | 'failed';
  dry_run: boolean;
  total: number;
  processed: number;
  created: number;
  report: ImportReport | null;
  error: { code: string; message: string } | null;
}
